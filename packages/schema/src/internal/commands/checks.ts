/**
 * The node's stateless command checks (vega `commands/*.go`, run by `CheckInputData`), one
 * function per command. Each adds to an {@link ErrorsBuilder} in the order the node does, because
 * several errors of one property are reported in insertion order.
 */
import * as BigDecimal from "effect/BigDecimal"
import type * as C from "../../Commands.js"
import * as Enum from "../../Enum.js"
import { isVegaId } from "../../Ids.js"
import { INT64_MAX } from "../../Integer.js"
import { type ErrorsBuilder, utf8Length } from "./errors.js"
import { messages as m } from "./messages.js"
import { parseGoBigInt, parseGoDecimal } from "./numbers.js"

/** `ReferenceMaxLen` of the order and liquidity commands. */
export const REFERENCE_MAX_LENGTH = 100
/** `math.MaxInt64 / 2`, the largest order size the node accepts. */
export const MAX_ORDER_SIZE = INT64_MAX / 2n
const ZERO_ADDRESS = "0".repeat(64)

const isUnknown = (value: unknown): boolean => Enum.isUnknownEnumValue(value)

// "" → is required, otherwise not 64 hex → should be a valid Vega ID (or public key).
const requiredId = (e: ErrorsBuilder, property: string, value: string, message: string = m.shouldBeAValidVegaId) => {
  if (value.length === 0) e.add(property, m.isRequired)
  else if (!isVegaId(value)) e.add(property, message)
}

const isPersistent = (tif: C.TimeInForce) => tif !== "TIME_IN_FORCE_FOK" && tif !== "TIME_IN_FORCE_IOC"

// -------------------------------------------------------------------------------------------------
// Orders
// -------------------------------------------------------------------------------------------------

