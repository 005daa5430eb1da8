import { FetchHttpClient } from "@effect/platform"
import { it } from "@effect/vitest"
import { DataNodeClient } from "@vega-effect/http"
import { Simulator } from "@vega-effect/simulator"
import { Effect, Metric, Option, Schema } from "effect"
import { expect } from "vitest"
import { WatcherConfig } from "../src/Config.js"
import {
  commitHeld,
  compare,
  type CycleOutcome,
  pointOf,
  readHead,
  runCycle,
  type SliceWork,
  totals
} from "../src/Cycle.js"
import type { ResourceName, WatchEvent } from "../src/Event.js"
import * as Fingerprints from "../src/Fingerprints.js"
import * as Metrics from "../src/Metrics.js"
import { resourceNames } from "../src/Resources.js"
import { fingerprint } from "../src/Resource.js"
import type * as Store from "../src/Store.js"
import { LeaseLost } from "../src/Store.js"
import { slicesOf, takeAll } from "../src/Work.js"
import { freshSqlite, stateAt } from "./support/database.js"

/** Every slice of the configured resources, taken and loaded from the store as a watcher does. */
const worksOf = (
  client: DataNodeClient.Service,
  state: Effect.Effect.Success<ReturnType<typeof stateAt>>,
  config: WatcherConfig
) => Effect.flatMap(slicesOf(client, config), (specs) => takeAll(state.leases, state.store, specs))

/** The rows held of a resource, over its slices. */
const heldOf = (works: ReadonlyArray<SliceWork>, resource: ResourceName) => {
  const mine = works.filter((w) => w.resource.name === resource)
  return {
    size: mine.reduce((sum, w) => sum + w.held.size, 0),
    get: (key: string) => mine.map((w) => w.held.get(key)).find((print) => print !== undefined)
  }
}

/**
 * A client reading the head from `head` and everything else from whichever client `reads` holds
 * at the time: the slices' reads can be sent to another node than the head's.
 */
const splitClient = (head: DataNodeClient.Service, reads: { current: DataNodeClient.Service }) =>
  new Proxy(head, {
    get: (target, key) => (key === "lastBlockHeight" ? target.lastBlockHeight : Reflect.get(reads.current, key))
  })

const setup = (options: { readonly initialEvents: boolean; readonly lag?: number }) =>
  Effect.gen(function* () {
    const sim = yield* Simulator.make({
      seed: 4,
      blockInterval: "manual",
      blocksPerEpoch: 4,
      scale: { parties: 30, markets: 3, positions: 60, stakeLinkings: 80, liquidityProvisions: 6, epochs: 2 },
      nodes: [{}, { lag: options.lag ?? 0 }]
    })
    const fresh = yield* DataNodeClient.make({ urls: sim.urls[0], rateLimit: false }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
    // the slices' reads go to the fresh node unless a test sends them elsewhere
    const reads = { current: fresh }
    const client = splitClient(fresh, reads)
    const state = yield* stateAt(yield* freshSqlite)
    const config = Schema.decodeSync(WatcherConfig)({ nodes: [sim.url], initialEvents: options.initialEvents })
    const works = yield* worksOf(client, state, config)
    const cycle = (over: DataNodeClient.Service = client) =>
      runCycle({
        client: over,
        store: state.store,
        works,
        diffContext: Effect.succeed({ asset: () => undefined }),
        initialEvents: options.initialEvents
      })
    return { sim, client, reads, config, state, store: state.store, works, cycle }
  })

const tags = (outcome: CycleOutcome) => new Set([...outcome.slices.values()].map((s) => s._tag))

const eventsOf = (store: Store.Service) =>
  Effect.map(store.pending(0, 100_000), (pending) => pending.map((p) => p.event as WatchEvent))

it.scopedLive(
  "the first sync records silently; a block later, each change is an event with the held row as before",
  () =>
    Effect.gen(function* () {
      const { cycle, sim, store, works } = yield* setup({ initialEvents: false })
      const first = yield* cycle()
      expect(tags(first)).toEqual(new Set(["Committed"]))
      expect(totals(first).events).toBe(0)
      expect(totals(first).writes).toBe(works.reduce((sum, w) => sum + w.held.size, 0)) // every row recorded
      expect(heldOf(works, "positions").size).toBe(sim.world.positions.current.size)
      // positions and stake are cut into slices, each with rows of its own
      expect(works.filter((w) => w.resource.name === "positions" && w.held.size > 0).length).toBeGreaterThan(1)
      expect(tags(yield* cycle())).toEqual(new Set(["Unchanged"])) // no new block: nothing read

      yield* sim.advance(1)
      const second = yield* cycle()
      expect(totals(second).committed).toBe(works.length)
      const events = yield* eventsOf(store)
      expect(events.length).toBeGreaterThan(0)
      const height = yield* sim.height
      for (const event of events) {
        expect(event).toMatchObject({ height, node: sim.urls[0] })
        expect(event.time).toMatch(/^2024-\d\d-\d\dT/)
        // the "after" row is what is held now; a "before" row was held before
        if (event.after !== null) expect(heldOf(works, event.resource).get(event.key)).toBe(fingerprint(event.after))
      }
      const volumeChanged = events.find((e) => e.kind === "position.volume_changed")!
      expect(volumeChanged.before!.openVolume).not.toBe(volumeChanged.after!.openVolume)
      // ids are unique and deterministic
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length)
      // the totals add up the slices': events per kind, the last seq, a write per changed row
      const kinds = new Map<string, number>()
      for (const e of events) kinds.set(e.kind, (kinds.get(e.kind) ?? 0) + 1)
      expect(totals(second)).toMatchObject({ events: events.length, kinds, lastSeq: yield* store.lastSeq, behind: [] })
      expect(totals(second).writes).toBeGreaterThanOrEqual(new Set(events.map((e) => `${e.resource}/${e.key}`)).size)
    })
)

