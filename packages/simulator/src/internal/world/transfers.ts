/**
 * Transfers between the world's parties and the network's accounts, their fees and the fee
 * discounts parties earn by trading, as the core's banking engine runs them (core/banking,
 * v0.75.8) and the data node stores them (datanode/sqlstore/transfers.go, v0.75.8).
 *
 * What the world models:
 * - **One-off transfers** from a party's general account to another party's general account or
 *   to the network treasury, delivered in the block that makes them (no later `deliverOn`):
 *   DONE, or now and then REJECTED because the general account cannot pay the amount and its fee
 *   (the core's check of the transaction refuses an amount under the minimum,
 *   `transfer.minTransferQuantumMultiple` × the asset's quantum, or one it can see is short, so
 *   those never reach a block).
 * - **Recurring transfers** from a party's general account to another party or to the asset's
 *   global reward account, from a start epoch to an optional end epoch. At the end of each epoch
 *   from the start on, the core pays `amount × factor^(epoch − start)` (truncated); the transfer
 *   stays PENDING until it is DONE (its end epoch paid), STOPPED (that epoch's amount under the
 *   minimum, or not enough funds: the reason says which) or CANCELLED by its owner. No dispatch
 *   strategies (so no games and no scope).
 * - **Money**: each payment moves the amount from the general account to the network's pending
 *   transfers account (TRANSFER_FUNDS_SEND) and from there to the destination
 *   (TRANSFER_FUNDS_DISTRIBUTE), and the fee from the general account to the asset's
 *   infrastructure fee account (INFRASTRUCTURE_FEE_PAY), each a ledger entry
 *   (core/banking/transfers_common.go `processTransfer`).
 * - **Fee**: min(amount × `transfer.fee.factor`, `transfer.fee.maxQuantumAmount` × quantum),
 *   truncated (core/banking/fee_estimate.go), less the party's discount.
 * - **Fee discounts** per party and asset: at each epoch end the discount decays by
 *   `transfer.feeDiscountDecayFraction` and grows by the trading fees the party paid in the
 *   epoch (an amount under `transfer.feeDiscountMinimumTrackedAmount` × quantum is 0); a transfer
 *   spends it (core/banking/fee_discount.go). The node's store keeps the amounts the core
 *   publishes: the core publishes the discount a transfer spends from *before* it spends it, so
 *   the node's figure lags until the epoch ends.
 */
import { createHash } from "node:crypto"
import type { Random } from "../random.js"
import { isGoDecimalError, parseGoDecimal } from "../goDecimal.js"
import type { Account, Accounts, AccountType } from "./accounts.js"
import { SYSTEM_OWNER } from "./accounts.js"
import type { AssetInfo, Catalog, Party } from "./catalog.js"
import type { Chain } from "./chain.js"
import type { NetworkParameters } from "./networkParameters.js"
import { addVersion, type Versioned } from "./versioned.js"

export type TransferStatus =
  "STATUS_PENDING" | "STATUS_DONE" | "STATUS_REJECTED" | "STATUS_STOPPED" | "STATUS_CANCELLED"

export type TransferKind =
  | { readonly _tag: "OneOff" }
  | {
      readonly _tag: "Recurring"
      readonly startEpoch: number
      readonly endEpoch?: number | undefined
      readonly factor: string
    }

export interface Transfer {
  readonly id: string
  readonly from: Account
  readonly to: Account
  readonly asset: AssetInfo
  readonly amount: bigint
  readonly reference: string
  readonly kind: TransferKind
  /** Its states as the node's `transfers_current` shows them, oldest first. */
  readonly versions: Array<TransferVersion>
  /** The fee of each payment, oldest first. */
  readonly fees: Array<TransferFee>
}

export interface TransferVersion extends Versioned {
  readonly transfer: Transfer
  readonly status: TransferStatus
  readonly reason: string | undefined
  /** Block time of the event, unix microseconds. */
  readonly vt: number
}

export interface TransferFee {
  readonly height: number
  readonly epoch: number
  readonly amount: bigint
  readonly discountApplied: bigint
}

/** A fee discount as the node stores it: the latest row of a party and asset is its discount. */
export interface DiscountRow {
  readonly height: number
  readonly epoch: number
  readonly amount: bigint
}

/** A non-negative rational number. */
interface Ratio {
  readonly n: bigint
  readonly d: bigint
}

const ratio = (text: string): Ratio => {
  const parsed = parseGoDecimal(text)
  if (isGoDecimalError(parsed)) return { n: 0n, d: 1n }
  return parsed.exp >= 0
    ? { n: parsed.value * 10n ** BigInt(parsed.exp), d: 1n }
    : { n: parsed.value, d: 10n ** BigInt(-parsed.exp) }
}
const times = (a: Ratio, b: Ratio): Ratio => ({ n: a.n * b.n, d: a.d * b.d })
const whole = (n: bigint): Ratio => ({ n, d: 1n })
const lessThan = (a: Ratio, b: Ratio): boolean => a.n * b.d < b.n * a.d
const truncate = (a: Ratio): bigint => a.n / a.d

