import * as CliConfig from "@effect/cli/CliConfig"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { it } from "@effect/vitest"
import { modulesLoaded } from "@vega-effect/command-line/ModulesLoaded"
import { DataNodeClient } from "@vega-effect/http"
import { DurationText } from "@vega-effect/schema"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect } from "vitest"
import { options } from "../src/cli.js"
import { renderConfig, resolveParsed } from "../src/Configure.js"
import { WatcherConfig } from "../src/Config.js"
import { ConfigProblem, loadConfigFile } from "../src/ConfigFile.js"
import * as DataNode from "../src/DataNode.js"
import * as Settings from "../src/Settings.js"
import { runCli, runReport } from "./support/cli.js"

const app = fileURLToPath(new URL("..", import.meta.url))
const party = "A".repeat(64)
const market = "b".repeat(64)

/** Flags by name, as the tests give them. */
interface Flags {
  readonly nodes?: ReadonlyArray<string>
  readonly database?: string
  readonly interval?: string
  readonly lease?: string
  readonly port?: number
  readonly host?: string
  readonly stdout?: boolean
  readonly console?: boolean
  readonly initialEvents?: boolean
  readonly resetState?: boolean
  readonly file?: string
  readonly webhook?: string
  readonly nats?: ReadonlyArray<string>
  readonly parties?: ReadonlyArray<string>
  readonly markets?: ReadonlyArray<string>
  readonly only?: ReadonlyArray<string>
  readonly seed?: number
  readonly blockInterval?: string
}

const flagNames: Record<keyof Flags, string> = {
  nodes: "--node",
  database: "--database",
  interval: "--interval",
  lease: "--lease",
  port: "--port",
  host: "--host",
  stdout: "--stdout",
  console: "--console",
  initialEvents: "--initial-events",
  resetState: "--reset-state",
  file: "--file",
  webhook: "--webhook",
  nats: "--nats",
  parties: "--party",
  markets: "--market",
  only: "--only",
  seed: "--seed",
  blockInterval: "--block-interval"
}

/** The command line the flags make. */
const argsOf = (flags: Flags): ReadonlyArray<string> =>
  Object.entries(flags).flatMap(([key, value]: [string, unknown]) => {
    const name = flagNames[key as keyof Flags]
    if (value === true) return [name]
    if (value === false) return key === "stdout" ? ["--no-stdout"] : []
    return Array.isArray(value) ? value.flatMap((item) => [name, String(item)]) : [name, String(value)]
  })

interface ConfigInput {
  readonly file?: unknown
  readonly fileName?: string
  readonly env: Record<string, string>
  readonly flags: Flags
}

/**
 * The configuration the sources make: the flags parsed by the command's own options (falling back
 * to `env` as the environment), the file as given.
 */
const resolveConfig = (input: ConfigInput) =>
  Options.processCommandLine(Options.all(options), argsOf(input.flags), CliConfig.defaultConfig).pipe(
    Effect.flatMap(([, , parsed]) => resolveParsed(parsed, { file: input.file, fileName: input.fileName })),
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(input.env)))),
    Effect.provide(NodeContext.layer)
  )

/** The problems reported for an input (failing the test if it succeeds or fails otherwise). */
const problemsOf = (input: ConfigInput) =>
  Effect.flip(resolveConfig(input)).pipe(
    Effect.map((error) => {
      if (!(error instanceof ConfigProblem)) throw new Error(`not a configuration problem: ${String(error)}`)
      return error.problems
    })
  )

const tempFile = (name: string, content: string): string => {
  const path = join(mkdtempSync(join(tmpdir(), "vega-watcher-cli-")), name)
  writeFileSync(path, content)
  return path
}

