/**
 * The node's stateless validation of submitted commands (vega `commands/*.go`, run by
 * `CheckInputData` before a transaction reaches the mempool), with the node's exact wording.
 *
 * Errors are collected per property (proto snake_case paths prefixed with the command name, e.g.
 * `order_submission.market_id`); the node's error string lists each property as
 * `<property> (<err>[, <err>])`, its errors in the order they were found, the properties sorted and
 * joined by `, `.
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type * as Commands from "./Commands.js"
import * as checks from "./internal/commands/checks.js"
import { type ErrorMap, ErrorsBuilder, formatErrors } from "./internal/commands/errors.js"
import { messages } from "./internal/commands/messages.js"

/**
 * The wordings the node uses, e.g. `ErrorMessages.isRequired === "is required"`.
 *
 * @since 0.1.0
 * @category Constants
 */
export const ErrorMessages: typeof messages = messages

/**
 * The longest `reference` of an order, a transfer or a liquidity provision, in UTF-8 bytes.
 *
 * @since 0.1.0
 * @category Constants
 */
export const REFERENCE_MAX_LENGTH: number = checks.REFERENCE_MAX_LENGTH

/**
 * The largest order size the node accepts (`math.MaxInt64 / 2`).
 *
 * @since 0.1.0
 * @category Constants
 */
export const MAX_ORDER_SIZE: bigint = checks.MAX_ORDER_SIZE

/**
 * Property → error messages, each list in the order the node adds them.
 *
 * @since 0.1.0
 * @category Models
 */
export type ValidationErrors = ErrorMap

/**
 * Formats errors exactly as the node does: `a.b (e1, e2), a.c (e3)` with the `property (...)`
 * strings sorted.
 *
 * @since 0.1.0
 * @category Formatting
 */
export const format: (errors: ValidationErrors) => string = formatErrors

/**
 * A command that the node would reject before it reaches the mempool. `message` is the node's own
 * error string (the `data` of a code-60 CheckTx response).
 *
 * @since 0.1.0
 * @category Errors
 */
export class CommandValidationError extends Schema.TaggedError<CommandValidationError>(
  "@vega-effect/schema/CommandValidationError"
)("CommandValidationError", {
  errors: Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) })
}) {
  override get message(): string {
    return formatErrors(this.errors)
  }
}

type Check<A> = (errors: ErrorsBuilder, value: A | undefined) => void

const run = <A>(check: Check<A>, value: A): ValidationErrors => {
  const errors = new ErrorsBuilder()
  check(errors, value)
  return errors.toMap()
}

const validator =
  <A>(check: Check<A>) =>
  (value: A): Either.Either<A, CommandValidationError> => {
    const errors = new ErrorsBuilder()
    check(errors, value)
    return errors.isEmpty ? Either.right(value) : Either.left(new CommandValidationError({ errors: errors.toMap() }))
  }

// A top-level order cancellation is not validated by CheckInputData.
const noCheck: Check<unknown> = () => {}

const commandChecks: { readonly [K in Commands.CommandName]: Check<Commands.CommandValues[K]> } = {
  orderSubmission: checks.checkOrderSubmission,
  orderCancellation: noCheck,
  orderAmendment: checks.checkOrderAmendment,
  withdrawSubmission: checks.checkWithdrawSubmission,
  voteSubmission: checks.checkVoteSubmission,
  liquidityProvisionSubmission: checks.checkLiquidityProvisionSubmission,
  delegateSubmission: checks.checkDelegateSubmission,
  undelegateSubmission: checks.checkUndelegateSubmission,
  liquidityProvisionCancellation: checks.checkLiquidityProvisionCancellation,
  liquidityProvisionAmendment: checks.checkLiquidityProvisionAmendment,
  transfer: checks.checkTransfer,
  cancelTransfer: checks.checkCancelTransfer,
  batchMarketInstructions: checks.checkBatchMarketInstructions,
  stopOrdersSubmission: checks.checkStopOrdersSubmission,
  stopOrdersCancellation: checks.checkStopOrdersCancellation,
  createReferralSet: checks.checkCreateReferralSet,
  updateReferralSet: checks.checkUpdateReferralSet,
  applyReferralCode: checks.checkApplyReferralCode,
  updateMarginMode: checks.checkUpdateMarginMode,
  joinTeam: checks.checkJoinTeam,
  updatePartyProfile: checks.checkUpdatePartyProfile
}

const checkCommand = (errors: ErrorsBuilder, command: Commands.Command | undefined): void => {
  if (command === undefined) return
  ;(commandChecks[command._tag] as Check<unknown>)(errors, command.value)
}

/**
 * The node's errors for a command, empty when it is valid.
 *
 * @since 0.1.0
 * @category Validation
 */
export const check = (command: Commands.Command): ValidationErrors => run(checkCommand, command)

