import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as C from "../src/Commands.js"
import * as V from "../src/CommandValidation.js"
import * as Enum from "../src/Enum.js"

const MARKET = "e9ec6d5c46a7e7bcabf9ba7a893fa5a5eeeec08b731f06f7a6eb7bf0e605b829"
const OTHER_MARKET = "1111111111111111111111111111111111111111111111111111111111111111"
const ID = "5b0b3c3c6e1d4b5c96a0f2b7f0a0a0a47b3bd3b6d8ccf4e5a1a5a6f9c9e0d1e2"
const ASSET = "fdf0ec118d98393a7702cf72e46fc87ad680b152f64b2aac59e093ac2d688fbb"
const PARTY = "0a2d3c5a1e4d2c3b4a59687766554433221100ffeeddccbbaa99887766554433"
const NODE = "6b3e197785a6f7614f52c07a0e3e7807a4dfbde3db828ed6f716261269974772"
const ZERO = "0".repeat(64)

/** The node's error string for an invalid command (fails the test when the command is valid). */
const errorOf = (command: C.Command): string => {
  const result = V.validate(command)
  if (Either.isRight(result)) throw new Error(`expected ${command._tag} to be invalid`)
  return result.left.message
}
const expectValid = (command: C.Command) => expect(V.validate(command)).toEqual(Either.right(command))

// --- orders -------------------------------------------------------------------------------------

const order = (fields: Partial<C.OrderSubmission> = {}) =>
  C.command(
    "orderSubmission",
    C.orderSubmission({
      marketId: MARKET,
      price: "100",
      size: 1n,
      side: "SIDE_BUY",
      timeInForce: "TIME_IN_FORCE_GTC",
      type: "TYPE_LIMIT",
      ...fields
    })
  )

