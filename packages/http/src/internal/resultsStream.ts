/**
 * The transaction-results stream (`/api/v2/stream/transaction-results`): one connection to one
 * node, chunked NDJSON, one `{"result":…}` line per block's results and an `{"error":…}` line
 * when the node ends it.
 */
import * as DataNodeApi from "@vega-effect/schema/DataNodeApi"
import * as StreamForm from "@vega-effect/schema/StreamForm"
import * as TransactionResult from "@vega-effect/schema/TransactionResult"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Errors from "../DataNodeError.js"
import type { Transport } from "./transport.js"

export interface TransactionResultsFilter {
  readonly partyIds?: ReadonlyArray<string>
  readonly hashes?: ReadonlyArray<string>
  readonly status?: boolean
}

const decodeFrame = Schema.decodeUnknownEither(StreamForm.frame(TransactionResult.ObserveTransactionResultsResponse))

/** One line of the stream: its results, or the error frame the node ended the stream with. */
export const frameOf = (
  node: string,
  path: string,
  line: string
): Effect.Effect<ReadonlyArray<TransactionResult.TransactionResult>, Errors.DataNodeError> => {
  let json: unknown
  try {
    json = JSON.parse(line)
  } catch (cause) {
    const description = `a stream message is not JSON: ${line.slice(0, 80)}`
    return Effect.fail(new Errors.TransportError({ node, path, description, cause }))
  }
  const decoded = decodeFrame(json)
  if (Either.isLeft(decoded)) {
    const issue = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)[0]
    return Effect.fail(
      new Errors.DecodeError({
        node,
        path,
        pathInBody: (issue?.path ?? []).map(String).join("."),
        description: issue?.message ?? decoded.left.message,
        excerpt: line.slice(0, 160)
      })
    )
  }
  const frame = decoded.right
  if ("result" in frame) return Effect.succeed(frame.result.transactionResults)
  // the node ends a stream with an error frame (the HTTP status was sent long before)
  const description = `the node ended the stream: ${frame.error.message}`
  return Effect.fail(new Errors.InternalError({ node, path, status: 200, code: frame.error.code, description }))
}

/** The stream's path with its filters; hashes are sent lowercase, as the node compares them. */
export const resultsPath = (filter: TransactionResultsFilter): string => {
  const query = new URLSearchParams()
  for (const party of filter.partyIds ?? []) query.append("partyIds", party)
  for (const hash of filter.hashes ?? []) query.append("hashes", hash.toLowerCase())
  if (filter.status !== undefined) query.append("status", String(filter.status))
  const path = DataNodeApi.ObserveTransactionResults.path
  return query.size === 0 ? path : `${path}?${query}`
}

export const observeTransactionResults = (
  transport: Transport,
  filter: TransactionResultsFilter = {}
): Stream.Stream<TransactionResult.TransactionResult, Errors.DataNodeError> => {
  const path = resultsPath(filter)
  return Stream.unwrapScoped(
    Effect.map(transport.open(path), ({ node, response }) =>
      response.stream.pipe(
        Stream.mapError((cause) => new Errors.TransportError({ node, path, description: "the stream broke", cause })),
        Stream.decodeText(),
        Stream.splitLines,
        Stream.filter((line) => line.trim() !== ""),
        Stream.mapEffect((line) => frameOf(node, path, line)),
        Stream.flattenIterables
      )
    )
  )
}
