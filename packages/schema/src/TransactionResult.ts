/**
 * `vega.events.v1.TransactionResult`: what became of a transaction once a block included it. Only
 * transactions that reach a block produce one; mempool rejections are only in the submit response.
 *
 * The REST form ({@link TransactionResult}) writes every field and enums as names; the stream form
 * ({@link TransactionResultStream}, used by `/api/v2/stream/transaction-results` and the event bus)
 * writes enums as numbers and omits defaults, so a failed result has no `status` key.
 *
 * @since 0.1.0
 */
import * as Arbitrary from "effect/Arbitrary"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Commands from "./Commands.js"
import * as Enum from "./Enum.js"
import { PartyId } from "./Ids.js"
import { oneof, Opaque, optional } from "./internal/proto.js"
import * as StreamForm from "./StreamForm.js"
import { TxHash } from "./Transaction.js"

/**
 * `vega.events.v1.TransactionResult.Status`
 *
 * @since 0.1.0
 * @category Enums
 */
export const TransactionResultStatus = Enum.make("vega.events.v1.TransactionResult.Status", {
  STATUS_UNSPECIFIED: 0,
  STATUS_SUCCESS: 1,
  STATUS_PARTIAL_SUCCESS: 2,
  STATUS_FAILURE: 3
})
/**
 * The values of the `TransactionResultStatus` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type TransactionResultStatus = Enum.Type<typeof TransactionResultStatus>

/**
 * Errors keyed by property, used when the failure is a keyed error map.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const KeyErrors = Schema.Struct({
  key: Schema.String,
  errors: Schema.Array(Schema.String)
}).annotations({ identifier: "KeyErrors" })

/**
 * `failure`: `errors` (sorted by key) when the error was a keyed map, `error` otherwise. `errors`
 * exists from v0.76 on; a v0.75 node sends `error` only. The stream form leaves an empty `errors`
 * out, so it decodes to an absent one.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Failure = Schema.Struct({
  error: Schema.String,
  errors: optional(Schema.Array(KeyErrors))
}).annotations({
  // generated failures have no empty `errors`, which the stream form could not tell from an absent one
  arbitrary: () => (fc) =>
    fc.record(
      { error: fc.string(), errors: fc.array(Arbitrary.make(KeyErrors), { minLength: 1, maxLength: 3 }) },
      { requiredKeys: ["error"] }
    ),
  identifier: "TransactionResult.FailureDetails"
})
/**
 * The decoded form of the `Failure` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Failure = typeof Failure.Type

/**
 * The details of a successful transaction: an empty message.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Success = Schema.Struct({}).annotations({ identifier: "TransactionResult.SuccessDetails" })

/**
 * The `transaction` oneof members, by field number. Commands this package models are typed; the
 * others (proposals, validator and AMM commands) are kept as received.
 */
const echoMembers = {
  orderSubmission: optional(Commands.OrderSubmission),
  orderAmendment: optional(Commands.OrderAmendment),
  orderCancellation: optional(Commands.OrderCancellation),
  proposal: optional(Opaque),
  voteSubmission: optional(Commands.VoteSubmission),
  liquidityProvisionSubmission: optional(Commands.LiquidityProvisionSubmission),
  withdrawSubmission: optional(Commands.WithdrawSubmission),
  delegateSubmission: optional(Commands.DelegateSubmission),
  undelegateSubmission: optional(Commands.UndelegateSubmission),
  liquidityProvisionCancellation: optional(Commands.LiquidityProvisionCancellation),
  liquidityProvisionAmendment: optional(Commands.LiquidityProvisionAmendment),
  transfer: optional(Commands.Transfer),
  cancelTransfer: optional(Commands.CancelTransfer),
  announceNode: optional(Opaque),
  oracleDataSubmission: optional(Opaque),
  protocolUpgradeProposal: optional(Opaque),
  issueSignatures: optional(Opaque),
  batchMarketInstructions: optional(Commands.BatchMarketInstructions),
  keyRotateSubmission: optional(Opaque),
  ethereumKeyRotateSubmission: optional(Opaque),
  stopOrdersSubmission: optional(Commands.StopOrdersSubmission),
  stopOrdersCancellation: optional(Commands.StopOrdersCancellation),
  // the same two members (fields 121 and 122) under their v0.75 names, renamed in v0.76
  stopOrderSubmission: optional(Commands.StopOrdersSubmission),
  stopOrderCancellation: optional(Commands.StopOrdersCancellation),
  createReferralSet: optional(Commands.CreateReferralSet),
  updateReferralSet: optional(Commands.UpdateReferralSet),
  applyReferralCode: optional(Commands.ApplyReferralCode),
  updateMarginMode: optional(Commands.UpdateMarginMode),
  joinTeam: optional(Commands.JoinTeam),
  batchProposal: optional(Opaque),
  updatePartyProfile: optional(Commands.UpdatePartyProfile),
  submitAmm: optional(Opaque),
  amendAmm: optional(Opaque),
  cancelAmm: optional(Opaque)
}