describe("order_submission", () => {
  it("accepts a plain limit order, upper-case hex ids and the largest size", () => {
    expectValid(order())
    expectValid(order({ marketId: MARKET.toUpperCase() }))
    expectValid(order({ size: V.MAX_ORDER_SIZE }))
  })

  it("reports every missing field, properties sorted and joined", () => {
    expect(errorOf(C.command("orderSubmission", C.orderSubmission()))).toBe(
      "order_submission.market_id (is required), order_submission.side (is required), order_submission.size (must be positive), order_submission.time_in_force (is required), order_submission.type (is required)"
    )
  })

  it("market_id must be a Vega ID", () => {
    expect(errorOf(order({ marketId: "BTCUSD" }))).toBe("order_submission.market_id (should be a valid Vega ID)")
    expect(errorOf(order({ marketId: MARKET.slice(1) }))).toBe("order_submission.market_id (should be a valid Vega ID)")
  })

  it("side is required and must be known", () => {
    expect(errorOf(order({ side: "SIDE_UNSPECIFIED" }))).toBe("order_submission.side (is required)")
    expect(errorOf(order({ side: Enum.unknownEnumValue(9) }))).toBe("order_submission.side (is not a valid value)")
  })

  it("type is required, must be known, and TYPE_NETWORK is unauthorised", () => {
    expect(errorOf(order({ type: "TYPE_UNSPECIFIED" }))).toBe("order_submission.type (is required)")
    expect(errorOf(order({ type: Enum.unknownEnumValue(7) }))).toBe("order_submission.type (is not a valid value)")
    expect(errorOf(order({ type: "TYPE_NETWORK" }))).toBe("order_submission.type (is unauthorised)")
  })

  it("time_in_force is required and must be known", () => {
    expect(errorOf(order({ timeInForce: "TIME_IN_FORCE_UNSPECIFIED" }))).toBe(
      "order_submission.time_in_force (is required)"
    )
    expect(errorOf(order({ timeInForce: Enum.unknownEnumValue("TIME_IN_FORCE_GTX") }))).toBe(
      "order_submission.time_in_force (is not a valid value)"
    )
  })

  it("size must be positive and at most MaxInt64/2", () => {
    expect(errorOf(order({ size: 0n }))).toBe("order_submission.size (must be positive)")
    expect(errorOf(order({ size: 4611686018427387904n }))).toBe("order_submission.size (size is too large)")
  })

  it("reference is at most 100 bytes", () => {
    expectValid(order({ reference: "r".repeat(100) }))
    expect(errorOf(order({ reference: "r".repeat(101) }))).toBe("order_submission.reference (reference is too long)")
    // Go measures len() in UTF-8 bytes: 34 × "€" = 102 bytes.
    expect(errorOf(order({ reference: "€".repeat(34) }))).toBe("order_submission.reference (reference is too long)")
  })

  it("GTT needs a positive expiry; other times in force must not have one", () => {
    expectValid(order({ timeInForce: "TIME_IN_FORCE_GTT", expiresAt: 1731000000000000000n }))
    expect(errorOf(order({ timeInForce: "TIME_IN_FORCE_GTT" }))).toBe("order_submission.expires_at (must be positive)")
    expect(errorOf(order({ timeInForce: "TIME_IN_FORCE_GTT", expiresAt: -1n }))).toBe(
      "order_submission.expires_at (must be positive)"
    )
    expect(errorOf(order({ expiresAt: 5n }))).toBe(
      "order_submission.expires_at (is only available when the time in force is of type GTT)"
    )
  })

  it("market orders take no price and are FOK or IOC", () => {
    expectValid(order({ type: "TYPE_MARKET", price: "", timeInForce: "TIME_IN_FORCE_FOK" }))
    expect(errorOf(order({ type: "TYPE_MARKET", timeInForce: "TIME_IN_FORCE_IOC" }))).toBe(
      "order_submission.price (is unavailable when the order is of type MARKET)"
    )
    expect(errorOf(order({ type: "TYPE_MARKET", price: "" }))).toBe(
      "order_submission.time_in_force (is expected to be FOK or IOC when order is of type MARKET)"
    )
  })

  it("limit orders need a positive integer price", () => {
    expect(errorOf(order({ price: "" }))).toBe("order_submission.price (is required when the order is of type LIMIT)")
    expect(errorOf(order({ price: "1.5" }))).toBe("order_submission.price (not a valid integer)")
    expect(errorOf(order({ price: "0" }))).toBe(
      "order_submission.price (must be positive when the order is of type LIMIT)"
    )
    expect(errorOf(order({ price: "-3" }))).toBe(
      "order_submission.price (must be positive when the order is of type LIMIT)"
    )
  })

  const pegged = (reference: C.PeggedReference, offset: string, fields: Partial<C.OrderSubmission> = {}) =>
    order({ price: "", peggedOrder: C.peggedOrder({ reference, offset }), ...fields })

  it("pegged orders: reference, offset, LIMIT only, GTT/GTC/GFN only", () => {
    expectValid(pegged("PEGGED_REFERENCE_BEST_BID", "0"))
    expectValid(pegged("PEGGED_REFERENCE_MID", "10", { timeInForce: "TIME_IN_FORCE_GFN" }))
    expect(errorOf(pegged("PEGGED_REFERENCE_UNSPECIFIED", "1"))).toBe(
      "order_submission.pegged_order.reference (is required)"
    )
    expect(errorOf(pegged(Enum.unknownEnumValue(8), "1"))).toBe(
      "order_submission.pegged_order.reference (is not a valid value)"
    )
    expect(errorOf(pegged("PEGGED_REFERENCE_MID", ""))).toBe("order_submission.pegged_order.offset (is required)")
    expect(errorOf(pegged("PEGGED_REFERENCE_MID", "x"))).toBe(
      "order_submission.pegged_order.offset (not a valid integer)"
    )
    expect(errorOf(pegged("PEGGED_REFERENCE_MID", "0"))).toBe("order_submission.pegged_order.offset (must be positive)")
    expect(errorOf(pegged("PEGGED_REFERENCE_BEST_ASK", "-1"))).toBe(
      "order_submission.pegged_order.offset (must be positive or zero)"
    )
    expect(errorOf(pegged("PEGGED_REFERENCE_MID", "1", { timeInForce: "TIME_IN_FORCE_GFA" }))).toBe(
      "order_submission.time_in_force (is expected to have a time in force of type GTT, GTC or GFN when the order is pegged)"
    )
  })

  it("a pegged market order collects errors per property in the order they are found", () => {
    expect(
      errorOf(pegged("PEGGED_REFERENCE_MID", "1", { type: "TYPE_MARKET", timeInForce: "TIME_IN_FORCE_FOK" }))
    ).toBe(
      "order_submission.time_in_force (is expected to have a time in force of type GTT, GTC or GFN when the order is pegged), order_submission.type (is expected to be an order of type LIMIT when the order is pegged)"
    )
    expect(
      errorOf(pegged("PEGGED_REFERENCE_MID", "1", { type: "TYPE_MARKET", timeInForce: "TIME_IN_FORCE_GTC" }))
    ).toBe(
      "order_submission.time_in_force (is expected to be FOK or IOC when order is of type MARKET), order_submission.type (is expected to be an order of type LIMIT when the order is pegged)"
    )
  })

  it("post_only: limit orders only, persistent only, not with reduce_only", () => {
    expectValid(order({ postOnly: true }))
    expect(errorOf(order({ postOnly: true, type: "TYPE_MARKET", price: "", timeInForce: "TIME_IN_FORCE_FOK" }))).toBe(
      "order_submission.post_only (only valid for limit orders, only valid for persistent orders)"
    )
    expect(errorOf(order({ postOnly: true, reduceOnly: true, timeInForce: "TIME_IN_FORCE_IOC" }))).toBe(
      "order_submission.post_only (only valid for persistent orders, cannot be true at the same time as order_submission.reduce_only)"
    )
  })

  it("reduce_only: FOK/IOC only, never pegged", () => {
    expectValid(order({ reduceOnly: true, timeInForce: "TIME_IN_FORCE_IOC" }))
    expect(errorOf(order({ reduceOnly: true }))).toBe(
      "order_submission.reduce_only (only valid for non-persistent orders)"
    )
    expect(errorOf(pegged("PEGGED_REFERENCE_MID", "1", { reduceOnly: true }))).toBe(
      "order_submission.reduce_only (only valid for non-persistent orders, cannot be pegged)"
    )
  })

  it("iceberg orders", () => {
    const iceberg = (peakSize: bigint, minimumVisibleSize: bigint, fields: Partial<C.OrderSubmission> = {}) =>
      order({ size: 10n, icebergOpts: C.icebergOpts({ peakSize, minimumVisibleSize }), ...fields })
    expectValid(iceberg(5n, 2n))
    expect(errorOf(iceberg(0n, 0n))).toBe(
      "order_submission.iceberg_opts.minimum_visible_size (must be positive), order_submission.iceberg_opts.peak_size (must be positive)"
    )
    expect(errorOf(iceberg(11n, 12n))).toBe(
      "order_submission.iceberg_opts.minimum_visible_size (must be <= peak size), order_submission.iceberg_opts.peak_size (must be <= order size)"
    )
    expect(errorOf(iceberg(5n, 2n, { timeInForce: "TIME_IN_FORCE_IOC", reduceOnly: true }))).toBe(
      "order_submission.reduce_only (iceberg order must not be reduce-only), order_submission.time_in_force (iceberg order must be a persistent order)"
    )
    expect(errorOf(iceberg(5n, 2n, { type: "TYPE_MARKET", price: "", timeInForce: "TIME_IN_FORCE_GTC" }))).toBe(
      "order_submission.time_in_force (is expected to be FOK or IOC when order is of type MARKET), order_submission.type (iceberg order must be of type LIMIT)"
    )
  })
})

