import { HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { DataNodeClient } from "@vega-effect/http"
import { Reward } from "@vega-effect/schema"
import { Simulator } from "@vega-effect/simulator"
import { Chunk, Effect, Option, Schema, Stream, TestServices } from "effect"
import { raw, stack } from "./support.js"

const client = DataNodeClient.DataNodeClient

interface Row {
  readonly party: { readonly id: string }
  readonly asset: { readonly id: string }
  readonly epoch: number
  readonly amount: bigint
}
const rowKey = (r: Row) => `${r.party.id}/${r.asset.id}/${r.epoch}/${r.amount}`
const rewardKey = (r: Reward.Reward) => `${r.partyId}/${r.assetId}/${r.epoch}/${r.amount}`
const sorted = (keys: ReadonlyArray<string>) => [...keys].sort()

/** The reward-row requests a client sent (path and query), counted as the client sends them. */
const counting = () => {
  const sent: Array<string> = []
  const transformClient = HttpClient.tapRequest((request) =>
    Effect.sync(() => {
      if (new URL(request.url, "http://node").pathname === "/api/v2/rewards") sent.push(request.url)
    })
  )
  const withCursor = () => sent.filter((url) => new URL(url, "http://node").searchParams.has("pagination.after")).length
  return { sent, transformClient, withCursor }
}

// one epoch of more rows than one answer holds: 5,199 parties all paid in VEGA in epoch 1
const bigEpoch = {
  seed: 11,
  scale: { parties: 5_200, assets: 3, epochs: 2, positions: 10, stakeLinkings: 10 },
  activity: { rewardShare: 1 }
}

describe("DataNodeClient rewards", () => {
  const windows = counting()
  it.layer(stack({ seed: 5 }, { transformClient: windows.transformClient }))("without quirks", (it) => {
    it.effect("rewardsByEpoch reads the next window while the consumer works on one, never two ahead", () =>
      Effect.gen(function* () {
        // a window's requests (halved, or paged by cursor) share its first epoch
        const started = () =>
          new Set(windows.sent.map((url) => new URL(url, "http://node").searchParams.get("fromEpoch"))).size
        const before = started()
        let window = 0
        const dn = yield* client
        yield* dn.rewardsByEpoch({ fromEpoch: 2, toEpoch: 8 }, { pageSize: 50 }).pipe(
          Stream.chunks,
          Stream.runForEach((rows) =>
            Effect.gen(function* () {
              window++
              const last = Chunk.last(rows).pipe(Option.exists((row) => row.epoch === 8n))
              // wait (at most 2 s) for the next window's first request, unless this was the last
              yield* TestServices.provideLive(Effect.sleep("5 millis")).pipe(
                Effect.repeat({ until: () => started() - before > window || last, times: 400 })
              )
              expect(started() - before).toBe(last ? window : window + 1)
            })
          )
        )
        expect(window).toBeGreaterThan(3)
      })
    )

    it.effect("rewardsByEpoch: a window that hits the limit is read again as the epochs its answer covered", () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.Simulator
        const dn = yield* client
        const last = sim.world.rewards.rows.reduce((max, r) => Math.max(max, r.epoch), 0)
        const all = sim.world.rewards.rows.filter((r) => r.epoch >= 1)
        const perEpoch = all.filter((r) => r.epoch === 1).length
        // ten epochs of some 80 rows, two to an answer of 200: halving the whole range takes three tries
        const pageSize = 200
        expect(last).toBeGreaterThanOrEqual(10)
        expect(perEpoch * 2).toBeLessThan(pageSize)
        expect(all.filter((r) => r.epoch <= Math.ceil(last / 2)).length).toBeGreaterThan(pageSize)
        const before = windows.sent.length
        const rows = yield* Stream.runCollect(dn.rewardsByEpoch({ fromEpoch: 1, toEpoch: last }, { pageSize }))
        expect(sorted(Chunk.toReadonlyArray(rows).map(rewardKey))).toEqual(sorted(all.map(rowKey)))
        const first = windows.sent
          .slice(before)
          .filter((url) => new URL(url, "http://node").searchParams.get("fromEpoch") === "1")
        // the whole range, then the epochs its answer covered, which fit
        expect(first.length).toBe(2)
      })
    )

    it.effect("listRewards: one page, as the node wrote it, with filters", () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.Simulator
        const dn = yield* client
        const vega = sim.world.catalog.vega.id
        const page = yield* dn.listRewards({ assetId: vega, fromEpoch: "2", toEpoch: "3" })
        expect(page).toEqual(
          Schema.decodeUnknownSync(Reward.ListRewardsResponse)(
            yield* raw(`/api/v2/rewards?assetId=${vega}&fromEpoch=2&toEpoch=3`)
          )
        )
        expect(page.rewards.edges.length).toBeGreaterThan(0)
        expect(
          page.rewards.edges.every((e) => e.node.assetId === vega && e.node.epoch >= 2n && e.node.epoch <= 3n)
        ).toBe(true)
        expect(page.rewards.edges[0].node.epoch).toBe(3n)
        const bad = yield* Effect.flip(dn.listRewards({ pagination: { first: 5001 } }))
        expect(bad._tag).toBe("InvalidRequestError")
      })
    )

    it.effect("rewards: every row by cursor when the node pages exactly", () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.Simulator
        const dn = yield* client
        const all = Chunk.toReadonlyArray(yield* Stream.runCollect(dn.rewards({}, { pageSize: 97 })))
        expect(sorted(all.map((i) => rewardKey(i.node)))).toEqual(sorted(sim.world.rewards.rows.map(rowKey)))
      })
    )

    it.effect("rewardsByEpoch: every row of the range, oldest epoch first, and a party's rows", () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.Simulator
        const dn = yield* client
        const rows = Chunk.toReadonlyArray(
          yield* Stream.runCollect(dn.rewardsByEpoch({ fromEpoch: 2, toEpoch: 8 }, { pageSize: 50 }))
        )
        const truth = sim.world.rewards.rows.filter((r) => r.epoch >= 2 && r.epoch <= 8)
        expect(sorted(rows.map(rewardKey))).toEqual(sorted(truth.map(rowKey)))
        const epochs = rows.map((r) => r.epoch)
        expect(epochs).toEqual([...epochs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
        const party = truth[0].party.id
        const mine = Chunk.toReadonlyArray(
          yield* Stream.runCollect(dn.rewardsByEpoch({ partyId: party, fromEpoch: "1", toEpoch: 10n }))
        )
        expect(sorted(mine.map(rewardKey))).toEqual(
          sorted(sim.world.rewards.rows.filter((r) => r.party.id === party && r.epoch <= 10).map(rowKey))
        )
        expect(Chunk.size(yield* Stream.runCollect(dn.rewardsByEpoch({ fromEpoch: 5, toEpoch: 4 })))).toBe(0)
        const bad = yield* Effect.flip(Stream.runCollect(dn.rewardsByEpoch({ fromEpoch: -1, toEpoch: 4 })))
        expect(bad._tag).toBe("InvalidRequestError")
        const badSize = yield* Effect.flip(
          Stream.runCollect(dn.rewardsByEpoch({ fromEpoch: 1, toEpoch: 4 }, { pageSize: 0 }))
        )
        expect(badSize._tag).toBe("InvalidRequestError")
      })
    )
  })

  it.layer(stack({ seed: 5, quirks: "v0.75" }))("with the v0.75 node's epoch-only cursor", (it) => {
    it.effect("cursor paging repeats or loses rows, rewardsByEpoch reads them all", () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.Simulator
        const dn = yield* client
        const truth = sorted(sim.world.rewards.rows.map(rowKey))
        const byCursor = yield* Stream.runCollect(dn.rewards({}, { pageSize: 97 })).pipe(Effect.either)
        const cursorKeys =
          byCursor._tag === "Right" ? sorted(Chunk.toReadonlyArray(byCursor.right).map((i) => rewardKey(i.node))) : []
        expect(cursorKeys).not.toEqual(truth)
        // a small page size forces windows to shrink, down to single epochs read with the maximum page
        const byEpoch = yield* Stream.runCollect(dn.rewardsByEpoch({ fromEpoch: 0, toEpoch: 1000 }, { pageSize: 10 }))
        expect(sorted(Chunk.toReadonlyArray(byEpoch).map(rewardKey))).toEqual(truth)
      })
    )
  })

  it.layer(
    stack({
      seed: 3,
      quirks: "v0.75",
      blocksPerEpoch: 5,
      scale: { parties: 17_000, positions: 10, stakeLinkings: 10, epochs: 1 },
      activity: { rewardShare: 0.35 }
    })
  )("an epoch with more rows than the node's largest page", (it) => {
    it.effect(
      "fails clearly instead of missing rows",
      () =>
        Effect.gen(function* () {
          const sim = yield* Simulator.Simulator
          const dn = yield* client
          expect(sim.world.rewards.rows.filter((r) => r.epoch === 1).length).toBeGreaterThan(5000)
          const error = yield* Effect.flip(Stream.runCollect(dn.rewardsByEpoch({ fromEpoch: 1, toEpoch: 1 })))
          expect(error._tag).toBe("PaginationLoopError")
          expect(error.message).toContain("epoch 1 has more than 5000 reward rows")
          // a fee asset's rows of that epoch fit in one page
          const asset = sim.world.catalog.assets[1].id
          const rows = yield* Stream.runCollect(dn.rewardsByEpoch({ assetId: asset, fromEpoch: 1, toEpoch: 1 }))
          expect(Chunk.size(rows)).toBe(
            sim.world.rewards.rows.filter((r) => r.epoch === 1 && r.asset.id === asset).length
          )
        }),
      60_000
    )
  })
})

