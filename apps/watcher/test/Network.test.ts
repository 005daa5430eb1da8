import { FetchHttpClient } from "@effect/platform"
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, it } from "@effect/vitest"
import { Simulator, World } from "@vega-effect/simulator"
import { Effect, Option } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect } from "vitest"
import { checkLater, type NodeChain, NodesDisagree, readChains } from "../src/ChainIds.js"
import * as Database from "../src/Database.js"
import { makeEvent, type ReadPoint, serialize } from "../src/Event.js"
import { Leases } from "../src/Leases.js"
import { migrations } from "../src/Migrations.js"
import * as Network from "../src/Network.js"
import { runCli, runCliAsync } from "./support/cli.js"
import { engines, stateAt } from "./support/database.js"
import { captureLogs } from "./support/logs.js"
import { dumpState, dumpStateAt } from "./support/state.js"

const at = (height: number): ReadPoint => ({ height, time: "2024-04-01T00:00:01Z", node: "http://n" })
const event = (key: string) =>
  serialize(makeEvent("profiles", key, { kind: "profile.created" }, at(1), null, { alias: key }))

/** Two simulated networks, of seeds 1 and 2, for the life of the scope. */
const networks = Effect.all([
  Simulator.make({ seed: 1, blockInterval: "manual" }),
  Simulator.make({ seed: 2, blockInterval: "manual" })
])

/** The chain the nodes at these URLs are on, read as the watcher reads it. */
const chainAt = (...urls: ReadonlyArray<string>) =>
  Effect.map(readChains(urls, false), (read) => read.chain).pipe(Effect.provide(FetchHttpClient.layer))

type Watcher = Effect.Effect.Success<ReturnType<typeof stateAt>>

/** `Network.ensure` as the watcher at `watcher` runs it, before joining the members. */
const ensureOn = (watcher: Watcher, chain: NodeChain, resetState = false) =>
  Network.ensure({ chain, state: "state.db", resetState }).pipe(
    Effect.provideService(SqlClient.SqlClient, watcher.sql),
    Effect.provideService(Leases, watcher.leases)
  )

/** A watcher that checked the state is `chain`'s and committed a slice's row, event and checkpoint. */
const working = (database: string, chain: NodeChain) =>
  Effect.gen(function* () {
    const watcher = yield* stateAt(database)
    yield* ensureOn(watcher, chain)
    yield* watcher.leases.join(["profiles"])
    yield* watcher.leases.acquire("profiles")
    yield* watcher.store.cursor("file")
    yield* watcher.store.commit({
      slice: "profiles",
      point: at(1),
      writes: [{ resource: "profiles", key: "p", value: '{"alias":"p"}' }],
      events: [event("p")]
    })
    return watcher
  })

const recordedIn = (watcher: Watcher) => Effect.provideService(Network.recorded, SqlClient.SqlClient, watcher.sql)

