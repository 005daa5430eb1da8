import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import * as BigDecimal from "effect/BigDecimal"
import type { PositionRow } from "../src/internal/world/positions.js"
import { call, decoded, nodeOf, smallWorld } from "./harness.js"

const PATH = "/api/v2/funding-payments"
const PERIOD_SECONDS = 20
const world = smallWorld({ fundingPeriodSeconds: PERIOD_SECONDS })
const start = world.height
world.advance(65)
const node = nodeOf(world)
const perps = world.catalog.markets.filter((m) => m.product === "perpetual")
const perp = perps[0]

type Query = Parameters<typeof call>[2]
const payments = (query: Query, n = node) =>
  decoded(DataNode.ListFundingPaymentsResponse, call(n, PATH, query)).fundingPayments

const periods = (marketId: string) =>
  decoded(
    DataNode.ListFundingPeriodsResponse,
    call(node, "/api/v2/funding-periods/{marketId}", { "pagination.first": 1000 }, { marketId })
  ).fundingPeriods.edges.map((e) => e.node)

/** The version of a position a view at `height` sees. */
const versionAt = (rows: ReadonlyArray<PositionRow>, height: number) =>
  rows.find((r) => r.from <= height && height < r.to)

/** The periods that ended after the world's start, with the block that ended each. */
const settled = (marketId: string) =>
  periods(marketId)
    .filter((p) => p.end !== undefined && p.fundingPayment !== undefined)
    .map((p) => {
      const end = Number(p.end! / 1000n)
      let height = start
      while (world.chain.blockTime(height) < end) height++
      return { period: p, height }
    })
    .filter((s) => s.height > start)

