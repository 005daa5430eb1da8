import { FetchHttpClient } from "@effect/platform"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { it } from "@effect/vitest"
import { DataNodeClient } from "@vega-effect/http"
import { Simulator } from "@vega-effect/simulator"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect } from "vitest"
import { WatcherConfig } from "../src/Config.js"
import { heldOf, runCycle } from "../src/Cycle.js"
import type { WatchEvent } from "../src/Event.js"
import { fingerprint } from "../src/Resource.js"
import * as Store from "../src/Store.js"
import { resourcesOf } from "../src/Watcher.js"

const setup = (options: { readonly initialEvents: boolean; readonly lag?: number }) =>
  Effect.gen(function* () {
    const dir = mkdtempSync(join(tmpdir(), "watcher-cycle-"))
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
    const sim = yield* Simulator.make({
      seed: 4,
      blockInterval: "manual",
      blocksPerEpoch: 4,
      scale: { parties: 30, markets: 3, positions: 60, stakeLinkings: 80, liquidityProvisions: 6, epochs: 2 },
      nodes: [{}, { lag: options.lag ?? 0 }]
    })
    const client = yield* DataNodeClient.make({ urls: sim.urls[0], rateLimit: false }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
    const store = Context.get(
      yield* Layer.build(Store.layer.pipe(Layer.provide(SqliteClient.layer({ filename: join(dir, "state.db") })))),
      Store.Store
    )
    const config = Schema.decodeSync(WatcherConfig)({ nodes: [sim.url], initialEvents: options.initialEvents })
    const resources = resourcesOf(client, config)
    const held = heldOf(yield* store.loadState)
    let checkpoint = yield* store.checkpoint
    const cycle = (over: DataNodeClient.Service = client) =>
      runCycle({
        client: over,
        store,
        resources: over === client ? resources : resourcesOf(over, config),
        held,
        checkpoint,
        diffContext: Effect.succeed({ asset: () => undefined }),
        initialEvents: options.initialEvents
      }).pipe(
        Effect.tap((outcome) =>
          Effect.sync(() => {
            if (outcome._tag === "Committed") checkpoint = Option.some(outcome.checkpoint)
          })
        )
      )
    return { sim, client, store, held, cycle }
  })

const eventsOf = (store: Store.Service) =>
  Effect.map(store.pending(0, 100_000), (pending) => pending.map((p) => p.event as WatchEvent))

it.scopedLive(
  "the first sync records silently; a block later, each change is an event with the held row as before",
  () =>
    Effect.gen(function* () {
      const { cycle, held, sim, store } = yield* setup({ initialEvents: false })
      const first = yield* cycle()
      expect(first).toMatchObject({ _tag: "Committed", events: 0 })
      expect(held.get("positions")?.size).toBe(sim.world.positions.current.size)
      expect(yield* cycle()).toMatchObject({ _tag: "Unchanged" }) // no new block: nothing read

      yield* sim.advance(1)
      const second = yield* cycle()
      expect(second._tag).toBe("Committed")
      const events = yield* eventsOf(store)
      expect(events.length).toBeGreaterThan(0)
      const height = yield* sim.height
      for (const event of events) {
        expect(event).toMatchObject({ height, node: sim.urls[0] })
        expect(event.time).toMatch(/^2024-\d\d-\d\dT/)
        // the "after" row is what is held now; a "before" row was held before
        if (event.after !== null) expect(held.get(event.resource)?.get(event.key)).toBe(fingerprint(event.after))
      }
      const volumeChanged = events.find((e) => e.kind === "position.volume_changed")!
      expect(volumeChanged.before!.openVolume).not.toBe(volumeChanged.after!.openVolume)
      // ids are unique and deterministic
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length)
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

it.scopedLive("a node behind the checkpoint is refused and nothing is written", () =>
  Effect.gen(function* () {
    const { cycle, sim, store } = yield* setup({ initialEvents: false, lag: 2 })
    yield* cycle()
    const before = Option.getOrThrow(yield* store.checkpoint)
    const lagging = yield* DataNodeClient.make({ urls: sim.urls[1], rateLimit: false }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
    yield* sim.advance(1)
    const outcome = yield* cycle(lagging)
    expect(outcome).toMatchObject({ _tag: "Behind", node: sim.urls[1], checkpoint: before.height })
    expect(Option.getOrThrow(yield* store.checkpoint)).toEqual(before)
  })
)

it.scopedLive("after a restart, the first cycle reports what changed while the watcher was down", () =>
  Effect.gen(function* () {
    const { client, cycle, sim, store } = yield* setup({ initialEvents: false })
    yield* cycle()
    const stoppedAt = Option.getOrThrow(yield* store.checkpoint).height
    const before = new Map([...sim.world.positions.current.values()].map((p) => [`${p.market.id}/${p.party.id}`, p]))
    const volumes = new Map([...before].map(([key, p]) => [key, String(p.openVolume)]))
    yield* sim.advance(3) // down for three blocks
    // a new process: state and checkpoint from the store, nothing in memory
    const config = Schema.decodeSync(WatcherConfig)({ nodes: [sim.url] })
    const outcome = yield* runCycle({
      client,
      store,
      resources: resourcesOf(client, config),
      held: heldOf(yield* store.loadState),
      checkpoint: yield* store.checkpoint,
      diffContext: Effect.succeed({ asset: () => undefined }),
      initialEvents: false
    })
    expect(outcome._tag).toBe("Committed")
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