for (const engine of engines) {
  describe.skipIf(!engine.available)(`the network a state belongs to (${engine.name})`, () => {
    it.scoped("a state of one simulated network is refused by a watcher on another: nothing written", () =>
      Effect.gen(function* () {
        const [one, two] = yield* networks
        const a = yield* chainAt(one.url)
        const b = yield* chainAt(two.url)
        expect(a.chainId).not.toBe(b.chainId)
        const database = yield* engine.fresh
        // a watcher of network 1 working on the (shared) state, holding its lease
        yield* working(database, a)
        const other = yield* stateAt(database)
        const before = yield* dumpState(other.sql)
        expect(before["watcher_network"]).toEqual([JSON.stringify({ id: 1, chain_id: a.chainId })])

        const refused = yield* Effect.flip(ensureOn(other, b))
        expect(refused).toBeInstanceOf(Network.OtherNetwork)
        expect(refused.message).toBe(
          `state state.db belongs to chain "${a.chainId}"; the node at ${two.url} is on chain "${b.chainId}": ` +
            "use --reset-state to start over, or point --database elsewhere"
        )
        expect(yield* dumpState(other.sql)).toEqual(before)
        // the state's own network is taken as it is
        yield* ensureOn(other, a)
        expect(yield* dumpState(other.sql)).toEqual(before)
      })
    )

    it.scoped("--reset-state starts over: the old network's state gone, the new chain recorded, seqs going on", () =>
      Effect.gen(function* () {
        const [one, two] = yield* networks
        const a = yield* chainAt(one.url)
        const b = yield* chainAt(two.url)
        const database = yield* engine.fresh
        const first = yield* working(database, a)
        const other = yield* stateAt(database)
        const before = yield* dumpState(other.sql)

        // not while another watcher still works on the state for the old chain
        const shared = yield* Effect.flip(ensureOn(other, b, true))
        expect(shared).toBeInstanceOf(Network.SharedReset)
        expect(shared.message).toMatch(
          /^--reset-state: 1 other watcher\(s\) still work on state state\.db \(.+:\d+\): stop them before starting over$/
        )
        expect(yield* dumpState(other.sql)).toEqual(before)

        yield* first.leases.leave
        const logs = captureLogs()
        yield* ensureOn(other, b, true).pipe(Effect.provide(logs.layer))
        expect(logs.lines.map((line) => JSON.parse(line.text).message)).toContainEqual([
          `--reset-state: state state.db belonged to chain "${a.chainId}": cleared, now recorded for chain ` +
            `"${b.chainId}" (${two.url})`
        ])
        expect(yield* recordedIn(other)).toEqual(Option.some(b.chainId))
        const after = yield* dumpState(other.sql)
        for (const table of ["watcher_state", "watcher_slice", "watcher_outbox", "watcher_lease", "watcher_member"]) {
          expect([table, after[table]]).toEqual([table, []])
        }
        expect(yield* other.store.checkpoints).toEqual(new Map())
        // the outbox's seqs go on, every sink at their end
        expect(yield* other.store.lastSeq).toBe(1)
        expect(yield* other.store.cursor("file")).toBe(1)
        expect(yield* other.store.pending(0, 10)).toEqual([])
        // and the new network's state is kept as any other
        yield* ensureOn(other, b, true)
        expect(yield* dumpState(other.sql)).toEqual(after)
      })
    )

    it.scoped("a state from before the chain id was recorded takes the nodes' chain, and says so", () =>
      Effect.gen(function* () {
        const [one] = yield* networks
        const a = yield* chainAt(one.url)
        const database = yield* engine.fresh
        // a state of the version before: migrations 1 to 3, a slice committed
        yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const { "1_init": init, "2_slices": slices, "3_slice_keys": keys } = migrations
          yield* Migrator.make({})({
            loader: Migrator.fromRecord({ "1_init": init, "2_slices": slices, "3_slice_keys": keys }),
            table: "watcher_migrations"
          })
          yield* sql`INSERT INTO watcher_slice ${sql.insert({ slice: "profiles", height: 5, time: "t", node: "n", cycles: 1 })}`
        }).pipe(Effect.provide(Database.layer(database)), Effect.scoped)
        const watcher = yield* stateAt(database)
        expect(yield* recordedIn(watcher)).toEqual(Option.none())
        const logs = captureLogs()
        yield* ensureOn(watcher, a).pipe(Effect.provide(logs.layer))
        expect(logs.lines.filter((line) => line.level === "INFO").map((line) => JSON.parse(line.text).message)).toEqual(
          [
            [
              `state state.db recorded no network (written by an earlier version): taken as chain "${a.chainId}"'s, ` +
                `the chain of ${one.url}`
            ]
          ]
        )
        expect(yield* recordedIn(watcher)).toEqual(Option.some(a.chainId))
        expect(yield* watcher.store.checkpoints).toEqual(
          new Map([["profiles", { ...at(5), time: "t", node: "n", cycles: 1 }]])
        )

        // a new state is recorded for its first chain without a word at info level
        const fresh = yield* stateAt(yield* engine.fresh)
        const quiet = captureLogs()
        yield* ensureOn(fresh, a).pipe(Effect.provide(quiet.layer))
        expect(quiet.lines.filter((line) => line.level !== "DEBUG")).toEqual([])
        expect(yield* recordedIn(fresh)).toEqual(Option.some(a.chainId))
      })
    )
  })
}