export const checkOrderSubmission = (e: ErrorsBuilder, cmd: C.OrderSubmission | undefined): void => {
  if (cmd === undefined) return e.add("order_submission", m.isRequired)

  requiredId(e, "order_submission.market_id", cmd.marketId)

  if (cmd.side === "SIDE_UNSPECIFIED") e.add("order_submission.side", m.isRequired)
  if (isUnknown(cmd.side)) e.add("order_submission.side", m.isNotValid)

  if (cmd.type === "TYPE_UNSPECIFIED") e.add("order_submission.type", m.isRequired)
  if (isUnknown(cmd.type)) e.add("order_submission.type", m.isNotValid)
  if (cmd.type === "TYPE_NETWORK") e.add("order_submission.type", m.isUnauthorised)

  if (cmd.timeInForce === "TIME_IN_FORCE_UNSPECIFIED") e.add("order_submission.time_in_force", m.isRequired)
  if (isUnknown(cmd.timeInForce)) e.add("order_submission.time_in_force", m.isNotValid)

  if (cmd.size <= 0n) e.add("order_submission.size", m.mustBePositive)
  if (cmd.size > MAX_ORDER_SIZE) e.add("order_submission.size", m.sizeIsTooLarge)

  if (utf8Length(cmd.reference) > REFERENCE_MAX_LENGTH) e.add("order_submission.reference", m.referenceTooLong)

  if (cmd.timeInForce === "TIME_IN_FORCE_GTT") {
    if (cmd.expiresAt <= 0n) e.add("order_submission.expires_at", m.mustBePositive)
  } else if (cmd.expiresAt !== 0n) {
    e.add("order_submission.expires_at", m.expiresAtOnlyForGtt)
  }

  if (cmd.type === "TYPE_MARKET") {
    if (cmd.price.length > 0) e.add("order_submission.price", m.priceUnavailableForMarket)
    if (isPersistent(cmd.timeInForce)) e.add("order_submission.time_in_force", m.marketOrderTimeInForce)
  } else if (cmd.type === "TYPE_LIMIT" && cmd.peggedOrder === undefined) {
    if (cmd.price.length === 0) e.add("order_submission.price", m.priceRequiredForLimit)
    else {
      const price = parseGoBigInt(cmd.price)
      if (price === undefined) e.add("order_submission.price", m.notAValidInteger)
      else if (price <= 0n) e.add("order_submission.price", m.pricePositiveForLimit)
    }
  }

  const pegged = cmd.peggedOrder
  if (pegged !== undefined) {
    if (pegged.reference === "PEGGED_REFERENCE_UNSPECIFIED")
      e.add("order_submission.pegged_order.reference", m.isRequired)
    if (isUnknown(pegged.reference)) e.add("order_submission.pegged_order.reference", m.isNotValid)
    if (cmd.type !== "TYPE_LIMIT") e.add("order_submission.type", m.peggedOrderType)
    if (
      cmd.timeInForce !== "TIME_IN_FORCE_GTT" &&
      cmd.timeInForce !== "TIME_IN_FORCE_GTC" &&
      cmd.timeInForce !== "TIME_IN_FORCE_GFN"
    ) {
      e.add("order_submission.time_in_force", m.peggedOrderTimeInForce)
    }
    if (pegged.offset.length === 0) e.add("order_submission.pegged_order.offset", m.isRequired)
    else {
      const offset = parseGoBigInt(pegged.offset)
      if (offset === undefined) e.add("order_submission.pegged_order.offset", m.notAValidInteger)
      else if (pegged.reference === "PEGGED_REFERENCE_MID") {
        if (offset <= 0n) e.add("order_submission.pegged_order.offset", m.mustBePositive)
      } else if (offset < 0n) {
        e.add("order_submission.pegged_order.offset", m.mustBePositiveOrZero)
      }
    }
  }

  if (cmd.postOnly) {
    if (cmd.type !== "TYPE_LIMIT") e.add("order_submission.post_only", m.postOnlyLimitOnly)
    if (!isPersistent(cmd.timeInForce)) e.add("order_submission.post_only", m.postOnlyPersistentOnly)
    if (cmd.reduceOnly) e.add("order_submission.post_only", m.postOnlyWithReduceOnly)
  }

  if (cmd.reduceOnly) {
    if (isPersistent(cmd.timeInForce)) e.add("order_submission.reduce_only", m.reduceOnlyNonPersistentOnly)
    if (pegged !== undefined) e.add("order_submission.reduce_only", m.reduceOnlyNotPegged)
  }

  const iceberg = cmd.icebergOpts
  if (iceberg !== undefined) {
    if (cmd.type !== "TYPE_LIMIT") e.add("order_submission.type", m.icebergLimitOnly)
    if (!isPersistent(cmd.timeInForce)) e.add("order_submission.time_in_force", m.icebergPersistentOnly)
    if (cmd.reduceOnly) e.add("order_submission.reduce_only", m.icebergNotReduceOnly)
    if (iceberg.peakSize <= 0n) e.add("order_submission.iceberg_opts.peak_size", m.mustBePositive)
    if (iceberg.minimumVisibleSize <= 0n) e.add("order_submission.iceberg_opts.minimum_visible_size", m.mustBePositive)
    if (iceberg.peakSize > cmd.size) e.add("order_submission.iceberg_opts.peak_size", m.icebergPeakSizeAboveSize)
    if (iceberg.minimumVisibleSize > iceberg.peakSize) {
      e.add("order_submission.iceberg_opts.minimum_visible_size", m.icebergMinimumVisibleSizeAbovePeakSize)
    }
  }
}

// vega `commands/order_cancellation.go`; CheckInputData does not call it for a top-level cancellation.
export const checkOrderCancellation = (e: ErrorsBuilder, cmd: C.OrderCancellation | undefined): void => {
  if (cmd === undefined) return e.add("order_cancellation", m.isRequired)
  if (cmd.marketId.length > 0 && !isVegaId(cmd.marketId)) e.add("order_cancellation.market_id", m.shouldBeAValidVegaId)
  if (cmd.orderId.length > 0) {
    if (!isVegaId(cmd.orderId)) e.add("order_cancellation.order_id", m.shouldBeAValidVegaId)
    if (cmd.marketId.length === 0) e.add("order_cancellation.market_id", m.isRequired)
  }
}