/**
 * Validates a command the way `CheckInputData` does. A top-level `orderCancellation` is always
 * valid here: the node does not check it (see {@link validateOrderCancellation}).
 *
 * @since 0.1.0
 * @category Validation
 */
export const validate: (command: Commands.Command) => Either.Either<Commands.Command, CommandValidationError> =
  validator(checkCommand)

/**
 * Validates the parts of `InputData` that `CheckInputData` checks: `nonce` must not be 0 and a
 * command must be present and valid.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateInputData = <
  A extends { readonly nonce: bigint; readonly command?: Commands.Command | undefined }
>(
  inputData: A
): Either.Either<A, CommandValidationError> =>
  validator<A>((errors, input) => {
    if (input === undefined) return
    if (input.nonce === 0n) errors.add("tx.input_data.nonce", messages.mustBePositive)
    if (input.command === undefined) errors.add("tx.input_data.command", messages.isRequired)
    else checkCommand(errors, input.command)
  })(inputData)

/**
 * The node's stateless check of a `OrderSubmission`: the value when it is valid, or a
 * `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateOrderSubmission = validator(checks.checkOrderSubmission)
/**
 * The check of vega `commands/order_cancellation.go` (ids, when set, must be Vega ids; an order id
 * needs a market id). The node does not run it for a top-level cancellation, so {@link validate}
 * does not either.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateOrderCancellation = validator(checks.checkOrderCancellation)
/**
 * The node's stateless check of a `OrderAmendment`: the value when it is valid, or a
 * `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateOrderAmendment = validator(checks.checkOrderAmendment)
/**
 * The node's stateless check of a `WithdrawSubmission`: the value when it is valid, or a
 * `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateWithdrawSubmission = validator(checks.checkWithdrawSubmission)
/**
 * The node's stateless check of a `VoteSubmission`: the value when it is valid, or a
 * `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateVoteSubmission = validator(checks.checkVoteSubmission)
/**
 * The node's stateless check of a `LiquidityProvisionSubmission`: the value when it is valid, or a
 * `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateLiquidityProvisionSubmission = validator(checks.checkLiquidityProvisionSubmission)
/**
 * The node's stateless check of a `DelegateSubmission`: the value when it is valid, or a
 * `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateDelegateSubmission = validator(checks.checkDelegateSubmission)
/**
 * The node's stateless check of a `UndelegateSubmission`: the value when it is valid, or a
 * `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateUndelegateSubmission = validator(checks.checkUndelegateSubmission)
/**
 * The node's stateless check of a `LiquidityProvisionCancellation`: the value when it is valid, or
 * a `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateLiquidityProvisionCancellation = validator(checks.checkLiquidityProvisionCancellation)
/**
 * The node's stateless check of a `LiquidityProvisionAmendment`: the value when it is valid, or a
 * `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateLiquidityProvisionAmendment = validator(checks.checkLiquidityProvisionAmendment)
/**
 * The node's stateless check of a `Transfer`: the value when it is valid, or a
 * `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateTransfer = validator(checks.checkTransfer)
/**
 * The node's stateless check of a `CancelTransfer`: the value when it is valid, or a
 * `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateCancelTransfer = validator(checks.checkCancelTransfer)
/**
 * Only checks that the batch is not empty, as `CheckInputData` does; the node checks each
 * instruction when it processes the batch.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateBatchMarketInstructions = validator(checks.checkBatchMarketInstructions)
/**
 * The node's stateless check of a `StopOrdersSubmission`: the value when it is valid, or a
 * `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateStopOrdersSubmission = validator(checks.checkStopOrdersSubmission)
/**
 * The node's stateless check of a `StopOrdersCancellation`: the value when it is valid, or a
 * `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateStopOrdersCancellation = validator(checks.checkStopOrdersCancellation)
/**
 * The node's stateless check of a `CreateReferralSet`: the value when it is valid, or a
 * `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateCreateReferralSet = validator(checks.checkCreateReferralSet)
/**
 * The node's stateless check of a `UpdateReferralSet`: the value when it is valid, or a
 * `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateUpdateReferralSet = validator(checks.checkUpdateReferralSet)
/**
 * The node's stateless check of a `ApplyReferralCode`: the value when it is valid, or a
 * `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateApplyReferralCode = validator(checks.checkApplyReferralCode)
/**
 * The node's stateless check of a `UpdateMarginMode`: the value when it is valid, or a
 * `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateUpdateMarginMode = validator(checks.checkUpdateMarginMode)
/**
 * The node's stateless check of a `JoinTeam`: the value when it is valid, or a
 * `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateJoinTeam = validator(checks.checkJoinTeam)
/**
 * The node's stateless check of a `UpdatePartyProfile`: the value when it is valid, or a
 * `CommandValidationError` with the node's messages.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validateUpdatePartyProfile = validator(checks.checkUpdatePartyProfile)
