import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Option } from "effect"
import { type Flags, toOptions } from "../src/internal/cli.js"
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
  blockInterval: "1 second",
  host: "127.0.0.1",
  port: 3008,
  nodes: 1,
  lag: "",
  quirks: "none",
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
      blockInterval: "250 millis"
    })
    if ("error" in options) throw new Error(options.error)
    expect(options.seed).toBe(42)
    expect(options.scale).toEqual({ positions: 5000 })
    expect(options.quirks).toBe("v0.75")
    expect(Duration.toMillis(options.blockInterval as Duration.Duration)).toBe(250)
    expect(options.nodes?.map((n) => [n.port, n.lag, n.faults])).toEqual([
      [3008, 0, undefined],
      [3009, 2, undefined],
      [3010, 9, { errorRate: 0.1 }]
    ])
  })

  it("refuse what cannot work", () => {
    expect(toOptions({ ...defaults, blockInterval: "soon" })).toEqual({
      error: '--block-interval: expected a duration such as "1 second" or "500 millis", or "manual"; got "soon"'
    })
    expect(toOptions({ ...defaults, nodes: 0 })).toEqual({ error: "--nodes: at least one node is needed" })
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
