/**
 * What a person sees when the node cannot be reached: the watcher process (poll and live mode)
 * against a node that went away, or a port nobody listens on from the start, says it for the node
 * as a whole, in one line per step of a backoff (see `Outages.ts`), each naming the node, the
 * cause in words, what was tried and when the next try is; the stack traces behind it show only at
 * debug level.
 */
import { Simulator } from "@vega-effect/simulator"
import { Effect, Exit, Scope } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { startWatcher, type WatcherProcess } from "./support/process.js"

const dir = mkdtempSync(join(tmpdir(), "watcher-warnings-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A URL on which nothing listens. */
const closedPort = (): Promise<string> =>
  new Promise((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(`http://127.0.0.1:${port}`))
    })
  })

const sleep = (millis: number) => new Promise((r) => setTimeout(r, millis))

/**
 * A node that answers until the watcher has taken its slices (it has checked the node's chain and
 * read once), then goes away: a simulator in this process, closed.
 */
const nodeGoingAway = async () => {
  const scope = Effect.runSync(Scope.make())
  const sim = await Effect.runPromise(Scope.extend(Simulator.make({ seed: 1, blockInterval: "200 millis" }), scope))
  return {
    url: sim.url,
    goAway: async (watcher: WatcherProcess) => {
      const deadline = Date.now() + 30_000
      while (!/INFO \(#\d+\): watching positions/.test(watcher.stderr()) && Date.now() < deadline) await sleep(50)
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }
}

/**
 * The watcher's stderr once `count` warnings matching `warning` were logged (or `within`, 30 s by
 * default, passed), its node gone after its start, or (`downAtStart`) never there.
 */
const stderrOf = async (
  args: ReadonlyArray<string>,
  warning: RegExp,
  count: number,
  options: { readonly level?: string; readonly downAtStart?: boolean; readonly within?: number } = {}
) => {
  const node =
    options.downAtStart === true ? { url: await closedPort(), goAway: async () => {} } : await nodeGoingAway()
  const { url } = node
  const database = join(dir, `${Math.random().toString(36).slice(2)}.db`)
  const watcher = await startWatcher(["--node", url, "--console", "--port", "0", "--database", database, ...args], {
    VEGA_DATANODE_RETRIES: "0",
    ...(options.level === undefined ? {} : { VEGA_WATCHER_LOG_LEVEL: options.level })
  })
  await node.goAway(watcher)
  const deadline = Date.now() + (options.within ?? 30_000)
  const warnings = () =>
    watcher
      .stderr()
      .split("\n")
      .filter((line) => / WARN /.test(line) && warning.test(line))
  while (warnings().length < count && Date.now() < deadline) await sleep(50)
  watcher.child.kill("SIGTERM")
  await watcher.exited
  return { url, stderr: watcher.stderr(), warnings: warnings() }
}

/** Lines that are not a log entry of their own: a stack trace or an object dumped under one. */
const continuations = (stderr: string) =>
  stderr.split("\n").filter((line) => line !== "" && !/^\[\d\d:\d\d:\d\d\.\d{3}\] [A-Z]+ /.test(line))

const escaped = (url: string) => url.replace(/[.]/g, "\\.")

describe("a node that refuses the connection", () => {
  it("at start: reading its chain, said once, then once per step, with the node, 'refused' and what was tried", async () => {
    const args = ["--mode", "poll", "--interval", "300ms"]
    const { stderr, url, warnings } = await stderrOf(args, /chain/, 2, { downAtStart: true })
    expect(warnings.length).toBeGreaterThanOrEqual(2)
    const [first, second] = warnings
    expect(first).toMatch(
      new RegExp(`WARN \\(#\\d+\\): ${escaped(url)} refused the connection: reading the nodes' chain failed; `)
    )
    expect(second).toMatch(
      new RegExp(`${escaped(url)} refused the connection, for \\d+s: reading the nodes' chain tried again; `)
    )
    for (const line of warnings) expect(line).toMatch(/; (next try in \S+|trying again)$/)
    expect(continuations(stderr)).toEqual([])
    // nothing else is done before the node says its chain
    expect(stderr).not.toMatch(/the cycle/)
  }, 60_000)

  it("poll: the failed cycles, once per step, with the node, 'refused' and the next try; no stack", async () => {
    // the tries made as the node goes (a connection reset, say) are not counted
    const args = ["--mode", "poll", "--interval", "300ms"]
    const { stderr, url, warnings } = await stderrOf(args, /refused the connection.*the cycle/, 2)
    expect(warnings.length).toBeGreaterThanOrEqual(2)
    for (const line of warnings) {
      expect(line).toMatch(
        new RegExp(`${escaped(url)} refused the connection(, for \\d+s)?: the cycle (failed|tried again); `)
      )
    }
    expect(continuations(stderr)).toEqual([])
    expect(stderr).not.toContain("ECONNREFUSED")
  }, 60_000)

  it("poll at debug level: the whole cause with its stack follows", async () => {
    const { stderr, warnings } = await stderrOf(
      ["--mode", "poll", "--interval", "300ms"],
      /refused the connection.*the cycle/,
      1,
      {
        level: "debug"
      }
    )
    expect(warnings.length).toBeGreaterThanOrEqual(1)
    expect(stderr).toMatch(/DEBUG \(#\d+\): the cycle failed: the whole cause/)
    // whichever read found the node gone
    expect(stderr).toMatch(/TransportError: http:\/\/127\.0\.0\.1:\d+\/\S+/)
    expect(stderr).toMatch(/\n\s+at /)
    expect(stderr).toContain("ECONNREFUSED")
  }, 60_000)

  it("live: a line per step for the node, not one per stream and retry", async () => {
    // all that is said in 10 s: before, a warning per stream per retry (46 lines)
    const { stderr, url, warnings } = await stderrOf([], /./, Infinity, { within: 10_000 })
    expect(warnings.length, stderr).toBeGreaterThan(0)
    // the first moment, then 1, 2 and 4 s later
    expect(warnings.length, stderr).toBeLessThanOrEqual(5)
    for (const line of warnings) expect(line).toContain(url)
    expect(
      warnings.some((line) => /refused the connection, for \d+s: the .* streams/.test(line)),
      stderr
    ).toBe(true)
    for (const line of warnings) expect(line).toMatch(/; (next try in [^;]+|trying again)(; what the streams|$)/)
    expect(continuations(stderr)).toEqual([])
  }, 60_000)
})
