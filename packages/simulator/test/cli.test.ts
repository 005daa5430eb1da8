import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { stripVTControlCharacters } from "node:util"
import * as CliConfig from "@effect/cli/CliConfig"
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as CliOptions from "@effect/cli/Options"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { describe, expect, it } from "@effect/vitest"
import { DurationText } from "@vega-effect/schema"
import { Duration, Effect, Option } from "effect"
import type * as Simulator from "../src/Simulator.js"
import * as World from "../src/World.js"
import { command, DEFAULTS, type Flags, flags, toOptions } from "../src/internal/cli.js"
import { request } from "./support/http.js"

const defaults: Flags = {
  seed: "1",
  parties: Option.none(),
  markets: Option.none(),
  assets: Option.none(),
  positions: Option.none(),
  stakeLinkings: Option.none(),
  liquidityProvisions: Option.none(),
  referralSets: Option.none(),
  epochs: Option.none(),
  blocksPerEpoch: 50,
  fundingPeriodSeconds: 28_800,
  blockInterval: "1s",
  host: "127.0.0.1",
  port: 3008,
  nodes: 1,
  lag: "",
  quirks: "none",
  nodeVersion: "v0.75",
  rateLimit: false,
  latency: Option.none(),
  jitter: Option.none(),
  errorRate: Option.none(),
  resetRate: Option.none(),
  truncateRate: Option.none(),
  faultyNodes: ""
}

describe("vega-sim flags", () => {
  it("map to simulator options", () => {
    const options = toOptions({
      ...defaults,
      seed: "42",
      positions: Option.some(5000),
      nodes: 3,
      lag: "0,2,9",
      errorRate: Option.some(0.1),
      faultyNodes: "3",
      quirks: "v0.75",
      nodeVersion: "v0.79",
      blockInterval: "250 millis",
      fundingPeriodSeconds: 60
    })
    if ("error" in options) throw new Error(options.error)
    expect(options.seed).toBe(42)
    expect(options.scale).toEqual({ positions: 5000 })
    expect(options.quirks).toBe("v0.75")
    expect(options.nodeVersion).toBe("v0.79")
    expect(options.fundingPeriodSeconds).toBe(60)
    expect(Duration.toMillis(options.blockInterval as Duration.Duration)).toBe(250)
    expect(options.nodes?.map((n) => [n.port, n.lag, n.faults])).toEqual([
      [3008, 0, undefined],
      [3009, 2, undefined],
      [3010, 9, { errorRate: 0.1 }]
    ])
  })

  it("refuse what cannot work", () => {
    expect(toOptions({ ...defaults, blockInterval: "soon" })).toEqual({
      error: `--block-interval: expected ${DurationText.EXPECTED} (more than zero), or "manual"; got "soon"`
    })
    expect(toOptions({ ...defaults, nodes: 0 })).toEqual({ error: "--nodes: at least one node is needed" })
    expect(toOptions({ ...defaults, fundingPeriodSeconds: 0 })).toEqual({
      error: "--funding-period-seconds: at least one second"
    })
  })

  it("take latency and jitter as durations", () => {
    const options = toOptions({ ...defaults, latency: Option.some("50ms"), jitter: Option.some("0.02s") })
    if ("error" in options) throw new Error(options.error)
    const latency = options.nodes?.[0].faults?.latency
    expect(latency && Duration.toMillis(latency.fixed ?? 0)).toBe(50)
    expect(latency && Duration.toMillis(latency.jitter ?? 0)).toBe(20)
    const alone = toOptions({ ...defaults, jitter: Option.some("5 millis") })
    if ("error" in alone) throw new Error(alone.error)
    expect(alone.nodes?.[0].faults?.latency).toEqual({ fixed: Duration.zero, jitter: Duration.millis(5) })
  })
})

/** The simulator options an actual command line asks for, read by the command's own flags. */
const parseArgs = (args: ReadonlyArray<string>) =>
  CliOptions.processCommandLine(CliOptions.all(flags), args, CliConfig.defaultConfig).pipe(
    Effect.map(([, , f]) => toOptions(f)),
    Effect.provide(NodeContext.layer)
  )

