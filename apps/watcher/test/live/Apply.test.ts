import { it } from "@effect/vitest"
import type { DataNodeClient } from "@vega-effect/http"
import { Effect, Metric, Option } from "effect"
import { expect } from "vitest"
import { type SliceWork, workOf } from "../../src/Cycle.js"
import type { Row } from "../../src/Event.js"
import { applyRows, commitStaged, type LiveState, readSince, readSlice } from "../../src/live/Apply.js"
import * as BlockClock from "../../src/live/BlockClock.js"
import * as Metrics from "../../src/Metrics.js"
import { make as profiles } from "../../src/resources/profiles.js"
import { freshSqlite, stateAt } from "../support/database.js"

const slice = "profiles"
const party = "a1".repeat(32)
const profile = (alias: string): Row => ({ partyId: party, alias, metadata: [] })
// no read is made here: the live path only compares and commits
const resource = profiles(undefined as unknown as DataNodeClient.Service, { enabled: true })

type Watcher = Effect.Effect.Success<ReturnType<typeof stateAt>>

/** `vega_watcher_refused_total` of profiles from `origin`. */
const refused = (origin: "read" | "live") =>
  Effect.map(
    Metric.value(Metrics.refusedTotal.pipe(Metric.tagged("resource", "profiles"), Metric.tagged("origin", origin))),
    (state) => state.count
  )

/** The live state of one watcher holding `works`, every change reported. */
const liveStateOf = (watcher: Watcher, works: Map<string, SliceWork>, initialEvents = true) =>
  Effect.gen(function* () {
    const state: LiveState = {
      store: watcher.store,
      clock: yield* BlockClock.make("1 second", Effect.succeed(Option.none())),
      works,
      diffContext: Effect.succeed({ asset: () => undefined }),
      head: Effect.succeed({ height: 6, time: "", node: "n" }),
      initialEvents,
      committed: () => Effect.void,
      lost: (lost) => Effect.sync(() => works.delete(lost.slice)),
      lock: () => lock,
      liveWrites: new Map(),
      readAt: new Map(),
      silentUntil: new Map(),
      staged: new Map()
    }
    const lock = yield* Effect.makeSemaphore(1)
    return state
  })

/** Takes the slice's lease (waiting out another holder's) and loads it as a watcher does. */
const take = (watcher: Watcher, works: Map<string, SliceWork>, read = resource) =>
  Effect.gen(function* () {
    yield* watcher.leases.join([slice])
    while ((yield* watcher.leases.acquire(slice)) === undefined) yield* Effect.sleep("50 millis")
    works.set(slice, workOf(slice, read, yield* watcher.store.load(slice)))
  })

const aliases = (watcher: Watcher) =>
  Effect.map(watcher.store.pending(0, 100), (events) => events.map(({ event }) => event.details))

it.scopedLive(
  "a live change staged for a slice that is lost, and that another watcher moves past, is never committed",
  () =>
    Effect.gen(function* () {
      const database = yield* freshSqlite
      const first = yield* stateAt(database, "200 millis")
      const second = yield* stateAt(database, "200 millis")
      const firstWorks = new Map<string, SliceWork>()
      const firstState = yield* liveStateOf(first, firstWorks)
      yield* take(first, firstWorks)
      yield* applyRows(firstState, "profiles", 3, "n", [[party, profile("one")]])
      yield* commitStaged(firstState, 3, [slice])
      // block 5's change is staged, waiting for its block to settle, when the slice is lost
      yield* applyRows(firstState, "profiles", 5, "n", [[party, profile("two")]])
      firstWorks.delete(slice)
      // another watcher takes the slice over and commits block 7, where the alias is "three"
      const secondWorks = new Map<string, SliceWork>()
      const secondState = yield* liveStateOf(second, secondWorks)
      yield* take(second, secondWorks)
      yield* applyRows(secondState, "profiles", 7, "n", [[party, profile("three")]])
      yield* commitStaged(secondState, 7, [slice])
      yield* second.leases.release([slice])
      // the slice comes back, then block 5 settles here: its change is older than what is held
      yield* take(first, firstWorks)
      yield* commitStaged(firstState, 8, [slice])
      expect([...(yield* first.store.rows("profiles", [party])).values()].map((row) => JSON.parse(row).alias)).toEqual([
        "three"
      ])
      expect(yield* aliases(first)).toEqual([
        { alias: "one", metadata: [] },
        { from: "one", to: "three" }
      ])
      expect(Option.getOrThrow(firstWorks.get(slice)!.checkpoint).height).toBe(7)
      expect(firstState.staged.size).toBe(0)
    })
)

