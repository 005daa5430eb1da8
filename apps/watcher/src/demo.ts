/**
 * `pnpm demo`: the watcher at work on a simulated network, in about half a minute.
 *
 * A simulator is started in this process and the watcher watches it (its console sink shows every
 * event live); a key imported from a mnemonic then submits real signed transactions — a profile
 * update, a liquidity provision, a market buy and a market sell — and the demo waits until the
 * watcher reports the effect of each for that party. It ends with a summary and exits 0, or
 * explains what went wrong on stderr and exits 1.
 *
 * Run: `pnpm demo` (in apps/watcher), or `node --import tsx --conditions=@vega-effect/source src/demo.ts`.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Keys, ProofOfWork } from "@vega-effect/crypto"
import { DataNodeClient } from "@vega-effect/http"
import { Commands, DurationText, TransactionResult } from "@vega-effect/schema"
import { Simulator } from "@vega-effect/simulator"
import { TransactionSubmitter } from "@vega-effect/submitter"
import * as Cause from "effect/Cause"
import * as Console from "effect/Console"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { WatcherConfig } from "./Config.js"
import type { Json, Row, WatchEvent } from "./Event.js"
import { keyOf as positionKey } from "./resources/positions.js"
import type { Sink } from "./Sink.js"
import { shortHex } from "./sinks/ConsoleSink.js"
import { run } from "./Watcher.js"

/** The wallet test vector of the Vega sources: a public mnemonic, fine for a simulated network only. */
const MNEMONIC = Redacted.make(
  "swing ceiling chaos green put insane ripple desk match tip melt usual shrug turkey renew icon parade veteran lens govern path rough page render"
)
const ALIAS = "demo-trader"

const BLOCK_INTERVAL = Duration.millis(300)
const WATCH_INTERVAL = Duration.millis(250)
/** How long the watcher may take to report one effect, or to do its first sync. */
const REPORT_TIMEOUT = Duration.seconds(15)
const SUBMIT_TIMEOUT = Duration.seconds(20)
/** The whole demo; it normally takes well under half of this. */
const DEMO_TIMEOUT = Duration.seconds(60)

class DemoFailure extends Data.TaggedError("DemoFailure")<{ readonly message: string }> {}

const heading = (title: string) => Console.log(`\n== ${title} ==`)

/**
 * A sink kept in this process: every event the watcher delivers, in order, so the demo can wait
 * for the ones it expects. At-least-once, like the console.
 */
const makeRecorder = Effect.gen(function* () {
  const delivered = yield* SubscriptionRef.make<ReadonlyArray<WatchEvent>>([])
  const sink: Sink = {
    name: "demo",
    recover: () => Effect.succeed(0),
    deliver: (batch) => SubscriptionRef.update(delivered, (all) => [...all, ...batch.map(({ event }) => event)])
  }
  /** The first event delivered that satisfies `predicate`, waiting up to `REPORT_TIMEOUT` for it. */
  const waitFor = (what: string, predicate: (event: WatchEvent) => boolean) =>
    delivered.changes.pipe(
      Stream.map((all) => all.find(predicate)),
      Stream.filter((event): event is WatchEvent => event !== undefined),
      Stream.runHead,
      Effect.flatMap(
        Option.match({
          onNone: () => Effect.fail(new DemoFailure({ message: `the watcher stopped before reporting ${what}` })),
          onSome: Effect.succeed
        })
      ),
      Effect.timeoutFail({
        duration: REPORT_TIMEOUT,
        onTimeout: () =>
          new DemoFailure({ message: `the watcher did not report ${what} within ${Duration.format(REPORT_TIMEOUT)}` })
      })
    )
  return { sink, waitFor, delivered: SubscriptionRef.get(delivered) }
})

/** The party an event is about, when its details or its row name one (a liquidity row nests it in `current`). */
const partyOf = (event: WatchEvent): Json | undefined => {
  const row = event.after ?? event.before
  const current = row?.current
  return event.details.partyId ?? row?.partyId ?? (isRow(current) ? current.partyId : undefined)
}

