/**
 * What can go wrong when submitting a transaction, as values: a rejection carries the node's code
 * and text, and an outcome the submitter could not establish says so instead of guessing.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * Why the node rejected a transaction, from its result code: `Validation` (51: network limits),
 * `Decoding` (60: malformed, invalid command, bad signature or another chain's signature),
 * `CommandCheck` (70: the command's own checks), `UnknownCommand` (80), `Spam` (89: proof of work,
 * replay, block height or spam policy), `Other` (any other code).
 *
 * @since 0.1.0
 * @category Models
 */
export const RejectionReason = Schema.Literal(
  "Validation",
  "Decoding",
  "CommandCheck",
  "UnknownCommand",
  "Spam",
  "Other"
)
/**
 * The decoded form of the `RejectionReason` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type RejectionReason = typeof RejectionReason.Type

/**
 * The reason of a result code.
 *
 * @since 0.1.0
 * @category Models
 */
export const reasonOf = (code: number): RejectionReason => {
  switch (code) {
    case 51:
      return "Validation"
    case 60:
      return "Decoding"
    case 70:
      return "CommandCheck"
    case 80:
      return "UnknownCommand"
    case 89:
      return "Spam"
    default:
      return "Other"
  }
}

/**
 * The node's mempool check rejected the transaction: it will not be included. `message` is the
 * node's text (hex-decoded when the node sent it as hex).
 *
 * @since 0.1.0
 * @category Errors
 */
export class TransactionRejected extends Schema.TaggedError<TransactionRejected>(
  "@vega-effect/submitter/TransactionRejected"
)("TransactionRejected", {
  code: Schema.Number,
  reason: RejectionReason,
  message: Schema.String,
  txHash: Schema.String,
  node: Schema.String
}) {}

/**
 * These exact bytes are already in the node's mempool cache (HTTP 500 `tx already exists in
 * cache`): the same signed transaction was sent before and is waiting for a block.
 *
 * @since 0.1.0
 * @category Errors
 */
export class AlreadyInMempool extends Schema.TaggedError<AlreadyInMempool>("@vega-effect/submitter/AlreadyInMempool")(
  "AlreadyInMempool",
  { txHash: Schema.String, node: Schema.String }
) {
  override get message(): string {
    return `transaction ${this.txHash} is already in the mempool of ${this.node}`
  }
}

/**
 * The node refused the request itself (HTTP 4xx, e.g. `Invalid TX Type`), not the transaction.
 *
 * @since 0.1.0
 * @category Errors
 */
export class RequestRefused extends Schema.TaggedError<RequestRefused>("@vega-effect/submitter/RequestRefused")(
  "RequestRefused",
  { status: Schema.Number, message: Schema.String, node: Schema.String }
) {}

/**
 * The submission may or may not have reached a node, and asking again could not settle it (every
 * node kept failing). The transaction can still be included: watch for `txHash` before building
 * another one.
 *
 * @since 0.1.0
 * @category Errors
 */
export class OutcomeUnknown extends Schema.TaggedError<OutcomeUnknown>("@vega-effect/submitter/OutcomeUnknown")(
  "OutcomeUnknown",
  { txHash: Schema.String, message: Schema.String }
) {}

/**
 * The key is banned by the spam rules until `until` (unix nanoseconds): nothing is sent.
 *
 * @since 0.1.0
 * @category Errors
 */
export class KeyBanned extends Schema.TaggedError<KeyBanned>("@vega-effect/submitter/KeyBanned")("KeyBanned", {
  partyId: Schema.String,
  until: Schema.BigIntFromSelf
}) {
  override get message(): string {
    return `party ${this.partyId} is banned by the spam rules until ${this.until} (unix ns)`
  }
}

/**
 * The node's chain id is not the one the submitter was told to sign for.
 *
 * @since 0.1.0
 * @category Errors
 */
export class ChainMismatch extends Schema.TaggedError<ChainMismatch>("@vega-effect/submitter/ChainMismatch")(
  "ChainMismatch",
  { expected: Schema.String, actual: Schema.String }
) {
  override get message(): string {
    return `the node is on chain ${this.actual}, not ${this.expected}`
  }
}

/**
 * No proof of work could be found within the time budget.
 *
 * @since 0.1.0
 * @category Errors
 */
export class ProofOfWorkFailed extends Schema.TaggedError<ProofOfWorkFailed>(
  "@vega-effect/submitter/ProofOfWorkFailed"
)("ProofOfWorkFailed", { message: Schema.String }) {}

/**
 * The transaction can never be included any more: the block its proof of work refers to has left
 * the window and no result was seen.
 *
 * @since 0.1.0
 * @category Errors
 */
export class TransactionExpired extends Schema.TaggedError<TransactionExpired>(
  "@vega-effect/submitter/TransactionExpired"
)("TransactionExpired", { txHash: Schema.String, blockHeight: Schema.BigIntFromSelf }) {
  override get message(): string {
    return `transaction ${this.txHash} was not included before block ${this.blockHeight} left the proof-of-work window`
  }
}

/**
 * The transaction was included in a block, but its result was not seen (the result stream was
 * down when it came); the node keeps no history to ask for it again.
 *
 * @since 0.1.0
 * @category Errors
 */
export class ResultMissed extends Schema.TaggedError<ResultMissed>("@vega-effect/submitter/ResultMissed")(
  "ResultMissed",
  { txHash: Schema.String }
) {
  override get message(): string {
    return `transaction ${this.txHash} was included, but its result was missed while the result stream was down`
  }
}

/**
 * No result within the wait's time limit; the transaction may still be included later.
 *
 * @since 0.1.0
 * @category Errors
 */
export class ResultTimeout extends Schema.TaggedError<ResultTimeout>("@vega-effect/submitter/ResultTimeout")(
  "ResultTimeout",
  { txHash: Schema.String, timeout: Schema.DurationFromMillis }
) {
  override get message(): string {
    return `no result for transaction ${this.txHash} yet`
  }
}

/**
 * Errors of sending a transaction.
 *
 * @since 0.1.0
 * @category Errors
 */
export type SendError = TransactionRejected | AlreadyInMempool | RequestRefused | OutcomeUnknown

/**
 * Errors of waiting for a result.
 *
 * @since 0.1.0
 * @category Errors
 */
export type WaitError = TransactionExpired | ResultMissed | ResultTimeout
