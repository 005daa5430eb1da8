/**
 * Applies an included user transaction to the world and says what came of it.
 *
 * Modelled commands, each written at the including block's height:
 *
 * - `updatePartyProfile`: the alias and metadata replace the party's profile. An alias another
 *   party holds, or the reserved alias `network`, fails.
 * - `liquidityProvisionSubmission`: a new provision (id = the transaction's deterministic id,
 *   version 1) in STATUS_PENDING, which becomes ACTIVE at the next epoch, as the node does outside
 *   opening auctions. A party with a live provision (active, undeployed or pending) in the market
 *   cannot submit another.
 * - `liquidityProvisionAmendment`: a STATUS_PENDING version (version + 1 over the active one; empty
 *   or zero fields keep the active values) that becomes ACTIVE at the next epoch. Amending a
 *   submission that is still pending replaces it (version 1).
 * - `liquidityProvisionCancellation`: the provision becomes STATUS_CANCELLED at once.
 * - `orderSubmission`, `orderAmendment`, `orderCancellation`: through the markets' books (`orders.ts`).
 * - `stopOrdersSubmission`, `stopOrdersCancellation`: through the stop orders (`stopOrders.ts`).
 *   The core's processor logs what the market answers and reports success, so these succeed
 *   once they pass validation; a rejected stop order is served with its rejection reason.
 * - `batchMarketInstructions`: as `batch.ts` says.
 * - `updateMarginMode`: as a batch's margin mode update (`batch.ts`): cross margin succeeds and
 *   is recorded, isolated margin fails as not modelled.
 *
 * A party the world has not seen joins it with its first successful transaction (a profile with
 * alias `""` from that height, unless the transaction sets one, and a deposit in every settlement
 * asset: see `accounts.ts`). Anything else fails with
 * `<command> is not modelled by the simulator`. Rows a transaction wrote are left alone by the
 * world's own generated activity.
 *
 * Failure texts not observed on a node but inferred from the core's code:
 * - `OrderError: Invalid Market ID` for every command naming an unknown market (the execution
 *   engine answers `types.ErrInvalidMarketID` for orders and liquidity provisions alike);
 * - `alias "<alias>" is already taken` and `this alias is reserved` (core parties engine);
 * - `liquidity provision already exists`, `party is not a liquidity provider` and
 *   `empty liquidity provision amendment content` (core liquidity engine and market);
 * - the order texts listed in `OrderErrors` (`orders.ts`).
 * A command the node's own validation would have rejected fails with that validation's text.
 */
import { CommandValidation, type Commands, Decimal, Ids } from "@vega-effect/schema"
import type { Transaction, TransactionResult } from "@vega-effect/schema"
import * as BigDecimal from "effect/BigDecimal"
import type { World } from "../../World.js"
import type { IncludedTransaction } from "../core/contract.js"
import { isGoDecimalError, parseGoDecimal } from "../goDecimal.js"
import { joinParty, type MarketInfo, type Party } from "./catalog.js"
import { compareLp, type LpRow, LpStatus } from "./liquidity.js"
import { applyBatch, updateMarginMode } from "./batch.js"
import { deterministicId, OrderErrors } from "./orders.js"
import { idGenerator } from "./stopOrders.js"

/** A result with the command's echo and either `success` or the failure text. */
export const resultOf = (tx: IncludedTransaction, error?: string): TransactionResult.TransactionResult =>
  ({
    partyId: tx.partyId as Ids.PartyId,
    status: error === undefined,
    hash: tx.hash as Transaction.TxHash,
    statusDetail: error === undefined ? "STATUS_SUCCESS" : "STATUS_FAILURE",
    [tx.command._tag]: tx.command.value,
    ...(error === undefined ? { success: {} } : { failure: { error, errors: [] } })
  }) as unknown as TransactionResult.TransactionResult

/** Failure texts of profiles and liquidity provisions (see the module comment). */
export const ApplyErrors = {
  aliasTaken: (alias: string) => `alias ${JSON.stringify(alias)} is already taken`,
  aliasReserved: "this alias is reserved",
  provisionExists: "liquidity provision already exists",
  notLiquidityProvider: "party is not a liquidity provider",
  emptyAmendment: "empty liquidity provision amendment content",
  /** Never reached through the core, which only includes transactions from valid keys. */
  invalidPubKey: "tx.pub_key (should be a valid Vega public key)"
} as const