const isRow = (value: Json | undefined): value is Row =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A short line describing what an event says about its row. */
const describe = (event: WatchEvent): string => {
  const d = event.details
  switch (event.kind) {
    case "profile.created":
      return `alias ${JSON.stringify(d.alias)}, metadata ${JSON.stringify(d.metadata)}`
    case "profile.alias_changed":
      return `alias ${JSON.stringify(d.from)} → ${JSON.stringify(d.to)}`
    case "liquidity.created":
      return `commitment ${d.commitmentAmount}, fee ${d.fee}, ${d.status}`
    case "liquidity.status_changed":
      return `${d.from} → ${d.to}`
    case "liquidity.pending_activated":
      return `version ${d.version} in force: commitment ${d.commitmentAmount}, fee ${d.fee}`
    case "position.opened":
    case "position.volume_changed":
    case "position.closed":
      return `open volume ${d.from} → ${d.to}`
    default:
      return "from" in d && "to" in d ? `${JSON.stringify(d.from)} → ${JSON.stringify(d.to)}` : ""
  }
}

/** Submits a command, waits for its result and fails unless the network applied it. */
const submit = (submitter: TransactionSubmitter.Service, label: string, command: Commands.Command) =>
  Effect.gen(function* () {
    yield* heading(`submitting: ${label}`)
    const result = yield* submitter
      .submitAndWait(command, { timeout: SUBMIT_TIMEOUT })
      .pipe(
        Effect.mapError(
          (error) => new DemoFailure({ message: `${label}: not applied (${error._tag}: ${errorText(error)})` })
        )
      )
    const failure = TransactionResult.failureMessage(result)
    if (Option.isSome(failure)) {
      return yield* new DemoFailure({ message: `${label}: the network refused it: ${failure.value}` })
    }
    yield* Console.log(`tx ${result.hash.toLowerCase()} included: success`)
    return { label, hash: result.hash.toLowerCase() }
  })

const errorText = (error: unknown): string =>
  error instanceof Error && error.message !== "" ? error.message : String(error)

type Recorder = Effect.Effect.Success<typeof makeRecorder>

/** Waits for the watcher to report an event for our party, and says so. */
type Report = (what: string, predicate: (event: WatchEvent) => boolean) => Effect.Effect<WatchEvent, DemoFailure>

/** A transaction sent and included. */
interface Submitted {
  readonly label: string
  readonly hash: string
}

/** Who trades, and where. */
interface Trader {
  readonly submitter: TransactionSubmitter.Service
  /** Lowercase hex. */
  readonly party: string
  readonly marketId: string
  readonly marketName: string
}

/** What the steps leave for the summary. */
interface Outcome {
  readonly party: string
  readonly market: string
  readonly submitted: ReadonlyArray<Submitted>
  /** Whether an event is about our party. */
  readonly ours: (event: WatchEvent) => boolean
}

const startNetwork = Effect.gen(function* () {
  yield* heading("starting a simulated network")
  const sim = yield* Simulator.make({
    seed: 7,
    blockInterval: BLOCK_INTERVAL,
    blocksPerEpoch: 40,
    // an easy proof of work, so each transaction is sent in a moment
    spam: { difficulty: 8 },
    // a small world, moving slowly enough that the live events stay readable
    scale: { parties: 20, markets: 3, positions: 50, stakeLinkings: 40, liquidityProvisions: 8, referralSets: 2 },
    activity: { positionTrades: 1, stakeEvents: 1, liquidityChanges: 1, profileChanges: 1, rewardShare: 0.05 }
  })
  yield* Console.log(
    `simulator at ${sim.url}: height ${yield* sim.height}, ${sim.world.catalog.markets.length} markets, ` +
      `a block every ${Duration.format(BLOCK_INTERVAL)}`
  )
  return sim
})

/**
 * The watcher on the simulator, its state in a temporary directory and the recorder among its sinks;
 * `stopped` fails when the watcher stops, which it should not do by itself.
 */
const startWatcher = (sim: Simulator.Service) =>
  Effect.gen(function* () {
    yield* heading("starting the watcher")
    const directory = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "vega-watcher-demo-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
    const config = yield* Schema.decodeUnknown(WatcherConfig)({
      // polled: the simulator's liquidity-provision stream does not yet carry provisions made by
      // transactions, which the demo submits (live mode would find them only at a reconciliation)
      mode: "poll",
      nodes: [sim.url],
      database: join(directory, "watcher.db"),
      port: 0,
      interval: DurationText.format(WATCH_INTERVAL),
      initialEvents: false,
      sinks: { console: true }
    })
    const recorder = yield* makeRecorder
    yield* Console.log(
      `watching ${sim.url} every ${Duration.format(WATCH_INTERVAL)}, state in ${config.database}; ` +
        `its events follow as they are reported`
    )
    // forked in this scope: interrupted (and its database closed) before the directory goes
    const watcher = yield* Effect.forkScoped(run(config, { once: false, sinks: [recorder.sink] }))
    const stopped = Fiber.join(watcher).pipe(
      Effect.mapError((error) => new DemoFailure({ message: `the watcher failed: ${errorText(error)}` })),
      Effect.zipRight(Effect.fail(new DemoFailure({ message: "the watcher stopped unexpectedly" })))
    )
    return { recorder, watcher, stopped }
  })