const millisOf = (input: Duration.DurationInput | undefined): number | undefined =>
  input === undefined ? undefined : Duration.toMillis(Duration.decode(input))

const durationsOf = (options: Simulator.Options | { readonly error: string }) => {
  if ("error" in options) throw new Error(options.error)
  const latency = options.nodes?.[0].faults?.latency
  return {
    blockInterval: options.blockInterval === "manual" ? "manual" : millisOf(options.blockInterval),
    latency: millisOf(latency?.fixed),
    jitter: millisOf(latency?.jitter)
  }
}

describe("vega-sim duration flags", () => {
  for (const [form, duration] of DurationText.EXAMPLES) {
    it.effect(`read "${form}" as DurationText does`, () =>
      Effect.gen(function* () {
        const expected = Duration.toMillis(duration)
        const fromArgs = yield* parseArgs(["--block-interval", form, "--latency", form, "--jitter", form])
        const fromFlags = toOptions({
          ...defaults,
          blockInterval: form,
          latency: Option.some(form),
          jitter: Option.some(form)
        })
        for (const options of [fromArgs, fromFlags]) {
          expect(durationsOf(options)).toEqual({ blockInterval: expected, latency: expected, jitter: expected })
        }
      })
    )
  }

  it.effect("default to a block every second, manual on request", () =>
    Effect.gen(function* () {
      expect(durationsOf(yield* parseArgs([]))).toEqual({
        blockInterval: 1000,
        latency: undefined,
        jitter: undefined
      })
      expect(durationsOf(yield* parseArgs(["--block-interval", "manual"])).blockInterval).toBe("manual")
    })
  )

  for (const [flag, bad] of [
    ["latency", "soon"],
    ["latency", "50"],
    ["jitter", "-5ms"],
    ["jitter", "1 parsec"],
    ["block-interval", "1"],
    ["block-interval", "0s"],
    ["block-interval", "Manual"]
  ] as const) {
    it.effect(`refuse --${flag} ${bad}, naming the flag`, () =>
      Effect.gen(function* () {
        const options = yield* parseArgs([`--${flag}`, bad])
        expect("error" in options).toBe(true)
        const error = "error" in options ? options.error : ""
        expect(error.startsWith(`--${flag}: expected ${DurationText.EXPECTED}`)).toBe(true)
        expect(error.endsWith(`got "${bad}"`)).toBe(true)
      })
    )
  }

  it("show their defaults and the duration syntax in --help", () => {
    const help = stripVTControlCharacters(HelpDoc.toAnsiText(Command.getHelp(command, CliConfig.defaultConfig)))
    const section = (flag: string): string => {
      const start = help.indexOf(`\n${flag} `)
      expect(start).toBeGreaterThan(-1)
      const next = help.indexOf("\n--", start + 1)
      return help.slice(start, next === -1 ? undefined : next)
    }
    expect(section("--port")).toContain("default: 3008")
    expect(section("--block-interval")).toContain("default: 1s")
    expect(section("--block-interval")).toContain(DurationText.EXPECTED)
    expect(section("--latency")).toContain(DurationText.EXPECTED)
    expect(section("--blocks-per-epoch")).toContain(`default: ${DEFAULTS.blocksPerEpoch}`)
    expect(section("--funding-period-seconds")).toContain("default: 28800")
    expect(section("--nodes")).toContain("default: 1")
    expect(section("--seed")).toContain("default: 1")
    expect(section("--host")).toContain("default: 127.0.0.1")
    expect(section("--quirks")).toContain("default: none")
    expect(section("--node-version")).toContain("default: v0.75")
    expect(help).toContain("--block-interval duration")
    expect(help).toContain("--latency duration")
  })

  it("show a default for every flag in --help", () => {
    const help = stripVTControlCharacters(HelpDoc.toAnsiText(Command.getHelp(command, CliConfig.defaultConfig)))
    const options = help.slice(help.indexOf("OPTIONS"))
    const sections = options.split(/\n(?=--[a-z])/).slice(1)
    // a boolean flag's heading is the flag alone; others name their value's type after a space
    const sectionOf = (flag: string) => sections.find((s) => new RegExp(`^${flag}[ \n]`).test(s)) ?? ""
    for (const key of Object.keys(flags)) {
      const flag = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
      expect(sectionOf(flag), flag).toMatch(/\n\s*default: \S/)
    }
    expect(sectionOf("--parties")).toContain(`default: ${World.defaultScale.parties}`)
    expect(sectionOf("--positions")).toContain(`default: ${World.defaultScale.positions}`)
    expect(sectionOf("--epochs")).toContain(`default: ${World.defaultScale.epochs}`)
    expect(sectionOf("--rate-limit")).toContain("default: off")
    expect(sectionOf("--latency")).toContain("default: none")
    expect(sectionOf("--faulty-nodes")).toContain("default: all")
  })
})

