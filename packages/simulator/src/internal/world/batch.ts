/**
 * A `batchMarketInstructions` transaction, applied as the core's batch processor does
 * (core/processor/batch_market_instructions_processor.go, v0.75.8):
 *
 * - the margin mode updates first (cross margin is what every position of the world has, so it
 *   succeeds, leaves the margin as it was and is recorded as the party's margin mode in the
 *   market; isolated margin is not modelled and fails), a failed one failing every later
 *   instruction of its market;
 * - then the order cancellations, the amendments (an order amended once in the batch cannot be
 *   amended again: `order already amended in batch`), the submissions, the stop order
 *   cancellations and the stop order submissions, each checked as its own transaction would be,
 *   then applied as one;
 * - ids from the transaction's id generator: first one per submission and two per stop order
 *   submission, set aside; order submission `i` takes the `i`-th; stop order submission `i` takes
 *   the `(i + j)`-th for its falls-below half, where `j` is the index of the last order submission
 *   (0 without any), and the next for its rises-above half (the core's arithmetic: with order
 *   submissions a stop order can share an order's id). An order triggered on submission takes
 *   the generator's next id.
 *
 * The result fails when any instruction failed, its text the failures by property, sorted, as
 * `commands.Errors` prints them: `<property> (<error>, …)`. The property is the instruction's
 * index in the whole batch, except for order and stop order cancellations (and instructions
 * failed by their market), which use their index in their own list, as the core does, so two
 * failures can share a property. A stop order submission the market rejects does not fail the
 * batch (the core drops that error), nor does one naming an unknown market.
 */
import { CommandValidation, type Commands } from "@vega-effect/schema"
import type { World } from "../../World.js"
import type { Party } from "./catalog.js"
import { idGenerator } from "./stopOrders.js"

export interface BatchSubmitter {
  readonly id: string
  readonly party: Party | undefined
  readonly join: () => Party
}

/** The simulator's own text for a margin mode it does not model. */
export const ISOLATED_MARGIN_NOT_MODELLED = "isolated margin is not modelled by the simulator"

const failedMarketText = (marketId: string) =>
  `Update margin mode transaction failed for market ${marketId}. Ignoring all transactions for the market`

/** The stateless check of one instruction, as its own command: the failure text, if any. */
const invalid = (command: Commands.Command): string | undefined => {
  const errors = CommandValidation.check(command)
  return Object.keys(errors).length === 0 ? undefined : CommandValidation.format(errors)
}

/**
 * A margin mode update that passed validation: cross margin is recorded (the party's mode stays
 * what it was, but the core reports the update all the same), isolated margin fails.
 */
export const updateMarginMode = (
  world: World,
  who: BatchSubmitter,
  update: Commands.UpdateMarginMode,
  height: number
): string | undefined => {
  const market = world.catalog.marketById.get(update.marketId)
  if (market === undefined) return "OrderError: Invalid Market ID"
  if (update.mode !== "MODE_CROSS_MARGIN") return ISOLATED_MARGIN_NOT_MODELLED
  world.accounts.marginModes.record({
    party: who.join(),
    market,
    mode: "MARGIN_MODE_CROSS_MARGIN",
    atEpoch: world.chain.epochOf(height),
    from: height,
    to: Infinity
  })
  return undefined
}

