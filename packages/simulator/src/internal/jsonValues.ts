/**
 * The client's side of a bidirectional stream as grpc-gateway reads it: a `json.Decoder` over the
 * request body, giving one JSON value after another. Over a WebSocket the body is the client's
 * frames, each followed by `\n` (tmc/grpc-websocket-proxy writes them into the request body that
 * way), so one frame usually holds one value; over plain HTTP it is the request body.
 */
import { scanJsonBody } from "./gatewayJson.js"

/** What the decoder gives next: a value, a syntax error (Go's text), or the end of the body. */
export type JsonItem =
  | { readonly _tag: "Value"; readonly value: unknown }
  | { readonly _tag: "Error"; readonly message: string }
  | { readonly _tag: "End" }

const isBlank = (buf: Buffer): boolean => {
  for (const c of buf) if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false
  return true
}

/**
 * Decodes JSON values from chunks of bytes as they arrive. `onItem` is called for each complete
 * value, then once with an `Error` (after which nothing more is decoded) or with `End`.
 */
export const makeJsonValues = (
  onItem: (item: JsonItem) => void
): { readonly push: (chunk: Uint8Array) => void; readonly end: () => void } => {
  let buffer: Buffer = Buffer.alloc(0)
  let done = false

  const drain = (atEnd: boolean): void => {
    while (!done) {
      if (isBlank(buffer)) {
        buffer = Buffer.alloc(0)
        return
      }
      const scan = scanJsonBody(buffer)
      if (scan._tag === "Value") {
        const text = buffer.toString("utf8", 0, scan.end)
        buffer = buffer.subarray(scan.end)
        let value: unknown
        try {
          value = JSON.parse(text)
        } catch (error) {
          done = true
          onItem({ _tag: "Error", message: String(error) })
          return
        }
        onItem({ _tag: "Value", value })
        continue
      }
      if (scan._tag === "Error") {
        // an incomplete value waits for more bytes; at the end of the body it is an error
        if (scan.message === "unexpected EOF" && !atEnd) return
        done = true
        onItem({ _tag: "Error", message: scan.message })
      }
      return
    }
  }

  return {
    push: (chunk) => {
      if (done) return
      buffer = buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([buffer, chunk])
      drain(false)
    },
    end: () => {
      if (done) return
      drain(true)
      if (done) return
      done = true
      onItem({ _tag: "End" })
    }
  }
}