export const checkOrderAmendment = (e: ErrorsBuilder, cmd: C.OrderAmendment | undefined): void => {
  if (cmd === undefined) return e.add("order_amendment", m.isRequired)
  let isAmending = false

  requiredId(e, "order_amendment.order_id", cmd.orderId)
  requiredId(e, "order_amendment.market_id", cmd.marketId)

  if (cmd.timeInForce === "TIME_IN_FORCE_GFA") e.add("order_amendment.time_in_force", m.cannotAmendToGfa)
  if (cmd.timeInForce === "TIME_IN_FORCE_GFN") e.add("order_amendment.time_in_force", m.cannotAmendToGfn)

  if (cmd.price !== undefined) {
    isAmending = true
    const price = parseGoBigInt(cmd.price)
    if (price === undefined) e.add("order_amendment.price", m.notAValidInteger)
    else if (price <= 0n) e.add("order_amendment.price", m.mustBePositive)
  }

  if (cmd.size !== undefined) {
    isAmending = true
    if (cmd.size <= 0n) e.add("order_amendment.size", m.mustBePositive)
  }

  if (cmd.sizeDelta !== 0n) {
    isAmending = true
    if (cmd.size !== undefined) e.add("order_amendment.size_delta", m.sizeDeltaWithSize)
  }

  if (cmd.expiresAt !== undefined && cmd.expiresAt > 0n) {
    isAmending = true
    if (cmd.timeInForce !== "TIME_IN_FORCE_GTT" && cmd.timeInForce !== "TIME_IN_FORCE_UNSPECIFIED") {
      e.add("order_amendment.expires_at", m.expiresAtOnlyForGtt)
    }
  }

  if (cmd.timeInForce === "TIME_IN_FORCE_GTT" && cmd.expiresAt === undefined) {
    e.add("order_amendment.time_in_force", m.gttOrderWithNoExpiry)
  }

  if (cmd.timeInForce !== "TIME_IN_FORCE_UNSPECIFIED") {
    isAmending = true
    if (isUnknown(cmd.timeInForce)) e.add("order_amendment.time_in_force", m.isNotValid)
  }

  if (cmd.peggedReference !== "PEGGED_REFERENCE_UNSPECIFIED") {
    isAmending = true
    if (isUnknown(cmd.peggedReference)) e.add("order_amendment.pegged_reference", m.isNotValid)
  }

  if (cmd.peggedOffset.length > 0) {
    isAmending = true
    if (parseGoBigInt(cmd.peggedOffset) === undefined) e.add("order_amendment.pegged_offset", m.notAValidInteger)
  }

  if (!isAmending) e.add("*", m.amendsNothing)
}

// -------------------------------------------------------------------------------------------------
// Stop orders, margin mode, batches
// -------------------------------------------------------------------------------------------------

const checkStopOrderSetup = (e: ErrorsBuilder, property: string, setup: C.StopOrderSetup): void => {
  // The inner order is checked as a plain order submission (its errors carry no stop-order prefix).
  checkOrderSubmission(e, setup.orderSubmission)
  if (setup.orderSubmission !== undefined && !setup.orderSubmission.reduceOnly) {
    e.add(`${property}.order_submission.reduce_only`, m.mustBeReduceOnly)
  }

  if (setup.expiresAt !== undefined) {
    if (setup.expiresAt <= 0n) e.add(`${property}.expires_at`, m.mustBePositive)
    if (setup.expiryStrategy === undefined) e.add(`${property}.expiry_strategy`, m.expiryStrategyRequired)
    else if (isUnknown(setup.expiryStrategy)) e.add(`${property}.expiry_strategy`, m.isNotValid)
  }

  if (setup.price !== undefined) {
    const path = `${property}.trigger.price`
    if (setup.price.length === 0) e.add(path, m.isRequired)
    else {
      const price = parseGoBigInt(setup.price)
      if (price === undefined) e.add(path, m.notAValidInteger)
      else if (price <= 0n) e.add(path, m.mustBePositive)
    }
  } else if (setup.trailingPercentOffset !== undefined) {
    const path = `${property}.trigger.trailing_percent_offset`
    if (setup.trailingPercentOffset.length === 0) e.add(path, m.isRequired)
    else {
      const offset = parseGoDecimal(setup.trailingPercentOffset)
      if (offset === undefined) e.add(path, m.notAValidFloat)
      else if (!BigDecimal.isPositive(offset) || BigDecimal.greaterThan(offset, BigDecimal.fromBigInt(1n))) {
        e.add(path, m.mustBeBetween01)
      } else if (BigDecimal.lessThan(offset, BigDecimal.make(1n, 3))) {
        e.add(path, m.trailingPercentOffsetMinimalIncrement)
      }
    }
  } else {
    e.add(`${property}.trigger`, m.mustHaveStopOrderTrigger)
  }
}

