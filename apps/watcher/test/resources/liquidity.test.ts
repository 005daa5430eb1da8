import { it } from "@effect/vitest"
import type { DataNodeClient } from "@vega-effect/http"
import type { Simulator } from "@vega-effect/simulator"
import * as Effect from "effect/Effect"
import { describe, expect } from "vitest"
import type { Json, Row } from "../../src/Event.js"
import { diffLiquidity, make } from "../../src/resources/liquidity.js"
import { changesBetween, type Found, kindsOf, simulated, stored, contextOf } from "./support.js"

const MARKET = "a".repeat(64)
const PARTY = "b".repeat(64)

const lp = (fields: { readonly [key: string]: string } = {}): { readonly [key: string]: Json } => ({
  id: "1".repeat(64),
  partyId: PARTY,
  createdAt: "1711929600000000000",
  updatedAt: "1711929600000000000",
  marketId: MARKET,
  commitmentAmount: "1000000000",
  fee: "0.001",
  sells: [],
  buys: [],
  version: "1",
  status: "STATUS_ACTIVE",
  reference: "",
  ...fields
})

const node = (
  current: { readonly [key: string]: Json },
  pending: { readonly [key: string]: Json } | null = null
): Row => ({
  current,
  pending
})

const v2 = lp({ version: "2", status: "STATUS_PENDING", commitmentAmount: "2000000000", fee: "0.002" })
const terms2 = { version: "2", commitmentAmount: "2000000000", fee: "0.002" }

describe("diffLiquidity", () => {
  const cases: ReadonlyArray<{
    readonly name: string
    readonly before: Row | undefined
    readonly after: Row | undefined
    readonly expected: ReadonlyArray<{ readonly kind: string; readonly details?: object }>
  }> = [
    {
      name: "a new provision",
      before: undefined,
      after: node(lp()),
      expected: [
        {
          kind: "liquidity.created",
          details: {
            partyId: PARTY,
            marketId: MARKET,
            status: "STATUS_ACTIVE",
            version: "1",
            commitmentAmount: "1000000000",
            fee: "0.001"
          }
        }
      ]
    },
    {
      name: "a new submission waiting for the epoch is created, not amended",
      before: undefined,
      after: node(lp({ status: "STATUS_PENDING" })),
      expected: [expect.objectContaining({ kind: "liquidity.created" })]
    },
    {
      name: "a new provision first seen with an amendment waiting",
      before: undefined,
      after: node(lp(), v2),
      expected: [expect.objectContaining({ kind: "liquidity.created" }), { kind: "liquidity.amended", details: terms2 }]
    },
    {
      name: "an amendment appears",
      before: node(lp()),
      after: node(lp(), v2),
      expected: [{ kind: "liquidity.amended", details: terms2 }]
    },
    {
      name: "a waiting amendment is replaced by another",
      before: node(lp(), v2),
      after: node(lp(), lp({ version: "2", status: "STATUS_PENDING", commitmentAmount: "3", fee: "0.5" })),
      expected: [{ kind: "liquidity.amended", details: { version: "2", commitmentAmount: "3", fee: "0.5" } }]
    },
    {
      name: "a submission amended before it is active",
      before: node(lp({ status: "STATUS_PENDING" })),
      after: node(lp({ status: "STATUS_PENDING", commitmentAmount: "5", updatedAt: "1711929601000000000" })),
      expected: [{ kind: "liquidity.amended", details: { version: "1", commitmentAmount: "5", fee: "0.001" } }]
    },
    {
      name: "the amendment becomes active at the epoch",
      before: node(lp(), v2),
      after: node(lp({ version: "2", commitmentAmount: "2000000000", fee: "0.002" })),
      expected: [{ kind: "liquidity.pending_activated", details: terms2 }]
    },
    {
      name: "the submission becomes active at the epoch",
      before: node(lp({ status: "STATUS_PENDING" })),
      after: node(lp()),
      expected: [
        {
          kind: "liquidity.pending_activated",
          details: { version: "1", commitmentAmount: "1000000000", fee: "0.001" }
        },
        { kind: "liquidity.status_changed", details: { from: "STATUS_PENDING", to: "STATUS_ACTIVE" } }
      ]
    },
    {
      name: "activated, and amended again, between two reads",
      before: node(lp(), v2),
      after: node(
        lp({ version: "2", commitmentAmount: "2000000000", fee: "0.002" }),
        lp({ version: "3", status: "STATUS_PENDING", commitmentAmount: "9", fee: "0.01" })
      ),
      expected: [
        { kind: "liquidity.amended", details: { version: "3", commitmentAmount: "9", fee: "0.01" } },
        { kind: "liquidity.pending_activated", details: terms2 }
      ]
    },
    {
      name: "undeployed",
      before: node(lp()),
      after: node(lp({ status: "STATUS_UNDEPLOYED" })),
      expected: [{ kind: "liquidity.status_changed", details: { from: "STATUS_ACTIVE", to: "STATUS_UNDEPLOYED" } }]
    },
    {
      name: "gone from the live list",
      before: node(lp(), v2),
      after: undefined,
      expected: [
        {
          kind: "liquidity.gone",
          details: { status: "STATUS_ACTIVE", version: "1", commitmentAmount: "1000000000", fee: "0.001" }
        }
      ]
    },
    {
      name: "the update time alone means nothing",
      before: node(lp(), v2),
      after: node(lp({ updatedAt: "1711929609000000000" }), v2),
      expected: []
    }
  ]
  for (const c of cases) {
    it(c.name, () => {
      expect(diffLiquidity(c.before, c.after)).toEqual(c.expected)
    })
  }
})