it.scopedLive("a live change of a block the silent first read may have seen is recorded with it, not reported", () =>
  Effect.gen(function* () {
    const watcher = yield* stateAt(yield* freshSqlite)
    const works = new Map<string, SliceWork>()
    const state = yield* liveStateOf(watcher, works, false)
    const other = "b2".repeat(32)
    // the first read shows block 6 (the node's head here): both profiles as they are then
    const read = {
      ...resource,
      read: () =>
        Effect.succeed({
          rows: new Map<string, Row>([
            [party, profile("six")],
            [other, { partyId: other, alias: "other", metadata: [] }]
          ]),
          complete: true
        })
    }
    yield* take(watcher, works, read)
    // block 6 changed the first profile, told by the bus while the read ran
    yield* applyRows(state, "profiles", 6, "n", [[party, profile("six")]])
    yield* readSlice(state, slice, { minHeight: 0, reconciled: true })
    yield* commitStaged(state, 8, [slice])
    expect(yield* aliases(watcher)).toEqual([])
    const rows = yield* watcher.store.rows("profiles", [party, other])
    expect([...rows.values()].map((row) => JSON.parse(row).alias).sort()).toEqual(["other", "six"])
    // a change after what the read saw is reported
    yield* applyRows(state, "profiles", 9, "n", [[party, profile("nine")]])
    yield* commitStaged(state, 9, [slice])
    expect(yield* aliases(watcher)).toEqual([{ from: "six", to: "nine" }])
  })
)

it.scopedLive("a read from a node behind the slice's checkpoint is refused: nothing written, nothing reported", () =>
  Effect.gen(function* () {
    const watcher = yield* stateAt(yield* freshSqlite)
    const works = new Map<string, SliceWork>()
    const state = yield* liveStateOf(watcher, works)
    const other = "b2".repeat(32)
    // the read answers from block 6 (the node's head here), below block 7's checkpoint
    const read = {
      ...resource,
      read: () =>
        Effect.succeed({
          rows: new Map<string, Row>([[other, { partyId: other, alias: "other", metadata: [] }]]),
          complete: false
        })
    }
    yield* take(watcher, works, read)
    const before = { read: yield* refused("read"), live: yield* refused("live") }
    yield* applyRows(state, "profiles", 7, "n", [[party, profile("seven")]])
    yield* commitStaged(state, 7, [slice])
    yield* readSlice(state, slice, { minHeight: 0, reconciled: true })
    // a live change of a block the slice has moved past, come late
    yield* applyRows(state, "profiles", 5, "n", [[party, profile("five")]])
    yield* commitStaged(state, 8, [slice])
    expect(yield* aliases(watcher)).toEqual([{ alias: "seven", metadata: [] }])
    expect((yield* watcher.store.rows("profiles", [other])).size).toBe(0)
    expect(Option.getOrThrow(works.get(slice)!.checkpoint).height).toBe(7)
    // counted, as a cycle counts what it refuses
    expect({ read: (yield* refused("read")) - before.read, live: (yield* refused("live")) - before.live }).toEqual({
      read: 1,
      live: 1
    })
  })
)

it.scopedLive("a whole read waiting for its block counts as read since that block; a live change does not", () =>
  Effect.gen(function* () {
    const watcher = yield* stateAt(yield* freshSqlite)
    const works = new Map<string, SliceWork>()
    const state = yield* liveStateOf(watcher, works)
    // the read answers from block 6 (the node's head here)
    const read = {
      ...resource,
      read: () => Effect.succeed({ rows: new Map<string, Row>([[party, profile("six")]]), complete: true })
    }
    yield* take(watcher, works, read)
    yield* applyRows(state, "profiles", 6, "n", [[party, profile("six")]])
    expect(readSince(state, slice, 6)).toBe(false)
    // reported reads wait for their block: staged, not committed
    yield* readSlice(state, slice, { minHeight: 0, reconciled: true })
    expect(state.readAt.has(slice)).toBe(false)
    expect([readSince(state, slice, 5), readSince(state, slice, 6), readSince(state, slice, 7)]).toEqual([
      true,
      true,
      false
    ])
    yield* commitStaged(state, 6, [slice])
    expect(state.staged.size).toBe(0)
    expect([readSince(state, slice, 6), readSince(state, slice, 7)]).toEqual([true, false])
  })
)
