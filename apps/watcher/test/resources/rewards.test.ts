import { it } from "@effect/vitest"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import type { Row } from "../../src/Event.js"
import type { AssetInfo, DiffContext } from "../../src/Resource.js"
import { loadAssets } from "../../src/resources/assets.js"
import { diff, humanAmount, make, requestsFor } from "../../src/resources/rewards.js"
import { simulated, contextOf } from "./support.js"

const party = "b2".repeat(32)
const vega = "0e".repeat(32)
const usdt = "6d".repeat(32)
const unknown = "99".repeat(32)
const assets: ReadonlyMap<string, AssetInfo> = new Map([
  [vega, { symbol: "VEGA", decimals: 18 }],
  [usdt, { symbol: "USDT", decimals: 6 }]
])
const context: DiffContext = { asset: (id) => assets.get(id) }
const total = (assetId: string, amount: string): Row => ({ partyId: party, assetId, amount })

describe("reward changes", () => {
  const cases: ReadonlyArray<readonly [string, Row | undefined, Row | undefined, ReadonlyArray<unknown>]> = [
    [
      "a first reward in an 18-decimal asset",
      undefined,
      total(vega, "1500000000000000000"),
      [
        {
          kind: "reward.increased",
          details: {
            delta: "1500000000000000000",
            deltaHuman: "1.5",
            symbol: "VEGA",
            total: "1500000000000000000",
            totalHuman: "1.5"
          }
        }
      ]
    ],
    [
      "a growing total in an 18-decimal asset, beyond what a float holds",
      total(vega, "123456789012345678901"),
      total(vega, "123456789012345678902"),
      [
        {
          kind: "reward.increased",
          details: {
            delta: "1",
            deltaHuman: "0.000000000000000001",
            symbol: "VEGA",
            total: "123456789012345678902",
            totalHuman: "123.456789012345678902"
          }
        }
      ]
    ],
    [
      "a growing total in a 6-decimal asset",
      total(usdt, "1000000"),
      total(usdt, "1500001"),
      [
        {
          kind: "reward.increased",
          details: { delta: "500001", deltaHuman: "0.500001", symbol: "USDT", total: "1500001", totalHuman: "1.500001" }
        }
      ]
    ],
    [
      "whole units print without a fraction",
      total(usdt, "2000000"),
      total(usdt, "7000000"),
      [
        {
          kind: "reward.increased",
          details: { delta: "5000000", deltaHuman: "5", symbol: "USDT", total: "7000000", totalHuman: "7" }
        }
      ]
    ],
    [
      "a decrease, which should not happen, is reported with a negative delta",
      total(usdt, "2500000"),
      total(usdt, "2000000"),
      [
        {
          kind: "reward.decreased",
          details: { delta: "-500000", deltaHuman: "-0.5", symbol: "USDT", total: "2000000", totalHuman: "2" }
        }
      ]
    ],
    [
      "a total gone from a complete read falls to zero",
      total(usdt, "2500000"),
      undefined,
      [
        {
          kind: "reward.decreased",
          details: { delta: "-2500000", deltaHuman: "-2.5", symbol: "USDT", total: "0", totalHuman: "0" }
        }
      ]
    ],
    [
      "an unknown asset gives raw values only",
      total(unknown, "10"),
      total(unknown, "25"),
      [{ kind: "reward.increased", details: { delta: "15", total: "25" } }]
    ],
    ["an unchanged total is no event", total(vega, "5"), total(vega, "5"), []],
    ["a new total of zero is no event", undefined, total(vega, "0"), []]
  ]
  it.each(cases)("%s", (_, before, after, expected) => {
    expect(diff(before, after, context)).toEqual(expected)
  })

  it.each([
    [1n, 0, "1"],
    [1500000000000000000n, 18, "1.5"],
    [-1n, 6, "-0.000001"],
    [10n ** 30n, 18, "1000000000000"]
  ])("%s units at %s decimals are %s", (units, decimals, expected) => {
    expect(humanAmount(units, decimals)).toBe(expected)
  })

  const [p1, p2, p3] = ["01", "02", "03"].map((b) => b.repeat(32))
  const [a1, a2] = ["0a", "0b"].map((b) => b.repeat(32))
  it.each([
    ["no filter: one request for all", {}, [{}]],
    ["parties: one request each", { parties: [p1, p2] }, [{ partyId: p1 }, { partyId: p2 }]],
    ["assets: one request each", { assets: [a1, a2] }, [{ assetId: a1 }, { assetId: a2 }]],
    ["one party and one asset: one exact request", { parties: [p1], assets: [a1] }, [{ partyId: p1, assetId: a1 }]],
    [
      "one asset for several parties: one request, parties filtered here",
      { parties: [p1, p2], assets: [a1] },
      [{ assetId: a1 }]
    ],
    [
      "the shorter list drives the requests",
      { parties: [p1, p2, p3], assets: [a1, a2] },
      [{ assetId: a1 }, { assetId: a2 }]
    ],
    [
      "one party with several assets: one request, assets filtered here",
      { parties: [p1], assets: [a1, a2] },
      [{ partyId: p1 }]
    ],
    ["duplicates are asked once", { parties: [p1, p1] }, [{ partyId: p1 }]]
  ])("requests: %s", (_, filters, expected) => {
    expect(requestsFor({ enabled: true, ...filters })).toEqual(expected)
  })
})