describe("resolveConfig", () => {
  it.effect("gives the schema defaults when nothing is set", () =>
    Effect.gen(function* () {
      const config = yield* resolveConfig({ env: {}, flags: {} })
      // but the state: with no node, that of a simulator started anew each run, kept in memory
      expect(config).toEqual(Schema.decodeSync(WatcherConfig)({ database: ":memory:" }))
      expect(config.nodes).toEqual([])
      expect(Duration.toMillis(config.interval)).toBe(2000)
      expect(config.port).toBe(9464)
      expect(config.database).toBe(":memory:")
    })
  )

  it.effect("keeps the state in a file for real nodes, or when a database is given", () =>
    Effect.gen(function* () {
      const nodes = ["https://node-a.example"]
      expect((yield* resolveConfig({ env: {}, flags: { nodes } })).database).toBe("vega-watcher.db")
      expect((yield* resolveConfig({ env: {}, flags: { database: "sim.db" } })).database).toBe("sim.db")
      expect((yield* resolveConfig({ env: { VEGA_DATANODE_URLS: nodes[0] }, flags: {} })).database).toBe(
        "vega-watcher.db"
      )
    })
  )

  it.effect("takes flags over the environment over the file over the defaults", () =>
    Effect.gen(function* () {
      const file = {
        database: "file.db",
        port: 1001,
        interval: "1s",
        host: "0.0.0.0",
        nodes: ["http://file:3008"]
      }
      const env = {
        VEGA_WATCHER_DATABASE: "env.db",
        VEGA_WATCHER_PORT: "1002",
        VEGA_DATANODE_URLS: "http://env-1:3008, http://env-2:3008",
        VEGA_WATCHER_INTERVAL: "3s"
      }
      const fileOnly = yield* resolveConfig({ file, env: {}, flags: {} })
      expect([fileOnly.database, fileOnly.port, Duration.toMillis(fileOnly.interval), fileOnly.host]).toEqual([
        "file.db",
        1001,
        1000,
        "0.0.0.0"
      ])

      const withEnv = yield* resolveConfig({ file, env, flags: {} })
      expect(withEnv.database).toBe("env.db")
      expect(withEnv.port).toBe(1002)
      expect(Duration.toMillis(withEnv.interval)).toBe(3000)
      expect(withEnv.nodes).toEqual(["http://env-1:3008", "http://env-2:3008"])
      expect(withEnv.host).toBe("0.0.0.0")

      const withFlags = yield* resolveConfig({
        file,
        env,
        flags: { database: "flag.db", interval: "500ms", nodes: ["https://flag:443"] }
      })
      expect(withFlags.database).toBe("flag.db")
      expect(Duration.toMillis(withFlags.interval)).toBe(500)
      expect(withFlags.nodes).toEqual(["https://flag:443"])
      expect(withFlags.port).toBe(1002)
    })
  )

  it.effect("merges sections key by key: a flag keeps the file's other settings of the same section", () =>
    Effect.gen(function* () {
      const file = {
        sinks: { webhook: { url: "https://file.example/hook", rate: 2 }, console: true },
        watch: { positions: { pnlThresholds: { realisedBelow: "-5000000" } } }
      }
      const config = yield* resolveConfig({
        file,
        env: {},
        flags: { webhook: "https://flag.example/hook", parties: [party], markets: [market] }
      })
      expect(config.sinks.webhook?.url).toBe("https://flag.example/hook")
      expect(config.sinks.webhook?.rate).toBe(2)
      expect(config.sinks.console).toBe(true)
      expect(config.watch.positions.pnlThresholds).toEqual({ realisedBelow: "-5000000" })
    })
  )

  it.effect("applies --party to every party-filtered resource and --market to every market-filtered one", () =>
    Effect.gen(function* () {
      const config = yield* resolveConfig({ env: {}, flags: { parties: [party], markets: [market] } })
      const lower = party.toLowerCase()
      expect(config.watch.positions.parties).toEqual([lower])
      expect(config.watch.stake.parties).toEqual([lower])
      expect(config.watch.liquidity.parties).toEqual([lower])
      expect(config.watch.profiles.parties).toEqual([lower])
      expect(config.watch.rewards.parties).toEqual([lower])
      expect(config.watch.positions.markets).toEqual([market])
      expect(config.watch.liquidity.markets).toEqual([market])
      expect(config.watch.signerBundles).toEqual({ enabled: true })
      expect(config.watch.referrals).toEqual({ enabled: true })
    })
  )

  it.effect("enables only the --only resources", () =>
    Effect.gen(function* () {
      const config = yield* resolveConfig({ env: {}, flags: { only: ["positions", "rewards"] } })
      const enabled = Object.entries(config.watch)
        .filter(([, settings]) => settings.enabled)
        .map(([name]) => name)
      expect(enabled).toEqual(["positions", "rewards"])
    })
  )

  it.effect("maps the sink, simulator and boolean flags", () =>
    Effect.gen(function* () {
      const config = yield* resolveConfig({
        env: { VEGA_WATCHER_FILE: "env-events.jsonl" },
        flags: { stdout: false, console: true, seed: 7, blockInterval: "250ms", port: 0, host: "::1" }
      })
      expect(config.sinks.stdout).toBe(false)
      expect(config.sinks.console).toBe(true)
      expect(config.sinks.file).toBe("env-events.jsonl")
      expect(config.simulator.seed).toBe(7)
      expect(Duration.toMillis(config.simulator.blockInterval)).toBe(250)
      expect(config.port).toBe(0)
      expect(config.host).toBe("::1")
      expect(config.resetState).toBe(false)
      expect((yield* resolveConfig({ env: {}, flags: { resetState: true } })).resetState).toBe(true)
      expect((yield* resolveConfig({ file: { resetState: true }, env: {}, flags: {} })).resetState).toBe(true)
      const overridden = yield* resolveConfig({
        env: { VEGA_WATCHER_FILE: "env-events.jsonl" },
        flags: { file: "flag-events.jsonl" }
      })
      expect(overridden.sinks.file).toBe("flag-events.jsonl")
    })
  )

  it.effect("turns the webhook token into a redacted bearer header, shown as <redacted> by --check", () =>
    Effect.gen(function* () {
      const config = yield* resolveConfig({
        file: { sinks: { webhook: { url: "https://hooks.example/in", headers: { "x-tenant": "acme-secret" } } } },
        env: { VEGA_WATCHER_WEBHOOK_TOKEN: "tok-123" },
        flags: {}
      })
      const headers = config.sinks.webhook?.headers ?? {}
      expect(Redacted.isRedacted(headers["authorization"])).toBe(true)
      expect(Redacted.value(headers["authorization"])).toBe("Bearer tok-123")
      expect(Redacted.value(headers["x-tenant"])).toBe("acme-secret")
      const rendered = renderConfig(config)
      expect(rendered).not.toContain("tok-123")
      expect(rendered).not.toContain("acme-secret")
      expect(JSON.parse(rendered).sinks.webhook.headers).toEqual({
        authorization: "<redacted>",
        "x-tenant": "<redacted>"
      })
    })
  )

  it.effect("maps the shared-state settings: a PostgreSQL database, the lease, the JetStream servers", () =>
    Effect.gen(function* () {
      const config = yield* resolveConfig({
        file: { sinks: { jetstream: { stream: "EVENTS", password: "nats-secret", user: "w" } } },
        env: {
          VEGA_WATCHER_DATABASE: "postgres://watcher:pg-secret@db.example:5432/vega",
          VEGA_WATCHER_LEASE: "20s",
          VEGA_WATCHER_NATS: "nats://a:4222, nats://b:4222"
        },
        flags: { lease: "5s" }
      })
      expect(Duration.toMillis(config.lease)).toBe(5000)
      expect(config.sinks.jetstream?.servers).toEqual(["nats://a:4222", "nats://b:4222"])
      expect(config.sinks.jetstream?.stream).toBe("EVENTS")
      expect(config.sinks.jetstream?.subjectPrefix).toBe("vega.watcher")
      const flagged = yield* resolveConfig({ env: {}, flags: { nats: ["nats://c:4222"] } })
      expect(flagged.sinks.jetstream?.servers).toEqual(["nats://c:4222"])
      expect(Duration.toMillis(flagged.lease)).toBe(15_000)
      // --check shows neither password
      const rendered = renderConfig(config)
      expect(rendered).not.toContain("pg-secret")
      expect(rendered).not.toContain("nats-secret")
      expect(JSON.parse(rendered).database).toBe("postgres://watcher:<redacted>@db.example:5432/vega")
      expect(yield* problemsOf({ env: {}, flags: { nats: ["http://x"], lease: "soon" } })).toEqual([
        `lease: Expected ${DurationText.EXPECTED}, actual "soon" (set by --lease)`,
        "sinks.jetstream.servers[0]: a nats://host:port URL, without credentials (use user, password or token) (set by --nats)"
      ])
    })
  )

  it.effect("names the field of each bad input", () =>
    Effect.gen(function* () {
      expect(yield* problemsOf({ env: {}, flags: { webhook: "notaurl" } })).toEqual([
        "sinks.webhook.url: an http(s) URL (set by --webhook)"
      ])
      expect(yield* problemsOf({ env: { VEGA_WATCHER_WEBHOOK_URL: "ftp://x" }, flags: {} })).toEqual([
        "sinks.webhook.url: an http(s) URL (set by VEGA_WATCHER_WEBHOOK_URL)"
      ])
      expect(yield* problemsOf({ env: {}, flags: { parties: [party, "xyz"] } })).toEqual([
        '--party: expected a 64-character hex id, got "xyz"'
      ])
      expect(yield* problemsOf({ file: { watch: { stake: { parties: ["nope"] } } }, env: {}, flags: {} })).toEqual([
        "watch.stake.parties[0]: a 64-character hex id"
      ])
      expect(yield* problemsOf({ env: {}, flags: { interval: "-1s" } })).toEqual([
        `interval: Expected ${DurationText.EXPECTED}, actual "-1s" (set by --interval)`
      ])
      expect(yield* problemsOf({ env: {}, flags: { interval: "0ms" } })).toEqual([
        "interval: Expected a duration greater than zero (set by --interval)"
      ])
      expect(yield* problemsOf({ file: { interval: "0s" }, env: {}, flags: {} })).toEqual([
        "interval: Expected a duration greater than zero"
      ])
      expect(yield* problemsOf({ env: { VEGA_WATCHER_INTERVAL: "soon" }, flags: {} })).toEqual([
        `interval: Expected ${DurationText.EXPECTED}, actual "soon" (set by VEGA_WATCHER_INTERVAL)`
      ])
      const only = yield* Effect.flip(resolveConfig({ env: {}, flags: { only: ["positions", "orders"] } }))
      expect(ValidationError.isValidationError(only)).toBe(true)
      expect(yield* problemsOf({ env: { VEGA_WATCHER_PORT: "http" }, flags: {} })).toEqual([
        'VEGA_WATCHER_PORT: expected a port number, got "http"'
      ])
      const port = yield* problemsOf({ env: {}, flags: { port: 70000 } })
      expect(port).toHaveLength(1)
      expect(port[0]).toMatch(/^port: .*70000.* \(set by --port\)$/)
      expect(yield* problemsOf({ file: { intervalMs: 10, sinks: { fiel: "x" } }, env: {}, flags: {} })).toEqual([
        "intervalMs: unknown setting",
        "sinks.fiel: unknown setting"
      ])
      expect(yield* problemsOf({ file: [1, 2], fileName: "watcher.json", env: {}, flags: {} })).toEqual([
        "watcher.json: expected a JSON object"
      ])
      const nodes = yield* problemsOf({ env: { VEGA_DATANODE_URLS: "http://ok:1,localhost:3008" }, flags: {} })
      expect(nodes).toHaveLength(1)
      expect(nodes[0]).toMatch(/^nodes\[1\]: .*"localhost:3008" \(set by VEGA_DATANODE_URLS\)$/)
    })
  )

  it.effect("reports every problem at once", () =>
    Effect.gen(function* () {
      const problems = yield* problemsOf({
        file: { database: 5 },
        env: { VEGA_WATCHER_PORT: "x" },
        flags: { webhook: "nope", markets: ["m"] }
      })
      expect(problems).toHaveLength(4)
      expect(problems.some((p) => p.startsWith("database: "))).toBe(true)
      expect(problems.some((p) => p.startsWith("VEGA_WATCHER_PORT: "))).toBe(true)
      expect(problems.some((p) => p.startsWith("sinks.webhook.url: "))).toBe(true)
      expect(problems.some((p) => p.startsWith("--market: "))).toBe(true)
    })
  )

  it.effect("never quotes a secret in a problem", () =>
    Effect.gen(function* () {
      const problems = yield* problemsOf({
        file: { sinks: { webhook: { url: 42, headers: { "x-key": "hush-hush" } } } },
        env: { VEGA_WATCHER_WEBHOOK_TOKEN: "tok-secret" },
        flags: {}
      })
      expect(problems.length).toBeGreaterThan(0)
      expect(problems.join("\n")).not.toMatch(/tok-secret|hush-hush/)
      // the NATS password and token and a PostgreSQL URL's password, even where the value is of the wrong type
      const mistyped = yield* problemsOf({
        file: {
          database: ["postgres://watcher:pg-secret@db.example/vega"],
          sinks: { jetstream: { user: "w", password: ["nats-secret"], token: { value: "nats-token" } } }
        },
        fileName: "watcher.json",
        env: {},
        flags: {}
      })
      expect(mistyped).toHaveLength(3)
      expect(mistyped.join("\n")).toContain("<redacted>")
      expect(mistyped.join("\n")).not.toMatch(/pg-secret|nats-secret|nats-token/)
      const tokenOnly = yield* problemsOf({ env: { VEGA_WATCHER_WEBHOOK_TOKEN: "tok-secret" }, flags: {} })
      expect(tokenOnly[0]).toMatch(/^VEGA_WATCHER_WEBHOOK_TOKEN: set, but no webhook is configured/)
      expect(tokenOnly.join("\n")).not.toContain("tok-secret")
    })
  )
})