/** min(amount × factor, maxQuantumAmount × quantum), truncated (core/banking/fee_estimate.go, v0.75.8). */
export const theoreticalFee = (quantum: string, maxQuantumAmount: string, factor: string, amount: bigint): bigint => {
  const byFactor = times(whole(amount), ratio(factor))
  const cap = times(ratio(maxQuantumAmount), ratio(quantum))
  return truncate(lessThan(byFactor, cap) ? byFactor : cap)
}

/** The fee left to pay and the discount applied, from an accumulated discount (`calculateDiscount`). */
export const discounted = (accumulated: bigint, fee: bigint): { fee: bigint; discount: bigint } => {
  const left = fee > accumulated ? fee - accumulated : 0n
  return { fee: left, discount: fee - left }
}

export const TRANSFER_PARAMETERS = {
  feeFactor: "transfer.fee.factor",
  maxQuantumAmount: "transfer.fee.maxQuantumAmount",
  decayFraction: "transfer.feeDiscountDecayFraction",
  minimumTracked: "transfer.feeDiscountMinimumTrackedAmount",
  minimumQuantumMultiple: "transfer.minTransferQuantumMultiple"
} as const

const NOT_ENOUGH_FUNDS = "could not pay the fee for transfer: not enough funds to transfer"
const UNDER_MINIMUM = "could not transfer funds, less than minimal amount requested to transfer"

/** The chance a block has a new one-off transfer, a new recurring one, a cancellation. */
const ONE_OFF_CHANCE = 0.1
const RECURRING_CHANCE = 0.02
const CANCEL_CHANCE = 0.02

const discountKey = (party: string, asset: AssetInfo): string => `${party}/${asset.id}`

export class Transfers {
  /** Every transfer, in the order made. */
  readonly all: Array<Transfer> = []
  readonly byId = new Map<string, Transfer>()
  /** The node's discount rows per `party/asset`, oldest first. */
  readonly discounts = new Map<string, Array<DiscountRow>>()
  /** The core's own discount per `party/asset` (what a transfer can spend). */
  private readonly engineDiscounts = new Map<string, bigint>()
  /** Trading fees paid per `party/asset` in the current epoch. */
  private readonly tradingFees = new Map<string, { party: string; asset: AssetInfo; amount: bigint }>()
  /** Recurring transfers still PENDING. */
  private readonly active: Array<Transfer> = []
  private readonly assets: ReadonlyArray<AssetInfo>

  constructor(
    private readonly catalog: Catalog,
    private readonly chain: Chain,
    private readonly accounts: Accounts,
    private readonly parameters: NetworkParameters
  ) {
    this.assets = [...new Set(catalog.markets.map((m) => m.settlementAsset))]
  }

  private parameter(key: string, height: number): string {
    return this.parameters.at(key, height)?.value ?? "0"
  }

  /** A taker's trading fees, counted towards its discount at the end of the epoch. */
  registerTradingFees(party: Party, asset: AssetInfo, amount: bigint): void {
    if (party === this.catalog.network || amount <= 0n) return
    const key = discountKey(party.id, asset)
    const entry = this.tradingFees.get(key)
    if (entry === undefined) this.tradingFees.set(key, { party: party.id, asset, amount })
    else entry.amount += amount
  }

  /** The discount the node shows for a party and asset at `height`, if it has one. */
  discountAt(party: string, asset: string, height: number): DiscountRow | undefined {
    const rows = this.discounts.get(`${party}/${asset}`)
    if (rows === undefined) return undefined
    for (let i = rows.length - 1; i >= 0; i--) if (rows[i].height <= height) return rows[i]
    return undefined
  }

  private publishDiscount(key: string, amount: bigint, epoch: number, height: number): void {
    let rows = this.discounts.get(key)
    if (rows === undefined) this.discounts.set(key, (rows = []))
    const row = { height, epoch, amount }
    if (rows.length > 0 && rows[rows.length - 1].height === height) rows[rows.length - 1] = row
    else rows.push(row)
  }

  private general(party: Party, asset: AssetInfo, height: number): Account {
    return this.accounts.account(party.id, asset, undefined, "ACCOUNT_TYPE_GENERAL", height)
  }

  private system(asset: AssetInfo, type: AccountType, height: number): Account {
    return this.accounts.account(SYSTEM_OWNER, asset, undefined, type, height)
  }

  private newId(): string {
    return createHash("sha256").update(`${this.chain.chainId}/transfer/${this.all.length}`).digest("hex")
  }