describe("order_cancellation", () => {
  it("is not validated at the top level, as CheckInputData does", () => {
    expectValid(C.command("orderCancellation", C.orderCancellation({ orderId: "not an id" })))
    expect(V.check(C.command("orderCancellation", C.orderCancellation({ marketId: "x" })))).toEqual({})
  })

  it("validateOrderCancellation runs commands/order_cancellation.go", () => {
    expect(V.validateOrderCancellation(C.orderCancellation())).toEqual(Either.right(C.orderCancellation()))
    expect(V.validateOrderCancellation(C.orderCancellation({ marketId: MARKET, orderId: ID }))._tag).toBe("Right")
    const left = V.validateOrderCancellation(C.orderCancellation({ orderId: "abc" }))
    expect(Either.isLeft(left) && left.left.message).toBe(
      "order_cancellation.market_id (is required), order_cancellation.order_id (should be a valid Vega ID)"
    )
  })
})

describe("order_amendment", () => {
  const amend = (fields: Partial<C.OrderAmendment>) =>
    C.command("orderAmendment", C.orderAmendment({ orderId: ID, marketId: MARKET, ...fields }))

  it("accepts a price change", () => expectValid(amend({ price: "101" })))

  it("must amend something", () => {
    expect(errorOf(amend({}))).toBe("* (order_amendment does not amend anything)")
  })

  it("order_id and market_id are required Vega IDs", () => {
    expect(errorOf(amend({ orderId: "", marketId: "zz", sizeDelta: 1n }))).toBe(
      "order_amendment.market_id (should be a valid Vega ID), order_amendment.order_id (is required)"
    )
  })

  it("cannot amend to GFA or GFN", () => {
    expect(errorOf(amend({ timeInForce: "TIME_IN_FORCE_GFA" }))).toBe(
      "order_amendment.time_in_force (cannot amend to time in force GFA)"
    )
    expect(errorOf(amend({ timeInForce: "TIME_IN_FORCE_GFN" }))).toBe(
      "order_amendment.time_in_force (cannot amend to time in force GFN)"
    )
  })

  it("GTT needs an expiry, an expiry needs GTT", () => {
    expectValid(amend({ timeInForce: "TIME_IN_FORCE_GTT", expiresAt: 1n }))
    expect(errorOf(amend({ timeInForce: "TIME_IN_FORCE_GTT" }))).toBe(
      "order_amendment.time_in_force (GTT order without expiry)"
    )
    expect(errorOf(amend({ timeInForce: "TIME_IN_FORCE_GTC", expiresAt: 1n }))).toBe(
      "order_amendment.expires_at (is only available when the time in force is of type GTT)"
    )
  })

  it("price, size, size_delta, pegged offset and reference", () => {
    expect(errorOf(amend({ price: "abc" }))).toBe("order_amendment.price (not a valid integer)")
    expect(errorOf(amend({ price: "0" }))).toBe("order_amendment.price (must be positive)")
    expect(errorOf(amend({ size: 0n }))).toBe("order_amendment.size (must be positive)")
    expect(errorOf(amend({ size: 5n, sizeDelta: 1n }))).toBe(
      "order_amendment.size_delta (must be set to 0 when size is set)"
    )
    expect(errorOf(amend({ peggedOffset: "1.5" }))).toBe("order_amendment.pegged_offset (not a valid integer)")
    expect(errorOf(amend({ peggedReference: Enum.unknownEnumValue(5) }))).toBe(
      "order_amendment.pegged_reference (is not a valid value)"
    )
  })
})

// --- stop orders, margin, batches ---------------------------------------------------------------

