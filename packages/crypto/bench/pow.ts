/**
 * Proof-of-work speed: this package (one thread, all cores) against the official
 * `@vegaprotocol/crypto` solver and a naive node:crypto loop, measured in the same run, and the mean
 * time to solve difficulties 15 and 20 on random tids.
 *
 * Each rate is measured in several short windows and shown as best and median: other processes on
 * the machine lower some windows (the median), rarely all of them (the best).
 *
 * Run: npx tsx --conditions=@vega-effect/source bench/pow.ts
 */
import { createHash, randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { availableParallelism } from "node:os"
import { Effect } from "effect"
import * as ProofOfWork from "@vega-effect/crypto/ProofOfWork"
import { Kernel, wasmModule } from "../src/internal/keccak.js"
import { WorkerPool } from "../src/internal/powPool.js"

/** The official solver ships no types. */
interface OfficialPow {
  readonly solve: (difficulty: number, blockHash: string, tid: string) => Promise<{ readonly nonce: bigint }>
}

const WINDOWS = 6

const randomHex = () => randomBytes(32).toString("hex")
const seconds = (started: number) => (performance.now() - started) / 1000
const ms = (value: number) => `${value.toFixed(1)} ms`
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

interface Rate {
  readonly best: number
  readonly median: number
}

/** Best and median of the rates of `WINDOWS` windows. */
const windows = async (window: () => Promise<number> | number): Promise<Rate> => {
  const rates: Array<number> = []
  for (let i = 0; i < WINDOWS; i++) rates.push(await window())
  rates.sort((a, b) => a - b)
  return { best: rates[rates.length - 1], median: rates[Math.floor(rates.length / 2)] }
}

/** Our kernel on the calling thread: nonces tried per second at an unreachable difficulty. */
const oursOneThread = (budgetSeconds: number): number => {
  const kernel = new Kernel()
  const context = kernel.context(randomHex(), randomHex(), 256)
  let tried = 0
  const started = performance.now()
  while (seconds(started) < budgetSeconds) {
    kernel.search(context, BigInt(tried), 16_384)
    tried += 16_384
  }
  return tried / seconds(started)
}

/** Our worker pool: nonces handed out per second at an unreachable difficulty. */
const oursAllCores = async (pool: WorkerPool, budgetSeconds: number): Promise<number> => {
  const context = new Kernel().context(randomHex(), randomHex(), 256)
  const started = performance.now()
  const job = pool.submit(context, () => undefined)
  await sleep(budgetSeconds * 1000)
  const tried = job.claimed()
  const elapsed = seconds(started)
  await new Promise<void>((resolve) => job.stop(resolve))
  return Number(tried) / elapsed
}

/** First-nonce solves from 0: the nonce found + 1 is the number of hashes tried. */
const firstNonceRate = async (
  solve: (blockHash: string, tid: string) => Promise<bigint>,
  count: number
): Promise<number> => {
  let tried = 0n
  const started = performance.now()
  for (let i = 0; i < count; i++) tried += (await solve(randomHex(), randomHex())) + 1n
  return Number(tried) / seconds(started)
}

const naiveNodeCrypto = (count: number): number => {
  const prefix = `Vega_SPAM_PoW${randomHex()}${randomHex()}`
  const nonce = Buffer.alloc(8)
  const started = performance.now()
  for (let i = 0; i < count; i++) {
    nonce.writeBigUInt64BE(BigInt(i))
    createHash("sha3-256").update(prefix).update(nonce).digest()
  }
  return count / seconds(started)
}

/** Mean and median milliseconds to solve on `count` random problems. */
const solveTimes = async (solve: (blockHash: string, tid: string) => Promise<unknown>, count: number) => {
  const times: Array<number> = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    await solve(randomHex(), ProofOfWork.newTid())
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  return { mean: times.reduce((a, b) => a + b, 0) / count, median: times[Math.floor(count / 2)] }
}

/** Share of the machine's CPU time that was idle during one second (Linux), or undefined. */
const idleShare = async (): Promise<number | undefined> => {
  const sample = () => {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number)
    return { idle: fields[3] + fields[4], total: fields.reduce((a, b) => a + b, 0) }
  }
  try {
    const before = sample()
    await sleep(1000)
    const after = sample()
    return (after.idle - before.idle) / (after.total - before.total)
  } catch {
    return undefined
  }
}

const main = async () => {
  const idle = await idleShare()
  const official = (await import("@vegaprotocol/crypto/pow" as string)) as OfficialPow
  const threads = availableParallelism()
  const pool = new WorkerPool(threads, wasmModule())
  const ours = (difficulty: number, singleThread: boolean) => (blockHash: string, tid: string) =>
    Effect.runPromise(ProofOfWork.solve(blockHash, tid, difficulty, { singleThread })).then((s) => s.nonce)
  const theirs = (difficulty: number) => (blockHash: string, tid: string) =>
    official.solve(difficulty, blockHash, tid).then((s) => s.nonce)

  // warm up: tier-up of both WebAssembly modules, worker start
  oursOneThread(0.5)
  await oursAllCores(pool, 0.5)
  await firstNonceRate(theirs(16), 3)
  await firstNonceRate(ours(16, true), 3)
  await solveTimes(ours(16, false), 5)

  const oneThread = await windows(() => oursOneThread(0.5))
  const oneThreadSolve = await windows(() => firstNonceRate(ours(17, true), 4))
  const allCores = await windows(() => oursAllCores(pool, 0.5))
  const officialRate = await windows(() => firstNonceRate(theirs(17), 4))
  const naive = await windows(() => naiveNodeCrypto(100_000))

  const row = (rate: Rate) => ({
    "best M/s": (rate.best / 1e6).toFixed(2),
    "median M/s": (rate.median / 1e6).toFixed(2),
    "x official (best)": (rate.best / officialRate.best).toFixed(2),
    "x official (median)": (rate.median / officialRate.median).toFixed(2)
  })
  console.log(
    `proof of work: SHA3-256 hashes per second, ${threads} cores, Node ${process.version}, ` +
      `CPU idle before the run ${idle === undefined ? "unknown" : `${(idle * 100).toFixed(0)}%`}; ` +
      `best and median of ${WINDOWS} windows`
  )
  console.table({
    "this package, 1 thread (kernel)": row(oneThread),
    "this package, 1 thread (solve, first nonce)": row(oneThreadSolve),
    [`this package, ${threads} workers`]: row(allCores),
    "@vegaprotocol/crypto 0.12.0 (1 thread)": row(officialRate),
    "node:crypto createHash per nonce": row(naive)
  })

  const rows: Record<string, { mean: string; median: string; "expected (2^d / best rate)": string }> = {}
  for (const [difficulty, count, officialCount] of [
    [15, 100, 40],
    [20, 40, 10]
  ] as const) {
    const parallel = await solveTimes((blockHash, tid) => ours(difficulty, false)(blockHash, tid), count)
    rows[`d${difficulty} this package, ${threads} workers (${count} tids)`] = {
      mean: ms(parallel.mean),
      median: ms(parallel.median),
      "expected (2^d / best rate)": ms((2 ** difficulty / allCores.best) * 1000)
    }
    const reference = await solveTimes(theirs(difficulty), officialCount)
    rows[`d${difficulty} @vegaprotocol/crypto (${officialCount} tids)`] = {
      mean: ms(reference.mean),
      median: ms(reference.median),
      "expected (2^d / best rate)": ms((2 ** difficulty / officialRate.best) * 1000)
    }
  }
  console.log(
    "time to solve (random block hashes and tids; the median of a geometric distribution is 0.69 of its mean)"
  )
  console.table(rows)
  await pool.terminate()
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