/** Every way of writing a duration the configuration takes, and what it is. */
const durationForms = DurationText.EXAMPLES.map(
  ([text, duration]) => [text, Duration.toMillis(duration), duration] as const
)

/** Every duration setting, where it is in the resolved configuration. */
const durationsOf = (config: WatcherConfig) => ({
  interval: config.interval,
  lease: config.lease,
  blockInterval: config.simulator.blockInterval,
  webhookTimeout: config.sinks.webhook?.timeout,
  minBackoff: config.sinks.webhook?.minBackoff,
  maxBackoff: config.sinks.webhook?.maxBackoff,
  duplicateWindow: config.sinks.jetstream?.duplicateWindow,
  jetstreamTimeout: config.sinks.jetstream?.timeout
})

const millisOf = (duration: Duration.Duration | undefined) =>
  duration === undefined ? undefined : Duration.toMillis(duration)

describe("durations", () => {
  it.effect("every form reads as the same duration from the flags, the environment and the file", () =>
    Effect.gen(function* () {
      for (const [text, millis, expected] of durationForms) {
        const flags = yield* resolveConfig({ env: {}, flags: { interval: text, lease: text, blockInterval: text } })
        expect([flags.interval, flags.lease, flags.simulator.blockInterval].map(Duration.toMillis)).toEqual([
          millis,
          millis,
          millis
        ])
        const env = yield* resolveConfig({ env: { VEGA_WATCHER_INTERVAL: text, VEGA_WATCHER_LEASE: text }, flags: {} })
        expect([env.interval, env.lease].map(Duration.toMillis)).toEqual([millis, millis])
        const file = yield* resolveConfig({
          file: {
            interval: text,
            lease: text,
            simulator: { blockInterval: text },
            sinks: {
              webhook: { url: "https://hooks.example/in", timeout: text, minBackoff: text, maxBackoff: text },
              jetstream: { duplicateWindow: text, timeout: text }
            }
          },
          env: {},
          flags: {}
        })
        const read = durationsOf(file)
        for (const [name, duration] of Object.entries(read)) {
          expect([name, duration !== undefined && Duration.equals(duration, expected)]).toEqual([name, true])
        }
        expect(Object.values(read).map(millisOf)).toEqual(Object.values(read).map(() => millis))
      }
    })
  )

  it.effect("takes the flag over the environment over the file over the default", () =>
    Effect.gen(function* () {
      const file = { interval: "1 second", lease: "20s" }
      const env = { VEGA_WATCHER_INTERVAL: "2m", VEGA_WATCHER_LEASE: "30s" }
      const defaults = yield* resolveConfig({ env: {}, flags: {} })
      expect([defaults.interval, defaults.lease].map(Duration.toMillis)).toEqual([2000, 15_000])
      const fromFile = yield* resolveConfig({ file, env: {}, flags: {} })
      expect([fromFile.interval, fromFile.lease].map(Duration.toMillis)).toEqual([1000, 20_000])
      const fromEnv = yield* resolveConfig({ file, env, flags: {} })
      expect([fromEnv.interval, fromEnv.lease].map(Duration.toMillis)).toEqual([120_000, 30_000])
      const fromFlags = yield* resolveConfig({ file, env, flags: { interval: "500 millis" } })
      expect([fromFlags.interval, fromFlags.lease].map(Duration.toMillis)).toEqual([500, 30_000])
    })
  )

  it.effect("names the source of a bad duration: the flag, the variable or the file", () =>
    Effect.gen(function* () {
      const expected = (path: string, text: string, source: string) =>
        `${path}: Expected ${DurationText.EXPECTED}, actual "${text}" (${source})`
      expect(yield* problemsOf({ env: {}, flags: { interval: "2 fortnights", blockInterval: "1" } })).toEqual([
        expected("interval", "2 fortnights", "set by --interval"),
        expected("simulator.blockInterval", "1", "set by --block-interval")
      ])
      expect(
        yield* problemsOf({ env: { VEGA_WATCHER_INTERVAL: "soon", VEGA_WATCHER_LEASE: "-1s" }, flags: {} })
      ).toEqual([
        expected("interval", "soon", "set by VEGA_WATCHER_INTERVAL"),
        expected("lease", "-1s", "set by VEGA_WATCHER_LEASE")
      ])
      const file = {
        interval: "0.5ms0",
        sinks: { webhook: { url: "https://hooks.example/in", minBackoff: "fast" }, jetstream: { timeout: 10 } }
      }
      expect(yield* problemsOf({ file, fileName: "watcher.json", env: {}, flags: {} })).toEqual([
        expected("interval", "0.5ms0", "in watcher.json"),
        expected("sinks.webhook.minBackoff", "fast", "in watcher.json"),
        "sinks.jetstream.timeout: Expected string, actual 10 (in watcher.json)"
      ])
      // a flag over a bad file value: the file's value is not used, so it is no problem
      yield* resolveConfig({ file: { interval: "soon" }, fileName: "watcher.json", env: {}, flags: { interval: "1s" } })
    })
  )

  it.effect("names the new name of a renamed *Millis setting, with the value as a duration", () =>
    Effect.gen(function* () {
      const file = {
        intervalMillis: 2000,
        leaseMillis: "x",
        sinks: {
          webhook: {
            url: "https://hooks.example/in",
            timeoutMillis: 10_000,
            minBackoffMillis: 500,
            maxBackoffMillis: 60_000
          },
          jetstream: { duplicateWindowMillis: 120_000, timeoutMillis: 1500 }
        },
        simulator: { blockIntervalMillis: 1000 }
      }
      expect(yield* problemsOf({ file, fileName: "watcher.json", env: {}, flags: {} })).toEqual([
        'intervalMillis: renamed to interval, a duration: write "interval": "2s" (in watcher.json)',
        'leaseMillis: renamed to lease, a duration: a duration such as "2s" or "500ms" (in watcher.json)',
        'sinks.webhook.timeoutMillis: renamed to sinks.webhook.timeout, a duration: write "timeout": "10s" (in watcher.json)',
        'sinks.webhook.minBackoffMillis: renamed to sinks.webhook.minBackoff, a duration: write "minBackoff": "500ms" (in watcher.json)',
        'sinks.webhook.maxBackoffMillis: renamed to sinks.webhook.maxBackoff, a duration: write "maxBackoff": "1m" (in watcher.json)',
        'sinks.jetstream.duplicateWindowMillis: renamed to sinks.jetstream.duplicateWindow, a duration: write "duplicateWindow": "2m" (in watcher.json)',
        'sinks.jetstream.timeoutMillis: renamed to sinks.jetstream.timeout, a duration: write "timeout": "1500ms" (in watcher.json)',
        'simulator.blockIntervalMillis: renamed to simulator.blockInterval, a duration: write "blockInterval": "1s" (in watcher.json)'
      ])
    })
  )

  it("prints durations as the file writes them, and reads that back", () => {
    const config = Schema.decodeSync(WatcherConfig)({ interval: "1.5s", simulator: { blockInterval: "250 millis" } })
    const printed = JSON.parse(renderConfig(config))
    expect([printed.interval, printed.lease, printed.simulator.blockInterval]).toEqual(["1500ms", "15s", "250ms"])
    const again = Schema.decodeUnknownSync(WatcherConfig)(printed)
    expect(durationsOf(again)).toEqual(durationsOf(config))
  })
})

