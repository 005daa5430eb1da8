import { it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describe, expect } from "vitest"
import type { Row } from "../../src/Event.js"
import { availableKey, diffStake, make, type Paging, partiesOf } from "../../src/resources/stake.js"
import { shardOf } from "../../src/Slice.js"
import {
  applied,
  changesBetween,
  entries,
  type Found,
  kindsOf,
  rowOf,
  simulated,
  stored,
  contextOf
} from "./support.js"

const PARTY = "b".repeat(64)

const linking = (fields: { readonly [key: string]: string } = {}): Row => ({
  id: "1".repeat(64),
  type: "TYPE_LINK",
  ts: "1711929510",
  party: PARTY,
  amount: "1500000000000000000",
  status: "STATUS_PENDING",
  finalizedAt: "0",
  txHash: `0x${"2".repeat(64)}`,
  blockHeight: "19000000",
  blockTime: "1711929510",
  logIndex: "3",
  ethereumAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
  ...fields
})

const available = (currentStakeAvailable: string): Row => ({ partyId: PARTY, currentStakeAvailable })

describe("diffStake", () => {
  const cases: ReadonlyArray<{
    readonly name: string
    readonly before: Row | undefined
    readonly after: Row | undefined
    readonly expected: ReadonlyArray<{ readonly kind: string; readonly details?: object }>
  }> = [
    {
      name: "a new link",
      before: undefined,
      after: linking(),
      expected: [
        {
          kind: "stake.linked",
          details: { party: PARTY, amount: "1500000000000000000", amountVega: "1.5", status: "STATUS_PENDING" }
        }
      ]
    },
    {
      name: "a new unlink, first seen already accepted",
      before: undefined,
      after: linking({ type: "TYPE_UNLINK", status: "STATUS_ACCEPTED", amount: "7" }),
      expected: [
        {
          kind: "stake.unlinked",
          details: { party: PARTY, amount: "7", amountVega: "0.000000000000000007", status: "STATUS_ACCEPTED" }
        }
      ]
    },
    {
      name: "pending to accepted",
      before: linking(),
      after: linking({ status: "STATUS_ACCEPTED", finalizedAt: "1711929600123456000" }),
      expected: [
        { kind: "stake.status_changed", details: { from: "STATUS_PENDING", to: "STATUS_ACCEPTED", type: "TYPE_LINK" } }
      ]
    },
    {
      name: "pending to rejected",
      before: linking({ type: "TYPE_UNLINK" }),
      after: linking({ type: "TYPE_UNLINK", status: "STATUS_REJECTED" }),
      expected: [
        {
          kind: "stake.status_changed",
          details: { from: "STATUS_PENDING", to: "STATUS_REJECTED", type: "TYPE_UNLINK" }
        }
      ]
    },
    {
      name: "another field of a linking alone means nothing",
      before: linking(),
      after: linking({ finalizedAt: "1711929600123456000" }),
      expected: []
    },
    {
      name: "a party's first available stake counts from 0",
      before: undefined,
      after: available("5000000000000000000"),
      expected: [
        {
          kind: "stake.available_changed",
          details: {
            from: "0",
            to: "5000000000000000000",
            delta: "5000000000000000000",
            fromVega: "0",
            toVega: "5",
            deltaVega: "5"
          }
        }
      ]
    },
    {
      name: "a party's first available stake of 0 says nothing",
      before: undefined,
      after: available("0"),
      expected: []
    },
    {
      name: "available stake falls, exactly",
      before: available("1000000000000000000000001"),
      after: available("250000000000000000000000"),
      expected: [
        {
          kind: "stake.available_changed",
          details: {
            from: "1000000000000000000000001",
            to: "250000000000000000000000",
            delta: "-750000000000000000000001",
            fromVega: "1000000.000000000000000001",
            toVega: "250000",
            deltaVega: "-750000.000000000000000001"
          }
        }
      ]
    },
    { name: "the same available stake says nothing", before: available("9"), after: available("9"), expected: [] },
    { name: "a row never read again says nothing", before: linking(), after: undefined, expected: [] }
  ]
  for (const c of cases) {
    it(c.name, () => {
      expect(diffStake(c.before, c.after)).toEqual(c.expected)
    })
  }
})

const scale = {
  parties: 12,
  markets: 2,
  positions: 10,
  stakeLinkings: 150,
  liquidityProvisions: 4,
  referralSets: 1,
  signerBundles: 1,
  epochs: 2
}
const activity = { stakeEvents: 6, positionTrades: 1, liquidityChanges: 0 }
const MILLI_VEGA = 10n ** 15n

const linkingKeys = (state: ReadonlyMap<string, unknown>) =>
  [...state.keys()].filter((k) => !k.startsWith("available/"))

