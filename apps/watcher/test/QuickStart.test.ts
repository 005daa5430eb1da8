/**
 * The quick start run again, and a state ahead of its node. With no node given, the simulator
 * started in the process is a new chain at every run: a state kept from an earlier run would be
 * ahead of it, and nothing reported until the chain passed it. So that state is kept in memory,
 * and a state ahead of its node (one given with `--database`) is said in one line, once.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { runCli, startCli } from "./support/cli.js"

const require = createRequire(import.meta.url)
const Sqlite = createRequire(require.resolve("@effect/sql-sqlite-node"))("better-sqlite3") as new (file: string) => {
  exec: (sql: string) => void
  close: () => void
}

/** Moves every checkpoint of the state `blocks` higher, as a state kept for a longer chain would be. */
const raiseCheckpoints = (database: string, blocks: number): void => {
  const db = new Sqlite(database)
  try {
    db.exec(`UPDATE watcher_slice SET height = height + ${blocks}`)
  } finally {
    db.close()
  }
}

const WAITING = /state .* is at height (\d+), the node at http:\/\/127\.0\.0\.1:\d+ at (\d+): waiting for the node/

const waitingLines = (stderr: string) => stderr.split("\n").filter((line) => WAITING.test(line))

const profilesOnce = ["--once", "--only", "profiles", "--port", "0"]

const root = fileURLToPath(new URL("../../..", import.meta.url))

/**
 * The root `start` script run as pnpm runs it (`sh -c`), in a process group of its own, and a
 * Ctrl-C: SIGINT to the whole group, as a terminal sends it. How it ended, and what it printed.
 */
const startThenCtrlC = async (args: ReadonlyArray<string>) => {
  const script = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: { start: string } })
    .scripts.start
  const child = spawn("sh", ["-c", `${script} ${args.join(" ")}`], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" }
  })
  let [stdout, stderr] = ["", ""]
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal }))
  )
  const deadline = Date.now() + 45_000
  while (!/#\d+ {2}\S+\.\S+/.test(stdout) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
  process.kill(-child.pid!, "SIGINT")
  return { ...(await ended), stdout, stderr }
}

describe("the quick start, run twice", () => {
  it("reports at once each time: the simulated network's state is kept in memory, no file left", () => {
    const dir = mkdtempSync(join(tmpdir(), "watcher-quick-start-"))
    for (const run of [1, 2]) {
      const ran = runCli([...profilesOnce, "--initial-events"], {}, dir)
      expect(ran.status, ran.stderr).toBe(0)
      expect(ran.stdout.trim().split("\n").filter(Boolean).length, `run ${run}`).toBeGreaterThan(0)
      expect(ran.stderr).toContain("its state in memory (--database keeps it)")
    }
    expect(readdirSync(dir)).toEqual([])
  })
})

describe("a state ahead of its node", () => {
  const setUp = () => {
    const database = join(mkdtempSync(join(tmpdir(), "watcher-behind-")), "state.db")
    const first = runCli([...profilesOnce, "--database", database])
    expect(first.status, first.stderr).toBe(0)
    raiseCheckpoints(database, 1000)
    return database
  }

  it("is said in one line, with both heights, by a cycle", () => {
    const ran = runCli([...profilesOnce, "--database", setUp()])
    expect(ran.status, ran.stderr).toBe(0)
    const said = waitingLines(ran.stderr)
    expect(said, ran.stderr).toHaveLength(1)
    const [, state, node] = WAITING.exec(said[0])!
    expect(Number(state) - Number(node)).toBeGreaterThan(900)
    expect(ran.stderr).not.toContain("below the checkpoint")
  })

  it("is said once, not at every block, by a live watcher", async () => {
    const watcher = startCli(["--only", "profiles", "--port", "0", "--block-interval", "100ms", "--database", setUp()])
    // then some thirty blocks more
    const deadline = Date.now() + 20_000
    while (waitingLines(watcher.stderr()).length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    watcher.child.kill("SIGINT")
    expect(await watcher.exited).toBe(0)
    expect(waitingLines(watcher.stderr()), watcher.stderr()).toHaveLength(1)
    expect(watcher.stdout()).toBe("")
  }, 60_000)
})

describe("the quick start, stopped with Ctrl-C", () => {
  it("ends quietly (exit 0, nothing but what it said while running), each value said once, no jargon", async () => {
    const ended = await startThenCtrlC(["--console", "--port", "0"])
    expect({ code: ended.code, signal: ended.signal }, ended.stderr).toEqual({ code: 0, signal: null })
    expect(ended.stdout).toMatch(/#\d+ {2}\S+\.\S+/)
    const said = ended.stderr.split("\n").filter((line) => line.trim() !== "")
    expect(
      said.filter((line) => !/^\[[\d:.]+\] INFO \(#\d+\): /.test(line)),
      ended.stderr
    ).toEqual([])
    // what is watched in words, not how the work is cut up
    expect(ended.stderr).toContain(
      "watching positions, liquidity, signer bundles, profiles, rewards, referrals and stake"
    )
    expect(ended.stderr).not.toMatch(/slice/)
    // each value once: a volume's change is not said again in its details
    expect(ended.stdout).not.toMatch(/\[from /)
  }, 60_000)
})