describe("stop_orders_submission", () => {
  const inner = (fields: Partial<C.OrderSubmission> = {}) =>
    C.orderSubmission({
      marketId: MARKET,
      size: 1n,
      side: "SIDE_SELL",
      timeInForce: "TIME_IN_FORCE_IOC",
      type: "TYPE_MARKET",
      reduceOnly: true,
      ...fields
    })
  const stop = (risesAbove?: C.StopOrderSetup, fallsBelow?: C.StopOrderSetup) =>
    C.command(
      "stopOrdersSubmission",
      C.stopOrdersSubmission({
        ...(risesAbove === undefined ? {} : { risesAbove }),
        ...(fallsBelow === undefined ? {} : { fallsBelow })
      })
    )

  it("accepts a one-cancels-other pair", () => {
    expectValid(
      stop(
        C.stopOrderSetup({ orderSubmission: inner(), price: "150000" }),
        C.stopOrderSetup({ orderSubmission: inner(), trailingPercentOffset: "0.05" })
      )
    )
  })

  it("needs at least one side", () => {
    expect(errorOf(stop())).toBe("* (must have at least one of rises above or falls below)")
  })

  it("the order must be reduce-only and is checked as an order submission", () => {
    expect(errorOf(stop(C.stopOrderSetup({ orderSubmission: inner({ reduceOnly: false }), price: "1" })))).toBe(
      "stop_orders_submission.rises_above.order_submission.reduce_only (must be reduce only)"
    )
    expect(errorOf(stop(C.stopOrderSetup({ orderSubmission: inner({ marketId: "" }), price: "1" })))).toBe(
      "order_submission.market_id (is required)"
    )
    expect(errorOf(stop(C.stopOrderSetup({ price: "1" })))).toBe("order_submission (is required)")
  })

  it("needs a trigger", () => {
    expect(errorOf(stop(undefined, C.stopOrderSetup({ orderSubmission: inner() })))).toBe(
      "stop_orders_submission.falls_below.trigger (must have a stop order trigger)"
    )
  })

  it("price trigger must be a positive integer", () => {
    expect(errorOf(stop(C.stopOrderSetup({ orderSubmission: inner(), price: "0" })))).toBe(
      "stop_orders_submission.rises_above.trigger.price (must be positive)"
    )
    expect(errorOf(stop(C.stopOrderSetup({ orderSubmission: inner(), price: "1.1" })))).toBe(
      "stop_orders_submission.rises_above.trigger.price (not a valid integer)"
    )
  })

  it("trailing offset is in (0, 1] with a 0.001 minimum", () => {
    const trailing = (trailingPercentOffset: string) =>
      stop(undefined, C.stopOrderSetup({ orderSubmission: inner(), trailingPercentOffset }))
    expectValid(trailing("1"))
    expectValid(trailing("0.001"))
    expect(errorOf(trailing("1.5"))).toBe(
      "stop_orders_submission.falls_below.trigger.trailing_percent_offset (must be between 0 (excluded) and 1 (included))"
    )
    expect(errorOf(trailing("0"))).toBe(
      "stop_orders_submission.falls_below.trigger.trailing_percent_offset (must be between 0 (excluded) and 1 (included))"
    )
    expect(errorOf(trailing("0.0005"))).toBe(
      "stop_orders_submission.falls_below.trigger.trailing_percent_offset (trailing percent offset minimal increment must be >= 0.001)"
    )
    expect(errorOf(trailing("abc"))).toBe(
      "stop_orders_submission.falls_below.trigger.trailing_percent_offset (not a valid float)"
    )
  })

  it("an expiry needs an expiry strategy", () => {
    expectValid(
      stop(
        C.stopOrderSetup({
          orderSubmission: inner(),
          price: "1",
          expiresAt: 1n,
          expiryStrategy: "EXPIRY_STRATEGY_SUBMIT"
        })
      )
    )
    expect(errorOf(stop(C.stopOrderSetup({ orderSubmission: inner(), price: "1", expiresAt: 1n })))).toBe(
      "stop_orders_submission.rises_above.expiry_strategy (expiry strategy required when expires_at set)"
    )
  })

  it("both sides must be on the same market", () => {
    expect(
      errorOf(
        stop(
          C.stopOrderSetup({ orderSubmission: inner(), price: "2" }),
          C.stopOrderSetup({ orderSubmission: inner({ marketId: OTHER_MARKET }), price: "1" })
        )
      )
    ).toBe("stop_orders_submission (market ID for falls below and rises above must be the same)")
  })
})

describe("stop_orders_cancellation", () => {
  it("ids, when set, are Vega IDs", () => {
    expectValid(C.command("stopOrdersCancellation", C.stopOrdersCancellation()))
    expectValid(C.command("stopOrdersCancellation", C.stopOrdersCancellation({ marketId: MARKET, stopOrderId: ID })))
    expect(
      errorOf(C.command("stopOrdersCancellation", C.stopOrdersCancellation({ marketId: "m", stopOrderId: "s" })))
    ).toBe(
      "stop_orders_cancellation.market_id (should be a valid Vega ID), stop_orders_cancellation.stop_order_id (should be a valid Vega ID)"
    )
  })
})

describe("update_margin_mode", () => {
  const mode = (fields: Partial<C.UpdateMarginMode>) =>
    C.command("updateMarginMode", C.updateMarginMode({ marketId: MARKET, ...fields }))

  it("accepts cross margin and isolated margin with a factor", () => {
    expectValid(mode({ mode: "MODE_CROSS_MARGIN" }))
    expectValid(mode({ mode: "MODE_ISOLATED_MARGIN", marginFactor: "0.5" }))
  })

  it("mode must be set", () => {
    expect(errorOf(mode({}))).toBe("update_margin_mode.margin_mode (is not a valid value)")
  })

  it("market_id is required", () => {
    expect(errorOf(mode({ marketId: "", mode: "MODE_CROSS_MARGIN" }))).toBe(
      "update_margin_mode.market_id (is required)"
    )
  })

  it("margin_factor: required for isolated, forbidden for cross, positive", () => {
    expect(errorOf(mode({ mode: "MODE_ISOLATED_MARGIN" }))).toBe(
      "update_margin_mode.margin_factor (margin factor must be defined when using isolated margin mode)"
    )
    expect(errorOf(mode({ mode: "MODE_CROSS_MARGIN", marginFactor: "0.1" }))).toBe(
      "update_margin_mode.margin_factor (margin factor must not be passed when choosing cross margin mode)"
    )
    expect(errorOf(mode({ mode: "MODE_ISOLATED_MARGIN", marginFactor: "x" }))).toBe(
      "update_margin_mode.margin_factor (is not a valid number)"
    )
    expect(errorOf(mode({ mode: "MODE_ISOLATED_MARGIN", marginFactor: "0" }))).toBe(
      "update_margin_mode.margin_factor (must be positive)"
    )
  })
})