const scale = {
  parties: 15,
  markets: 3,
  positions: 10,
  stakeLinkings: 10,
  liquidityProvisions: 24,
  referralSets: 1,
  signerBundles: 1,
  epochs: 2
}
const activity = { liquidityChanges: 4, positionTrades: 1, stakeEvents: 0 }

const STATUS = ["", "STATUS_ACTIVE", "STATUS_STOPPED", "STATUS_CANCELLED", "STATUS_REJECTED", "STATUS_UNDEPLOYED"]
const LIVE = new Set([1, 5, 6])

/** The live provisions as the simulator holds them, by id. */
const liveInWorld = (sim: Simulator.Service) => {
  const lps = sim.world.liquidityProvisions
  return new Map(
    [...lps.byId.keys()].flatMap((id) => {
      const latest = lps.latestOf(id)!
      return LIVE.has(latest.status) ? [[id, latest] as const] : []
    })
  )
}

const lpOf = (row: Row | undefined, field: "current" | "pending") =>
  row?.[field] as { readonly [key: string]: string } | null | undefined

/** Each read row says what the simulator's latest version of the provision is. */
const expectMatchesWorld = (rows: ReadonlyMap<string, Row>, sim: Simulator.Service) => {
  const live = liveInWorld(sim)
  expect([...rows.keys()].sort()).toEqual([...live.keys()].sort())
  for (const [id, latest] of live) {
    const row = rows.get(id)
    const current = lpOf(row, "current")!
    const pending = lpOf(row, "pending")
    if (latest.status === 6) {
      // waiting for the epoch: next to the version in force, or alone as a new submission
      const waiting = pending ?? current
      expect(waiting).toMatchObject({ status: "STATUS_PENDING", version: String(latest.version) })
      expect(waiting.commitmentAmount).toBe(latest.commitment.toString())
    } else {
      expect(pending).toBeNull()
      expect(current).toMatchObject({
        status: STATUS[latest.status],
        version: String(latest.version),
        commitmentAmount: latest.commitment.toString(),
        fee: latest.fee
      })
    }
  }
}

describe("liquidity read", () => {
  it.scopedLive("live reads match the simulator block after block; their diffs give every kind, consistently", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* simulated({ seed: 31, scale, activity, blocksPerEpoch: 4 })
      const resource = make(client, { enabled: true })
      let snapshot = yield* resource.read(contextOf(new Map()))
      expect(snapshot.complete).toBe(true)
      expectMatchesWorld(snapshot.rows, sim)
      const found: Array<Found> = []
      for (let block = 0; block < 16; block++) {
        yield* sim.advance(1)
        const next = yield* resource.read(contextOf(stored(snapshot.rows)))
        expectMatchesWorld(next.rows, sim)
        found.push(...changesBetween(resource, stored(snapshot.rows), stored(next.rows)))
        snapshot = next
      }
      expect(kindsOf(found)).toEqual([
        "liquidity.amended",
        "liquidity.created",
        "liquidity.gone",
        "liquidity.pending_activated",
        "liquidity.status_changed"
      ])
      for (const change of found) {
        const [before, after] = [change.before, change.after]
        switch (change.kind) {
          case "liquidity.created":
            expect(before).toBeUndefined()
            break
          case "liquidity.gone":
            expect(after).toBeUndefined()
            break
          case "liquidity.amended":
            expect(lpOf(after, "pending") ?? lpOf(after, "current")).toMatchObject({ status: "STATUS_PENDING" })
            break
          case "liquidity.pending_activated": {
            const waiting = lpOf(before, "pending") ?? lpOf(before, "current")
            expect(waiting?.status).toBe("STATUS_PENDING")
            expect(BigInt(lpOf(after, "current")!.version)).toBeGreaterThanOrEqual(BigInt(waiting!.version))
            break
          }
          case "liquidity.status_changed":
            expect(lpOf(before, "current")?.status).not.toBe(lpOf(after, "current")?.status)
        }
      }
    })
  )

  it.scopedLive("reads only the configured parties and markets", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* simulated({ seed: 32, scale, activity })
      const live = [...liveInWorld(sim).values()]
      const parties = [...new Set(live.map((row) => row.party.id))].slice(0, 5)
      const market = live[0].market.id
      const expectIds = (rows: ReadonlyMap<string, Row>, keep: (row: (typeof live)[number]) => boolean) => {
        const ids = live.filter(keep).map((row) => row.id)
        expect(ids.length).toBeGreaterThan(0)
        expect([...rows.keys()].sort()).toEqual(ids.sort())
      }
      const byParty = yield* make(client, { enabled: true, parties }).read(contextOf(new Map()))
      expectIds(byParty.rows, (row) => parties.includes(row.party.id))
      const byMarket = yield* make(client, { enabled: true, markets: [market] }).read(contextOf(new Map()))
      expectIds(byMarket.rows, (row) => row.market.id === market)
      const both = yield* make(client, { enabled: true, parties, markets: [market] }).read(contextOf(new Map()))
      expectIds(both.rows, (row) => parties.includes(row.party.id) && row.market.id === market)
    })
  )

  it.scopedLive("a node that needs a market or party filter is read market by market, and only asked once", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* simulated({ seed: 33, scale, activity, quirks: "v0.75" })
      let unfiltered = 0
      const counting: DataNodeClient.Service = {
        ...client,
        liquidityProvisions: (request, paging) => {
          if (request.marketId === undefined && request.partyId === undefined) unfiltered++
          return client.liquidityProvisions(request, paging)
        }
      }
      const resource = make(counting, { enabled: true })
      expectMatchesWorld((yield* resource.read(contextOf(new Map()))).rows, sim)
      yield* sim.advance(2)
      expectMatchesWorld((yield* resource.read(contextOf(new Map()))).rows, sim)
      expect(unfiltered).toBe(1)
    })
  )
})