export const checkStopOrdersSubmission = (e: ErrorsBuilder, cmd: C.StopOrdersSubmission | undefined): void => {
  if (cmd === undefined) return e.add("stop_orders_submission", m.isRequired)
  if (cmd.risesAbove === undefined && cmd.fallsBelow === undefined) return e.add("*", m.mustHaveRisesAboveOrFallsBelow)
  if (cmd.fallsBelow !== undefined) checkStopOrderSetup(e, "stop_orders_submission.falls_below", cmd.fallsBelow)
  if (cmd.risesAbove !== undefined) checkStopOrderSetup(e, "stop_orders_submission.rises_above", cmd.risesAbove)
  if (
    cmd.fallsBelow?.orderSubmission !== undefined &&
    cmd.risesAbove?.orderSubmission !== undefined &&
    cmd.fallsBelow.orderSubmission.marketId !== cmd.risesAbove.orderSubmission.marketId
  ) {
    e.add("stop_orders_submission", m.ocoMarketsDiffer)
  }
}

export const checkStopOrdersCancellation = (e: ErrorsBuilder, cmd: C.StopOrdersCancellation | undefined): void => {
  if (cmd === undefined) return e.add("stop_orders_cancellation", m.isRequired)
  if (cmd.marketId !== undefined && cmd.marketId.length > 0 && !isVegaId(cmd.marketId)) {
    e.add("stop_orders_cancellation.market_id", m.shouldBeAValidVegaId)
  }
  if (cmd.stopOrderId !== undefined && cmd.stopOrderId.length > 0 && !isVegaId(cmd.stopOrderId)) {
    e.add("stop_orders_cancellation.stop_order_id", m.shouldBeAValidVegaId)
  }
}

export const checkUpdateMarginMode = (e: ErrorsBuilder, cmd: C.UpdateMarginMode | undefined): void => {
  if (cmd === undefined) return e.add("update_margin_mode", m.isRequired)
  if (cmd.mode === "MODE_UNSPECIFIED" || isUnknown(cmd.mode)) e.add("update_margin_mode.margin_mode", m.isNotValid)
  const factor = cmd.marginFactor ?? ""
  if (cmd.mode === "MODE_CROSS_MARGIN" && factor.length > 0) {
    e.add("update_margin_mode.margin_factor", m.marginFactorForbiddenForCross)
  }
  if (cmd.mode === "MODE_ISOLATED_MARGIN") {
    if (factor.length === 0) e.add("update_margin_mode.margin_factor", m.marginFactorRequiredForIsolated)
    else {
      const parsed = parseGoDecimal(factor)
      if (parsed === undefined) e.add("update_margin_mode.margin_factor", m.isNotValidNumber)
      else if (!BigDecimal.isPositive(parsed)) e.add("update_margin_mode.margin_factor", m.mustBePositive)
    }
  }
  if (cmd.marketId.length === 0) e.add("update_margin_mode.market_id", m.isRequired)
}

export const checkBatchMarketInstructions = (e: ErrorsBuilder, cmd: C.BatchMarketInstructions | undefined): void => {
  if (cmd === undefined) return e.add("batch_market_instructions", m.isRequired)
  // The node only checks that the batch is not empty here; each instruction is checked when the
  // batch is processed, and fails on its own.
  if (
    cmd.cancellations.length === 0 &&
    cmd.amendments.length === 0 &&
    cmd.submissions.length === 0 &&
    cmd.stopOrdersCancellation.length === 0 &&
    cmd.stopOrdersSubmission.length === 0 &&
    cmd.updateMarginMode.length === 0
  ) {
    e.add("batch_market_instructions", m.emptyBatchMarketInstructions)
  }
}

// -------------------------------------------------------------------------------------------------
// Liquidity provision
// -------------------------------------------------------------------------------------------------

const checkFee = (e: ErrorsBuilder, property: string, fee: string) => {
  const parsed = parseGoDecimal(fee)
  if (parsed === undefined) e.add(property, m.isNotValid)
  else if (BigDecimal.isNegative(parsed)) e.add(property, m.mustBePositiveOrZero)
}