/** The network party's own name, which no party may take as an alias. */
const RESERVED_ALIAS = Ids.NETWORK_PARTY
const LIVE = new Set<number>([LpStatus.ACTIVE, LpStatus.UNDEPLOYED, LpStatus.PENDING])

/** The submitter, who joins the world only when the transaction succeeds. */
interface Submitter {
  readonly id: string
  readonly party: Party | undefined
  readonly join: () => Party
}

type Outcome = string | undefined

/** A fee as the data node stores and prints it (plain notation, trailing zeros trimmed). */
const feeOf = (fee: string): BigDecimal.BigDecimal | undefined => {
  const parsed = parseGoDecimal(fee)
  return isGoDecimalError(parsed) ? undefined : BigDecimal.normalize(BigDecimal.make(parsed.value, -parsed.exp))
}

/** An unsigned integer amount, `0n` when empty. */
const amountOf = (amount: string): bigint => (amount === "" ? 0n : BigInt(amount))

const updateProfile = (world: World, tx: IncludedTransaction, who: Submitter, cmd: Commands.UpdatePartyProfile) => {
  if (cmd.alias !== "") {
    if (cmd.alias === RESERVED_ALIAS) return ApplyErrors.aliasReserved
    if (world.profiles.aliasOwner(cmd.alias, who.party) !== undefined) return ApplyErrors.aliasTaken(cmd.alias)
  }
  const party = who.join()
  world.profiles.set(
    party,
    tx.height,
    cmd.alias,
    cmd.metadata.map(({ key, value }) => ({ key, value }))
  )
  return undefined
}

/** The latest row of the party's live provision in the market. */
const liveProvision = (world: World, party: Party | undefined, market: MarketInfo): LpRow | undefined => {
  if (party === undefined) return undefined
  const lps = world.liquidityProvisions
  let found: LpRow | undefined
  for (const row of lps.byParty.get(party.id) ?? []) {
    if (row.market !== market) continue
    const latest = lps.latestOf(row.id)
    if (latest !== undefined && LIVE.has(latest.status) && (found === undefined || compareLp(latest, found) > 0)) {
      found = latest
    }
  }
  return found
}

const submitProvision = (
  world: World,
  tx: IncludedTransaction,
  who: Submitter,
  cmd: Commands.LiquidityProvisionSubmission
): Outcome => {
  const market = world.catalog.marketById.get(cmd.marketId)
  if (market === undefined) return OrderErrors.invalidMarketId
  if (liveProvision(world, who.party, market) !== undefined) return ApplyErrors.provisionExists
  const party = who.join()
  const vt = world.chain.blockTime(tx.height)
  world.liquidityProvisions.record({
    id: deterministicId(tx.signature),
    party,
    market,
    from: tx.height,
    to: Infinity,
    liveTo: Infinity,
    vt,
    createdAt: vt,
    commitment: amountOf(cmd.commitmentAmount),
    fee: Decimal.format(feeOf(cmd.fee)!),
    version: 1,
    status: LpStatus.PENDING,
    reference: cmd.reference
  })
  return undefined
}

const amendProvision = (
  world: World,
  tx: IncludedTransaction,
  who: Submitter,
  cmd: Commands.LiquidityProvisionAmendment
): Outcome => {
  const market = world.catalog.marketById.get(cmd.marketId)
  if (market === undefined) return OrderErrors.invalidMarketId
  const commitment = amountOf(cmd.commitmentAmount)
  const fee = cmd.fee === "" ? undefined : feeOf(cmd.fee)
  const newFee = fee !== undefined && fee.value !== 0n ? Decimal.format(fee) : undefined
  if (commitment === 0n && newFee === undefined && cmd.reference === "") return ApplyErrors.emptyAmendment
  const latest = liveProvision(world, who.party, market)
  if (latest === undefined) return ApplyErrors.notLiquidityProvider
  // the active (or undeployed) version the amendment applies to; a pending submission has none
  const base = world.liquidityProvisions.pair(latest, tx.height).current
  const replacesSubmission = base.status === LpStatus.PENDING
  const vt = world.chain.blockTime(tx.height)
  world.liquidityProvisions.record({
    id: base.id,
    party: base.party,
    market,
    from: tx.height,
    to: Infinity,
    liveTo: Infinity,
    vt,
    createdAt: base.createdAt,
    commitment: commitment === 0n ? base.commitment : commitment,
    fee: newFee ?? base.fee,
    version: replacesSubmission ? base.version : base.version + 1,
    status: LpStatus.PENDING,
    reference: cmd.reference === "" ? base.reference : cmd.reference
  })
  return undefined
}