describe("the data nodes", () => {
  it.effect("come from --node, else VEGA_DATANODE_URLS, else the file", () =>
    Effect.gen(function* () {
      const file = { nodes: ["http://file:3008"] }
      const env = { VEGA_DATANODE_URLS: "http://env-a:3008,http://env-b:3008" }
      expect((yield* resolveConfig({ file, env: {}, flags: {} })).nodes).toEqual(["http://file:3008"])
      expect((yield* resolveConfig({ file, env, flags: {} })).nodes).toEqual(["http://env-a:3008", "http://env-b:3008"])
      const flagged = yield* resolveConfig({ file, env, flags: { nodes: ["http://flag-a:1", "http://flag-b:2"] } })
      expect(flagged.nodes).toEqual(["http://flag-a:1", "http://flag-b:2"])
      // the old variable is not read any more
      expect((yield* resolveConfig({ env: { VEGA_WATCHER_NODES: "http://old:1" }, flags: {} })).nodes).toEqual([])
    })
  )

  it.effect("the client's timeout and retries come from DataNodeClient.config(), its URLs from the configuration", () =>
    Effect.gen(function* () {
      const withEnv = (env: Record<string, string>) =>
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))
      const env = { VEGA_DATANODE_URLS: "http://env:1", VEGA_DATANODE_TIMEOUT: "3 seconds", VEGA_DATANODE_RETRIES: "2" }
      const options = yield* DataNode.options(["http://flag:1"]).pipe(withEnv(env))
      expect(options.urls).toEqual(["http://flag:1"])
      expect(Duration.toMillis(Duration.decode(options.timeout ?? "0 millis"))).toBe(3000)
      expect(options.retries).toBe(2)
      // unset: nothing is said, and the client's own defaults apply
      expect(yield* DataNode.options([]).pipe(withEnv({}))).toEqual({ urls: [] })
      const problems = yield* problemsOf({
        env: { VEGA_DATANODE_TIMEOUT: "soon", VEGA_DATANODE_RETRIES: "x" },
        flags: {}
      })
      expect(problems).toHaveLength(2)
      expect(problems[0]).toMatch(/^VEGA_DATANODE_TIMEOUT: .*"soon"/)
      expect(problems[1]).toMatch(/^VEGA_DATANODE_RETRIES: .*"x"/)
    })
  )
})