describe("vega-sim", () => {
  it("prints its base URLs, serves, and stops cleanly on SIGTERM", { timeout: 60_000 }, async () => {
    const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
    const child = spawn(
      process.execPath,
      [
        "--conditions=@vega-effect/source",
        "--import",
        "tsx",
        bin,
        "--port",
        "0",
        "--nodes",
        "2",
        "--lag",
        "0,3",
        "--block-interval",
        "manual"
      ],
      {
        cwd: fileURLToPath(new URL("..", import.meta.url)),
        stdio: ["ignore", "pipe", "pipe"]
      }
    )
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    const urls = await new Promise<Array<string>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URLs printed: ${output}`)), 45_000)
      child.stdout.on("data", () => {
        const found = [...output.matchAll(/^node-\d+ (http:\/\/\S+)$/gm)].map((m) => m[1])
        if (found.length === 2) {
          clearTimeout(timer)
          resolve(found)
        }
      })
    })
    const [leader, behind] = await Promise.all(urls.map((url) => request(url, "/blockchain/height")))
    expect(Number(leader.headers["x-block-height"]) - Number(behind.headers["x-block-height"])).toBe(3)
    const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
    child.kill("SIGTERM")
    expect(await exit).toBe(0)
  })
})

/** `vega-sim` from the sources with `args`: what it printed, and the files of the modules it loaded. */
const loadedBy = (args: ReadonlyArray<string>) => {
  const scratch = mkdtempSync(join(tmpdir(), "vega-sim-help-"))
  const [hooks, register, list] = ["hooks.mjs", "register.mjs", "modules.txt"].map((name) => join(scratch, name))
  writeFileSync(
    hooks,
    `import { appendFileSync } from "node:fs"\nlet file\nexport const initialize = (data) => { file = data.file }\n` +
      `export const load = async (url, context, next) => { appendFileSync(file, url + "\\n"); return next(url, context) }\n`
  )
  writeFileSync(
    register,
    `import { register } from "node:module"\nregister(${JSON.stringify(pathToFileURL(hooks).href)}, { data: { file: ${JSON.stringify(list)} } })\n`
  )
  writeFileSync(list, "")
  const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
  const ran = spawnSync(
    process.execPath,
    ["--conditions=@vega-effect/source", "--import", "tsx", "--import", pathToFileURL(register).href, bin, ...args],
    { cwd: fileURLToPath(new URL("..", import.meta.url)), encoding: "utf8", env: { ...process.env, NO_COLOR: "" } }
  )
  return { ...ran, modules: readFileSync(list, "utf8").split("\n").filter(Boolean) }
}

describe("vega-sim --help", () => {
  it("is plain off a terminal, without @effect/cli's filler, and loads none of the world", { timeout: 60_000 }, () => {
    const help = loadedBy(["--help"])
    expect(help.status, help.stderr).toBe(0)
    expect(help.stdout).toContain("--block-interval duration")
    expect(help.stdout).toContain("default: 1s")
    expect(help.stdout).not.toContain("\u001b[")
    expect(help.stdout).not.toMatch(/A user-defined piece of text|This setting is optional|An integer\./)
    const world = /\/src\/(World|Simulator|internal\/serve|internal\/world\/(?!defaults))[^/]*\.ts$/
    expect(help.modules.filter((url) => world.test(url))).toEqual([])
    expect(help.modules.some((url) => url.endsWith("/src/internal/cli.ts"))).toBe(true)
  })
})