/** Key 1 of the mnemonic, with a submitter and a client of the simulator, on its first active market. */
const joinAsTrader = (sim: Simulator.Service) =>
  Effect.gen(function* () {
    const key = yield* Keys.fromMnemonic(MNEMONIC, { index: 1 })
    const services = yield* Layer.build(
      Layer.provideMerge(TransactionSubmitter.layer({ key }), DataNodeClient.layer({ urls: sim.urls })).pipe(
        Layer.provide(ProofOfWork.layer({ threads: 1 })),
        Layer.provide(NodeHttpClient.layerUndici)
      )
    )
    const submitter = Context.get(services, TransactionSubmitter.TransactionSubmitter)
    const client = Context.get(services, DataNodeClient.DataNodeClient)
    const party = submitter.partyId.toLowerCase()
    const markets = (yield* client.listMarkets({ pagination: { first: 10 } })).markets.edges.map((e) => e.node)
    const market = markets.find((m) => m.state === "STATE_ACTIVE") ?? markets[0]
    if (market === undefined) return yield* new DemoFailure({ message: "the simulator lists no market" })
    const marketName = market.tradableInstrument.instrument.code
    yield* Console.log(`-- trading as party ${party} (mnemonic key 1) on market ${marketName} ${market.id}`)
    return { submitter, party, marketId: market.id, marketName } satisfies Trader
  })

/** Sets our alias and metadata. */
const updateProfile = ({ party, submitter }: Trader, report: Report) =>
  Effect.gen(function* () {
    const submitted = yield* submit(
      submitter,
      "profile update",
      Commands.command(
        "updatePartyProfile",
        Commands.updatePartyProfile({
          alias: ALIAS,
          metadata: [
            { key: "desk", value: "demo" },
            { key: "strategy", value: "market-making" }
          ]
        })
      )
    )
    yield* report(
      "a profile change of our party",
      (e) => e.resource === "profiles" && e.key === party && (e.after?.alias ?? "") === ALIAS
    )
    return submitted
  })

/** The provision as the watcher first reported it. */
const provideLiquidity = ({ marketId, party, submitter }: Trader, report: Report) =>
  Effect.gen(function* () {
    const submitted = yield* submit(
      submitter,
      "liquidity provision",
      Commands.command(
        "liquidityProvisionSubmission",
        Commands.liquidityProvisionSubmission({
          marketId,
          commitmentAmount: "5000000",
          fee: "0.01",
          reference: "demo-lp"
        })
      )
    )
    const provision = yield* report(
      "the liquidity provision of our party",
      (e) => e.kind === "liquidity.created" && e.details.partyId === party && e.details.marketId === marketId
    )
    return { submitted, provision }
  })

/** A market buy that opens a position, then a market sell that reduces it. */
const tradePosition = ({ marketId, party, submitter }: Trader, report: Report) =>
  Effect.gen(function* () {
    const order = (side: "SIDE_BUY" | "SIDE_SELL", size: bigint) =>
      Commands.command(
        "orderSubmission",
        Commands.orderSubmission({
          marketId,
          size,
          side,
          type: "TYPE_MARKET",
          timeInForce: "TIME_IN_FORCE_IOC",
          reference: "demo"
        })
      )
    const position = positionKey(marketId, party)
    const buy = yield* submit(submitter, "market buy of 5", order("SIDE_BUY", 5n))
    yield* report("the opening of our position", (e) => e.kind === "position.opened" && e.key === position)
    const sell = yield* submit(submitter, "market sell of 2", order("SIDE_SELL", 2n))
    yield* report(
      "the change of our position",
      (e) => e.kind === "position.volume_changed" && e.key === position && e.details.to === "3"
    )
    return [buy, sell]
  })

/** Waits for the provision to become active, unless it already was when first reported. */
const awaitActivation = (report: Report, provision: WatchEvent) =>
  Effect.gen(function* () {
    // a new provision waits in STATUS_PENDING until the epoch ends, as on a real network
    if (provision.details.status === "STATUS_PENDING") {
      yield* heading("waiting for the end of the epoch: the provision becomes active")
      yield* report(
        "the activation of our liquidity provision",
        (e) => e.kind === "liquidity.pending_activated" && e.key === provision.key
      )
    } else {
      // the epoch ended between its inclusion and the watcher's next read
      yield* Console.log(`-- the provision was already ${provision.details.status} when the watcher first read it`)
    }
  })

