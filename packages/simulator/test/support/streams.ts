import * as http from "node:http"
import { WebSocket } from "ws"

/** Items arriving over time, taken one at a time. */
export class Inbox<A> {
  private readonly items: Array<A> = []
  private readonly waiters: Array<(item: A) => void> = []

  push(item: A): void {
    const waiter = this.waiters.shift()
    if (waiter !== undefined) waiter(item)
    else this.items.push(item)
  }

  /** The next item, or a rejection after `timeout` ms. */
  next(timeout = 2_000): Promise<A> {
    const item = this.items.shift()
    if (item !== undefined) return Promise.resolve(item)
    return new Promise((resolve, reject) => {
      const waiter = (value: A) => {
        clearTimeout(timer)
        resolve(value)
      }
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1)
        reject(new Error(`nothing arrived within ${timeout} ms`))
      }, timeout)
      this.waiters.push(waiter)
    })
  }

  /** What arrived and was not taken yet. */
  get pending(): ReadonlyArray<A> {
    return this.items
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** A chunked HTTP stream read line by line with node:http (to 127.0.0.1 only). */
export interface HttpStream {
  /** Settles when the status line and headers arrive. */
  readonly response: Promise<http.IncomingMessage>
  readonly responded: () => boolean
  /** Each line of the body, without its `\n`. */
  readonly lines: Inbox<string>
  /** Every byte of the body so far. */
  readonly body: () => string
  /** Settles with how the response ended: `"end"` (complete) or `"aborted"` (connection lost). */
  readonly ended: Promise<"end" | "aborted">
  readonly close: () => void
}

export const openHttpStream = (
  url: string,
  path: string,
  options: { readonly method?: string; readonly body?: string } = {}
): HttpStream => {
  const { hostname, port } = new URL(url)
  if (hostname !== "127.0.0.1") throw new Error("tests only talk to 127.0.0.1")
  const lines = new Inbox<string>()
  let text = ""
  let partial = ""
  let responded = false
  let settleEnd: (how: "end" | "aborted") => void = () => {}
  const ended = new Promise<"end" | "aborted">((resolve) => {
    settleEnd = resolve
  })
  let req: http.ClientRequest | undefined
  const response = new Promise<http.IncomingMessage>((resolve, reject) => {
    // a GET body goes out only with its length
    const headers = options.body === undefined ? {} : { "Content-Length": String(Buffer.byteLength(options.body)) }
    req = http.request(
      { host: hostname, port, path, method: options.method ?? "GET", headers, agent: false },
      (res) => {
        responded = true
        resolve(res)
        res.setEncoding("utf8")
        res.on("data", (chunk: string) => {
          text += chunk
          partial += chunk
          let nl = partial.indexOf("\n")
          while (nl !== -1) {
            lines.push(partial.slice(0, nl))
            partial = partial.slice(nl + 1)
            nl = partial.indexOf("\n")
          }
        })
        res.on("end", () => settleEnd("end"))
        res.on("aborted", () => settleEnd("aborted"))
        res.on("error", () => settleEnd("aborted"))
        res.on("close", () => settleEnd("aborted"))
      }
    )
    req.on("error", (error) => {
      settleEnd("aborted")
      reject(error)
    })
    req.end(options.body)
  })
  response.catch(() => {})
  return {
    response,
    responded: () => responded,
    lines,
    body: () => text,
    ended,
    close: () => req?.destroy()
  }
}

/** A WebSocket client (ws) recording the text frames it receives. */
export interface SocketClient {
  readonly ws: WebSocket
  readonly frames: Inbox<string>
  /** Settles when the connection closes, with the close code the client saw. */
  readonly closed: Promise<number>
  readonly send: (text: string) => void
}

export const connect = (url: string, path: string, protocols?: ReadonlyArray<string>): Promise<SocketClient> =>
  new Promise((resolve, reject) => {
    const { hostname } = new URL(url)
    if (hostname !== "127.0.0.1") throw new Error("tests only talk to 127.0.0.1")
    const ws = new WebSocket(
      `ws://${url.slice("http://".length)}${path}`,
      protocols === undefined ? [] : [...protocols]
    )
    const frames = new Inbox<string>()
    ws.on("message", (data: Buffer, isBinary: boolean) => {
      if (!isBinary) frames.push(data.toString("utf8"))
    })
    const closed = new Promise<number>((done) => ws.on("close", (code: number) => done(code)))
    ws.on("error", reject)
    ws.on("open", () => resolve({ ws, frames, closed, send: (text) => ws.send(text) }))
  })

/** What `promise` resolves with, or `"timeout"` when it takes longer than `ms`. */
export const within = <A>(promise: Promise<A>, ms: number): Promise<A | "timeout"> =>
  Promise.race([promise, sleep(ms).then(() => "timeout" as const)])
