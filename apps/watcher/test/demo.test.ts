import { spawnSync } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")

describe("pnpm demo", () => {
  it("submits real transactions and sees the watcher report each effect for the party", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "--conditions=@vega-effect/source", "src/demo.ts"], {
      cwd: root,
      encoding: "utf8",
      timeout: 120_000,
      env: { ...process.env, NO_COLOR: "1" }
    })
    expect(run.stderr).not.toContain("demo failed")
    expect(run.status).toBe(0)

    const [story, summary] = run.stdout.split("\n== summary ==\n")
    expect(summary).toBeDefined()
    // the live events came through the console sink before the summary
    expect(story).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ {2}#\d+ {2}position\.\w+ /m)
    expect(story).toContain("== submitting: profile update ==")

    const party = /^party {5}([0-9a-f]{64}) \(alias demo-trader\)$/m.exec(summary)?.[1]
    expect(party).toBeDefined()
    const short = party!.slice(0, 8)
    // four transactions, each with its own hash
    const hashes = [...summary.matchAll(/ tx ([0-9a-f]{64})$/gm)].map((m) => m[1])
    expect(hashes).toHaveLength(4)
    expect(new Set(hashes).size).toBe(4)

    // each effect for our party, with the block height it was read at, in the order submitted
    const reported = (kind: string, rest: RegExp) => {
      const line = new RegExp(`^ {2}#(\\d+) {2}${kind.replace(".", "\\.")} +(\\S+) +(.*)$`, "m").exec(summary)
      expect(line, `${kind} in the summary`).not.toBeNull()
      expect(line![3]).toMatch(rest)
      return { height: Number(line![1]), key: line![2] }
    }
    const profile = reported("profile.created", /^alias "demo-trader", metadata \["desk","strategy"\]$/)
    expect(profile.key).toBe(`${short}…`)
    const provision = reported("liquidity.created", /^commitment 5000000, fee 0\.01, STATUS_(PENDING|ACTIVE)$/)
    const opened = reported("position.opened", /^open volume 0 → 5$/)
    const changed = reported("position.volume_changed", /^open volume 5 → 3$/)
    expect(opened.key).toMatch(new RegExp(`^[0-9a-f]{8}…/${short}…$`))
    expect(changed.key).toBe(opened.key)
    const heights = [profile, provision, opened, changed].map((r) => r.height)
    expect(heights).toEqual([...heights].sort((a, b) => a - b))
    // the provision goes live at the end of the epoch (unless the epoch ended before the watcher first saw it)
    if (/liquidity\.created .* STATUS_PENDING$/m.test(summary)) {
      const activated = reported("liquidity.pending_activated", /^version 1 in force: commitment 5000000, fee 0\.01$/)
      expect(activated.key).toBe(provision.key)
      expect(activated.height).toBeGreaterThan(provision.height)
    }

    // the totals by kind add up to the total
    const total = Number(/^events reported during the demo: (\d+)$/m.exec(summary)?.[1])
    const counts = [...summary.matchAll(/^ +(\d+) {2}[a-z_]+\.[a-z_]+$/gm)].map((m) => Number(m[1]))
    expect(total).toBeGreaterThanOrEqual(5)
    expect(counts.reduce((a, b) => a + b, 0)).toBe(total)
    expect(summary).toMatch(/^elapsed {3}\d+\.\d s$/m)
  }, 150_000)
})