export const checkLiquidityProvisionSubmission = (
  e: ErrorsBuilder,
  cmd: C.LiquidityProvisionSubmission | undefined
): void => {
  const p = "liquidity_provision_submission"
  if (cmd === undefined) return e.add(p, m.isRequired)
  if (utf8Length(cmd.reference) > REFERENCE_MAX_LENGTH) e.add(`${p}.reference`, m.referenceTooLong)
  requiredId(e, `${p}.market_id`, cmd.marketId)
  if (cmd.commitmentAmount.length === 0) e.add(`${p}.commitment_amount`, m.isRequired)
  else {
    const amount = parseGoBigInt(cmd.commitmentAmount)
    if (amount === undefined) e.add(`${p}.commitment_amount`, m.notAValidInteger)
    else if (amount <= 0n) e.add(`${p}.commitment_amount`, m.mustBePositive)
  }
  if (cmd.fee.length === 0) e.add(`${p}.fee`, m.isRequired)
  else checkFee(e, `${p}.fee`, cmd.fee)
}

export const checkLiquidityProvisionAmendment = (
  e: ErrorsBuilder,
  cmd: C.LiquidityProvisionAmendment | undefined
): void => {
  const p = "liquidity_provision_amendment"
  if (cmd === undefined) return e.add(p, m.isRequired)
  if (utf8Length(cmd.reference) > REFERENCE_MAX_LENGTH) e.add(`${p}.reference`, m.referenceTooLong)
  requiredId(e, `${p}.market_id`, cmd.marketId)
  if (cmd.commitmentAmount.length > 0) {
    const amount = parseGoBigInt(cmd.commitmentAmount)
    if (amount === undefined) e.add(`${p}.commitment_amount`, m.notAValidInteger)
    else if (amount < 0n) e.add(`${p}.commitment_amount`, m.mustBePositiveOrZero)
  }
  if (cmd.fee.length > 0) checkFee(e, `${p}.fee`, cmd.fee)
}

export const checkLiquidityProvisionCancellation = (
  e: ErrorsBuilder,
  cmd: C.LiquidityProvisionCancellation | undefined
): void => {
  if (cmd === undefined) return e.add("liquidity_provision_cancellation", m.isRequired)
  requiredId(e, "liquidity_provision_cancellation.market_id", cmd.marketId)
}

// -------------------------------------------------------------------------------------------------
// Transfers and withdrawals
// -------------------------------------------------------------------------------------------------

const ONE_OFF_DESTINATIONS: ReadonlyArray<C.AccountType> = [
  "ACCOUNT_TYPE_GENERAL",
  "ACCOUNT_TYPE_GLOBAL_REWARD",
  "ACCOUNT_TYPE_NETWORK_TREASURY",
  "ACCOUNT_TYPE_BUY_BACK_FEES",
  "ACCOUNT_TYPE_LOCKED_FOR_STAKING"
]

const TRANSFER_SOURCES: ReadonlyArray<C.AccountType> = [
  "ACCOUNT_TYPE_GENERAL",
  "ACCOUNT_TYPE_VESTED_REWARDS",
  "ACCOUNT_TYPE_LOCKED_FOR_STAKING"
]