it.scopedLive("with initial events, the first sync reports what is there", () =>
  Effect.gen(function* () {
    const { cycle, sim, store } = yield* setup({ initialEvents: true })
    yield* cycle()
    const events = yield* eventsOf(store)
    const opened = events.filter((e) => e.kind === "position.opened").length
    const open = [...sim.world.positions.current.values()].filter((p) => BigInt(p.openVolume) !== 0n).length
    expect(opened).toBe(open)
  })
)

/** Reads refused as behind their slice's checkpoint, of every resource (`vega_watcher_refused_total`). */
const refusedReads = Effect.reduce(resourceNames, 0, (sum, resource) =>
  Effect.map(
    Metric.value(Metrics.refusedTotal.pipe(Metric.tagged("resource", resource), Metric.tagged("origin", "read"))),
    (state) => sum + state.count
  )
)

it.scopedLive("a node behind the checkpoint is refused and nothing is written", () =>
  Effect.gen(function* () {
    const { cycle, sim, store } = yield* setup({ initialEvents: false, lag: 2 })
    yield* cycle()
    const before = yield* store.checkpoints
    const height = [...before.values()][0].height
    const lagging = yield* DataNodeClient.make({ urls: sim.urls[1], rateLimit: false }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
    yield* sim.advance(1)
    const refusedBefore = yield* refusedReads
    const outcome = yield* cycle(lagging)
    expect(outcome.slices.size).toBe(before.size)
    expect((yield* refusedReads) - refusedBefore).toBe(outcome.slices.size)
    for (const slice of outcome.slices.values()) {
      expect(slice).toMatchObject({ _tag: "Behind", node: sim.urls[1], checkpoint: height })
    }
    expect(totals(outcome)).toMatchObject({ committed: 0, events: 0, writes: 0, lastSeq: undefined })
    expect(totals(outcome).behind).toEqual([...outcome.slices.values()])
    expect(yield* store.checkpoints).toEqual(before)
  })
)

it.scopedLive(
  "slices read from a node behind the checkpoint are refused though the head was read from a fresh one",
  () =>
    Effect.gen(function* () {
      const { cycle, reads, sim, store } = yield* setup({ initialEvents: true, lag: 2 })
      yield* cycle()
      const before = yield* store.checkpoints
      const height = [...before.values()][0].height
      const pending = (yield* store.pending(0, 100_000)).length
      reads.current = yield* DataNodeClient.make({ urls: sim.urls[1], rateLimit: false }).pipe(
        Effect.provide(FetchHttpClient.layer)
      )
      yield* sim.advance(1)
      // the head comes from the fresh node, one block past the checkpoint; every slice is read
      // from the lagging one, a block below it
      const outcome = yield* cycle()
      expect(outcome.head).toMatchObject({ height: height + 1, node: sim.urls[0] })
      expect(outcome.slices.size).toBe(before.size)
      // a slice with nothing to read (a shard without markets) has no answer to judge: it is
      // unchanged at the head; every slice that read something was refused
      const behind = [...outcome.slices].filter(([, slice]) => slice._tag === "Behind")
      expect(behind.length).toBeGreaterThan(outcome.slices.size / 2)
      for (const [name, slice] of outcome.slices) {
        if (slice._tag === "Behind") {
          expect(slice).toEqual({ _tag: "Behind", height: height - 1, node: sim.urls[1], checkpoint: height })
          expect((yield* store.checkpoints).get(name)).toEqual(before.get(name))
        } else expect(slice).toMatchObject({ _tag: "Committed", events: 0, writes: 0 })
      }
      expect((yield* store.pending(0, 100_000)).length).toBe(pending)
    })
)

it.scopedLive("a slice read at its checkpoint's height is not behind it: it commits, with nothing changed", () =>
  Effect.gen(function* () {
    const { cycle, reads, sim, store } = yield* setup({ initialEvents: false, lag: 1 })
    yield* cycle()
    const height = [...(yield* store.checkpoints).values()][0].height
    const pending = (yield* store.pending(0, 100_000)).length
    reads.current = yield* DataNodeClient.make({ urls: sim.urls[1], rateLimit: false }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
    yield* sim.advance(1)
    // the head is a block past the checkpoint; the slices are read from a node at the checkpoint
    const outcome = yield* cycle()
    expect(outcome.head).toMatchObject({ height: height + 1, node: sim.urls[0] })
    const read = [...outcome.slices.values()].filter(
      (slice) => slice._tag === "Committed" && slice.checkpoint.height === height
    )
    expect(read.length).toBeGreaterThan(outcome.slices.size / 2)
    for (const slice of outcome.slices.values()) expect(slice).toMatchObject({ _tag: "Committed", events: 0 })
    expect((yield* store.pending(0, 100_000)).length).toBe(pending)
  })
)

it.scopedLive("a slice whose lease is gone when it commits is reported lost, and nothing is written for it", () =>
  Effect.gen(function* () {
    const { cycle, sim, state, store, works } = yield* setup({ initialEvents: false })
    yield* cycle()
    const before = yield* store.checkpoints
    const slice = works[0].slice
    yield* state.leases.release([slice])
    yield* sim.advance(1)
    const outcome = yield* cycle()
    expect(outcome.lost).toEqual([new LeaseLost({ slice, owner: null })])
    expect(outcome.slices.has(slice)).toBe(false)
    expect(outcome.slices.size).toBe(works.length - 1)
    expect((yield* store.checkpoints).get(slice)).toEqual(before.get(slice))
  })
)

it.scopedLive("after a restart, the first cycle reports what changed while the watcher was down", () =>
  Effect.gen(function* () {
    const { client, config, cycle, sim, state, store } = yield* setup({ initialEvents: false })
    yield* cycle()
    const stoppedAt = (yield* store.load("positions:0")).checkpoint.pipe(Option.getOrThrow).height
    const before = new Map([...sim.world.positions.current.values()].map((p) => [`${p.market.id}/${p.party.id}`, p]))
    const volumes = new Map([...before].map(([key, p]) => [key, String(p.openVolume)]))
    yield* sim.advance(3) // down for three blocks
    // a new process: state and checkpoint from the store, nothing in memory
    const outcome = yield* runCycle({
      client,
      store,
      works: yield* worksOf(client, state, config),
      diffContext: Effect.succeed({ asset: () => undefined }),
      initialEvents: false
    })
    expect(tags(outcome)).toEqual(new Set(["Committed"]))
    const events = yield* eventsOf(store)
    const height = yield* sim.height
    expect(height).toBe(stoppedAt + 3)
    const moved = [...sim.world.positions.current.values()].filter(
      (p) => volumes.get(`${p.market.id}/${p.party.id}`) !== String(p.openVolume)
    )
    expect(moved.length).toBeGreaterThan(0)
    for (const p of moved) {
      const key = `${p.market.id}/${p.party.id}`
      const event = events.find(
        (e) => e.key === key && e.kind.startsWith("position.") && e.kind !== "position.status_changed"
      )!
      expect(event.height).toBe(height)
      expect(event.before?.openVolume ?? "0").toBe(volumes.get(key) ?? "0")
      expect(event.after?.openVolume).toBe(String(p.openVolume))
    }
  })
)

it.scopedLive("a slice given up during a cycle is skipped and nothing is written for it", () =>
  Effect.gen(function* () {
    const { client, store, works } = yield* setup({ initialEvents: false })
    const given = new Set<string>()
    const last = works[works.length - 1].slice
    // a slice another watcher works is not even read
    const elsewhere: SliceWork = {
      ...works[0],
      slice: "elsewhere",
      resource: { ...works[0].resource, read: () => Effect.die("a slice not held was read") }
    }
    let between = 0
    const outcome = yield* runCycle({
      client,
      store,
      works: [...works, elsewhere],
      diffContext: Effect.succeed({ asset: () => undefined }),
      initialEvents: false,
      holds: (slice) => slice !== elsewhere.slice && !given.has(slice),
      // after the first commit, the work is shared with a watcher that joined: the last slice goes
      between: Effect.sync(() => {
        if (++between === 1) given.add(last)
      })
    })
    expect(outcome.slices.has(last)).toBe(false)
    expect(outcome.slices.size).toBe(works.length - 1)
    expect(between).toBe(works.length - 1)
    const checkpoints = yield* store.checkpoints
    expect(checkpoints.has(last)).toBe(false)
    expect(checkpoints.size).toBe(works.length - 1)
  })
)

/**
 * A slice of a resource whose changes are `<what>` events, compared and committed by hand: the
 * rows read are given, not read from a node.
 */
const scripted = Effect.gen(function* () {
  const { leases, store } = yield* stateAt(yield* freshSqlite)
  yield* leases.join(["profiles"])
  yield* leases.acquire("profiles")
  const work: SliceWork = {
    slice: "profiles",
    resource: {
      name: "profiles",
      read: () => Effect.die("not read"),
      diff: (before, after) => [{ kind: before === undefined ? "created" : after === undefined ? "gone" : "changed" }]
    },
    held: Fingerprints.make(),
    checkpoint: Option.none(),
    resume: undefined
  }
  const at = { height: 7, time: "", node: "http://n" }
  /** Compares `rows` (keys to JSON) with what is held, commits, and returns the writes and events, as `key kind`. */
  const cycle = (
    rows: Record<string, string>,
    options: { readonly complete: boolean; readonly report?: boolean; readonly skip?: (key: string) => boolean }
  ) =>
    Effect.gen(function* () {
      const found = yield* compare(
        store,
        work,
        new Map(Object.entries(rows)),
        options.complete,
        at,
        { asset: () => undefined },
        options.report ?? true,
        options.skip
      )
      yield* commitHeld(store, work, { _tag: "Ready", at, resume: undefined, ...found }, Effect.die)
      return {
        writes: found.writes.map((w) => `${w.key} ${w.value}`),
        events: found.events.map((e) => {
          const event = JSON.parse(e.json) as WatchEvent
          return `${event.key} ${e.kind}`
        })
      }
    })
  return { store, work, cycle }
})

it.scoped("compare: keys in order, unchanged rows left alone, gone rows only from a complete read", () =>
  Effect.gen(function* () {
    const { cycle } = yield* scripted
    expect(yield* cycle({ c: "3", a: "1", b: "2" }, { complete: true })).toEqual({
      writes: ["a 1", "b 2", "c 3"],
      events: ["a created", "b created", "c created"]
    })
    // a read of what may have changed: what it lacks is still there
    expect(yield* cycle({ a: "1", b: "20" }, { complete: false })).toEqual({ writes: ["b 20"], events: ["b changed"] })
    // a complete read: what it lacks is gone
    expect(yield* cycle({ a: "1" }, { complete: true })).toEqual({
      writes: ["b null", "c null"],
      events: ["b gone", "c gone"]
    })
    // a key the caller skips is neither changed nor gone
    expect(yield* cycle({ d: "4" }, { complete: true, skip: (key) => key === "a" })).toEqual({
      writes: ["d 4"],
      events: ["d created"]
    })
    // not reported (a first sync): written all the same
    expect(yield* cycle({ a: "1", d: "4", e: "5" }, { complete: true, report: false })).toEqual({
      writes: ["e 5"],
      events: []
    })
  })
)

it.scoped("compare: a row whose fingerprint looks changed but whose stored row is the same is no change", () =>
  Effect.gen(function* () {
    const { cycle, store, work } = yield* scripted
    yield* cycle({ a: "1" }, { complete: true })
    // what a key sharing the hash of another would look like: a fingerprint that is not the row's
    work.held.set("a", "0000000000000000")
    expect(yield* cycle({ a: "1" }, { complete: true })).toEqual({ writes: ["a 1"], events: [] })
    expect(yield* store.rows("profiles", ["a"])).toEqual(new Map([["a", "1"]]))
  })
)

it("a read point's time is empty when the node sent no block time", () => {
  expect(pointOf({ node: "http://n", height: 5, blockTimestamp: undefined })).toEqual({
    height: 5,
    time: "",
    node: "http://n"
  })
  expect(pointOf({ node: "http://n", height: 5, blockTimestamp: "1711929600123456789" })).toEqual({
    height: 5,
    time: "2024-04-01T00:00:00.123Z",
    node: "http://n"
  })
})

it.effect("the head read from a node that sent no headers: its height, no time, no node", () =>
  Effect.gen(function* () {
    const client = { lastBlockHeight: Effect.succeed({ height: "12" }) } as unknown as DataNodeClient.Service
    expect(yield* readHead(client)).toEqual({ height: 12, time: "", node: "" })
  })
)
