/**
 * The exchange's invariants, checked over several seeds and block counts: what every trade, order
 * and position must satisfy whatever the world's random activity did.
 */
import { describe, expect, it } from "@effect/vitest"
import type { MarketInfo } from "../src/internal/world/catalog.js"
import { feesOf } from "../src/internal/world/fees.js"
import { LADDER_LEVELS } from "../src/internal/world/orders.js"
import { World } from "../src/World.js"

/** Seeds and block counts; some with perpetuals paying funding within the blocks (a period in seconds). */
const CASES: ReadonlyArray<readonly [seed: number, blocks: number, fundingPeriodSeconds?: number]> = [
  [1, 40],
  [2, 75],
  [3, 120, 30],
  [11, 33, 10]
]

const worldAfter = (seed: number, blocks: number, fundingPeriodSeconds?: number) => {
  const world = new World({
    seed,
    activity: { positionTrades: 30 },
    ...(fundingPeriodSeconds === undefined ? {} : { fundingPeriodSeconds })
  })
  const start = world.height
  const opening = new Map<string, bigint>()
  const openingPnl = new Map<string, bigint>()
  for (const row of world.positions.current.values()) {
    opening.set(`${row.party.id}/${row.market.id}`, BigInt(row.openVolume))
    openingPnl.set(`${row.party.id}/${row.market.id}`, BigInt(row.realisedPnl))
  }
  world.advance(blocks)
  return { world, start, opening, openingPnl }
}

