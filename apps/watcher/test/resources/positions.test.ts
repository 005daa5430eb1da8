import { it } from "@effect/vitest"
import type { DataNodeClient } from "@vega-effect/http"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { describe, expect } from "vitest"
import type { PnlThresholds } from "../../src/Config.js"
import type { Row } from "../../src/Event.js"
import { diffPosition, keyOf, make, marketIds } from "../../src/resources/positions.js"
import { shardOf } from "../../src/Slice.js"
import { applied, changesBetween, entries, kindsOf, rowOf, simulated, stored, contextOf } from "./support.js"

const MARKET = "a".repeat(64)
const PARTY = "b".repeat(64)

const position = (fields: { readonly [key: string]: string } = {}): Row => ({
  marketId: MARKET,
  partyId: PARTY,
  openVolume: "0",
  realisedPnl: "0",
  unrealisedPnl: "0",
  averageEntryPrice: "0",
  updatedAt: "1711929600000000000",
  lossSocialisationAmount: "0",
  positionStatus: "POSITION_STATUS_UNSPECIFIED",
  ...fields
})

describe("diffPosition", () => {
  const cases: ReadonlyArray<{
    readonly name: string
    readonly before: Row | undefined
    readonly after: Row | undefined
    readonly expected: ReadonlyArray<{ readonly kind: string; readonly details?: object }>
  }> = [
    {
      name: "a new position with volume opens",
      before: undefined,
      after: position({ openVolume: "10" }),
      expected: [{ kind: "position.opened", details: { from: "0", to: "10", delta: "10" } }]
    },
    {
      name: "a flat position that trades opens (short)",
      before: position(),
      after: position({ openVolume: "-5" }),
      expected: [{ kind: "position.opened", details: { from: "0", to: "-5", delta: "-5" } }]
    },
    {
      name: "volume to zero closes",
      before: position({ openVolume: "10" }),
      after: position({ openVolume: "0" }),
      expected: [{ kind: "position.closed", details: { from: "10", to: "0", delta: "-10" } }]
    },
    {
      name: "a row that disappears with volume closes",
      before: position({ openVolume: "-7" }),
      after: undefined,
      expected: [{ kind: "position.closed", details: { from: "-7", to: "0", delta: "7" } }]
    },
    { name: "a flat row that disappears says nothing", before: position(), after: undefined, expected: [] },
    { name: "a new flat row says nothing", before: undefined, after: position(), expected: [] },
    {
      name: "a flip from long to short is a volume change",
      before: position({ openVolume: "10" }),
      after: position({ openVolume: "-4" }),
      expected: [{ kind: "position.volume_changed", details: { from: "10", to: "-4", delta: "-14" } }]
    },
    {
      name: "volumes beyond 2^53 keep their exact delta",
      before: position({ openVolume: "9007199254740993" }),
      after: position({ openVolume: "9007199254740995" }),
      expected: [
        {
          kind: "position.volume_changed",
          details: { from: "9007199254740993", to: "9007199254740995", delta: "2" }
        }
      ]
    },
    ...(["POSITION_STATUS_ORDERS_CLOSED", "POSITION_STATUS_DISTRESSED", "POSITION_STATUS_CLOSED_OUT"] as const).flatMap(
      (status) => [
        {
          name: `status into ${status}`,
          before: position({ openVolume: "3" }),
          after: position({ openVolume: "3", positionStatus: status }),
          expected: [{ kind: "position.status_changed", details: { from: "POSITION_STATUS_UNSPECIFIED", to: status } }]
        },
        {
          name: `status out of ${status}`,
          before: position({ openVolume: "3", positionStatus: status }),
          after: position({ openVolume: "3" }),
          expected: [{ kind: "position.status_changed", details: { from: status, to: "POSITION_STATUS_UNSPECIFIED" } }]
        }
      ]
    ),
    {
      name: "a close-out closes and changes status: one change per meaning",
      before: position({ openVolume: "25", positionStatus: "POSITION_STATUS_DISTRESSED" }),
      after: position({ openVolume: "0", positionStatus: "POSITION_STATUS_CLOSED_OUT" }),
      expected: [
        { kind: "position.closed", details: { from: "25", to: "0", delta: "-25" } },
        {
          kind: "position.status_changed",
          details: { from: "POSITION_STATUS_DISTRESSED", to: "POSITION_STATUS_CLOSED_OUT" }
        }
      ]
    },
    {
      name: "updatedAt alone means nothing",
      before: position({ openVolume: "3" }),
      after: position({ openVolume: "3", updatedAt: "1711929700000000000" }),
      expected: []
    },
    {
      name: "fees, entry price and PnL alone mean nothing without thresholds",
      before: position({ openVolume: "3" }),
      after: position({
        openVolume: "3",
        averageEntryPrice: "1234",
        realisedPnl: "-99999999999999999999",
        unrealisedPnl: "77",
        takerFeesPaid: "5"
      }),
      expected: []
    }
  ]

  for (const c of cases) {
    it(c.name, () => {
      expect(diffPosition(c.before, c.after)).toEqual(c.expected)
    })
  }

  describe("PnL thresholds", () => {
    const thresholds: PnlThresholds = { realisedBelow: "-1000", unrealisedAbove: "5000" }
    const pnl = (realisedPnl: string, unrealisedPnl = "0") => position({ openVolume: "1", realisedPnl, unrealisedPnl })

    it("fires when crossing below, and only then", () => {
      const path = ["-999", "-1000", "-1001", "-2000", "-5", "-1001"].map((r) => pnl(r))
      const fired = path.slice(1).map((after, i) => diffPosition(path[i], after, thresholds))
      expect(fired.map((changes) => changes.length)).toEqual([0, 1, 0, 0, 1])
      expect(fired[1]).toEqual([
        {
          kind: "position.pnl_threshold",
          details: { field: "realisedPnl", threshold: "-1000", direction: "below", value: "-1001" }
        }
      ])
    })

    it("fires when crossing above, not while staying above, not when leaving", () => {
      expect(diffPosition(pnl("0", "4999"), pnl("0", "5001"), thresholds)).toEqual([
        {
          kind: "position.pnl_threshold",
          details: { field: "unrealisedPnl", threshold: "5000", direction: "above", value: "5001" }
        }
      ])
      expect(diffPosition(pnl("0", "5001"), pnl("0", "90000"), thresholds)).toEqual([])
      expect(diffPosition(pnl("0", "90000"), pnl("0", "5000"), thresholds)).toEqual([])
    })

    it("a new position already beyond fires; one that disappears does not", () => {
      expect(kindsOf(diffPosition(undefined, pnl("-5000"), thresholds))).toEqual([
        "position.opened",
        "position.pnl_threshold"
      ])
      expect(kindsOf(diffPosition(pnl("-5000"), undefined, thresholds))).toEqual(["position.closed"])
    })

    it("compares exactly beyond float precision", () => {
      const exact: PnlThresholds = { realisedBelow: "-100000000000000000001" }
      expect(diffPosition(pnl("-100000000000000000000"), pnl("-100000000000000000002"), exact)).toHaveLength(1)
      expect(diffPosition(pnl("-100000000000000000000"), pnl("-100000000000000000001"), exact)).toHaveLength(0)
    })

    it("is wired into the resource", () => {
      const resource = make({} as DataNodeClient.Service, { enabled: true, pnlThresholds: thresholds })
      expect(kindsOf(resource.diff(pnl("0"), pnl("-1001"), { asset: () => undefined }))).toEqual([
        "position.pnl_threshold"
      ])
    })
  })
})

