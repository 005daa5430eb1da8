/**
 * A pool of `worker_threads` searching proof-of-work nonces with the kernel of `keccak.ts`.
 *
 * Workers are started from a script held in a string (`eval: true`), so nothing has to be resolved
 * on disk whether the package runs from its TypeScript sources, `dist/esm` or `dist/cjs`; they get
 * the compiled WebAssembly module of the main thread in their `workerData`. A job is shared through
 * a `SharedArrayBuffer`: a stop flag (Int32 at byte 0) and the next chunk to claim (BigInt64 at byte
 * 8). Workers claim chunks until one of them finds a nonce, the flag is raised, or the nonce space
 * ends, and then each replies once to the job.
 *
 * @internal
 */
import { Worker } from "node:worker_threads"
import type { WasmModule } from "./keccak.js"

// Dynamic import: the string runs as a CommonJS script or, under `--input-type=module`, as a module.
const WORKER_SOURCE = `"use strict"
import("node:worker_threads").then(({ parentPort, workerData }) => {
  const { memory, search } = new WebAssembly.Instance(workerData.module, {}).exports
  const bytes = new Uint8Array(memory.buffer)
  const LAST = (1n << 64n) - 1n
  parentPort.on("message", (job) => {
    const flag = new Int32Array(job.control, 0, 1)
    const next = new BigInt64Array(job.control, 8, 1)
    const size = BigInt(job.chunk)
    bytes.set(job.context, 0)
    let nonce = null
    while (Atomics.load(flag, 0) === 0) {
      const start = BigInt.asUintN(64, Atomics.add(next, 0, 1n)) * size
      if (start > LAST) break
      const end = start + size - 1n > LAST ? LAST : start + size - 1n
      const found = search(start, Number(end - start + 1n))
      if (found >= 0) {
        nonce = start + BigInt(found)
        Atomics.store(flag, 0, 1)
        break
      }
    }
    parentPort.postMessage({ id: job.id, nonce })
  })
})
`

/** How a job ended. */
export type JobResult =
  | { readonly _tag: "Found"; readonly nonce: bigint }
  | { readonly _tag: "Exhausted" }
  | { readonly _tag: "Failed"; readonly message: string }

/** A running job: `stop` raises its flag and calls back once every worker has let go of it. */
export interface JobHandle {
  readonly stop: (onStopped: () => void) => void
  /** Nonces handed out so far (whole chunks; for measurements). */
  readonly claimed: () => bigint
}

interface Job {
  readonly flag: Int32Array
  readonly waiting: Set<Worker>
  readonly onResult: (result: JobResult) => void
  readonly onStopped: Array<() => void>
  settled: boolean
}

interface Reply {
  readonly id: number
  readonly nonce: bigint | null
}

/** Nonces per chunk: about 1.5 ms of work, the longest a worker runs on after a stop. */
export const CHUNK = 4096

/** Bound on the wait for workers to let go of an interrupted job (they do within one chunk). */
export const STOP_GRACE_MS = 2_000

export class WorkerPool {
  /** Workers started and not yet exited, over all pools (observed by the tests). */
  static live = 0

  /** One slot per thread; a worker that exited is replaced when the next job starts. */
  private readonly workers: Array<Worker | undefined> = []
  private readonly jobs = new Map<number, Job>()
  private nextId = 0
  private closed = false

  constructor(
    readonly threads: number,
    private readonly module: WasmModule
  ) {
    for (let slot = 0; slot < threads; slot++) this.workers.push(this.spawn(slot))
  }

  private spawn(slot: number): Worker {
    // no execArgv: the parent's loaders and flags (tsx, --input-type, …) are of no use to this script
    const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { module: this.module } })
    WorkerPool.live++
    let failure = "the worker exited"
    worker.on("message", (reply: Reply) => this.reply(worker, reply))
    worker.on("error", (error) => {
      failure = `the worker failed: ${error.message}`
    })
    worker.on("exit", () => {
      WorkerPool.live--
      for (const job of this.jobs.values()) {
        if (job.waiting.delete(worker)) {
          this.settle(job, { _tag: "Failed", message: this.closed ? "the worker pool is closed" : failure })
        }
      }
      if (this.workers[slot] === worker) this.workers[slot] = undefined
      this.cleanUp()
    })
    if (this.jobs.size === 0) worker.unref()
    return worker
  }

  private reply(worker: Worker, reply: Reply): void {
    const job = this.jobs.get(reply.id)
    if (job === undefined || !job.waiting.delete(worker)) return
    if (reply.nonce !== null) this.settle(job, { _tag: "Found", nonce: reply.nonce })
    else if (job.waiting.size === 0) this.settle(job, { _tag: "Exhausted" })
    this.cleanUp()
  }

  private settle(job: Job, result: JobResult): void {
    Atomics.store(job.flag, 0, 1)
    if (job.settled) return
    job.settled = true
    job.onResult(result)
  }

  /** Forgets the jobs every worker has let go of; idle workers do not keep the process alive. */
  private cleanUp(): void {
    for (const [id, job] of this.jobs) {
      if (job.waiting.size === 0) {
        this.jobs.delete(id)
        for (const callback of job.onStopped.splice(0)) callback()
      }
    }
    // a closing pool keeps its workers ref'd: the process waits for their exits
    if (this.jobs.size === 0 && !this.closed) for (const worker of this.workers) worker?.unref()
  }

  /** Starts a search of every worker on `context` (see `Kernel.context`). */
  submit(context: Uint8Array, onResult: (result: JobResult) => void): JobHandle {
    if (this.closed) {
      onResult({ _tag: "Failed", message: "the worker pool is closed" })
      return { stop: (onStopped) => onStopped(), claimed: () => 0n }
    }
    const workers = this.workers.map((worker, slot) => worker ?? (this.workers[slot] = this.spawn(slot)))
    const control = new SharedArrayBuffer(16)
    const job: Job = {
      flag: new Int32Array(control, 0, 1),
      waiting: new Set(workers),
      onResult,
      onStopped: [],
      settled: false
    }
    const id = this.nextId++
    if (this.jobs.size === 0) for (const worker of workers) worker.ref()
    this.jobs.set(id, job)
    for (const worker of workers) worker.postMessage({ id, control, context, chunk: CHUNK })
    const next = new BigInt64Array(control, 8, 1)
    return {
      claimed: () => Atomics.load(next, 0) * BigInt(CHUNK),
      stop: (onStopped) => {
        Atomics.store(job.flag, 0, 1)
        job.settled = true
        if (this.jobs.has(id)) job.onStopped.push(onStopped)
        else onStopped()
      }
    }
  }

  /** Terminates every worker; running jobs fail. */
  async terminate(): Promise<void> {
    this.closed = true
    await Promise.all(this.workers.map((worker) => worker?.terminate()))
  }
}