export const checkTransfer = (e: ErrorsBuilder, cmd: C.Transfer | undefined): void => {
  if (cmd === undefined) return e.add("transfer", m.isRequired)

  if (cmd.amount.length === 0) e.add("transfer.amount", m.isRequired)
  else {
    const amount = parseGoBigInt(cmd.amount)
    if (amount === undefined) e.add("transfer.amount", m.isNotValidNumber)
    else if (amount === 0n) e.add("transfer.amount", m.isRequired)
    else if (amount < 0n) e.add("transfer.amount", m.mustBePositive)
  }

  requiredId(e, "transfer.to", cmd.to, m.shouldBeAValidVegaPublicKey)
  if (cmd.toAccountType === "ACCOUNT_TYPE_GLOBAL_REWARD" && cmd.to !== ZERO_ADDRESS) e.add("transfer.to", m.isNotValid)

  if (cmd.toAccountType === "ACCOUNT_TYPE_UNSPECIFIED") e.add("transfer.to_account_type", m.isNotValid)
  if (!TRANSFER_SOURCES.includes(cmd.fromAccountType)) e.add("transfer.from_account_type", m.isNotValid)

  if (cmd.from !== undefined && cmd.from.length > 0) {
    if (cmd.fromAccountType !== "ACCOUNT_TYPE_VESTED_REWARDS" || cmd.toAccountType !== "ACCOUNT_TYPE_GENERAL") {
      e.add("transfer.from", m.isNotValid)
    }
    if (!isVegaId(cmd.from)) e.add("transfer.from", m.shouldBeAValidVegaPublicKey)
  }

  requiredId(e, "transfer.asset", cmd.asset)

  if (utf8Length(cmd.reference) > REFERENCE_MAX_LENGTH) e.add("transfer.reference", m.mustBeLessThan100Chars)

  if (cmd.oneOff !== undefined) {
    if (!ONE_OFF_DESTINATIONS.includes(cmd.toAccountType)) e.add("transfer.to_account_type", m.isNotValid)
    if (cmd.oneOff.deliverOn < 0n) e.add("transfer.one_off.deliver_on", m.mustBePositiveOrZero)
  } else if (cmd.recurring !== undefined) {
    const r = cmd.recurring
    if (r.endEpoch !== undefined && r.endEpoch <= 0n) e.add("transfer.recurring.end_epoch", m.mustBePositive)
    if (r.startEpoch === 0n) e.add("transfer.recurring.start_epoch", m.mustBePositive)
    if (r.endEpoch !== undefined && r.startEpoch > r.endEpoch) {
      e.add("transfer.recurring.end_epoch", m.mustBeAfterStartEpoch)
    }
    const factor = parseGoDecimal(r.factor)
    if (factor === undefined) e.add("transfer.recurring.factor", m.notAValidFloat)
    else if (!BigDecimal.isPositive(factor)) e.add("transfer.recurring.factor", m.mustBePositive)
  } else {
    e.add("transfer.kind", m.isRequired)
  }
}

export const checkCancelTransfer = (e: ErrorsBuilder, cmd: C.CancelTransfer | undefined): void => {
  if (cmd === undefined) return e.add("cancel_transfer", m.isRequired)
  requiredId(e, "cancel_transfer.transfer_id", cmd.transferId)
}

export const checkWithdrawSubmission = (e: ErrorsBuilder, cmd: C.WithdrawSubmission | undefined): void => {
  if (cmd === undefined) return e.add("withdraw_submission", m.isRequired)
  if (cmd.amount.length === 0) e.add("withdraw_submission.amount", m.isRequired)
  else {
    const amount = parseGoBigInt(cmd.amount)
    if (amount === undefined) e.add("withdraw_submission.amount", m.notAValidInteger)
    else if (amount <= 0n) e.add("withdraw_submission.amount", m.isRequired)
  }
  requiredId(e, "withdraw_submission.asset", cmd.asset)
  if (cmd.ext !== undefined) {
    if (cmd.ext.erc20 === undefined) e.add("withdraw_ext.ext", m.isNotSupported)
    // sic: the node names this property `received_address`
    else if (cmd.ext.erc20.receiverAddress.length === 0) e.add("withdraw_ext.erc20.received_address", m.isRequired)
  }
}

// -------------------------------------------------------------------------------------------------
// Governance and staking
// -------------------------------------------------------------------------------------------------

export const checkVoteSubmission = (e: ErrorsBuilder, cmd: C.VoteSubmission | undefined): void => {
  if (cmd === undefined) return e.add("vote_submission", m.isRequired)
  requiredId(e, "vote_submission.proposal_id", cmd.proposalId)
  if (cmd.value === "VALUE_UNSPECIFIED") e.add("vote_submission.value", m.isRequired)
  if (isUnknown(cmd.value)) e.add("vote_submission.value", m.isNotValid)
}

export const checkDelegateSubmission = (e: ErrorsBuilder, cmd: C.DelegateSubmission | undefined): void => {
  if (cmd === undefined) return e.add("delegate_submission", m.isRequired)
  if (cmd.amount.length === 0) e.add("delegate_submission.amount", m.isRequired)
  else {
    const amount = parseGoBigInt(cmd.amount)
    if (amount === undefined) e.add("delegate_submission.amount", m.notAValidInteger)
    else if (amount <= 0n) e.add("delegate_submission.amount", m.isRequired)
  }
  requiredId(e, "delegate_submission.node_id", cmd.nodeId, m.shouldBeAValidVegaPublicKey)
}