describe("batch_market_instructions", () => {
  it("must not be empty", () => {
    expect(errorOf(C.command("batchMarketInstructions", C.batchMarketInstructions()))).toBe(
      "batch_market_instructions (empty batch market instructions)"
    )
  })

  it("does not check the instructions themselves", () => {
    expectValid(C.command("batchMarketInstructions", C.batchMarketInstructions({ submissions: [C.orderSubmission()] })))
  })
})

// --- liquidity ----------------------------------------------------------------------------------

describe("liquidity provision", () => {
  const submission = (fields: Partial<C.LiquidityProvisionSubmission>) =>
    C.command(
      "liquidityProvisionSubmission",
      C.liquidityProvisionSubmission({ marketId: MARKET, commitmentAmount: "1000", fee: "0.01", ...fields })
    )

  it("accepts a submission", () => expectValid(submission({})))

  it("submission: every field missing", () => {
    expect(errorOf(C.command("liquidityProvisionSubmission", C.liquidityProvisionSubmission()))).toBe(
      "liquidity_provision_submission.commitment_amount (is required), liquidity_provision_submission.fee (is required), liquidity_provision_submission.market_id (is required)"
    )
  })

  it("submission: commitment amount, fee, reference", () => {
    expect(errorOf(submission({ commitmentAmount: "0" }))).toBe(
      "liquidity_provision_submission.commitment_amount (must be positive)"
    )
    expect(errorOf(submission({ commitmentAmount: "1e3" }))).toBe(
      "liquidity_provision_submission.commitment_amount (not a valid integer)"
    )
    expect(errorOf(submission({ fee: "abc" }))).toBe("liquidity_provision_submission.fee (is not a valid value)")
    expect(errorOf(submission({ fee: "-0.1" }))).toBe("liquidity_provision_submission.fee (must be positive or zero)")
    expect(errorOf(submission({ reference: "x".repeat(101) }))).toBe(
      "liquidity_provision_submission.reference (reference is too long)"
    )
    expect(errorOf(submission({ marketId: "m" }))).toBe(
      "liquidity_provision_submission.market_id (should be a valid Vega ID)"
    )
  })

  it("amendment: empty amount and fee mean unchanged", () => {
    expectValid(C.command("liquidityProvisionAmendment", C.liquidityProvisionAmendment({ marketId: MARKET })))
    expect(
      errorOf(
        C.command(
          "liquidityProvisionAmendment",
          C.liquidityProvisionAmendment({ marketId: "", commitmentAmount: "-1", fee: "z" })
        )
      )
    ).toBe(
      "liquidity_provision_amendment.commitment_amount (must be positive or zero), liquidity_provision_amendment.fee (is not a valid value), liquidity_provision_amendment.market_id (is required)"
    )
  })

  it("cancellation: market_id", () => {
    expectValid(C.command("liquidityProvisionCancellation", { marketId: MARKET }))
    expect(errorOf(C.command("liquidityProvisionCancellation", { marketId: "" }))).toBe(
      "liquidity_provision_cancellation.market_id (is required)"
    )
  })
})

// --- transfers and withdrawals ------------------------------------------------------------------