describe("loadConfigFile", () => {
  it.effect("parses a JSON file", () =>
    Effect.gen(function* () {
      const path = tempFile("ok.json", JSON.stringify({ port: 1234 }))
      expect(yield* loadConfigFile(path)).toEqual({ port: 1234 })
    }).pipe(Effect.provide(NodeFileSystem.layer))
  )

  it.effect("names a missing file", () =>
    Effect.gen(function* () {
      const path = join(tmpdir(), "vega-watcher-no-such-dir", "missing.json")
      const error = yield* Effect.flip(loadConfigFile(path))
      expect(error.problems).toEqual([`${path}: no such configuration file`])
    }).pipe(Effect.provide(NodeFileSystem.layer))
  )

  it.effect("names the file and the line and column of bad JSON", () =>
    Effect.gen(function* () {
      const path = tempFile("bad.json", '{\n  "port": 1,\n  "host" "x"\n}')
      const error = yield* Effect.flip(loadConfigFile(path))
      expect(error.problems).toHaveLength(1)
      expect(error.problems[0]).toMatch(
        new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: invalid JSON at line 3, column 10: `)
      )
      const truncated = tempFile("truncated.json", '{"port": ')
      const cut = yield* Effect.flip(loadConfigFile(truncated))
      expect(cut.problems[0]).toBe(`${truncated}: invalid JSON: Unexpected end of JSON input`)
    }).pipe(Effect.provide(NodeFileSystem.layer))
  )
})

describe("the vega-watcher command", () => {
  it("exits 2, as for a usage error, and names the problem when the configuration is invalid", () => {
    const result = runCli(["--check", "--webhook", "notaurl"])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain("sinks.webhook.url: an http(s) URL (set by --webhook)")
    expect(result.stderr).not.toMatch(/\bat .*\.ts:\d+/)
    expect(result.stdout).toBe("")
  })

  it("prints the resolved configuration with --check, secrets redacted", () => {
    const config = tempFile("watcher.json", JSON.stringify({ database: "from-file.db", port: 9999 }))
    const result = runCli(
      [
        "--check",
        "--config",
        config,
        "--webhook",
        "https://hooks.example/in",
        "--interval",
        "750ms",
        "--only",
        "stake"
      ],
      { VEGA_WATCHER_WEBHOOK_TOKEN: "cli-token-xyz", VEGA_WATCHER_PORT: "9100" }
    )
    expect(result.status).toBe(0)
    expect(result.stdout).not.toContain("cli-token-xyz")
    const printed = JSON.parse(result.stdout)
    expect(printed.database).toBe("from-file.db")
    expect(printed.port).toBe(9100)
    expect(printed.interval).toBe("750ms")
    expect(printed.watch.stake.enabled).toBe(true)
    expect(printed.watch.positions.enabled).toBe(false)
    expect(printed.sinks.webhook).toMatchObject({
      url: "https://hooks.example/in",
      headers: { authorization: "<redacted>" }
    })
  })

  it("takes the nodes from --node, else from VEGA_DATANODE_URLS", () => {
    const env = { VEGA_DATANODE_URLS: "http://env-a:3008, http://env-b:3008" }
    const fromEnv = runCli(["--check"], env)
    expect(fromEnv.status).toBe(0)
    expect(JSON.parse(fromEnv.stdout).nodes).toEqual(["http://env-a:3008", "http://env-b:3008"])
    const fromFlag = runCli(["--check", "--node", "http://flag:3008"], env)
    expect(fromFlag.status).toBe(0)
    expect(JSON.parse(fromFlag.stdout).nodes).toEqual(["http://flag:3008"])
  })

  it("lists the options with --help", () => {
    const result = runCli(["--help"])
    expect(result.status).toBe(0)
    const listed = [
      "--config",
      "--node",
      "--interval",
      "--webhook",
      "--party",
      "--only",
      "--once",
      "--check",
      "--reset-state"
    ]
    for (const option of listed) {
      expect(result.stdout).toContain(option)
    }
  })

  it("says a malformed --node in a sentence, as the reward report does, and exits 2 as it does", () => {
    const watcher = runCli(["--check", "--node", "foo"])
    const report = runReport(["--node", "foo"])
    expect([watcher.status, report.status]).toEqual([2, 2])
    expect(watcher.stderr).toContain('nodes[0]: expected an http(s) URL of a data node, got "foo" (set by --node)')
    expect(report.stderr).toContain('--node "foo": expected an http(s) URL of a data node')
    expect(watcher.stderr).not.toMatch(/pattern|\^https/)
    // a usage error proper: the same code from both
    expect([runCli(["--bogus"]).status, runReport(["--bogus"]).status]).toEqual([2, 2])
  })

  it("prints --help plain off a terminal, without @effect/cli's filler, optional options in brackets", () => {
    // stdout is a pipe here; NO_COLOR is left unset, so that only the lack of a terminal turns colour off
    const result = runCli(["--help"], { NO_COLOR: "" })
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).not.toContain("\x1b[")
    expect(result.stdout).not.toMatch(/A user-defined piece of text|This setting is optional|This option can be set/)
    expect(result.stdout).toContain("[--party id...]")
    expect(result.stdout).toMatch(/\[--only positions \| liquidity \|[^\]]*\| stake\.\.\.\]/)
  })

  it("answers --help without loading the schemas, the client, the simulator or the watcher", () => {
    const loaded = modulesLoaded(app, "src/bin.ts", ["--help"])
    expect(loaded.status, loaded.stderr).toBe(0)
    expect(loaded.stdout).toContain("--once")
    const heavy =
      /\/packages\/(schema|http|simulator|crypto|submitter|pagination)\/|@effect\/sql|@nats-io|undici|\/src\/(Watcher|Configure|Config|Resources)\.ts$/
    expect(loaded.modules.filter((url) => heavy.test(url))).toEqual([])
    // and the command itself was loaded: the hook saw it
    expect(loaded.modules.some((url) => url.endsWith("/src/cli.ts"))).toBe(true)
  })

  it("names the client's variables as @vega-effect/http does", () => {
    expect(Settings.DATANODE_PREFIX).toBe(DataNodeClient.ENV_PREFIX)
  })

  it("exits 2 on a usage error", () => {
    const result = runCli(["--check", "--port", "many"])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain("many")
  })
})