export const checkUndelegateSubmission = (e: ErrorsBuilder, cmd: C.UndelegateSubmission | undefined): void => {
  if (cmd === undefined) return e.add("undelegate_submission", m.isRequired)
  // The node looks the method up by name, so an unknown number also reads as "is required".
  if (cmd.method === "METHOD_UNSPECIFIED" || isUnknown(cmd.method)) e.add("undelegate_submission.method", m.isRequired)
  requiredId(e, "undelegate_submission.node_id", cmd.nodeId, m.shouldBeAValidVegaPublicKey)
}

// -------------------------------------------------------------------------------------------------
// Parties, referral sets, teams
// -------------------------------------------------------------------------------------------------

export const checkUpdatePartyProfile = (e: ErrorsBuilder, cmd: C.UpdatePartyProfile | undefined): void => {
  if (cmd === undefined) return e.add("update_party_profile", m.isRequired)
  if (utf8Length(cmd.alias) > 32) e.add("update_party_profile.alias", m.isLimitedTo32Characters)
  if (cmd.metadata.length > 10) e.add("update_party_profile.metadata", m.isLimitedTo10Entries)
  const seen = new Set<string>()
  cmd.metadata.forEach((entry, i) => {
    const key = `update_party_profile.metadata.${i}.key`
    const keyLength = utf8Length(entry.key)
    if (keyLength > 32) e.add(key, m.isLimitedTo32Characters)
    else if (keyLength === 0) e.add(key, m.isRequired)
    if (seen.has(entry.key)) e.add(key, m.isDuplicated)
    seen.add(entry.key)
    if (utf8Length(entry.value) > 255) e.add(`update_party_profile.metadata.${i}.value`, m.isLimitedTo255Characters)
  })
}

const checkTeamUrls = (
  e: ErrorsBuilder,
  p: string,
  team: { readonly teamUrl?: string; readonly avatarUrl?: string }
): void => {
  if (team.avatarUrl !== undefined && utf8Length(team.avatarUrl) > 200) {
    e.add(`${p}.team.avatar_url`, m.mustBeLessThan200Chars)
  }
  if (team.teamUrl !== undefined && utf8Length(team.teamUrl) > 200)
    e.add(`${p}.team.team_url`, m.mustBeLessThan200Chars)
}

export const checkCreateReferralSet = (e: ErrorsBuilder, cmd: C.CreateReferralSet | undefined): void => {
  const p = "create_referral_set"
  if (cmd === undefined) return e.add(p, m.isRequired)
  if (!cmd.isTeam) return
  const team = cmd.team
  if (team === undefined) return e.add(`${p}.team`, m.isRequired)
  if (team.name.length === 0) e.add(`${p}.team.name`, m.isRequired)
  else if (utf8Length(team.name) > 100) e.add(`${p}.team.name`, m.mustBeLessThan100Chars)
  checkTeamUrls(e, p, team)
  if (!team.closed && team.allowList.length > 0) e.add(`${p}.team.allow_list`, m.allowListRequiresClosed)
}

export const checkUpdateReferralSet = (e: ErrorsBuilder, cmd: C.UpdateReferralSet | undefined): void => {
  const p = "update_referral_set"
  if (cmd === undefined) return e.add(p, m.isRequired)
  if (!isVegaId(cmd.id)) e.add(`${p}.id`, m.shouldBeAValidVegaId)
  if (!cmd.isTeam) return
  const team = cmd.team
  if (team === undefined) return e.add(`${p}.team`, m.isRequired)
  if (team.name !== undefined) {
    if (team.name.length === 0) e.add(`${p}.team.name`, m.isRequired)
    else if (utf8Length(team.name) > 100) e.add(`${p}.team.name`, m.mustBeLessThan100Chars)
  }
  checkTeamUrls(e, p, team)
  if (team.closed !== true && team.allowList.length > 0) e.add(`${p}.team.allow_list`, m.allowListRequiresClosed)
}

export const checkApplyReferralCode = (e: ErrorsBuilder, cmd: C.ApplyReferralCode | undefined): void => {
  if (cmd === undefined) return e.add("apply_referral_code", m.isRequired)
  if (!isVegaId(cmd.id)) e.add("apply_referral_code.id", m.shouldBeAValidVegaId)
}

export const checkJoinTeam = (e: ErrorsBuilder, cmd: C.JoinTeam | undefined): void => {
  if (cmd === undefined) return e.add("join_team", m.isRequired)
  if (!isVegaId(cmd.id)) e.add("join_team.id", m.shouldBeAValidVegaId)
}