const echoNames = Object.keys(echoMembers) as ReadonlyArray<keyof typeof echoMembers>

/**
 * A transaction result in REST form, fields in the node's order: `partyId` (the submitter's key),
 * `status` (true on success), `hash` (lowercase hex, unlike the submit response), `statusDetail`
 * (v0.76 and later), the echo of the command under its JSON name, then `success` or `failure`.
 *
 * A stop order's echo is `stopOrdersSubmission` / `stopOrdersCancellation` from v0.76 on and
 * `stopOrderSubmission` / `stopOrderCancellation` on v0.75 nodes; both decode, are written back as
 * received, and {@link command} reads either.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const TransactionResult = Schema.Struct({
  partyId: PartyId,
  status: Schema.Boolean,
  hash: TxHash,
  statusDetail: optional(TransactionResultStatus),
  ...echoMembers,
  success: optional(Success),
  failure: optional(Failure)
}).pipe(
  oneof("transaction", echoNames),
  oneof("extra", ["success", "failure"]),
  Schema.annotations({
    identifier: "vega.events.v1.TransactionResult",
    // one command echo and one outcome, as the node writes them (not any subset of the oneofs)
    arbitrary: () => (fc) =>
      fc
        .record({
          partyId: Arbitrary.make(PartyId),
          status: fc.boolean(),
          hash: Arbitrary.make(TxHash),
          statusDetail: Arbitrary.make(TransactionResultStatus),
          command: fc.constantFrom(...Commands.commandNames).chain((name) =>
            Arbitrary.make(Commands.commands[name].schema as Schema.Schema<unknown, unknown>).map((value) => ({
              name,
              value
            }))
          ),
          outcome: fc.oneof(
            fc.constant({ success: {} }),
            Arbitrary.make(Failure).map((failure) => ({ failure }))
          )
        })
        .map(({ command, outcome, ...base }) => ({ ...base, [command.name]: command.value, ...outcome }) as any)
  })
)
/**
 * The decoded form of the `TransactionResult` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type TransactionResult = typeof TransactionResult.Type

/**
 * The stream form: enums as numbers, defaults omitted.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const TransactionResultStream = StreamForm.make(TransactionResult)

/** The echo members a v0.75 node names differently, by their name from v0.76 on. */
const v075Names: Partial<Record<Commands.Command["_tag"], string>> = {
  stopOrdersSubmission: "stopOrderSubmission",
  stopOrdersCancellation: "stopOrderCancellation"
}

/**
 * The command a result echoes, when it is one this package models.
 *
 * @since 0.1.0
 * @category Getters
 */
export const command = (result: TransactionResult): Option.Option<Commands.Command> => {
  const fields = result as Record<string, unknown>
  for (const name of Commands.commandNames) {
    const value = fields[name] ?? fields[v075Names[name] ?? ""]
    if (value !== undefined) return Option.some({ _tag: name, value } as Commands.Command)
  }
  return Option.none()
}

/**
 * The failure text of a result: `failure.error`, or the keyed errors formatted as
 * `key (e1, e2), ...`; `None` when the result succeeded.
 *
 * @since 0.1.0
 * @category Getters
 */
export const failureMessage = (result: TransactionResult): Option.Option<string> => {
  if (result.failure === undefined) return Option.none()
  const { error, errors = [] } = result.failure
  if (error !== "" || errors.length === 0) return Option.some(error)
  return Option.some(errors.map((e) => `${e.key} (${e.errors.join(", ")})`).join(", "))
}

/**
 * A message of `/api/v2/stream/transaction-results` (query `partyIds`, `hashes`, `status`),
 * inside its `{"result":…}` frame.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const ObserveTransactionResultsResponse = StreamForm.make(
  Schema.Struct({ transactionResults: Schema.Array(TransactionResult) }).annotations({
    identifier: "ObserveTransactionResultsResponse"
  })
)
/**
 * The decoded form of the `ObserveTransactionResultsResponse` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type ObserveTransactionResultsResponse = typeof ObserveTransactionResultsResponse.Type