describe("GET /api/v2/funding-payments", () => {
  it("pays each open position volume × the period's payment, longs paying a positive one", () => {
    for (const market of perps) {
      const ended = settled(market.id)
      expect(ended.length).toBe(3)
      for (const { period, height } of ended) {
        const made = world.funding.payments.filter((r) => r.market === market && r.seq === Number(period.seq))
        expect(made.length).toBeGreaterThan(10)
        // every position open at the block before, and only those (none pays nothing)
        const scale = 10n ** BigInt(Math.abs(market.positionDecimals))
        const open = (world.positions.byMarket[market.index] ?? [])
          .filter((r) => r.from <= height - 1 && height - 1 < r.to && BigInt(r.openVolume) !== 0n)
          .map((r) => ({ party: r.party.id, owed: -BigInt(r.openVolume) * period.fundingPayment! }))
        // each is volume × payment in asset units: divided by 10^decimals and truncated, or multiplied
        for (const { party, owed } of open) {
          const row = made.find((r) => r.party.id === party)
          const amount = row?.amount ?? 0n
          if (market.positionDecimals < 0) expect(amount).toBe(owed * scale)
          else expect(owed - amount * scale).toBe(owed % scale)
        }
        expect(made.length).toBe(
          open.filter((f) => (market.positionDecimals < 0 ? f.owed * scale : f.owed / scale) !== 0n).length
        )
        for (const row of made) {
          const sign = row.amount > 0n ? 1n : -1n
          const volume = BigInt(
            versionAt(
              world.positions.byParty[row.party.index]!.filter((r) => r.market === market),
              height - 1
            )!.openVolume
          )
          expect(sign).toBe(volume * period.fundingPayment! > 0n ? -1n : 1n)
        }
        // open volume sums to zero, so the payments do too, but for the truncation of each
        const net = made.reduce((sum, r) => sum + r.amount, 0n)
        expect(net < 0n ? -net : net).toBeLessThanOrEqual(BigInt(made.length))
      }
    }
  })

  it("settles each payment through the ledger and into the position's realised PnL", () => {
    const { period, height } = settled(perp.id)[0]
    const made = world.funding.payments.filter((r) => r.market === perp && r.seq === Number(period.seq))
    // this market's: the insurance pool on one side is the market's
    const entries = world.accounts.ledger.filter(
      (e) => e.height === height && e.type.includes("PERPETUALS_FUNDING") && (e.from.market ?? e.to.market) === perp
    )
    const network = world.catalog.network
    for (const row of made.filter((r) => r.party !== network)) {
      const own = entries.filter((e) => (row.amount > 0n ? e.to.owner : e.from.owner) === row.party.id)
      expect(
        own.every(
          (e) =>
            e.type ===
            (row.amount > 0n ? "TRANSFER_TYPE_PERPETUALS_FUNDING_WIN" : "TRANSFER_TYPE_PERPETUALS_FUNDING_LOSS")
        )
      ).toBe(true)
      expect(own.reduce((sum, e) => sum + e.amount, 0n)).toBe(row.amount > 0n ? row.amount : -row.amount)
      const versions = world.positions.byParty[row.party.index]!.filter((r) => r.market === perp)
      const before = versionAt(versions, height - 1)!
      const after = versions.find((r) => r.from === height)!
      // a fill in the same block moves it further: the funding is applied to the version before
      if (BigInt(after.openVolume) === BigInt(before.openVolume)) {
        expect(BigInt(after.realisedPnl)).toBe(BigInt(before.realisedPnl) + row.amount)
      }
    }
    // losses are collected before wins are paid, all against the market's insurance pool
    const firstWin = entries.findIndex((e) => e.type === "TRANSFER_TYPE_PERPETUALS_FUNDING_WIN")
    const lastLoss = entries.map((e) => e.type).lastIndexOf("TRANSFER_TYPE_PERPETUALS_FUNDING_LOSS")
    expect(lastLoss).toBeLessThan(firstWin)
    expect(new Set(entries.map((e) => (e.type.endsWith("WIN") ? e.from : e.to).type))).toEqual(
      new Set(["ACCOUNT_TYPE_INSURANCE"])
    )
  })

  it("charges the period's payment as its TWAPs give it", () => {
    for (const { period } of settled(perp.id)) {
      expect(period.fundingPayment).toBe(period.internalTwap! - period.externalTwap!)
      const rate = BigDecimal.unsafeDivide(
        BigDecimal.fromBigInt(period.fundingPayment!),
        BigDecimal.fromBigInt(period.externalTwap!)
      )
      expect(BigDecimal.equals(BigDecimal.round(rate, { scale: 16 }), period.fundingRate!)).toBe(true)
    }
    // before the world's start: periods, but no payments
    const history = periods(perp.id).filter(
      (p) => p.end !== undefined && Number(p.end / 1000n) <= world.chain.blockTime(start)
    )
    expect(history.length).toBeGreaterThan(10)
    expect(world.funding.payments.every((r) => r.height > start)).toBe(true)
  })

  it("lists a party's payments newest first, by market when asked, as of the node's height", () => {
    const party = world.funding.payments.find((r) => r.market === perp)!.party
    const all = payments({ partyId: party.id }).edges.map((e) => e.node)
    const own = world.funding.payments.filter((r) => r.party === party)
    expect(all.length).toBe(own.length)
    for (let i = 1; i < all.length; i++) expect(all[i - 1].timestamp >= all[i].timestamp).toBe(true)
    const inMarket = payments({ partyId: party.id.toUpperCase(), marketId: perp.id }).edges.map((e) => e.node)
    expect(inMarket.length).toBe(own.filter((r) => r.market === perp).length)
    expect(inMarket.every((p) => p.marketId === perp.id)).toBe(true)
    const oldest = payments({ partyId: party.id, "pagination.newestFirst": false, "pagination.first": 1 }).edges[0].node
    expect(oldest).toEqual(all[all.length - 1])
    const first = own.reduce((a, b) => (a.height <= b.height ? a : b))
    expect(payments({ partyId: party.id }, nodeOf(world, { height: first.height - 1 })).edges).toEqual([])
    const raw = JSON.parse(call(node, PATH, { partyId: party.id, "pagination.first": 1 }).body)
    expect(Object.keys(raw.fundingPayments.edges[0].node)).toEqual([
      "partyId",
      "marketId",
      "fundingPeriodSeq",
      "timestamp",
      "amount"
    ])
  })

  it("refuses bad ids, and any cursor but the empty one, as the node does", () => {
    const party = world.funding.payments[0].party
    const bad = call(node, PATH, { partyId: "xyz" })
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body).details[0].message).toBe("invalid party id")
    expect(call(node, PATH, {}).status).toBe(400)
    expect(JSON.parse(call(node, PATH, { partyId: party.id, marketId: "00" }).body).details[0].message).toBe(
      "invalid market ID"
    )
    const page = payments({ partyId: party.id, "pagination.first": 1 })
    const next = call(node, PATH, {
      partyId: party.id,
      "pagination.first": 1,
      "pagination.after": page.pageInfo.endCursor
    })
    expect(next.status).toBe(500)
    expect(JSON.parse(next.body).details[0].message).toBe(
      "building cursor predicate: no field matching column name funding_period_seq"
    )
    const empty = Buffer.from('{"vegaTime":"0001-01-01T00:00:00Z","marketID":"","partyID":""}').toString("base64")
    expect(call(node, PATH, { partyId: party.id, "pagination.after": empty }).status).toBe(200)
  })
})
