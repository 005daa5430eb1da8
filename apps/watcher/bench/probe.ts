import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
const world = spawn(
  process.execPath,
  [
    "--cpu-prof",
    "--cpu-prof-dir=/tmp/prof",
    "--import",
    "tsx",
    "--conditions=@vega-effect/source",
    "/work/main/apps/watcher/bench/world.ts",
    "100000",
    "100000",
    "2100",
    "50"
  ],
  { stdio: ["pipe", "pipe", "inherit"] }
)
const it = createInterface({ input: world.stdout! })[Symbol.asyncIterator]()
const { url } = JSON.parse((await it.next()).value)
const profiles = (await (await fetch(`${url}/api/v2/parties/profiles?pagination.first=5000`)).json()) as any
const parties: string[] = profiles.profiles.edges.map((e: any) => e.node.partyId)
for (const round of [1, 2]) {
  let s = performance.now()
  for (const p of parties.slice(0, 200))
    await (
      await fetch(`${url}/api/v2/parties/${p}/stake?pagination.first=100`, {
        headers: { "accept-encoding": "identity" }
      })
    ).json()
  console.log(round, "raw stake 200 parties", (performance.now() - s).toFixed(0), "ms")
  s = performance.now()
  let n = 0,
    after: string | undefined
  for (;;) {
    const r = (await (
      await fetch(
        `${url}/api/v2/positions?pagination.first=5000${after ? `&pagination.after=${encodeURIComponent(after)}` : ""}`,
        { headers: { "accept-encoding": "identity" } }
      )
    ).json()) as any
    n += r.positions.edges.length
    if (!r.positions.pageInfo.hasNextPage) break
    after = r.positions.pageInfo.endCursor
  }
  console.log(round, "raw positions", n, (performance.now() - s).toFixed(0), "ms")
}
world.stdin!.end()
await new Promise((r) => world.on("close", r))
