import * as http from "node:http"
import * as zlib from "node:zlib"

/** A response read byte for byte, headers as node:http gives them. */
export interface RawResponse {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  readonly rawHeaders: ReadonlyArray<string>
  readonly body: Buffer
  /** The body as text, gunzipped when `Content-Encoding: gzip`. */
  readonly text: string
}

/**
 * One request with node:http (no implicit `Accept-Encoding`, unlike `fetch`), to 127.0.0.1 only.
 * The path is sent exactly as given.
 */
export const request = (
  url: string,
  path: string,
  options: { readonly method?: string; readonly headers?: Record<string, string>; readonly body?: string } = {}
): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url)
    if (hostname !== "127.0.0.1") throw new Error("tests only talk to 127.0.0.1")
    const req = http.request(
      { host: hostname, port, path, method: options.method ?? "GET", headers: options.headers ?? {}, agent: false },
      (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (chunk: Buffer) => chunks.push(chunk))
        res.on("error", reject)
        res.on("end", () => {
          const body = Buffer.concat(chunks)
          const text = res.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(body).toString() : body.toString()
          resolve({ status: res.statusCode ?? 0, headers: res.headers, rawHeaders: res.rawHeaders, body, text })
        })
      }
    )
    req.on("error", reject)
    req.end(options.body)
  })