const cancelProvision = (
  world: World,
  tx: IncludedTransaction,
  who: Submitter,
  cmd: Commands.LiquidityProvisionCancellation
): Outcome => {
  const market = world.catalog.marketById.get(cmd.marketId)
  if (market === undefined) return OrderErrors.invalidMarketId
  const latest = liveProvision(world, who.party, market)
  if (latest === undefined) return ApplyErrors.notLiquidityProvider
  const base = world.liquidityProvisions.pair(latest, tx.height).current
  world.liquidityProvisions.record({
    ...base,
    from: tx.height,
    to: Infinity,
    liveTo: Infinity,
    vt: world.chain.blockTime(tx.height),
    status: LpStatus.CANCELLED
  })
  return undefined
}

const apply = (world: World, tx: IncludedTransaction, who: Submitter): Outcome => {
  const { command } = tx
  switch (command._tag) {
    case "updatePartyProfile":
      return updateProfile(world, tx, who, command.value)
    case "liquidityProvisionSubmission":
      return submitProvision(world, tx, who, command.value)
    case "liquidityProvisionAmendment":
      return amendProvision(world, tx, who, command.value)
    case "liquidityProvisionCancellation":
      return cancelProvision(world, tx, who, command.value)
    case "orderSubmission": {
      const market = world.catalog.marketById.get(command.value.marketId)
      return world.exchange.submit(who.party, who.join, market, command.value, deterministicId(tx.signature), tx.height)
    }
    case "orderAmendment": {
      const outcome = world.exchange.amend(who.id, world.catalog.marketById, command.value, tx.height)
      if (outcome === undefined) who.join()
      return outcome
    }
    case "orderCancellation": {
      const outcome = world.exchange.cancel(who.id, world.catalog.marketById, command.value, tx.height)
      if (outcome === undefined) who.join()
      return outcome
    }
    case "stopOrdersSubmission": {
      const nextId = idGenerator(deterministicId(tx.signature))
      const cmd = command.value
      const ids = {
        ...(cmd.fallsBelow === undefined ? {} : { fallsBelow: nextId() }),
        ...(cmd.risesAbove === undefined ? {} : { risesAbove: nextId() })
      }
      world.stopOrders.submit(who.party, who.join, world.catalog.marketById, cmd, nextId, ids, tx.height)
      who.join()
      return undefined
    }
    case "stopOrdersCancellation":
      world.stopOrders.cancel(who.id, world.catalog.marketById, command.value, tx.height)
      who.join()
      return undefined
    case "batchMarketInstructions":
      return applyBatch(world, command.value, who, deterministicId(tx.signature), tx.height)
    case "updateMarginMode":
      return updateMarginMode(world, who, command.value, tx.height)
    default:
      return `${command._tag} is not modelled by the simulator`
  }
}

const MODELLED = new Set<Commands.CommandName>([
  "updatePartyProfile",
  "liquidityProvisionSubmission",
  "liquidityProvisionAmendment",
  "liquidityProvisionCancellation",
  "orderSubmission",
  "orderAmendment",
  "orderCancellation",
  "stopOrdersSubmission",
  "stopOrdersCancellation",
  "batchMarketInstructions",
  "updateMarginMode"
])

/**
 * Applies `tx` at its block's height (`world.height === tx.height`). Business failures are failed
 * results, never exceptions.
 */
export const applyTransaction = (world: World, tx: IncludedTransaction): TransactionResult.TransactionResult => {
  const { command } = tx
  if (!MODELLED.has(command._tag)) return resultOf(tx, `${command._tag} is not modelled by the simulator`)
  if (!Ids.isVegaId(tx.partyId)) return resultOf(tx, ApplyErrors.invalidPubKey)
  const invalid = CommandValidation.check(command)
  if (Object.keys(invalid).length > 0) return resultOf(tx, CommandValidation.format(invalid))
  // the data node stores party ids as bytes and prints them in lowercase
  const id = tx.partyId.toLowerCase()
  const who: Submitter = {
    id,
    party: world.catalog.partyById.get(id),
    join: () => {
      const isNew = !world.catalog.partyById.has(id)
      const party = joinParty(world.catalog, id)
      world.profiles.join(party, tx.height)
      if (isNew) world.accounts.fund(party, tx.height)
      return party
    }
  }
  return resultOf(tx, apply(world, tx, who))
}
