/**
 * One POST of a signed transaction to one node, and what its answer proves.
 *
 * The answer is sorted by what it says about the transaction: accepted, rejected (with the node's
 * code and text), already in the mempool cache, refused as a request, provably not delivered (no
 * connection was made, or the gateway turned the request away before the node saw it), or unknown
 * (the request may have reached the node: a timeout, a connection reset, a 5xx).
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type { DataNodeClient } from "@vega-effect/http"
import { DataNodeApi, GatewayError, Transaction } from "@vega-effect/schema"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"

/** A signed transaction ready to send: its Go-order bytes give the same hash on every endpoint. */
export interface Signed {
  readonly transaction: Transaction.Transaction
  readonly bytes: Uint8Array
  /** Lowercase hex SHA-256 of `bytes`. */
  readonly txHash: string
  /** The block height its proof of work refers to. */
  readonly powHeight: bigint
  /**
   * hex(SHA3-256(signature bytes)): the id the node gives an order this transaction submits, and
   * the seed of the other ids it creates.
   */
  readonly deterministicId: string
}

/** The submission modes: `POST /transaction`, or `/transaction/raw` without or with waiting for the block. */
export const MODES = ["sync", "async", "commit"] as const

export type Mode = (typeof MODES)[number]

export type Answer =
  | { readonly _tag: "Accepted"; readonly node: string; readonly height: bigint; readonly gasWanted: bigint }
  | { readonly _tag: "Rejected"; readonly node: string; readonly code: number; readonly message: string }
  | { readonly _tag: "InCache"; readonly node: string }
  | { readonly _tag: "Refused"; readonly node: string; readonly status: number; readonly message: string }
  | { readonly _tag: "NotSent"; readonly node: string; readonly description: string }
  | { readonly _tag: "Unknown"; readonly node: string; readonly description: string }

/** Socket errors raised before a connection exists: the request cannot have reached the node. */
const NOT_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"])

const notConnected = (cause: unknown): boolean => {
  for (let c = cause, depth = 0; c !== undefined && c !== null && depth < 8; depth++) {
    const code = (c as { code?: unknown }).code
    if (typeof code === "string" && NOT_CONNECTED.has(code)) return true
    // AggregateError from happy-eyeballs connects
    const errors = (c as { errors?: unknown }).errors
    if (Array.isArray(errors) && errors.length > 0 && errors.every(notConnected)) return true
    c = (c as { cause?: unknown }).cause
  }
  return false
}

const encodeSubmit = Schema.encodeSync(Transaction.SubmitTransactionRequest)
const encodeRaw = Schema.encodeSync(Transaction.SubmitRawTransactionRequest)
const encodeCheck = Schema.encodeSync(Transaction.CheckTransactionRequest)
const decodeSubmitResponse = Schema.decodeUnknownEither(Transaction.SubmitTransactionResponse)
const decodeCheckResponse = Schema.decodeUnknownEither(Transaction.CheckTransactionResponse)
const decodeErrorBody = Schema.decodeUnknownEither(GatewayError.ErrorBody)

/** `/transaction/raw` writes `data` as uppercase hex of the text. */
const fromHex = (data: string): string =>
  /^(?:[0-9A-Fa-f]{2})*$/.test(data) && data !== "" ? Buffer.from(data, "hex").toString("utf8") : data

/** The node's text for a transaction already in CometBFT's mempool cache. */
export const IN_CACHE = "tx already exists in cache"

const interpret = (node: string, status: number, text: string, raw: boolean, check: boolean): Answer => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  if (status === 200) {
    if (check) {
      const decoded = decodeCheckResponse(json)
      if (Either.isLeft(decoded))
        return { _tag: "Unknown", node, description: `unexpected answer: ${text.slice(0, 120)}` }
      const r = decoded.right
      return r.code === 0
        ? { _tag: "Accepted", node, height: 0n, gasWanted: r.gasWanted }
        : { _tag: "Rejected", node, code: r.code, message: r.data || r.log || r.info }
    }
    const decoded = decodeSubmitResponse(json)
    if (Either.isLeft(decoded))
      return { _tag: "Unknown", node, description: `unexpected answer: ${text.slice(0, 120)}` }
    const r = decoded.right
    const message = raw ? fromHex(r.data) : r.data
    return r.code === 0
      ? { _tag: "Accepted", node, height: r.height, gasWanted: 0n }
      : { _tag: "Rejected", node, code: r.code, message: message || r.log }
  }
  const body = json === undefined ? undefined : Either.getOrUndefined(decodeErrorBody(json))
  // the handler's own text sits in the Vega error detail; the top-level message is generic
  const detail = body === undefined ? undefined : GatewayError.vegaErrorDetail(body)
  const message =
    body === undefined
      ? text.slice(0, 200)
      : [body.message, detail?.message, detail?.inner].filter((m) => m !== undefined && m !== "").join(": ")
  if (status === 500 && message.includes(IN_CACHE)) return { _tag: "InCache", node }
  // turned away by the gateway's rate limiter or a ban: the node never saw it
  if (status === 429 || status === 403) return { _tag: "NotSent", node, description: `HTTP ${status}: ${message}` }
  if (status >= 400 && status < 500 && status !== 408) return { _tag: "Refused", node, status, message }
  return { _tag: "Unknown", node, description: `HTTP ${status}: ${message}` }
}

/**
 * Sends `signed` in `mode` (or checks it when `mode` is `"check"`) through the client's transport
 * (its node choice and pacing, never a retry); never fails.
 */
export const post = (
  execute: DataNodeClient.Service["execute"],
  signed: Signed,
  mode: Mode | "check",
  timeout: Duration.Duration
): Effect.Effect<Answer> => {
  const raw = mode === "async" || mode === "commit"
  const [path, body] =
    mode === "check"
      ? [DataNodeApi.CheckTransaction.path, encodeCheck({ tx: signed.transaction })]
      : raw
        ? [
            DataNodeApi.SubmitRawTransaction.path,
            encodeRaw({ tx: signed.bytes, type: mode === "async" ? "TYPE_ASYNC" : "TYPE_COMMIT" })
          ]
        : [DataNodeApi.SubmitTransaction.path, encodeSubmit({ tx: signed.transaction, type: "TYPE_SYNC" })]
  const request = HttpClientRequest.post(path).pipe(HttpClientRequest.bodyUnsafeJson(body))
  return execute(request, { timeout }).pipe(
    Effect.map((sent) => interpret(sent.node, sent.status, sent.text, raw, mode === "check")),
    Effect.catchAll((error) =>
      Effect.succeed<Answer>(
        error._tag === "TimeoutError"
          ? { _tag: "Unknown", node: error.node, description: `no answer within ${Duration.format(timeout)}` }
          : notConnected(error.cause)
            ? { _tag: "NotSent", node: error.node, description: error.message }
            : { _tag: "Unknown", node: error.node, description: error.message }
      )
    )
  )
}