describe("transfer", () => {
  const oneOff = (fields: Partial<C.Transfer> = {}) =>
    C.command(
      "transfer",
      C.transfer({
        fromAccountType: "ACCOUNT_TYPE_GENERAL",
        to: PARTY,
        toAccountType: "ACCOUNT_TYPE_GENERAL",
        asset: ASSET,
        amount: "1",
        oneOff: C.oneOffTransfer(),
        ...fields
      })
    )
  const recurring = (fields: Partial<C.RecurringTransfer>) =>
    C.command(
      "transfer",
      C.transfer({
        fromAccountType: "ACCOUNT_TYPE_GENERAL",
        to: ZERO,
        toAccountType: "ACCOUNT_TYPE_NETWORK_TREASURY",
        asset: ASSET,
        amount: "1",
        recurring: C.recurringTransfer({ startEpoch: 1n, factor: "1", ...fields })
      })
    )

  it("accepts one-off and recurring transfers", () => {
    expectValid(oneOff())
    expectValid(
      oneOff({ toAccountType: "ACCOUNT_TYPE_LOCKED_FOR_STAKING", fromAccountType: "ACCOUNT_TYPE_LOCKED_FOR_STAKING" })
    )
    expectValid(oneOff({ to: ZERO, toAccountType: "ACCOUNT_TYPE_GLOBAL_REWARD" }))
    expectValid(oneOff({ fromAccountType: "ACCOUNT_TYPE_VESTED_REWARDS", from: NODE }))
  })

  it("kind is required", () => {
    const { oneOff: _, ...noKind } = C.transfer({
      fromAccountType: "ACCOUNT_TYPE_GENERAL",
      to: PARTY,
      toAccountType: "ACCOUNT_TYPE_GENERAL",
      asset: ASSET,
      amount: "1",
      oneOff: C.oneOffTransfer()
    })
    expect(errorOf(C.command("transfer", noKind))).toBe("transfer.kind (is required)")
  })

  it("amount is a positive integer", () => {
    expect(errorOf(oneOff({ amount: "" }))).toBe("transfer.amount (is required)")
    expect(errorOf(oneOff({ amount: "0" }))).toBe("transfer.amount (is required)")
    expect(errorOf(oneOff({ amount: "-1" }))).toBe("transfer.amount (must be positive)")
    expect(errorOf(oneOff({ amount: "1.5" }))).toBe("transfer.amount (is not a valid number)")
  })

  it("to is a Vega public key; the global reward pool is the zero key", () => {
    expect(errorOf(oneOff({ to: "" }))).toBe("transfer.to (is required)")
    expect(errorOf(oneOff({ to: "network" }))).toBe("transfer.to (should be a valid Vega public key)")
    expect(errorOf(oneOff({ toAccountType: "ACCOUNT_TYPE_GLOBAL_REWARD" }))).toBe("transfer.to (is not a valid value)")
  })

  it("from_account_type is GENERAL, VESTED_REWARDS or LOCKED_FOR_STAKING", () => {
    expect(errorOf(oneOff({ fromAccountType: "ACCOUNT_TYPE_MARGIN" }))).toBe(
      "transfer.from_account_type (is not a valid value)"
    )
    expect(errorOf(oneOff({ fromAccountType: "ACCOUNT_TYPE_UNSPECIFIED" }))).toBe(
      "transfer.from_account_type (is not a valid value)"
    )
  })

  it("to_account_type is set, and one-off destinations are restricted", () => {
    expect(errorOf(oneOff({ toAccountType: "ACCOUNT_TYPE_BOND" }))).toBe(
      "transfer.to_account_type (is not a valid value)"
    )
    // Flagged once as unset and once as an invalid one-off destination.
    expect(errorOf(oneOff({ toAccountType: "ACCOUNT_TYPE_UNSPECIFIED" }))).toBe(
      "transfer.to_account_type (is not a valid value, is not a valid value)"
    )
  })

  it("from is only for vested rewards to a general account", () => {
    expect(errorOf(oneOff({ from: NODE }))).toBe("transfer.from (is not a valid value)")
    expect(errorOf(oneOff({ fromAccountType: "ACCOUNT_TYPE_VESTED_REWARDS", from: "abc" }))).toBe(
      "transfer.from (should be a valid Vega public key)"
    )
  })

  it("asset is a Vega ID", () => {
    expect(errorOf(oneOff({ asset: "" }))).toBe("transfer.asset (is required)")
    expect(errorOf(oneOff({ asset: "VEGA" }))).toBe("transfer.asset (should be a valid Vega ID)")
  })

  it("reference is at most 100 bytes", () => {
    expectValid(oneOff({ reference: "x".repeat(100) }))
    expect(errorOf(oneOff({ reference: "x".repeat(101) }))).toBe(
      "transfer.reference (must be less than 100 characters)"
    )
  })

  it("one-off deliver_on is not negative", () => {
    expect(errorOf(oneOff({ oneOff: { deliverOn: -1n } }))).toBe(
      "transfer.one_off.deliver_on (must be positive or zero)"
    )
  })

  it("recurring epochs and factor", () => {
    expectValid(recurring({ endEpoch: 1n }))
    expect(errorOf(recurring({ startEpoch: 0n }))).toBe("transfer.recurring.start_epoch (must be positive)")
    expect(errorOf(recurring({ startEpoch: 5n, endEpoch: 4n }))).toBe(
      "transfer.recurring.end_epoch (must be after start_epoch)"
    )
    expect(errorOf(recurring({ endEpoch: 0n }))).toBe(
      "transfer.recurring.end_epoch (must be positive, must be after start_epoch)"
    )
    expect(errorOf(recurring({ factor: "" }))).toBe("transfer.recurring.factor (not a valid float)")
    expect(errorOf(recurring({ factor: "0" }))).toBe("transfer.recurring.factor (must be positive)")
  })

  it("several properties at once", () => {
    expect(errorOf(oneOff({ amount: "", asset: "", to: "", fromAccountType: "ACCOUNT_TYPE_BOND" }))).toBe(
      "transfer.amount (is required), transfer.asset (is required), transfer.from_account_type (is not a valid value), transfer.to (is required)"
    )
  })
})

describe("cancel_transfer", () => {
  it("transfer_id is a required Vega ID", () => {
    expectValid(C.command("cancelTransfer", { transferId: ID }))
    expect(errorOf(C.command("cancelTransfer", { transferId: "" }))).toBe("cancel_transfer.transfer_id (is required)")
    expect(errorOf(C.command("cancelTransfer", { transferId: "1" }))).toBe(
      "cancel_transfer.transfer_id (should be a valid Vega ID)"
    )
  })
})