describe("the exchange, over seeds and blocks", () => {
  for (const [seed, blocks, funding] of CASES) {
    it(`seed ${seed}, ${blocks} blocks`, () => {
      const { opening, world } = worldAfter(seed, blocks, funding)
      const { orders, trades } = world.exchange
      expect(trades.log.length).toBeGreaterThan(blocks)
      expect(new Set(trades.log.map((t) => t.type))).toContain("TYPE_DEFAULT")

      // open volume per market sums to zero
      const sums = new Map<MarketInfo, bigint>()
      for (const row of world.positions.current.values()) {
        sums.set(row.market, (sums.get(row.market) ?? 0n) + BigInt(row.openVolume))
      }
      expect([...sums.values()].every((sum) => sum === 0n)).toBe(true)

      // each party's position is its opening position plus its fills
      const filled = new Map<string, bigint>()
      const add = (key: string, size: bigint) => filled.set(key, (filled.get(key) ?? 0n) + size)
      for (const t of trades.log) {
        add(`${t.buyer.id}/${t.market.id}`, t.size)
        add(`${t.seller.id}/${t.market.id}`, -t.size)
      }
      for (const row of world.positions.current.values()) {
        const key = `${row.party.id}/${row.market.id}`
        expect([key, BigInt(row.openVolume)]).toEqual([key, (opening.get(key) ?? 0n) + (filled.get(key) ?? 0n)])
      }

      // every order shrank by exactly what it traded; no order traded more than its size
      const tradedBy = new Map<string, bigint>()
      for (const t of trades.log) {
        tradedBy.set(t.buyOrder, (tradedBy.get(t.buyOrder) ?? 0n) + t.size)
        if (t.sellOrder !== t.buyOrder) tradedBy.set(t.sellOrder, (tradedBy.get(t.sellOrder) ?? 0n) + t.size)
      }
      for (const [id, versions] of orders.byId) {
        const last = versions[versions.length - 1]
        expect([id, last.size - last.remaining]).toEqual([id, tradedBy.get(id) ?? 0n])
        expect(last.remaining >= 0n && last.remaining <= last.size).toBe(true)
        // remaining never grows between versions of the same size
        for (let i = 1; i < versions.length; i++) {
          if (versions[i].size === versions[i - 1].size) {
            expect(versions[i].remaining <= versions[i - 1].remaining).toBe(true)
          }
        }
      }

      // fees: the aggressor pays what the fee rules say, the passive side nothing
      for (const t of trades.log) {
        const expected = feesOf(t.market, t.price, t.size)
        const [paid, passive] = t.aggressor === "SIDE_BUY" ? [t.buyerFee, t.sellerFee] : [t.sellerFee, t.buyerFee]
        expect(paid).toEqual(expected)
        expect(passive).toEqual({ makerFee: 0n, infrastructureFee: 0n, liquidityFee: 0n })
      }

      // the book is never crossed, holds only live orders, and each maker quotes every level
      for (const market of world.catalog.markets) {
        const book = world.exchange.books[market.index]
        const bid = book.best("SIDE_BUY")
        const ask = book.best("SIDE_SELL")
        if (bid !== undefined && ask !== undefined) expect(bid.price < ask.price).toBe(true)
        for (const resting of book.byId.values()) {
          expect(orders.current(resting.id)).toMatchObject({ status: "STATUS_ACTIVE", remaining: resting.remaining })
        }
        const maker = world.exchange.makerOf(market)
        const quotes = [...book.byId.values()].filter((o) => o.party === maker)
        expect(quotes.length).toBe(2 * LADDER_LEVELS)
      }
      // a market maker never meets its own quotes
      expect(orders.log.filter((o) => o.reason === "ORDER_ERROR_SELF_TRADING")).toEqual([])
    })
  }

  for (const [seed, blocks, funding] of CASES) {
    it(`money: seed ${seed}, ${blocks} blocks${funding === undefined ? "" : `, funding every ${funding} s`}`, () => {
      const { openingPnl, world } = worldAfter(seed, blocks, funding)
      const { accounts } = world
      const real = [...accounts.byKey.values()].filter((a) => a.type !== "ACCOUNT_TYPE_EXTERNAL")
      expect(accounts.withdrawals.length).toBeGreaterThan(0)
      expect(new Set(accounts.ledger.map((l) => l.type))).toEqual(
        new Set([
          "TRANSFER_TYPE_DEPOSIT",
          "TRANSFER_TYPE_TRANSFER",
          "TRANSFER_TYPE_WITHDRAW",
          "TRANSFER_TYPE_MAKER_FEE_PAY",
          "TRANSFER_TYPE_MAKER_FEE_RECEIVE",
          "TRANSFER_TYPE_INFRASTRUCTURE_FEE_PAY",
          "TRANSFER_TYPE_LIQUIDITY_FEE_PAY",
          "TRANSFER_TYPE_MARGIN_LOW",
          "TRANSFER_TYPE_MARGIN_HIGH",
          "TRANSFER_TYPE_MTM_WIN",
          "TRANSFER_TYPE_MTM_LOSS",
          // the world's transfers between parties
          "TRANSFER_TYPE_TRANSFER_FUNDS_SEND",
          "TRANSFER_TYPE_TRANSFER_FUNDS_DISTRIBUTE",
          ...(funding === undefined
            ? []
            : ["TRANSFER_TYPE_PERPETUALS_FUNDING_WIN", "TRANSFER_TYPE_PERPETUALS_FUNDING_LOSS"])
        ])
      )
      // per asset, the balances sum to deposits minus withdrawals
      for (const asset of new Set(world.catalog.markets.map((m) => m.settlementAsset))) {
        const held = real.filter((a) => a.asset === asset).reduce((n, a) => n + accounts.balance(a), 0n)
        const deposited = accounts.deposits.filter((d) => d.asset === asset).reduce((n, d) => n + d.amount, 0n)
        const withdrawn = accounts.withdrawals.filter((d) => d.asset === asset).reduce((n, d) => n + d.amount, 0n)
        expect(held).toBe(deposited - withdrawn)
      }
      // the ledger replayed from zero gives every balance, and no balance ever goes below zero
      const replayed = new Map<string, bigint>()
      for (const entry of accounts.ledger) {
        expect(entry.amount > 0n).toBe(true)
        for (const [account, delta, after] of [
          [entry.from, -entry.amount, entry.fromBalance],
          [entry.to, entry.amount, entry.toBalance]
        ] as const) {
          if (account.type === "ACCOUNT_TYPE_EXTERNAL") continue
          const balance = (replayed.get(account.key) ?? 0n) + delta
          replayed.set(account.key, balance)
          expect(balance).toBe(after)
          expect(balance >= 0n).toBe(true)
        }
      }
      for (const account of real)
        expect([account.key, replayed.get(account.key) ?? 0n]).toEqual([account.key, accounts.balance(account)])
      // the PnL each party realised (funding included) was settled to it: wins in, losses out, per market
      const settled = new Map<string, bigint>()
      for (const l of accounts.ledger) {
        if (l.type === "TRANSFER_TYPE_MTM_WIN" || l.type === "TRANSFER_TYPE_PERPETUALS_FUNDING_WIN") {
          const key = `${l.to.owner}/${l.from.market!.id}`
          settled.set(key, (settled.get(key) ?? 0n) + l.amount)
        }
        if (l.type === "TRANSFER_TYPE_MTM_LOSS" || l.type === "TRANSFER_TYPE_PERPETUALS_FUNDING_LOSS") {
          const key = `${l.from.owner}/${l.to.market!.id}`
          settled.set(key, (settled.get(key) ?? 0n) - l.amount)
        }
      }
      for (const row of world.positions.current.values()) {
        if (row.party === world.catalog.network) continue
        const key = `${row.party.id}/${row.market.id}`
        const realised = BigInt(row.realisedPnl) - (openingPnl.get(key) ?? 0n)
        expect([key, settled.get(key) ?? 0n]).toEqual([key, realised])
      }
      // every trade's fees reached the maker, the infrastructure and the liquidity accounts
      const fees = (type: string) => accounts.ledger.filter((l) => l.type === type).reduce((n, l) => n + l.amount, 0n)
      const charged = (pick: (f: { makerFee: bigint; infrastructureFee: bigint; liquidityFee: bigint }) => bigint) =>
        world.exchange.trades.log.reduce((n, t) => n + pick(t.aggressor === "SIDE_BUY" ? t.buyerFee : t.sellerFee), 0n)
      // the fees of the parties' transfers go to the infrastructure fee account too, as the core pays them
      const transferFees = world.transfers.all.flatMap((t) => t.fees).reduce((n, f) => n + f.amount, 0n)
      expect(fees("TRANSFER_TYPE_INFRASTRUCTURE_FEE_PAY")).toBe(charged((f) => f.infrastructureFee) + transferFees)
      expect(fees("TRANSFER_TYPE_LIQUIDITY_FEE_PAY")).toBe(charged((f) => f.liquidityFee))
      expect(fees("TRANSFER_TYPE_MAKER_FEE_PAY")).toBe(charged((f) => f.makerFee))
    })
  }

  it("trades at the passive order's price, in price then time priority", () => {
    const { world } = worldAfter(5, 60)
    const { orders, trades } = world.exchange
    for (const t of trades.log.filter((x) => x.type === "TYPE_DEFAULT")) {
      const passiveId = t.aggressor === "SIDE_BUY" ? t.sellOrder : t.buyOrder
      // the passive order's change the fill wrote, in the trade's block, is at the trade's price
      const after = orders.byId.get(passiveId)!.filter((o) => o.from === t.height && o.updatedAt === t.vt)
      expect(after.map((o) => o.price)).toContain(t.price)
    }
    // within one aggressive order, buys pay rising prices and sells get falling ones
    const byAggressor = new Map<string, Array<bigint>>()
    for (const t of trades.log.filter((x) => x.type === "TYPE_DEFAULT")) {
      const id = t.aggressor === "SIDE_BUY" ? t.buyOrder : t.sellOrder
      byAggressor.set(id, [...(byAggressor.get(id) ?? []), t.aggressor === "SIDE_BUY" ? t.price : -t.price])
    }
    for (const prices of byAggressor.values()) {
      expect(prices.every((p, i) => i === 0 || prices[i - 1] <= p)).toBe(true)
    }
  })

  it("is deterministic: the same seed and blocks give the same orders and trades", () => {
    const json = (world: World) =>
      JSON.stringify(
        world.exchange.trades.log.map((t) => [t.id, t.price, t.size, t.buyer.id, t.seller.id, t.buyOrder, t.sellOrder]),
        (_, v) => (typeof v === "bigint" ? String(v) : v)
      )
    expect(json(worldAfter(9, 50).world)).toBe(json(worldAfter(9, 50).world))
    const once = worldAfter(9, 0).world
    once.advance(20)
    once.advance(30)
    expect(json(once)).toBe(json(worldAfter(9, 50).world))
  })
})