const STATUS = ["POSITION_STATUS_UNSPECIFIED", "POSITION_STATUS_ORDERS_CLOSED", "POSITION_STATUS_CLOSED_OUT"]
const statusName = (status: number) => (status === 4 ? "POSITION_STATUS_DISTRESSED" : STATUS[status])

const scale = {
  parties: 20,
  markets: 3,
  positions: 45,
  stakeLinkings: 20,
  liquidityProvisions: 4,
  referralSets: 1,
  signerBundles: 1,
  epochs: 2
}

describe("positions read", () => {
  it.scopedLive("shards by market: the shards' reads split the positions, and each follows its own changes", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* simulated({
        seed: 6,
        scale: { ...scale, markets: 12, positions: 120 },
        activity: { positionTrades: 10 }
      })
      const count = 4
      const shards = Array.from({ length: count }, (_, index) =>
        make(client, { enabled: true }, { shard: { index, count }, markets: marketIds(client) })
      )
      const whole = make(client, { enabled: true })
      const resumes: Array<string | undefined> = []
      let held = yield* Effect.forEach(shards, (shard, index) =>
        Effect.map(shard.read(contextOf(new Map())), (snapshot) => {
          resumes[index] = snapshot.resume
          return stored(snapshot.rows)
        })
      )
      for (let round = 0; round < 3; round++) {
        const all = stored((yield* whole.read(contextOf(new Map()))).rows)
        // disjoint, each in its shard, and together every position
        held.forEach((rows, index) => {
          for (const key of rows.keys()) expect(shardOf(key.slice(0, key.indexOf("/")), count)).toBe(index)
        })
        expect(held.reduce((n, rows) => n + rows.size, 0)).toBe(all.size)
        expect(entries(new Map(held.flatMap((rows) => [...rows])))).toEqual(entries(all))
        expect(held.filter((rows) => rows.size > 0).length).toBeGreaterThan(1)
        yield* sim.advance(2)
        held = yield* Effect.forEach(shards, (shard, index) =>
          Effect.map(shard.read(contextOf(held[index], resumes[index])), (snapshot) => {
            resumes[index] = snapshot.resume
            return applied(held[index], snapshot)
          })
        )
      }
    })
  )

  it.scopedLive("after the first read, only positions written since are read; applied, they equal a fresh read", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* simulated({ seed: 5, scale, activity: { positionTrades: 8 } })
      const first = yield* make(client, { enabled: true }).read(contextOf(new Map()))
      let held = stored(first.rows)
      let resume = first.resume
      expect(resume).toMatch(/^\d+$/)
      for (let i = 0; i < 6; i++) {
        yield* sim.advance(1 + (i % 2))
        // a reader made afresh each time, as after a restart or a takeover: the committed resume is enough
        const snapshot = yield* make(client, { enabled: true }).read(contextOf(held, resume))
        expect(snapshot.complete).toBe(false)
        // the rows of the blocks since the last read's (that block's own again, as it may have been unreadable)
        expect(snapshot.rows.size).toBeLessThan(held.size)
        for (const row of snapshot.rows.values())
          expect(BigInt(row.updatedAt as string)).toBeGreaterThan(BigInt(resume!))
        held = applied(held, snapshot)
        resume = snapshot.resume
        const fresh = yield* make(client, { enabled: true }).read(contextOf(new Map()))
        expect(entries(held)).toEqual(entries(stored(fresh.rows)))
      }
    })
  )

  it.scopedLive("a read while a block is not yet readable leaves that block's positions to the next read", () =>
    Effect.gen(function* () {
      // the node shows a block's height at once, and its rows only once it is committed
      const { client, sim } = yield* simulated({
        seed: 5,
        scale,
        activity: { positionTrades: 8 },
        nodes: [{ commitWindow: "1500 millis" }]
      })
      const resource = make(client, { enabled: true })
      const first = yield* resource.read(contextOf(new Map()))
      yield* sim.advance(1)
      // at the new height, before its rows are readable: nothing of that block is found yet
      const early = yield* resource.read(contextOf(stored(first.rows), first.resume))
      const held = applied(stored(first.rows), early)
      yield* Effect.sleep("1600 millis")
      const fresh = stored((yield* resource.read(contextOf(new Map()))).rows)
      expect(entries(held)).not.toEqual(entries(fresh))
      // once it is: the incremental read from what the early one said finds that block's rows
      const later = yield* resource.read(contextOf(held, early.resume))
      expect(entries(applied(held, later))).toEqual(entries(fresh))
    })
  )

  it.scopedLive("more changes than the first page of an incremental read: the rest is read on", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* simulated({
        seed: 8,
        scale: { ...scale, parties: 60, markets: 10, positions: 600 },
        activity: { positionTrades: 120 }
      })
      const resource = make(client, { enabled: true })
      const first = yield* resource.read(contextOf(new Map()))
      yield* sim.advance(4)
      const incremental = yield* resource.read(contextOf(stored(first.rows), first.resume))
      expect(incremental.complete).toBe(false)
      expect(incremental.rows.size).toBeGreaterThan(200)
      const fresh = yield* resource.read(contextOf(new Map()))
      expect(entries(applied(stored(first.rows), incremental))).toEqual(entries(stored(fresh.rows)))
      // without a resume, a read is complete
      expect((yield* resource.read(contextOf(stored(fresh.rows)))).complete).toBe(true)
    })
  )

  it.scopedLive("reads exactly the simulator's positions, and a diff of two reads matches the changed rows", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* simulated({ seed: 11, scale, activity: { positionTrades: 12 } })
      const resource = make(client, { enabled: true })
      const first = yield* resource.read(contextOf(new Map()))
      expect(first.complete).toBe(true)

      const world = [...sim.world.positions.current.values()]
      expect(first.rows.size).toBe(world.length)
      for (const row of world) {
        const read = first.rows.get(keyOf(row.market.id, row.party.id))
        expect(read).toMatchObject({
          openVolume: String(row.openVolume),
          realisedPnl: String(row.realisedPnl),
          positionStatus: statusName(row.status)
        })
      }
      // every listed position is one row: keys are unique
      expect(yield* client.positions({}, { pageSize: 7 }).pipe(Stream.runCount)).toBe(first.rows.size)

      yield* sim.advance(3)
      const incremental = yield* resource.read(contextOf(stored(first.rows), first.resume))
      expect(incremental.complete).toBe(false)
      const now = applied(stored(first.rows), incremental)
      const second = { rows: new Map([...now].map(([key, print]) => [key, rowOf(print)!])) }
      const found = changesBetween(resource, stored(first.rows), now)
      expect(kindsOf(found)).toContain("position.volume_changed")

      const volume = (row: Row | undefined) => BigInt((row?.openVolume as string | undefined) ?? "0")
      for (const key of new Set([...first.rows.keys(), ...second.rows.keys()])) {
        const before = first.rows.get(key)
        const after = second.rows.get(key)
        const kinds = found.filter((c) => c.key === key).map((c) => c.kind)
        const volumeKinds = kinds.filter((k) => k !== "position.status_changed")
        const from = volume(before)
        const to = volume(after)
        expect(volumeKinds).toEqual(
          from === to
            ? []
            : from === 0n
              ? ["position.opened"]
              : to === 0n
                ? ["position.closed"]
                : ["position.volume_changed"]
        )
        // a position seen for the first time (a market maker's, say) had no status: UNSPECIFIED
        const statusBefore = before?.positionStatus ?? "POSITION_STATUS_UNSPECIFIED"
        expect(kinds.includes("position.status_changed")).toBe(
          after !== undefined && statusBefore !== after.positionStatus
        )
      }
      for (const change of found.filter((c) => c.kind === "position.volume_changed")) {
        expect(change.before?.openVolume).not.toBe(change.after?.openVolume)
        expect(change.details).toEqual({
          from: change.before?.openVolume,
          to: change.after?.openVolume,
          delta: (volume(change.after) - volume(change.before)).toString()
        })
      }
    })
  )

  it.scopedLive("reads only the positions of the configured parties and markets", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* simulated({ seed: 12, scale })
      const world = [...sim.world.positions.current.values()]
      const parties = [...new Set(world.map((row) => row.party.id))].filter((id) => id !== "network").slice(0, 4)
      const market = world[0].market.id
      const snapshot = yield* make(client, { enabled: true, parties, markets: [market] }).read(contextOf(new Map()))
      const expected = world
        .filter((row) => parties.includes(row.party.id) && row.market.id === market)
        .map((row) => keyOf(row.market.id, row.party.id))
        .sort()
      expect(expected.length).toBeGreaterThan(0)
      expect([...snapshot.rows.keys()].sort()).toEqual(expected)
    })
  )

  it.scopedLive("a held position the list skipped is read by id, a held one that does not exist is gone", () =>
    Effect.gen(function* () {
      const { client } = yield* simulated({ seed: 13, scale })
      const full = yield* make(client, { enabled: true }).read(contextOf(new Map()))
      const skipped = [...full.rows.keys()][5]
      // a node that drops one row of the complete list, as the node does when a page's last row
      // changes between two pages
      const skipping: DataNodeClient.Service = {
        ...client,
        positions: (request, paging) =>
          request?.filter === undefined
            ? client
                .positions(request, paging)
                .pipe(Stream.filter((item) => keyOf(item.node.marketId, item.node.partyId) !== skipped))
            : client.positions(request, paging)
      }
      const resource = make(skipping, { enabled: true })
      const unknown = keyOf(skipped.split("/")[0], "c".repeat(64))
      const previous = new Map([...stored(full.rows), [unknown, "{}"]])
      const again = yield* resource.read(contextOf(previous))
      expect(stored(again.rows)).toEqual(stored(full.rows))
      expect(again.rows.has(unknown)).toBe(false)
      // with nothing held, nothing tells the skipped row is missing
      expect((yield* resource.read(contextOf(new Map()))).rows.has(skipped)).toBe(false)
    })
  )
})
