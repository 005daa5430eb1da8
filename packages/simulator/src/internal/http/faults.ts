/**
 * Where the gateway applies a node's {@link Faults.Faults}: the delay before a request runs, the
 * error or 429 answer that replaces the real one, JSON cut short (`Truncate`) and connections
 * reset in the middle of a body or a stream (`Reset`).
 */
import type * as http from "node:http"
import * as Duration from "effect/Duration"
import type * as Faults from "../../Faults.js"
import type { Exchange } from "./exchange.js"

const NONE: Faults.Decision = { delay: Duration.zero, fault: undefined }

/** The fate of the next API request; nothing when the node injects no faults. */
export const decide = (faults: Faults.Faults | undefined): Faults.Decision => faults?.decide() ?? NONE

/** Runs the request once the decision's delay has passed. */
export const afterDelay = (decision: Faults.Decision, run: () => void): void => {
  const millis = Duration.toMillis(decision.delay)
  if (millis > 0) setTimeout(run, millis)
  else run()
}

/** The answer an `Error` or `RateLimited` fault gives instead of the real one. */
export const replacedAnswer = (
  fault: Faults.Fault | undefined
): Extract<Faults.Fault, { readonly status: number }> | undefined =>
  fault !== undefined && (fault._tag === "Error" || fault._tag === "RateLimited") ? fault : undefined

const halfText = (text: string): string => text.slice(0, Math.floor(text.length / 2))
const halfBytes = (bytes: Buffer): Buffer => bytes.subarray(0, Math.floor(bytes.length / 2))

/** The JSON text as sent: cut to about half under `Truncate`. */
export const truncated = (x: Exchange, text: string): string => (x.fault?._tag === "Truncate" ? halfText(text) : text)

/** Whether the connection is reset in the middle of the answer. */
export const isReset = (x: Exchange): boolean => x.fault?._tag === "Reset"

/** The bytes a WebSocket answer sends: about half under `Reset`. */
export const framedBytes = (x: Exchange, bytes: Buffer): Buffer => (isReset(x) ? halfBytes(bytes) : bytes)

/**
 * Writes about half the body after the status line and headers already written, then destroys
 * the connection (`Reset`). With nothing to write (a HEAD, an empty body) the headers are flushed
 * first.
 */
export const resetMidBody = (x: Exchange, res: http.ServerResponse, bytes: Buffer): void => {
  const part = halfBytes(bytes)
  if (x.req.method === "HEAD" || part.length === 0) {
    res.flushHeaders()
    setImmediate(() => res.destroy())
  } else {
    res.write(part, () => res.destroy())
  }
}

/** How a fault cuts a stream: its first frame is half sent, then the connection resets or ends. */
export type StreamCut = "Reset" | "Truncate"

/** The cut a stream gets from the request's fault, if any. */
export const streamCut = (x: Exchange): StreamCut | undefined =>
  x.fault?._tag === "Reset" || x.fault?._tag === "Truncate" ? x.fault._tag : undefined

/** The part of a frame a cut stream sends. */
export const cutFrame = (frame: string): string => halfText(frame)
