/**
 * Request bodies as the gateway reads them: the JSON body of a unary call (Go's `json.Decoder`
 * errors, an empty body as `{}`), and the stream of JSON values a bidirectional stream reads. Over
 * a WebSocket the body is the client's frames.
 */
import { scanJsonBody } from "../gatewayJson.js"
import { type JsonItem, makeJsonValues } from "../jsonValues.js"
import type { Exchange } from "./exchange.js"

/** Where a unary body goes: the decoded value, or the decoder's error text. */
export interface BodyReader {
  readonly onBody: (body: unknown) => void
  readonly onInvalid: (message: string) => void
}

/** Reads a complete HTTP request body and decodes its first JSON value. */
const readHttpBody = (x: Exchange, res: { readonly destroy: () => void }, reader: BodyReader): void => {
  const chunks: Array<Buffer> = []
  x.req.on("data", (chunk: Buffer) => chunks.push(chunk))
  x.req.on("error", () => res.destroy())
  x.req.on("end", () => {
    const buffer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
    const scan = scanJsonBody(buffer)
    if (scan._tag === "Error") return reader.onInvalid(scan.message)
    let body: unknown = {}
    if (scan._tag === "Value") {
      try {
        body = JSON.parse(buffer.toString("utf8", 0, scan.end)) ?? {}
      } catch (error) {
        return reader.onInvalid(String(error))
      }
    }
    reader.onBody(body)
  })
}

/** Reads the JSON body of a unary call: the generated code decodes the first value. */
export const readJsonBody = (x: Exchange, reader: BodyReader): void => {
  const transport = x.transport
  if (transport._tag === "Http") return readHttpBody(x, transport.res, reader)
  // the request body is the client's frames
  let read = false
  transport.socket.read((item) => {
    if (read) return
    read = true
    if (item._tag === "Error") return reader.onInvalid(item.message)
    reader.onBody(item._tag === "Value" ? (item.value ?? {}) : {})
  })
}

/** The request body as JSON values, one after another: the client's frames over a WebSocket. */
export const readJsonItems = (x: Exchange, onItem: (item: JsonItem) => void): void => {
  const transport = x.transport
  if (transport._tag === "WebSocket") return transport.socket.read(onItem)
  const values = makeJsonValues(onItem)
  x.req.on("data", (chunk: Buffer) => values.push(chunk))
  x.req.on("end", () => values.end())
}

/** The request does not read its body (a server stream, a call without one). */
export const ignoreBody = (x: Exchange): void => {
  const transport = x.transport
  if (transport._tag === "Http") x.req.resume()
  else transport.socket.ignore()
}