describe("rewardsByEpoch, an epoch with more rows than one answer", () => {
  const correct = counting()
  it.layer(stack(bigEpoch, { transformClient: correct.transformClient }))("on a node that pages correctly", (it) => {
    it.effect(
      "is paged by cursor: every row once, in about rows / 5000 requests",
      () =>
        Effect.gen(function* () {
          const sim = yield* Simulator.Simulator
          const dn = yield* client
          const truth = sim.world.rewards.rows
          expect(truth.filter((r) => r.epoch === 1).length).toBeGreaterThan(5000)
          expect(truth.filter((r) => r.epoch === 2).length).toBeGreaterThan(5000)
          const rows = yield* Stream.runCollect(dn.rewardsByEpoch({ fromEpoch: 0, toEpoch: 2 }))
          expect(sorted(Chunk.toReadonlyArray(rows).map(rewardKey))).toEqual(sorted(truth.map(rowKey)))
          // two epochs of two pages each, and the windows halved down to them
          expect(correct.withCursor()).toBe(2)
          expect(correct.sent.length).toBeLessThanOrEqual(Math.ceil(truth.length / 5000) + 6)
        }),
      120_000
    )

    it.effect(
      "delivers each window as one chunk: no epoch is split between chunks",
      () =>
        Effect.gen(function* () {
          const dn = yield* client
          const chunks = yield* Stream.runCollect(Stream.chunks(dn.rewardsByEpoch({ fromEpoch: 0, toEpoch: 2 })))
          const epochsOf = Chunk.toReadonlyArray(chunks)
            .filter((chunk) => Chunk.size(chunk) > 0)
            .map((chunk) => new Set(Chunk.toReadonlyArray(chunk).map((r) => r.epoch)))
          // the big epochs (more than 5,000 rows) among them, each in a chunk of its own
          expect(epochsOf.flatMap((epochs) => [...epochs]).sort()).toEqual([1n, 2n])
          expect(epochsOf.every((epochs) => epochs.size === 1)).toBe(true)
        }),
      120_000
    )
  })

  const quirky = counting()
  it.layer(stack({ ...bigEpoch, quirks: "v0.75" }, { transformClient: quirky.transformClient }))(
    "on a node whose cursor restarts the epoch",
    (it) => {
      it.effect(
        "fails with no row delivered, and the node is not asked by cursor again",
        () =>
          Effect.gen(function* () {
            const dn = yield* client
            const delivered: Array<Reward.Reward> = []
            const collect = (from: number, to: number) =>
              dn.rewardsByEpoch({ fromEpoch: from, toEpoch: to }).pipe(
                Stream.runForEach((row) => Effect.sync(() => delivered.push(row))),
                Effect.flip
              )
            const first = yield* collect(1, 1)
            expect(first._tag).toBe("PaginationLoopError")
            expect(first.message).toContain("restarted epoch 1 at a cursor")
            expect(first.message).toContain("epoch 1 has more than 5000 reward rows")
            expect(delivered).toEqual([])
            expect(quirky.withCursor()).toBe(1)
            const sentBefore = quirky.sent.length
            const second = yield* collect(2, 2)
            expect(second._tag).toBe("PaginationLoopError")
            expect(second.message).toContain("restarted an epoch at a cursor earlier")
            expect(delivered).toEqual([])
            // one request for the epoch's first page, none by cursor
            expect(quirky.withCursor()).toBe(1)
            expect(quirky.sent.length).toBe(sentBefore + 1)
          }),
        120_000
      )
    }
  )
})