describe("withdraw_submission", () => {
  const withdraw = (fields: Partial<C.WithdrawSubmission> & { readonly receiverAddress?: string }) =>
    C.command("withdrawSubmission", C.withdrawSubmission({ amount: "10", asset: ASSET, ...fields }))

  it("accepts an ERC-20 withdrawal", () => expectValid(withdraw({ receiverAddress: "0xabc" })))

  it("amount and asset", () => {
    expect(errorOf(withdraw({ amount: "", asset: "" }))).toBe(
      "withdraw_submission.amount (is required), withdraw_submission.asset (is required)"
    )
    expect(errorOf(withdraw({ amount: "0" }))).toBe("withdraw_submission.amount (is required)")
    expect(errorOf(withdraw({ amount: "ten" }))).toBe("withdraw_submission.amount (not a valid integer)")
    expect(errorOf(withdraw({ asset: "USDT" }))).toBe("withdraw_submission.asset (should be a valid Vega ID)")
  })

  it("extension", () => {
    expect(errorOf(withdraw({ receiverAddress: "" }))).toBe("withdraw_ext.erc20.received_address (is required)")
    expect(errorOf(withdraw({ ext: {} }))).toBe("withdraw_ext.ext (is not supported)")
  })
})

// --- governance and staking ---------------------------------------------------------------------

describe("vote_submission", () => {
  it("proposal_id and value", () => {
    expectValid(C.command("voteSubmission", { proposalId: ID, value: "VALUE_NO" }))
    expect(errorOf(C.command("voteSubmission", C.voteSubmission()))).toBe(
      "vote_submission.proposal_id (is required), vote_submission.value (is required)"
    )
    expect(errorOf(C.command("voteSubmission", { proposalId: "p", value: Enum.unknownEnumValue(3) }))).toBe(
      "vote_submission.proposal_id (should be a valid Vega ID), vote_submission.value (is not a valid value)"
    )
  })
})

describe("delegation", () => {
  it("delegate_submission: amount and node_id", () => {
    expectValid(C.command("delegateSubmission", { nodeId: NODE, amount: "1" }))
    expect(errorOf(C.command("delegateSubmission", C.delegateSubmission()))).toBe(
      "delegate_submission.amount (is required), delegate_submission.node_id (is required)"
    )
    expect(errorOf(C.command("delegateSubmission", { nodeId: "n", amount: "0" }))).toBe(
      "delegate_submission.amount (is required), delegate_submission.node_id (should be a valid Vega public key)"
    )
    expect(errorOf(C.command("delegateSubmission", { nodeId: NODE, amount: "1.0" }))).toBe(
      "delegate_submission.amount (not a valid integer)"
    )
  })

  it("undelegate_submission: method and node_id", () => {
    expectValid(C.command("undelegateSubmission", C.undelegateSubmission({ nodeId: NODE, method: "METHOD_NOW" })))
    expect(errorOf(C.command("undelegateSubmission", C.undelegateSubmission({ nodeId: NODE })))).toBe(
      "undelegate_submission.method (is required)"
    )
    expect(
      errorOf(C.command("undelegateSubmission", C.undelegateSubmission({ method: Enum.unknownEnumValue(4) })))
    ).toBe("undelegate_submission.method (is required), undelegate_submission.node_id (is required)")
  })
})

// --- parties, referral sets, teams --------------------------------------------------------------

describe("update_party_profile", () => {
  const profile = (fields: Partial<C.UpdatePartyProfile>) =>
    C.command("updatePartyProfile", C.updatePartyProfile(fields))
  const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: `v${i}` }))

  it("accepts 10 entries and a 32-character alias", () => {
    expectValid(profile({ alias: "a".repeat(32), metadata: entries(10) }))
  })

  it("alias is at most 32 characters", () => {
    expect(errorOf(profile({ alias: "a".repeat(33) }))).toBe("update_party_profile.alias (is limited to 32 characters)")
  })

  it("at most 10 metadata entries", () => {
    expect(errorOf(profile({ metadata: entries(11) }))).toBe("update_party_profile.metadata (is limited to 10 entries)")
  })

  it("keys are 1 to 32 characters and unique; values at most 255 characters", () => {
    expect(errorOf(profile({ metadata: [{ key: "", value: "" }] }))).toBe(
      "update_party_profile.metadata.0.key (is required)"
    )
    expect(errorOf(profile({ metadata: [{ key: "k".repeat(33), value: "" }] }))).toBe(
      "update_party_profile.metadata.0.key (is limited to 32 characters)"
    )
    expect(
      errorOf(
        profile({
          metadata: [
            { key: "a", value: "1" },
            { key: "a", value: "2" }
          ]
        })
      )
    ).toBe("update_party_profile.metadata.1.key (is duplicated)")
    expect(errorOf(profile({ metadata: [{ key: "a", value: "v".repeat(256) }] }))).toBe(
      "update_party_profile.metadata.0.value (is limited to 255 characters)"
    )
  })

  it("sorts property strings byte-wise (10 before 2) and joins a property's errors in order", () => {
    const metadata = entries(11).map((e, i) => (i === 2 || i === 10 ? { key: "", value: e.value } : e))
    expect(errorOf(profile({ alias: "a".repeat(40), metadata }))).toBe(
      "update_party_profile.alias (is limited to 32 characters), update_party_profile.metadata (is limited to 10 entries), update_party_profile.metadata.10.key (is required, is duplicated), update_party_profile.metadata.2.key (is required)"
    )
  })
})

