/**
 * The command as people run it: a separate process, its exit codes, messages and files.
 */
import { assert, describe, it } from "@effect/vitest"
import { modulesLoaded } from "@vega-effect/command-line/ModulesLoaded"
import { DataNodeClient } from "@vega-effect/http"
import { Simulator } from "@vega-effect/simulator"
import { DurationText } from "@vega-effect/schema"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Arguments } from "../src/cli.js"
import { resolve } from "../src/Execute.js"
import * as DataNode from "../src/DataNode.js"
import { renderBar } from "../src/Progress.js"
import * as Variables from "../src/Variables.js"
import { runReport } from "./support/process.js"
import { withProxy } from "./support/proxy.js"

const app = fileURLToPath(new URL("..", import.meta.url))
const tempDir = () => mkdtempSync(join(tmpdir(), "reward-report-"))
const TIMEOUT = 120_000

describe("vega-reward-report command", () => {
  it(
    "--help is plain off a terminal, without @effect/cli's filler, optional options in brackets",
    async () => {
      // stdout is a pipe; NO_COLOR unset, so that only the lack of a terminal turns colour off
      const result = await runReport(["--help"], { env: { NO_COLOR: "" } })
      assert.strictEqual(result.code, 0)
      assert.notInclude(result.stdout, "\x1b[")
      assert.notMatch(result.stdout, /A user-defined piece of text|This setting is optional|This option can be set/)
      for (const optional of ["[--party id...]", "[--asset id|symbol...]", "[--reward-type type...]"]) {
        assert.include(result.stdout, optional)
      }
    },
    TIMEOUT
  )

  it("answers --help without loading the schemas, the client, the simulator or the formats", () => {
    const loaded = modulesLoaded(app, "src/bin.ts", ["--help"])
    assert.strictEqual(loaded.status, 0, loaded.stderr)
    const heavy =
      /\/packages\/(schema|http|simulator|crypto|pagination)\/|\/src\/(Execute|Run|Format|DataNode|formats\/.*)\.ts$/
    assert.deepStrictEqual(
      loaded.modules.filter((url) => heavy.test(url)),
      []
    )
    assert.isTrue(loaded.modules.some((url) => url.endsWith("/src/cli.ts")))
  })

  it("names the client's variables as @vega-effect/http does", () => {
    assert.strictEqual(Variables.DATANODE_PREFIX, DataNodeClient.ENV_PREFIX)
  })

  it(
    "--help explains every option",
    async () => {
      const result = await runReport(["--help"])
      assert.strictEqual(result.code, 0)
      for (const flag of [
        "--node",
        "--party",
        "--asset",
        "--view",
        "--sort",
        "--top",
        "--format",
        "--output",
        "--epochs",
        "--from-epoch",
        "--to-epoch",
        "--reward-type",
        "--seed",
        "--timeout",
        "--max-requests",
        "VEGA_REPORT_MAX_REQUESTS"
      ]) {
        assert.include(result.stdout, flag)
      }
      assert.include(result.stdout, "koinly")
      assert.include(result.stdout, "Exit codes")
    },
    TIMEOUT
  )

  it(
    "bad arguments: every problem named, exit 2, nothing on stdout",
    async () => {
      const result = await runReport([
        "--node",
        "ftp://example",
        "--party",
        "xyz",
        "--asset",
        "not a symbol!",
        "--top",
        "0",
        "--from-epoch",
        "9",
        "--to-epoch",
        "3",
        "--reward-type",
        "staking",
        "--timeout",
        "soon",
        "--max-requests",
        "0",
        "-o",
        "rewards.xlsx"
      ])
      assert.strictEqual(result.code, 2)
      assert.strictEqual(result.stdout, "")
      for (const expected of [
        "vega-reward-report: bad arguments",
        '--node "ftp://example": expected an http(s) URL',
        '--party "xyz": expected a 64-character hex party id',
        '--asset "not a symbol!": expected a 64-character hex asset id or a symbol',
        "--top 0: expected 1 or more",
        "--from-epoch 9 is after --to-epoch 3",
        '--reward-type "staking": expected a reward account type such as ACCOUNT_TYPE_GLOBAL_REWARD',
        '--timeout "soon": expected a duration',
        '--max-requests "0": expected a number of requests, 1 or more',
        '--output "rewards.xlsx": the extension .xlsx says no format; give --format'
      ]) {
        assert.include(result.stderr, expected)
      }
    },
    TIMEOUT
  )

  it(
    "an unknown choice is a usage error (exit 2) naming the choices",
    async () => {
      const result = await runReport(["--view", "nope"])
      assert.strictEqual(result.code, 2)
      assert.include(result.stderr + result.stdout, "assets")
    },
    TIMEOUT
  )

  it(
    "writes a file whole, says where from, leaves no temporary file; the format follows the extension",
    async () => {
      const dir = tempDir()
      const result = await runReport(["-o", join(dir, "report.csv"), "--view", "totals"])
      assert.strictEqual(result.code, 0, result.stderr)
      assert.strictEqual(result.stdout, "")
      assert.match(
        result.stderr,
        /wrote .*report\.csv \(csv\) from http:\/\/127\.0\.0\.1:\d+ \(simulator in this process, seed 1\) at block \d+/
      )
      assert.notInclude(result.stderr, "\r", "no progress bar when stderr is not a terminal")
      const csv = readFileSync(join(dir, "report.csv"), "utf8")
      assert.isTrue(csv.startsWith("asset_id,asset_symbol,asset_name,decimals,parties,amount,amount_raw,node,"))
      assert.include(csv, ",VEGA,")
      assert.deepStrictEqual(readdirSync(dir), ["report.csv"])
    },
    TIMEOUT
  )

  it(
    "a failed read leaves an existing file untouched, exits 1 with the reason",
    async () => {
      const dir = tempDir()
      const file = join(dir, "report.json")
      writeFileSync(file, "previous report\n")
      const result = await runReport(["--node", "http://127.0.0.1:1", "--timeout", "2s", "-o", file])
      assert.strictEqual(result.code, 1)
      // one line naming the node and the cause in words, no stack trace
      assert.match(
        result.stderr,
        /^vega-reward-report: reading [a-z ]+ failed: http:\/\/127\.0\.0\.1:1 refused the connection\n$/
      )
      assert.strictEqual(readFileSync(file, "utf8"), "previous report\n")
      assert.deepStrictEqual(readdirSync(dir), ["report.json"])
    },
    TIMEOUT
  )

  it(
    "at debug level (VEGA_REPORT_LOG_LEVEL) the whole cause of a failed read follows, with its stack",
    async () => {
      const result = await runReport(["--node", "http://127.0.0.1:1", "--timeout", "2s"], {
        env: { VEGA_REPORT_LOG_LEVEL: "debug", VEGA_DATANODE_RETRIES: "0" }
      })
      assert.strictEqual(result.code, 1)
      assert.include(
        result.stderr,
        "vega-reward-report: reading chain statistics failed: http://127.0.0.1:1 refused the connection"
      )
      assert.match(result.stderr, /DEBUG \(#\d+\): the whole cause\n\s+TransportError: /)
      assert.match(result.stderr, /\n\s+at /)
    },
    TIMEOUT
  )

  it(
    "an unknown asset symbol is a usage error naming the known ones",
    async () => {
      const result = await runReport(["--asset", "DOGE"])
      assert.strictEqual(result.code, 2)
      assert.include(result.stderr, "--asset DOGE: no asset has this symbol (known: USDC, USDT, VEGA)")
      assert.strictEqual(result.stdout, "")
    },
    TIMEOUT
  )

  it(
    "Koinly and CoinTracking files hold every per-epoch row with the tools' headers",
    async () => {
      const dir = tempDir()
      const koinly = await runReport(["--format", "koinly", "-o", join(dir, "koinly.csv")])
      assert.strictEqual(koinly.code, 0, koinly.stderr)
      const cointracking = await runReport(["--format", "cointracking", "-o", join(dir, "ct.csv")])
      assert.strictEqual(cointracking.code, 0, cointracking.stderr)
      const epochs = await runReport(["--view", "epochs", "--format", "json"])
      assert.strictEqual(epochs.code, 0, epochs.stderr)
      const rows = (JSON.parse(epochs.stdout) as { epochs: Array<unknown> }).epochs.length
      assert.isAbove(rows, 100)
      const k = readFileSync(join(dir, "koinly.csv"), "utf8").split("\r\n")
      assert.strictEqual(
        k[0],
        "Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash"
      )
      assert.strictEqual(k.filter((line) => line !== "").length, rows + 1)
      const c = readFileSync(join(dir, "ct.csv"), "utf8").split("\r\n")
      assert.strictEqual(
        c[0],
        "Type,Buy Amount,Buy Currency,Sell Amount,Sell Currency,Fee,Fee Currency,Exchange,Trade-Group,Comment,Date,Tx-ID,Buy Value in Account Currency,Sell Value in Account Currency,Liquidity pool"
      )
      assert.strictEqual(c.filter((line) => line !== "").length, rows + 1)
    },
    TIMEOUT
  )

  it.scopedLive(
    "a read needing more requests than --max-requests (or VEGA_REPORT_MAX_REQUESTS) is refused: exit 4, nothing written",
    () =>
      Effect.gen(function* () {
        // epoch 1 holds more payouts in VEGA than one answer, and the node restarts it at a cursor
        const sim = yield* Simulator.make({
          seed: 11,
          blockInterval: "manual",
          quirks: "v0.75",
          scale: { parties: 5_200, assets: 3, epochs: 1 },
          activity: { rewardShare: 1 }
        })
        const dir = tempDir()
        const file = join(dir, "report.csv")
        writeFileSync(file, "previous report\n")
        const refusal =
          /^vega-reward-report: epoch 1 has more than 5000 payouts in VEGA that the node cannot page: reading them party by party needs 5,\d{3} requests, about 4 min 2\d s at the node's 20 requests\/s, more than --max-requests 100 \(VEGA_REPORT_MAX_REQUESTS\); nothing was written/m
        const byOption = yield* Effect.promise(() =>
          runReport(["--node", sim.url, "--epochs", "--max-requests", "100", "-o", file])
        )
        assert.strictEqual(byOption.code, 4, byOption.stderr)
        assert.match(byOption.stderr, refusal)
        const byVariable = yield* Effect.promise(() =>
          runReport(["--node", sim.url, "--view", "epochs", "-o", file], {
            env: { VEGA_REPORT_MAX_REQUESTS: "100" }
          })
        )
        assert.strictEqual(byVariable.code, 4, byVariable.stderr)
        assert.match(byVariable.stderr, refusal)
        assert.strictEqual(readFileSync(file, "utf8"), "previous report\n")
        assert.deepStrictEqual(readdirSync(dir), ["report.csv"])
        const badVariable = yield* Effect.promise(() =>
          runReport(["--node", sim.url, "--epochs"], { env: { VEGA_REPORT_MAX_REQUESTS: "many" } })
        )
        assert.strictEqual(badVariable.code, 2)
        assert.include(badVariable.stderr, 'VEGA_REPORT_MAX_REQUESTS "many": expected a number of requests, 1 or more')
      }),
    TIMEOUT
  )

  it.scopedLive(
    "rows that do not add up: the report lists them and the exit code is 3",
    () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.make({ seed: 3, blockInterval: "manual" })
        const url = yield* withProxy(sim.url, {
          rewrite: (path, body) => {
            if (!path.startsWith("/api/v2/rewards?")) return body
            const json = JSON.parse(body) as { rewards: { edges: Array<unknown> } }
            if (json.rewards.edges.length > 0) json.rewards.edges.push(json.rewards.edges[0])
            return JSON.stringify(json)
          }
        })
        const dir = tempDir()
        const file = join(dir, "report.json")
        const result = yield* Effect.promise(() => runReport(["--node", url, "--epochs", "-o", file]))
        assert.strictEqual(result.code, 3, result.stderr)
        assert.match(result.stderr, /cross-check failed: \d+ party and asset totals differ/)
        const report = JSON.parse(readFileSync(file, "utf8")) as {
          crossCheck: { status: string; mismatches: Array<unknown> }
        }
        assert.strictEqual(report.crossCheck.status, "failed")
        assert.isAbove(report.crossCheck.mismatches.length, 0)
      }),
    TIMEOUT
  )

  const hasScript = spawnSync("script", ["--version"]).status === 0
  // util-linux's `script` gives the command a terminal; CI has it, and there it must run
  if (!hasScript && process.env.VEGA_EFFECT_REQUIRE_SERVICES === "1") {
    throw new Error("`script` (util-linux) is missing, and VEGA_EFFECT_REQUIRE_SERVICES=1 requires it")
  }
  it.skipIf(!hasScript)(
    "a progress bar is drawn on stderr when it is a terminal",
    async () => {
      const dir = tempDir()
      const log = join(dir, "tty.log")
      const { bundle } = await import("./support/process.js")
      const bin = await bundle()
      // `script` gives the command a terminal; stdout goes to a file so only stderr is on it
      const result = spawnSync(
        "script",
        ["-qec", `${process.execPath} ${bin} --epochs -o ${join(dir, "r.json")}`, log],
        { encoding: "utf8", timeout: TIMEOUT }
      )
      assert.strictEqual(result.status, 0, result.stderr)
      const tty = readFileSync(log, "utf8")
      assert.include(tty, "\r")
      assert.match(tty, /\[#*-*\] +\d+% reading per-epoch rewards/)
      assert.isTrue(existsSync(join(dir, "r.json")))
    },
    TIMEOUT
  )
})

const noArguments: Arguments = {
  nodes: [],
  parties: [],
  assets: [],
  view: "assets",
  sort: "amount",
  top: undefined,
  format: undefined,
  output: undefined,
  epochs: false,
  fromEpoch: undefined,
  toEpoch: undefined,
  rewardTypes: [],
  seed: 1,
  timeout: undefined
}

/** `effect` with `env` as the whole environment. */
const withEnv = (env: Record<string, string>) =>
  Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

/** The timeout the client gets, in ms: `--timeout`, else VEGA_DATANODE_TIMEOUT, else 60 s. */
const clientTimeout = (timeout: Duration.Duration | undefined) =>
  DataNode.options({ urls: [], timeout }).pipe(
    Effect.map((options) => Duration.toMillis(Duration.decode(options.timeout ?? "0 millis")))
  )

describe("--timeout", () => {
  it.effect("reads every duration form as the same duration", () =>
    Effect.gen(function* () {
      for (const [text, duration] of DurationText.EXAMPLES) {
        const options = yield* resolve({ ...noArguments, timeout: text }).pipe(withEnv({}))
        assert.isTrue(options.timeout !== undefined && Duration.equals(options.timeout, duration), text)
        assert.strictEqual(
          yield* clientTimeout(options.timeout).pipe(withEnv({ VEGA_DATANODE_TIMEOUT: "9 seconds" })),
          Duration.toMillis(duration)
        )
      }
    })
  )

  it.effect("falls back to VEGA_DATANODE_TIMEOUT, then to 60 s", () =>
    Effect.gen(function* () {
      const options = yield* resolve(noArguments).pipe(withEnv({}))
      assert.isUndefined(options.timeout)
      assert.strictEqual(yield* clientTimeout(undefined).pipe(withEnv({})), 60_000)
      assert.strictEqual(yield* clientTimeout(undefined).pipe(withEnv({ VEGA_DATANODE_TIMEOUT: "15 seconds" })), 15_000)
    })
  )

  it.effect("names a bad duration and its source", () =>
    Effect.gen(function* () {
      const problems = (args: Arguments, env: Record<string, string> = {}) =>
        Effect.flip(resolve(args)).pipe(
          withEnv(env),
          Effect.map((error) => error.problems)
        )
      assert.deepStrictEqual(yield* problems({ ...noArguments, timeout: "soon" }), [
        `--timeout "soon": expected ${DurationText.EXPECTED}`
      ])
      assert.deepStrictEqual(yield* problems({ ...noArguments, timeout: "0s" }), [
        '--timeout "0s": expected a duration greater than zero'
      ])
      const fromEnv = yield* problems(noArguments, { VEGA_DATANODE_TIMEOUT: "soon", VEGA_DATANODE_RETRIES: "many" })
      assert.strictEqual(fromEnv.length, 2)
      assert.match(fromEnv[0], /^VEGA_DATANODE_TIMEOUT: .*"soon"/)
      assert.match(fromEnv[1], /^VEGA_DATANODE_RETRIES: .*"many"/)
      // --timeout given: the variable is not read
      yield* resolve({ ...noArguments, timeout: "5s" }).pipe(withEnv({ VEGA_DATANODE_TIMEOUT: "soon" }))
    })
  )
})

describe("the data nodes", () => {
  it.scopedLive(
    "come from --node, else from VEGA_DATANODE_URLS",
    () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.make({ seed: 3, blockInterval: "manual" })
        const fromEnv = yield* Effect.promise(() =>
          runReport(["--view", "totals", "--format", "json"], { env: { VEGA_DATANODE_URLS: sim.url } })
        )
        assert.strictEqual(fromEnv.code, 0, fromEnv.stderr)
        assert.deepStrictEqual(
          (JSON.parse(fromEnv.stdout) as { provenance: { nodes: Array<string> } }).provenance.nodes,
          [sim.url]
        )
        const flagged = yield* Effect.promise(() =>
          runReport(["--node", sim.url, "--view", "totals", "--format", "json"], {
            env: { VEGA_DATANODE_URLS: "http://127.0.0.1:1" }
          })
        )
        assert.strictEqual(flagged.code, 0, flagged.stderr)
        const bad = yield* Effect.promise(() =>
          runReport(["--view", "totals"], { env: { VEGA_DATANODE_URLS: "ftp://x" } })
        )
        assert.strictEqual(bad.code, 2)
        assert.include(bad.stderr, 'VEGA_DATANODE_URLS "ftp://x": expected an http(s) URL of a data node')
        // the old variable is not read any more: a simulator is started
        const old = yield* Effect.promise(() =>
          runReport(["--view", "totals", "--format", "json"], { env: { VEGA_REPORT_NODES: "http://127.0.0.1:1" } })
        )
        assert.strictEqual(old.code, 0, old.stderr)
      }),
    TIMEOUT
  )
})

describe("renderBar", () => {
  it("shows the share done, and a count when the total is unknown", () => {
    assert.strictEqual(renderBar("reading", 50, 200), "[######------------------]  25% reading")
    assert.strictEqual(renderBar("reading", 300, 200), "[########################] 100% reading")
    assert.strictEqual(renderBar("reading assets", 1200, undefined), "reading assets… 1,200")
    assert.strictEqual(renderBar("reading assets", 0, undefined), "reading assets…")
  })
})