  private setStatus(transfer: Transfer, status: TransferStatus, reason: string | undefined, height: number): void {
    const row: TransferVersion = {
      transfer,
      status,
      reason,
      from: height,
      to: Infinity,
      vt: this.chain.blockTime(height)
    }
    if (transfer.versions.length === 0) transfer.versions.push(row)
    else addVersion(transfer.versions, row)
  }

  private minimum(asset: AssetInfo, height: number): bigint {
    return truncate(
      times(ratio(asset.quantum), ratio(this.parameter(TRANSFER_PARAMETERS.minimumQuantumMultiple, height)))
    )
  }

  /**
   * One payment of a transfer: the fee (less the discount, which is spent even when the payment
   * then fails), the amount to the pending transfers account and on to the destination. The
   * reason it failed, if it did.
   */
  private pay(transfer: Transfer, amount: bigint, owner: Party, height: number): string | undefined {
    const { asset } = transfer
    const fee = theoreticalFee(
      asset.quantum,
      this.parameter(TRANSFER_PARAMETERS.maxQuantumAmount, height),
      this.parameter(TRANSFER_PARAMETERS.feeFactor, height),
      amount
    )
    const key = discountKey(owner.id, asset)
    const epoch = this.chain.epochOf(height)
    let toPay = fee
    let discount = 0n
    const accumulated = this.engineDiscounts.get(key)
    if (fee > 0n && accumulated !== undefined) {
      ;({ fee: toPay, discount } = discounted(accumulated, fee))
      if (discount > 0n) {
        // the core publishes the discount as it was before this spend
        this.publishDiscount(key, accumulated, epoch, height)
        this.engineDiscounts.set(key, accumulated - discount)
      }
    }
    if (this.accounts.balance(transfer.from) < amount + toPay) return NOT_ENOUGH_FUNDS
    const pending = this.system(asset, "ACCOUNT_TYPE_PENDING_TRANSFERS", height)
    this.accounts.move(transfer.from, pending, amount, "TRANSFER_TYPE_TRANSFER_FUNDS_SEND", height)
    this.accounts.move(pending, transfer.to, amount, "TRANSFER_TYPE_TRANSFER_FUNDS_DISTRIBUTE", height)
    this.accounts.move(
      transfer.from,
      this.system(asset, "ACCOUNT_TYPE_FEES_INFRASTRUCTURE", height),
      toPay,
      "TRANSFER_TYPE_INFRASTRUCTURE_FEE_PAY",
      height
    )
    transfer.fees.push({ height, epoch, amount: toPay, discountApplied: discount })
    return undefined
  }

  private make(
    owner: Party,
    to: Account,
    asset: AssetInfo,
    amount: bigint,
    reference: string,
    kind: TransferKind,
    height: number
  ): Transfer {
    const transfer: Transfer = {
      id: this.newId(),
      from: this.general(owner, asset, height),
      to,
      asset,
      amount,
      reference,
      kind,
      versions: [],
      fees: []
    }
    this.all.push(transfer)
    this.byId.set(transfer.id, transfer)
    return transfer
  }

  private party(random: Random): Party {
    const people = this.catalog.parties
    return people[1 + random.int(people.length - 1)]
  }

  /** A party other than `owner` (the next one when the draw is `owner`). */
  private otherParty(random: Random, owner: Party): Party {
    const people = this.catalog.parties
    const drawn = this.party(random)
    return drawn !== owner ? drawn : people[1 + (people.indexOf(owner) % (people.length - 1))]
  }

  private amountFor(random: Random, owner: Party, asset: AssetInfo, height: number): bigint {
    const unit = 10n ** BigInt(asset.decimals)
    // now and then more than the general account holds by the time the block delivers it (the
    // core's check of the transaction refuses what it can see is short, core/processor/abci.go)
    if (random.chance(0.05)) return this.accounts.balance(this.general(owner, asset, height)) + unit
    return BigInt(random.between(1, 5_000)) * unit + BigInt(random.int(1000)) * (unit / 1000n)
  }

  /** A one-off transfer, paid or rejected at once. */
  oneOff(random: Random, height: number): Transfer {
    const owner = this.party(random)
    const asset = random.pick(this.assets)
    const toTreasury = random.chance(0.2)
    const receiver = this.otherParty(random, owner)
    const to = toTreasury
      ? this.system(asset, "ACCOUNT_TYPE_NETWORK_TREASURY", height)
      : this.general(receiver, asset, height)
    const amount = this.amountFor(random, owner, asset, height)
    const reference = random.chance(0.5) ? `payment-${this.all.length}` : ""
    const transfer = this.make(owner, to, asset, amount, reference, { _tag: "OneOff" }, height)
    const reason = amount < this.minimum(asset, height) ? UNDER_MINIMUM : this.pay(transfer, amount, owner, height)
    this.setStatus(transfer, reason === undefined ? "STATUS_DONE" : "STATUS_REJECTED", reason, height)
    return transfer
  }