describe("the nodes' chain", () => {
  it.scoped("every node is asked alone: nodes of two networks are refused, naming both", () =>
    Effect.gen(function* () {
      const [one, two] = yield* networks
      const both = yield* Effect.flip(chainAt(one.url, two.url))
      expect(both).toBeInstanceOf(NodesDisagree)
      const a = yield* chainAt(one.url)
      const b = yield* chainAt(two.url)
      expect(both.message).toBe(
        `the nodes are on different chains: ${one.url} is on chain "${a.chainId}", ${two.url} on chain ` +
          `"${b.chainId}": give nodes of one network`
      )
      // two nodes of one world are one network
      const pair = yield* Simulator.make({ seed: 1, blockInterval: "manual", nodes: [{}, { lag: 2 }] })
      expect(yield* chainAt(...pair.urls)).toEqual({ url: pair.urls[0], chainId: a.chainId })
    })
  )

  // live: the waits between tries are real ones
  it.scopedLive("a node that did not answer at start is asked again; on another chain, it fails the watcher", () =>
    Effect.gen(function* () {
      const [one, two] = yield* networks
      const a = yield* chainAt(one.url)
      const refused = yield* Effect.flip(checkLater([two.url], a, false, "10 millis"))
      expect(refused).toBeInstanceOf(NodesDisagree)
      expect(refused.message).toContain(`${two.url} on chain "${(yield* chainAt(two.url)).chainId}"`)
      yield* checkLater([one.urls[0]], a, false, "10 millis")
      // one that answers nothing at start is left for later, the others read
      const read = yield* readChains([one.url, "http://127.0.0.1:1"], false).pipe(Effect.provide(FetchHttpClient.layer))
      expect(read.chain).toEqual(a)
      expect(read.unanswered.map(({ url }) => url)).toEqual(["http://127.0.0.1:1"])
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )
})

/** A one-cycle run of the command over a simulated network of `seed`, watching profiles only. */
const onceOver = (database: string, seed: number, ...more: ReadonlyArray<string>) => {
  const events = join(mkdtempSync(join(tmpdir(), "watcher-network-")), "events.jsonl")
  const args = ["--once", "--seed", String(seed), "--database", database, "--port", "0", "--file", events]
  return runCli([...args, "--only", "profiles", ...more])
}

for (const engine of engines) {
  describe.skipIf(!engine.available)(`the vega-watcher command on a state of another network (${engine.name})`, () => {
    it.scoped(
      "exits 2 naming both chains and writes nothing; --reset-state starts over",
      () =>
        Effect.gen(function* () {
          const database = yield* engine.fresh
          const first = onceOver(database, 1)
          expect(first.status, first.stderr).toBe(0)
          const before = yield* dumpStateAt(database)
          expect(before["watcher_network"]).toEqual([JSON.stringify({ id: 1, chain_id: World.chainIdOf(1) })])
          expect(before["watcher_state"].length).toBeGreaterThan(0)

          const refused = onceOver(database, 2)
          expect(refused.status, refused.stderr).toBe(2)
          const said = refused.stderr.split("\n").filter((line) => line.startsWith("vega-watcher: "))
          expect(said.map((line) => line.replace(/http:\/\/127\.0\.0\.1:\d+/, "http://127.0.0.1:<port>"))).toEqual([
            `vega-watcher: state ${database} belongs to chain "${World.chainIdOf(1)}"; the node at ` +
              `http://127.0.0.1:<port> is on chain "${World.chainIdOf(2)}": use --reset-state to start over, or ` +
              "point --database elsewhere"
          ])
          expect(yield* dumpStateAt(database)).toEqual(before)

          const reset = onceOver(database, 2, "--reset-state")
          expect(reset.status, reset.stderr).toBe(0)
          expect(reset.stderr).toContain(`--reset-state: state ${database} belonged to chain "${World.chainIdOf(1)}"`)
          const after = yield* dumpStateAt(database)
          expect(after["watcher_network"]).toEqual([JSON.stringify({ id: 1, chain_id: World.chainIdOf(2) })])
          // the profiles held are network 2's: none of network 1's is left (but the "network" party's, the same in both)
          const parties = (rows: ReadonlyArray<string>) =>
            rows.map((row) => (JSON.parse(row) as { key: string }).key).filter((key) => key !== "network")
          expect(parties(after["watcher_state"]).length).toBeGreaterThan(0)
          expect(
            parties(after["watcher_state"]).filter((key) => parties(before["watcher_state"]).includes(key))
          ).toEqual([])
          // and network 2's state is resumed as any other
          const resumed = onceOver(database, 2)
          expect(resumed.status, resumed.stderr).toBe(0)
        }),
      // four runs of the command from its sources, each a few seconds on a busy machine
      120_000
    )
  })
}

describe("the vega-watcher command on nodes of two networks", () => {
  it.scoped("exits 2 naming both nodes and their chains, before touching the state", () =>
    Effect.gen(function* () {
      const [one, two] = yield* networks
      const database = join(mkdtempSync(join(tmpdir(), "watcher-network-")), "state.db")
      const ran = yield* Effect.promise(() =>
        runCliAsync(["--once", "--node", one.url, "--node", two.url, "--database", database, "--port", "0"])
      )
      expect(ran.status, ran.stderr).toBe(2)
      expect(ran.stderr).toContain(
        `vega-watcher: the nodes are on different chains: ${one.url} is on chain "${World.chainIdOf(1)}", ` +
          `${two.url} on chain "${World.chainIdOf(2)}": give nodes of one network`
      )
      expect(ran.stdout).toBe("")
      // migrated, but no network recorded and nothing else written
      const state = yield* dumpStateAt(database)
      expect(state["watcher_network"]).toEqual([])
      expect(state["watcher_member"]).toEqual([])
    })
  )
})
