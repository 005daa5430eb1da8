/**
 * What prefetch buys: items/s with prefetch 0, 1 and 3 for a fetch with simulated network latency
 * (2-18 ms per page, 10 ms on average, varying from page to page) and a consumer with simulated
 * work of 0.1 ms per item (10 ms per page of 100), either I/O-bound (async: the JS thread is free)
 * or CPU-bound (a busy loop). All settings are measured in the same run, interleaved, median of
 * several rounds, and compared with prefetch 0.
 *
 * Expected shape: prefetch 0 pays latency + work for every page; prefetch 1 overlaps them (close to
 * the larger of the two, page by page); prefetch 3 also absorbs the slow pages, towards the average,
 * when the consumer leaves the thread free. A CPU-bound consumer only lets responses in between
 * its chunks, so there prefetch beyond 1 gains little.
 *
 * Run: npx -y pnpm@10 --filter @vega-effect/pagination bench
 */
import { performance } from "node:perf_hooks"
import { Effect, Stream } from "effect"
import { Paginate } from "@vega-effect/pagination"

const PAGES = 60
const PAGE_SIZE = 100
const ROUNDS = 5
const WORK_PER_ITEM_MS = 0.1
const SETTINGS = [0, 1, 3] as const

// Deterministic latency per page: 2..18 ms, mean 10 ms.
const latency = (page: number) => 2 + ((page * 7919) % 17)

const total = PAGES * PAGE_SIZE
const fetch = (params: Paginate.PageParams) =>
  Effect.suspend(() => {
    const start = params.after === undefined ? 0 : Number(params.after) + 1
    const page = Math.floor(start / PAGE_SIZE)
    const items = Array.from({ length: Math.min(PAGE_SIZE, total - start) }, (_, i) => ({
      node: start + i,
      cursor: String(start + i)
    }))
    const result: Paginate.Page<number> = {
      items,
      hasNextPage: start + items.length < total,
      hasPreviousPage: start > 0,
      startCursor: items[0]?.cursor ?? "",
      endCursor: items[items.length - 1]?.cursor ?? ""
    }
    return Effect.as(Effect.sleep(latency(page)), result)
  })

const busy = (ms: number) => {
  const end = performance.now() + ms
  while (performance.now() < end) {
    // simulated decoding / aggregation on the JS thread
  }
}

type Work = "io" | "cpu"

const measure = async (work: Work, prefetch: number): Promise<number> => {
  let sum = 0
  const items = Paginate.nodes(fetch, { pageSize: PAGE_SIZE, prefetch })
  const consume =
    work === "cpu"
      ? Stream.runForEach(items, (n) =>
          Effect.sync(() => {
            busy(WORK_PER_ITEM_MS)
            sum += n
          })
        )
      : // I/O-bound work (e.g. a batch insert): the JS thread is free meanwhile
        Stream.runForEachChunk(items, (chunk) =>
          Effect.zipRight(
            Effect.sleep(chunk.length * WORK_PER_ITEM_MS),
            Effect.sync(() => {
              for (const n of chunk) sum += n
            })
          )
        )
  const start = performance.now()
  await Effect.runPromise(consume)
  const elapsed = performance.now() - start
  if (sum !== (total * (total - 1)) / 2) throw new Error(`${work}, prefetch ${prefetch}: items lost or repeated`)
  return elapsed
}

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const scenarios: ReadonlyArray<readonly [Work, string]> = [
  ["io", "I/O-bound consumer (async work, 10 ms per page)"],
  ["cpu", "CPU-bound consumer (busy loop, 0.1 ms per item)"]
]
const times = new Map<string, Array<number>>()
for (const [work] of scenarios) await measure(work, 1) // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const [work] of scenarios) {
    for (const prefetch of SETTINGS) {
      const key = `${work}/${prefetch}`
      times.set(key, [...(times.get(key) ?? []), await measure(work, prefetch)])
    }
  }
}

console.log(`${PAGES} pages of ${PAGE_SIZE}; fetch latency 2-18 ms per page (mean 10); median of ${ROUNDS} rounds`)
for (const [work, title] of scenarios) {
  console.log(title)
  const base = median(times.get(`${work}/0`)!)
  for (const prefetch of SETTINGS) {
    const ms = median(times.get(`${work}/${prefetch}`)!)
    const rate = total / (ms / 1000)
    console.log(
      `  prefetch ${prefetch}: ${ms.toFixed(0).padStart(5)} ms ${rate.toFixed(0).padStart(7)} items/s  ${(base / ms).toFixed(2)}x prefetch 0`
    )
  }
}