describe("stake read", () => {
  it.scopedLive("shards by party: the shards' reads split the parties, and follow their own changes", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* simulated({ seed: 23, scale, activity })
      const count = 3
      const parties = partiesOf(client, { enabled: true })
      const shards = Array.from({ length: count }, (_, index) =>
        make(client, { enabled: true }, {}, { shard: { index, count }, parties })
      )
      const whole = make(client, { enabled: true })
      let held = yield* Effect.forEach(shards, (shard) =>
        Effect.map(shard.read(contextOf(new Map())), (snapshot) => stored(snapshot.rows))
      )
      let reference = stored((yield* whole.read(contextOf(new Map()))).rows)
      for (let round = 0; round < 3; round++) {
        held.forEach((rows, index) => {
          for (const [key, print] of rows)
            expect(shardOf(String(rowOf(print)!.partyId ?? rowOf(print)!.party), count), key).toBe(index)
        })
        expect(entries(new Map(held.flatMap((rows) => [...rows])))).toEqual(entries(reference))
        expect(held.every((rows) => rows.size > 0)).toBe(true)
        yield* sim.advance(3)
        held = yield* Effect.forEach(shards, (shard, index) =>
          Effect.map(shard.read(contextOf(held[index])), (snapshot) => applied(held[index], snapshot))
        )
        reference = applied(reference, yield* whole.read(contextOf(reference)))
      }
    })
  )

  it.scopedLive("a first read gives every party's linkings and available stake, as the simulator has them", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* simulated({ seed: 21, scale, activity })
      yield* sim.advance(2)
      const snapshot = yield* make(client, { enabled: true }).read(contextOf(new Map()))
      expect(snapshot.complete).toBe(false)
      const height = yield* sim.height
      const { catalog, stakeLinkings } = sim.world
      let linkings = 0
      for (const party of catalog.parties) {
        expect(snapshot.rows.get(availableKey(party.id))).toEqual({
          partyId: party.id,
          currentStakeAvailable: (BigInt(stakeLinkings.available(party.id, height)) * MILLI_VEGA).toString()
        })
        for (const row of stakeLinkings.byParty.get(party.id) ?? []) {
          if (row.from > height || row.to <= height) continue
          linkings++
          expect(snapshot.rows.get(row.id)).toMatchObject({ id: row.id, party: party.id })
        }
      }
      expect(linkings).toBeGreaterThan(100)
      expect(snapshot.rows.size).toBe(catalog.parties.length + linkings)
    })
  )

  const pagings: ReadonlyArray<readonly [string, Paging]> = [
    ["default pages", {}],
    ["pages of 3 (first page of 2 for known parties)", { pageSize: 3, knownFirstPage: 2 }]
  ]
  for (const [name, paging] of pagings) {
    it.scopedLive(
      `incremental reads applied to the held rows equal a fresh full read, over several advances: ${name}`,
      () =>
        Effect.gen(function* () {
          const { client, sim } = yield* simulated({ seed: 22, scale, activity })
          const resource = make(client, { enabled: true }, paging)
          const reference = make(client, { enabled: true })
          let state = stored((yield* resource.read(contextOf(new Map()))).rows)
          const found: Array<Found> = []
          for (const blocks of [1, 2, 4, 3, 6]) {
            yield* sim.advance(blocks)
            const partial = yield* resource.read(contextOf(state))
            expect(partial.complete).toBe(false)
            const next = applied(state, partial)
            const fresh = stored((yield* reference.read(contextOf(new Map()))).rows)
            expect(entries(next)).toEqual(entries(fresh))
            // the read stopped exactly where the unchanged linkings begin
            const changed = linkingKeys(fresh).filter((key) => fresh.get(key) !== state.get(key))
            expect(changed.length).toBeGreaterThan(0)
            expect(linkingKeys(partial.rows).sort()).toEqual(changed.sort())
            found.push(...changesBetween(resource, state, next))
            state = next
          }
          expect(kindsOf(found)).toEqual(
            expect.arrayContaining(["stake.available_changed", "stake.linked", "stake.status_changed"])
          )
          for (const change of found.filter((c) => c.kind === "stake.status_changed")) {
            expect(change.before?.status).toBe("STATUS_PENDING")
            expect(change.after?.status).not.toBe("STATUS_PENDING")
          }
          for (const change of found.filter((c) => c.kind === "stake.linked" || c.kind === "stake.unlinked")) {
            expect(change.before).toBeUndefined()
            expect(change.after?.type).toBe(change.kind === "stake.linked" ? "TYPE_LINK" : "TYPE_UNLINK")
          }
        })
    )
  }

  it.scopedLive("reads only the configured parties", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* simulated({ seed: 23, scale, activity })
      const parties = sim.world.catalog.parties.slice(1, 4).map((p) => p.id)
      const snapshot = yield* make(client, { enabled: true, parties }).read(contextOf(new Map()))
      for (const [key, row] of snapshot.rows) {
        expect(parties).toContain(key.startsWith("available/") ? row.partyId : row.party)
      }
      expect(parties.every((p) => snapshot.rows.has(availableKey(p)))).toBe(true)
    })
  )
})
