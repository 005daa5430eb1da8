/**
 * The published command is `dist/bin.js`, made by `scripts/bundle-app.mjs` at the repository root.
 * Here it is made again and run the way an installed package runs it: with plain node, from a
 * directory whose node_modules hold only the package.json `dependencies` (what an install pulls).
 */
import { execFileSync, spawn, spawnSync } from "node:child_process"
import { once } from "node:events"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { HEAP_CAP_MB } from "../src/internal/heapCap.js"

const app = fileURLToPath(new URL("..", import.meta.url))
const pkg = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as {
  readonly version: string
  readonly bin: Record<string, string>
  readonly dependencies: Record<string, string>
}
const [name] = Object.keys(pkg.bin)

let dir = ""
let bin = ""

const run = (args: ReadonlyArray<string>) =>
  spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: "utf8",
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024
  })

describe("the bundled command", () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "vega-watcher-bundle-"))
    bin = join(dir, "bin.js")
    execFileSync(process.execPath, [join(app, "..", "..", "scripts", "bundle-app.mjs"), "--outfile", bin], {
      cwd: app
    })
    for (const dependency of Object.keys(pkg.dependencies)) {
      const target = join(dir, "node_modules", dependency)
      mkdirSync(join(target, ".."), { recursive: true })
      symlinkSync(realpathSync(join(app, "node_modules", dependency)), target)
    }
  }, 60_000)
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("is a node script", () => {
    expect(readFileSync(bin, "utf8").split("\n", 1)[0]).toBe("#!/usr/bin/env node")
  })

  it("prints the package.json version", () => {
    const result = run(["--version"])
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout.trim()).toBe(pkg.version)
  })

  it("prints its help under the bin's name", () => {
    const result = run(["--help"])
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toContain(`$ ${name} `)
    expect(result.stdout).toContain("--once")
  })

  it("watches the embedded simulator for one cycle and exits", () => {
    const result = run(["--once", "--initial-events", "--port", "0", "--database", join(dir, "state.db")])
    expect(result.status, result.stderr).toBe(0)
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { readonly kind: string })
    expect(events.length).toBeGreaterThan(0)
    expect(events.map((event) => event.kind)).toContain("position.opened")
  })

  describe("under a bounded heap, without a flag from the operator", () => {
    /** The command started with plain node, watching the embedded simulator until signalled. */
    const start = (env: Record<string, string> = {}) => {
      const child = spawn(process.execPath, [bin, "--port", "0"], {
        cwd: dir,
        stdio: ["ignore", "ignore", "pipe"],
        env: { ...process.env, ...env }
      })
      let stderr = ""
      child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
      return { child, stderr: () => stderr }
    }
    const childrenOf = (pid: number): Array<number> =>
      readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
    const commandLine = (pid: number): Array<string> => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")
    const until = async (done: () => boolean, what: string) => {
      const deadline = Date.now() + 30_000
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }
    const running = (started: ReturnType<typeof start>) => () => started.stderr().includes("watching ")
    const linux = existsSync("/proc/self/task")

    it.skipIf(!linux)(
      "runs itself again with the heap cap, passes a SIGTERM on and exits as it did",
      async () => {
        const started = start()
        await until(running(started), "the watcher to start")
        const [second] = childrenOf(started.child.pid!)
        expect(commandLine(second)).toContain(`--max-old-space-size=${HEAP_CAP_MB}`)
        started.child.kill("SIGTERM")
        const [code] = await once(started.child, "exit")
        expect(code, started.stderr()).toBe(0)
        expect(existsSync(`/proc/${second}`)).toBe(false)
      },
      60_000
    )

    it.skipIf(!linux)(
      "stops when the first process is killed",
      async () => {
        const started = start()
        await until(running(started), "the watcher to start")
        const [second] = childrenOf(started.child.pid!)
        started.child.kill("SIGKILL")
        await once(started.child, "exit")
        await until(
          () => !existsSync(`/proc/${second}`) || readFileSync(`/proc/${second}/stat`, "utf8").includes(") Z"),
          "the second process to stop"
        )
      },
      60_000
    )

    it.skipIf(!linux)(
      "runs as it is when the operator gave a cap",
      async () => {
        const started = start({ NODE_OPTIONS: "--max-old-space-size=200" })
        await until(running(started), "the watcher to start")
        expect(childrenOf(started.child.pid!)).toEqual([])
        started.child.kill("SIGTERM")
        const [code] = await once(started.child, "exit")
        expect(code, started.stderr()).toBe(0)
      },
      60_000
    )
  })
})