/** Applies a batch at its block's height; returns the failure text, if any. */
export const applyBatch = (
  world: World,
  batch: Commands.BatchMarketInstructions,
  who: BatchSubmitter,
  rootId: string,
  height: number
): string | undefined => {
  const errors: Record<string, Array<string>> = {}
  const fail = (property: string | number, text: string) => (errors[String(property)] ??= []).push(text)
  const markets = world.catalog.marketById
  const exchange = world.exchange
  const failedMarkets = new Set<string>()
  const nextId = idGenerator(rootId)
  // the submitter is a party of the world from its first instruction that goes through
  const party = () => world.catalog.partyById.get(who.id)

  for (const update of batch.updateMarginMode) {
    const text = invalid({ _tag: "updateMarginMode", value: update }) ?? updateMarginMode(world, who, update, height)
    if (text === undefined) continue
    fail("updateMarginMode", text)
    failedMarkets.add(update.marketId)
  }

  const ids = Array.from({ length: batch.submissions.length + 2 * batch.stopOrdersSubmission.length }, nextId)
  let index = 0
  batch.cancellations.forEach((cancel, i) => {
    const text =
      invalid({ _tag: "orderCancellation", value: cancel }) ??
      (failedMarkets.has(cancel.marketId)
        ? failedMarketText(cancel.marketId)
        : exchange.cancel(who.id, markets, cancel, height))
    if (text !== undefined) fail(i, text)
    else who.join()
    index++
  })

  const amended = new Set<string>()
  for (const amend of batch.amendments) {
    const text = amended.has(amend.orderId)
      ? "order already amended in batch"
      : (invalid({ _tag: "orderAmendment", value: amend }) ??
        (failedMarkets.has(amend.marketId)
          ? failedMarketText(amend.marketId)
          : exchange.amend(who.id, markets, amend, height)))
    if (text !== undefined) fail(index, text)
    else {
      amended.add(amend.orderId)
      who.join()
    }
    index++
  }

  let last = 0
  batch.submissions.forEach((submission, i) => {
    const text =
      invalid({ _tag: "orderSubmission", value: submission }) ??
      (failedMarkets.has(submission.marketId)
        ? failedMarketText(submission.marketId)
        : exchange.submit(party(), who.join, markets.get(submission.marketId), submission, ids[i], height))
    if (text !== undefined) fail(index, text)
    index++
    last = i
  })

  stopOrderInstructions(world, batch, who, { ids, last, index, nextId, failedMarkets, fail }, height)
  return Object.keys(errors).length === 0 ? undefined : CommandValidation.format(errors)
}

interface Progress {
  readonly ids: ReadonlyArray<string>
  /** The index of the last order submission (0 without any). */
  last: number
  /** The index of the next instruction in the whole batch. */
  index: number
  readonly nextId: () => string
  readonly failedMarkets: ReadonlySet<string>
  readonly fail: (property: string | number, text: string) => void
}

/** The stop order cancellations, then submissions, of a batch. */
const stopOrderInstructions = (
  world: World,
  batch: Commands.BatchMarketInstructions,
  who: BatchSubmitter,
  progress: Progress,
  height: number
): void => {
  const { fail, failedMarkets, ids, nextId } = progress
  const markets = world.catalog.marketById
  batch.stopOrdersCancellation.forEach((cancel, i) => {
    const marketId = cancel.marketId ?? ""
    const text =
      invalid({ _tag: "stopOrdersCancellation", value: cancel }) ??
      (failedMarkets.has(marketId)
        ? failedMarketText(marketId)
        : world.stopOrders.cancel(who.id, markets, cancel, height))
    if (text !== undefined) fail(i, text)
    who.join()
    progress.index++
  })

  batch.stopOrdersSubmission.forEach((submission, i) => {
    const text = invalid({ _tag: "stopOrdersSubmission", value: submission })
    const marketIds = [submission.risesAbove, submission.fallsBelow].map((s) => s?.orderSubmission?.marketId ?? "")
    const failedMarket = marketIds.find((id) => failedMarkets.has(id))
    if (text !== undefined) fail(progress.index, text)
    else if (failedMarket !== undefined) fail(i, failedMarketText(failedMarket))
    else {
      const fallsBelow = submission.fallsBelow === undefined ? undefined : ids[i + progress.last]
      if (fallsBelow !== undefined && submission.risesAbove !== undefined) progress.last++
      const risesAbove = submission.risesAbove === undefined ? undefined : ids[i + progress.last]
      world.stopOrders.submit(
        world.catalog.partyById.get(who.id),
        who.join,
        markets,
        submission,
        nextId,
        { ...(fallsBelow === undefined ? {} : { fallsBelow }), ...(risesAbove === undefined ? {} : { risesAbove }) },
        height
      )
      who.join()
    }
    progress.index++
  })
}