const setup = Effect.gen(function* () {
  return yield* simulated({
    seed: 21,
    blocksPerEpoch: 5,
    scale: {
      parties: 40,
      assets: 3,
      markets: 2,
      validators: 3,
      positions: 20,
      stakeLinkings: 10,
      liquidityProvisions: 2,
      referralSets: 1,
      refereesPerSet: 2,
      signerBundles: 1,
      epochs: 4
    },
    activity: { rewardShare: 0.5 }
  })
})

const sumOf = (rows: Iterable<Row>): bigint => {
  let sum = 0n
  for (const row of rows) sum += BigInt(row.amount as string)
  return sum
}

describe("reading rewards from a simulator", () => {
  it.scopedLive("a complete read holds every summary the node serves, keyed by party and asset", () =>
    Effect.gen(function* () {
      const { client } = yield* setup
      const snapshot = yield* make(client, { enabled: true }).read(contextOf(new Map()))
      const served = (yield* client.listRewardSummaries({})).summaries
      expect(served.length).toBeGreaterThan(10)
      expect(snapshot.complete).toBe(true)
      expect(snapshot.rows.size).toBe(served.length)
      for (const s of served) {
        expect(snapshot.rows.get(`${s.partyId}/${s.assetId}`)).toEqual({
          partyId: s.partyId,
          assetId: s.assetId,
          amount: s.amount.toString()
        })
      }
    })
  )

  it.scopedLive("several parties and assets are read per party or asset and filtered exactly", () =>
    Effect.gen(function* () {
      const { client } = yield* setup
      const all = yield* make(client, { enabled: true }).read(contextOf(new Map()))
      const rows = [...all.rows.values()]
      const parties = [...new Set(rows.map((r) => r.partyId as string))].slice(0, 5)
      const assets = [...new Set(rows.map((r) => r.assetId as string))].slice(0, 2)
      expect(assets.length).toBe(2)
      const expected = [...all.rows].filter(
        ([, r]) => parties.includes(r.partyId as string) && assets.includes(r.assetId as string)
      )
      const some = yield* make(client, { enabled: true, parties, assets }).read(contextOf(new Map()))
      expect([...some.rows]).toEqual(expected)
      const onlyParties = yield* make(client, { enabled: true, parties }).read(contextOf(new Map()))
      expect(onlyParties.rows.size).toBe(rows.filter((r) => parties.includes(r.partyId as string)).length)
    })
  )

  it.scopedLive("after an epoch ends, reward.increased deltas sum exactly to the change in totals", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* setup
      const known = yield* loadAssets(client)
      expect(new Map([...known].map(([id, a]) => [id, [a.symbol, a.decimals]]))).toEqual(
        new Map(sim.world.catalog.assets.map((a) => [a.id, [a.symbol, a.decimals]]))
      )
      expect(new Set([...known.values()].map((a) => a.decimals))).toEqual(new Set([18, 6]))
      const resource = make(client, { enabled: true })
      const before = yield* resource.read(contextOf(new Map()))
      yield* sim.advance(5)
      const after = yield* resource.read(contextOf(new Map()))
      const keys = new Set([...before.rows.keys(), ...after.rows.keys()])
      const events = [...keys].flatMap((key) =>
        resource.diff(before.rows.get(key), after.rows.get(key), { asset: (id) => known.get(id) })
      )
      expect(events.length).toBeGreaterThan(0)
      expect(events.every((e) => e.kind === "reward.increased")).toBe(true)
      const deltas = events.reduce((sum, e) => sum + BigInt(e.details!.delta as string), 0n)
      expect(deltas).toBe(sumOf(after.rows.values()) - sumOf(before.rows.values()))
      for (const e of events) {
        const asset = [...known.values()].find((a) => a.symbol === e.details!.symbol)
        expect(asset).toBeDefined()
        // the human delta is the raw delta moved by the asset's decimals, digit for digit
        const human = e.details!.deltaHuman as string
        const [whole, fraction = ""] = human.split(".")
        expect(BigInt(whole + fraction.padEnd(asset!.decimals, "0"))).toBe(BigInt(e.details!.delta as string))
      }
    })
  )
})