/** The transactions, each followed by waiting until the watcher reports its effect. */
const steps = (sim: Simulator.Service, recorder: Recorder) =>
  Effect.gen(function* () {
    // the first sync only records what is there; the first event is the first change after it
    const first = yield* recorder.waitFor("a first change", () => true)
    yield* Console.log(`-- the watcher is in sync: first change reported at block #${first.height}`)

    const trader = yield* joinAsTrader(sim)
    const { party } = trader
    const ours = (event: WatchEvent) => event.key.includes(party) || partyOf(event) === party

    const submitted: Array<Submitted> = []
    const report: Report = (what, predicate) =>
      recorder
        .waitFor(what, predicate)
        .pipe(
          Effect.tap((event) =>
            Console.log(`-- the watcher reported ${event.kind} for our party at block #${event.height}`)
          )
        )

    submitted.push(yield* updateProfile(trader, report))
    const { provision, submitted: provided } = yield* provideLiquidity(trader, report)
    submitted.push(provided)
    submitted.push(...(yield* tradePosition(trader, report)))
    yield* awaitActivation(report, provision)
    return { party, market: `${trader.marketName} ${trader.marketId}`, submitted, ours } satisfies Outcome
  })

/** The summary: our party and market, the transactions, the events reported for us, every kind counted. */
const summaryOf = (outcome: Outcome, delivered: ReadonlyArray<WatchEvent>, elapsed: number): string => {
  const lines: Array<string> = []
  lines.push(`party     ${outcome.party} (alias ${ALIAS})`)
  lines.push(`market    ${outcome.market}`)
  lines.push("submitted")
  for (const { label, hash } of outcome.submitted) lines.push(`  ${label.padEnd(20)} tx ${hash}`)
  lines.push("reported by the watcher for our party")
  const forUs = delivered.filter(outcome.ours)
  for (const event of forUs) {
    lines.push(`  #${event.height}  ${event.kind.padEnd(27)} ${shortHex(event.key).padEnd(20)} ${describe(event)}`)
  }
  const kinds = new Map<string, number>()
  for (const event of delivered) kinds.set(event.kind, (kinds.get(event.kind) ?? 0) + 1)
  lines.push(`events reported during the demo: ${delivered.length}`)
  for (const [kind, count] of [...kinds].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
    lines.push(`  ${String(count).padStart(5)}  ${kind}`)
  }
  lines.push(`elapsed   ${elapsed.toFixed(1)} s`)
  return lines.join("\n")
}

const scenario = Effect.gen(function* () {
  const started = Date.now()
  const sim = yield* startNetwork
  const { recorder, stopped, watcher } = yield* startWatcher(sim)

  const outcome = yield* Effect.raceFirst(steps(sim, recorder), stopped)

  // everything awaited was reported: stop the watcher before counting what it delivered
  yield* Fiber.interrupt(watcher)
  const delivered = yield* recorder.delivered
  const elapsed = (Date.now() - started) / 1000

  yield* heading("summary")
  yield* Console.log(summaryOf(outcome, delivered, elapsed))
}).pipe(
  Effect.scoped,
  Effect.timeoutFail({
    duration: DEMO_TIMEOUT,
    onTimeout: () => new DemoFailure({ message: `the demo did not finish within ${Duration.format(DEMO_TIMEOUT)}` })
  })
)

/** Logs go to stderr, so stdout holds the events and the story. */
const logToStderr = Logger.replace(Logger.defaultLogger, Logger.prettyLogger({ stderr: true }))

const failureText = (cause: Cause.Cause<unknown>): string =>
  Option.match(Cause.failureOption(cause), {
    onNone: () => Cause.pretty(cause),
    onSome: errorText
  })

scenario.pipe(
  Effect.tapErrorCause((cause) =>
    Cause.isInterruptedOnly(cause) ? Effect.void : Console.error(`\ndemo failed: ${failureText(cause)}`)
  ),
  Effect.provide(logToStderr),
  (program) =>
    NodeRuntime.runMain(program, {
      disableErrorReporting: true,
      disablePrettyLogger: true,
      teardown: (exit, onExit) => {
        const code = Exit.isSuccess(exit) || Cause.isInterruptedOnly(exit.cause) ? 0 : 1
        // a connection left open somewhere must not keep a finished demo alive
        setTimeout(() => process.exit(code), 2000).unref()
        onExit(code)
      }
    })
)