describe("referral sets and teams", () => {
  const team = (fields: Partial<C.CreateReferralSetTeam>) =>
    C.command(
      "createReferralSet",
      C.createReferralSet({ isTeam: true, team: C.createReferralSetTeam({ name: "A", ...fields }) })
    )

  it("create_referral_set: a plain referral set or a team", () => {
    expectValid(C.command("createReferralSet", C.createReferralSet()))
    expectValid(team({ closed: true, allowList: [PARTY], teamUrl: "https://a.example" }))
  })

  it("create_referral_set: a team needs a team", () => {
    expect(errorOf(C.command("createReferralSet", C.createReferralSet({ isTeam: true })))).toBe(
      "create_referral_set.team (is required)"
    )
  })

  it("create_referral_set: name, urls, allow list", () => {
    expect(errorOf(team({ name: "" }))).toBe("create_referral_set.team.name (is required)")
    expect(errorOf(team({ name: "n".repeat(101) }))).toBe(
      "create_referral_set.team.name (must be less than 100 characters)"
    )
    expect(errorOf(team({ teamUrl: "u".repeat(201), avatarUrl: "u".repeat(201) }))).toBe(
      "create_referral_set.team.avatar_url (must be less than 200 characters), create_referral_set.team.team_url (must be less than 200 characters)"
    )
    expect(errorOf(team({ allowList: [PARTY] }))).toBe(
      "create_referral_set.team.allow_list (setting an allow list requires setting the closed state)"
    )
  })

  it("update_referral_set: id and team", () => {
    expectValid(C.command("updateReferralSet", C.updateReferralSet({ id: ID })))
    expectValid(
      C.command("updateReferralSet", C.updateReferralSet({ id: ID, isTeam: true, team: C.updateReferralSetTeam() }))
    )
    expect(errorOf(C.command("updateReferralSet", C.updateReferralSet({ id: "x" })))).toBe(
      "update_referral_set.id (should be a valid Vega ID)"
    )
    expect(
      errorOf(
        C.command(
          "updateReferralSet",
          C.updateReferralSet({ id: ID, isTeam: true, team: C.updateReferralSetTeam({ name: "", allowList: [PARTY] }) })
        )
      )
    ).toBe(
      "update_referral_set.team.allow_list (setting an allow list requires setting the closed state), update_referral_set.team.name (is required)"
    )
  })

  it("apply_referral_code and join_team: id is a Vega ID", () => {
    expectValid(C.command("applyReferralCode", C.applyReferralCode({ id: ID })))
    expectValid(C.command("joinTeam", { id: ID }))
    expect(errorOf(C.command("applyReferralCode", C.applyReferralCode()))).toBe(
      "apply_referral_code.id (should be a valid Vega ID)"
    )
    expect(errorOf(C.command("joinTeam", { id: "team" }))).toBe("join_team.id (should be a valid Vega ID)")
  })
})

// --- input data, errors, formatting -------------------------------------------------------------

describe("validateInputData", () => {
  it("nonce must be positive and a command is required", () => {
    expect(Either.isRight(V.validateInputData({ nonce: 1n, command: order() }))).toBe(true)
    const left = V.validateInputData({ nonce: 0n })
    expect(Either.isLeft(left) && left.left.message).toBe(
      "tx.input_data.command (is required), tx.input_data.nonce (must be positive)"
    )
  })

  it("merges the command's errors", () => {
    const left = V.validateInputData({ nonce: 0n, blockHeight: 10n, command: order({ marketId: "" }) })
    expect(Either.isLeft(left) && left.left.message).toBe(
      "order_submission.market_id (is required), tx.input_data.nonce (must be positive)"
    )
  })
})

describe("CommandValidationError", () => {
  it("is a tagged error carrying the structured errors", () => {
    const left = V.validate(order({ marketId: "", size: 0n, timeInForce: "TIME_IN_FORCE_GTT" }))
    if (Either.isRight(left)) throw new Error("expected an error")
    const error = left.left
    expect(error).toBeInstanceOf(V.CommandValidationError)
    expect(error._tag).toBe("CommandValidationError")
    expect(error.errors).toEqual({
      "order_submission.market_id": ["is required"],
      "order_submission.size": ["must be positive"],
      "order_submission.expires_at": ["must be positive"]
    })
    expect(error.message).toBe(
      "order_submission.expires_at (must be positive), order_submission.market_id (is required), order_submission.size (must be positive)"
    )
    expect(V.CommandValidationError.identifier).toBe("@vega-effect/schema/CommandValidationError")
  })

  it("can be yielded in an Effect", () => {
    const program = Effect.gen(function* () {
      return yield* V.validate(C.command("joinTeam", { id: "" }))
    })
    const result = Effect.runSync(Effect.either(program))
    expect(Either.isLeft(result) && result.left.message).toBe("join_team.id (should be a valid Vega ID)")
  })

  it("check returns the errors without failing", () => {
    expect(V.check(C.command("joinTeam", { id: "" }))).toEqual({ "join_team.id": ["should be a valid Vega ID"] })
    expect(V.check(C.command("joinTeam", { id: ID }))).toEqual({})
  })
})

describe("format", () => {
  it("formats like Go: property (e1, e2), sorted, joined by comma and space", () => {
    expect(V.format({ b: ["x"], a: ["y", "z"] })).toBe("a (y, z), b (x)")
    expect(V.format({})).toBe("")
  })

  it("sorts by UTF-8 bytes (code points), not UTF-16 units", () => {
    expect(V.format({ "\u{1F600}": ["a"], "\uFFFF": ["b"] })).toBe("\uFFFF (b), \u{1F600} (a)")
  })
})