  /** A recurring transfer, accepted from the current epoch (or the next) on. */
  recurring(random: Random, height: number): Transfer {
    const owner = this.party(random)
    const asset = random.pick(this.assets)
    const toRewards = random.chance(0.5)
    const receiver = this.otherParty(random, owner)
    const to = toRewards
      ? this.system(asset, "ACCOUNT_TYPE_GLOBAL_REWARD", height)
      : this.general(receiver, asset, height)
    const unit = 10n ** BigInt(asset.decimals)
    const amount = BigInt(random.between(1, 500)) * unit
    const startEpoch = this.chain.epochOf(height) + random.int(2)
    const endEpoch = random.chance(0.7) ? startEpoch + random.int(4) : undefined
    const factor = random.pick(["1", "1", "0.5", "0.9", "1.1"])
    const reference = random.chance(0.5) ? `recurring-${this.all.length}` : ""
    const transfer = this.make(
      owner,
      to,
      asset,
      amount,
      reference,
      { _tag: "Recurring", startEpoch, endEpoch, factor },
      height
    )
    this.setStatus(transfer, "STATUS_PENDING", undefined, height)
    this.active.push(transfer)
    return transfer
  }

  /** The transfers of the world's history, made at the height it starts from. */
  generate(oneOffs: Random, recurrings: Random, count: number, recurringCount: number, height: number): void {
    for (let i = 0; i < count; i++) this.oneOff(oneOffs, height)
    for (let i = 0; i < recurringCount; i++) this.recurring(recurrings, height)
  }

  /** One block: now and then a new transfer, or an owner cancelling a recurring one. */
  advance(random: Random, height: number): void {
    if (random.chance(ONE_OFF_CHANCE)) this.oneOff(random, height)
    if (random.chance(RECURRING_CHANCE)) this.recurring(random, height)
    if (this.active.length > 0 && random.chance(CANCEL_CHANCE)) {
      const transfer = this.active.splice(random.int(this.active.length), 1)[0]
      this.setStatus(transfer, "STATUS_CANCELLED", undefined, height)
    }
  }

  /**
   * The end of `epoch` (in block `height`): the recurring transfers pay, then the discounts decay
   * and take in the epoch's trading fees (core/banking/engine.go `OnEpoch`).
   */
  endEpoch(epoch: number, height: number): void {
    for (const transfer of [...this.active]) {
      const kind = transfer.kind
      if (kind._tag !== "Recurring" || kind.startEpoch > epoch) continue
      const owner = this.catalog.parties.find((p) => p.id === transfer.from.owner) as Party
      const factor = ratio(kind.factor)
      const power = BigInt(epoch - kind.startEpoch)
      const amount = truncate({ n: transfer.amount * factor.n ** power, d: factor.d ** power })
      let reason: string | undefined
      if (amount < this.minimum(transfer.asset, height)) reason = UNDER_MINIMUM
      else reason = this.pay(transfer, amount, owner, height)
      if (reason !== undefined) this.finish(transfer, "STATUS_STOPPED", reason, height)
      else if (kind.endEpoch === epoch) this.finish(transfer, "STATUS_DONE", undefined, height)
    }
    this.updateDiscounts(epoch, height)
  }

  private finish(transfer: Transfer, status: TransferStatus, reason: string | undefined, height: number): void {
    this.active.splice(this.active.indexOf(transfer), 1)
    this.setStatus(transfer, status, reason, height)
  }

  private updateDiscounts(epoch: number, height: number): void {
    const decay = ratio(this.parameter(TRANSFER_PARAMETERS.decayFraction, height))
    const minimum = ratio(this.parameter(TRANSFER_PARAMETERS.minimumTracked, height))
    const updated = new Set<string>()
    for (const [key, { asset, amount }] of this.tradingFees) {
      updated.add(key)
      const before = this.engineDiscounts.get(key) ?? 0n
      const next = times(whole(before), decay)
      const sum: Ratio = { n: next.n + amount * next.d, d: next.d }
      const value = lessThan(sum, times(minimum, ratio(asset.quantum))) ? 0n : truncate(sum)
      this.engineDiscounts.set(key, value)
      this.publishDiscount(key, value, epoch, height)
    }
    this.tradingFees.clear()
    for (const [key, before] of this.engineDiscounts) {
      if (updated.has(key)) continue
      const asset = this.assets.find((a) => key.endsWith(`/${a.id}`)) as AssetInfo
      const next = times(whole(before), decay)
      if (lessThan(next, times(minimum, ratio(asset.quantum)))) {
        this.engineDiscounts.delete(key)
        this.publishDiscount(key, 0n, epoch, height)
      } else {
        const value = truncate(next)
        this.engineDiscounts.set(key, value)
        this.publishDiscount(key, value, epoch, height)
      }
    }
  }
}
