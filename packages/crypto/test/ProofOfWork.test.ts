import { execFile } from "node:child_process"
import { createHash, randomBytes } from "node:crypto"
import { availableParallelism } from "node:os"
import { fileURLToPath } from "node:url"
import { Worker } from "node:worker_threads"
import { describe, expect, it, vi } from "@effect/vitest"
import { Context, Duration, Effect, Exit, FastCheck as fc, Fiber, Layer, Scope } from "effect"
import * as ProofOfWork from "@vega-effect/crypto/ProofOfWork"
import { Kernel, wasmModule } from "../src/internal/keccak.js"
import { CHUNK, type JobResult, STOP_GRACE_MS, WorkerPool } from "../src/internal/powPool.js"

/** The official solver (`@vegaprotocol/crypto`, Rust/WASM), which ships no types. */
interface OfficialPow {
  readonly solve: (
    difficulty: number,
    blockHash: string,
    tid: string
  ) => Promise<{ readonly nonce: bigint; readonly tid: string; readonly hashFunction: string }>
  readonly verify: (difficulty: number, blockHash: string, tid: string, nonce: bigint) => Promise<boolean>
}
const official = Effect.promise(() => import("@vegaprotocol/crypto/pow" as string) as Promise<OfficialPow>)

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")

/** SHA3-256 of the preimage with node:crypto (OpenSSL). */
const reference = (blockHash: string, tid: string, nonce: bigint): string => {
  const tail = Buffer.alloc(8)
  tail.writeBigUInt64BE(nonce)
  return createHash("sha3-256").update(`Vega_SPAM_PoW${blockHash}${tid}`, "utf8").update(tail).digest("hex")
}

/** From `vega` `libs/crypto/proof_of_work_test.go` and `js-crypto` `test/pow.js`: the first nonce from 0. */
const VECTORS = [
  {
    difficulty: 4,
    blockHash: "792ca202b84226c739f9923046a0f4e7b5ff9e6f1b5636d8e26a8e2c5dec70ac",
    tid: "3b8399cdffee2686d75d1a96d22cd49cd11f62c93da20e72239895bfdaf4b772",
    nonce: 0n,
    digest: "03f9f7d9911d3ca37c3356f10cd04273e788d1f57a9bc2396e7b5aa2e8d74557"
  },
  {
    difficulty: 8,
    blockHash: "ffb67ea4111d466d363a5c8f355bf81e2e3504563af273f5de81a005a6247e14",
    tid: "c40de04280ce8c40ee41b5005c23a1358b4fbf31f6dcb675e8246b174458274e",
    nonce: 402n,
    digest: "0053ea7687bd7652803af4300a7e17868267c32e4fb7f09375c46c367fd7646b"
  },
  {
    difficulty: 12,
    blockHash: "d9ae00ce4c4fc96d8e72bb18f6990b833cc7724ad70322604c572f6e194d777f",
    tid: "fcbbb4cc8dcd402a07af050bb809a04bd82f9c95b6e5a56768d3724a4abb09f0",
    nonce: 2560n,
    digest: "0008bbe071959bfe7fc426c4f378fcdb9540b3f931f4a0b09469f5bf0fddcb86"
  },
  {
    difficulty: 16,
    blockHash: "dc4b61de2138856406acdabcc502be708bff7c945857ea032011a8b4b0cf54f4",
    tid: "3954a15b2e1ec457ae100c56e2aa43786b4612644926403d59fd8cdcb29d825f",
    nonce: 23845n,
    digest: "00000fd8f55699845ac3192af013928916050eab088437943708b83b27490862"
  },
  {
    difficulty: 20,
    blockHash: "8890702af457ddcda01fba579a126adcecae954781500acb546fef9c8087a239",
    tid: "74030ee7dc931be9d9cc5f2c9d44ac174b4144b377ef07a7bb1781856921dd43",
    nonce: 85863n,
    digest: "000007542dcb39d1471fd6c7424a547b9039382e055ceed10c839f2b76f88c0d"
  },
  {
    difficulty: 2,
    blockHash: "2FB2146FC01F21D358323174BAA230E7DE61C0F150B7FBC415C896B0C23E50FF",
    tid: "2E7A16D9EF690F0D2BEED115FBA13BA2AAA16C8F971910AD88C72B9DB010C7D4",
    nonce: 4n,
    digest: "277099833511c6880fdd328c2bda711ace7fc902314e039086450be06722a81e"
  }
] as const

/** `js-crypto` `test/pow.js` "Count zeros": fixed nonces. */
const FIXED = [
  {
    blockHash: "2E7A16D9EF690F0D2BEED115FBA13BA2AAA16C8F971910AD88C72B9DB010C7D4",
    tid: "DFE522E234D67E6AE3F017859F898E576B3928EA57310B765398615A0D3FDE2F",
    nonce: 424517n,
    digest: "00000e31f8ac983354f5885d46b7631bc75f69ec82e8f6178bae53db0ab7e054",
    zeros: 20
  },
  {
    blockHash: "2E7A16D9EF690F0D2BEED115FBA13BA2AAA16C8F971910AD88C72B9DB010C7D4",
    tid: "5B87F9DFA41DABE84A11CA78D9FE11DA8FC2AA926004CA66454A7AF0A206480D",
    nonce: 4095356n,
    digest: "0000077b7d66117b57e45ccba0c31554e61c9853cc1cd9a2cf09c41b0aa9c22e",
    zeros: 21
  },
  {
    blockHash: "2E7A16D9EF690F0D2BEED115FBA13BA2AAA16C8F971910AD88C72B9DB010C7D4",
    tid: "B14DD602ED48C9F7B5367105A4A97FFC9199EA0C9E1490B786534768DD1538EF",
    nonce: 1751582n,
    digest: "000003bbf0cde49e3899ad23282b18defbc12a65f07c95d768464b87024df368",
    zeros: 22
  },
  {
    blockHash: "B14DD602ED48C9F7B5367105A4A97FFC9199EA0C9E1490B786534768DD1538EF",
    tid: "94A9CB1532011081B013CCD8E6AAA832CAB1CBA603F0C5A093B14C4961E5E7F0",
    nonce: 11977649n,
    digest: "000001e1084b865aba27df7a445753a24a3d89d63c7739a62c11dab3ee6eae32",
    zeros: 23
  }
] as const

const BLOCK_HASH = "8890702af457ddcda01fba579a126adcecae954781500acb546fef9c8087a239"

const randomHex = (bytes: number) => randomBytes(bytes).toString("hex")

/** Builds the layer in its own scope: the service and the scope that owns its workers. */
const buildLayer = (threads: number) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(ProofOfWork.layer({ threads }), scope)
    return { service: Context.get(context, ProofOfWork.ProofOfWork), scope }
  })

/** CPU time (ms, all threads of this process) used during `ms` milliseconds of wall time. */
/** CPU time of the process (all its threads) since `before`, in milliseconds. */
const cpuMillisSince = (before: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(before)
  return (used.user + used.system) / 1000
}

const cpuDuring = (ms: number) =>
  Effect.gen(function* () {
    const before = process.cpuUsage()
    yield* Effect.sleep(Duration.millis(ms))
    return cpuMillisSince(before)
  })

/** Whether `condition` holds within `millis` (checked every 10 ms). */
const until = (condition: () => boolean, millis = 2_000) =>
  Effect.gen(function* () {
    for (let i = 0; i < millis / 10 && !condition(); i++) yield* Effect.sleep(Duration.millis(10))
    return condition()
  })

describe("ProofOfWork: vectors", () => {
  it.effect.each(VECTORS)("first nonce at difficulty $difficulty", (vector) =>
    Effect.gen(function* () {
      const solution = yield* ProofOfWork.solve(vector.blockHash, vector.tid, vector.difficulty, { singleThread: true })
      expect(solution).toEqual({ tid: vector.tid, nonce: vector.nonce, hashFunction: "sha3_24_rounds" })
      const digest = ProofOfWork.hash(vector.blockHash, vector.tid, vector.nonce)
      expect(hex(digest)).toBe(vector.digest)
      expect(ProofOfWork.leadingZeroBits(digest)).toBeGreaterThanOrEqual(vector.difficulty)
      expect(ProofOfWork.verify(vector.blockHash, vector.tid, vector.nonce, vector.difficulty)).toBe(true)
      if (vector.nonce > 0n) {
        expect(ProofOfWork.verify(vector.blockHash, vector.tid, vector.nonce - 1n, vector.difficulty)).toBe(false)
      }
    })
  )

  it.each(FIXED)("fixed nonce $nonce has $zeros leading zero bits", (vector) => {
    const digest = ProofOfWork.hash(vector.blockHash, vector.tid, vector.nonce)
    expect(hex(digest)).toBe(vector.digest)
    expect(ProofOfWork.leadingZeroBits(digest)).toBe(vector.zeros)
    expect(ProofOfWork.verify(vector.blockHash, vector.tid, vector.nonce, vector.zeros)).toBe(true)
    expect(ProofOfWork.verify(vector.blockHash, vector.tid, vector.nonce, vector.zeros + 1)).toBe(false)
  })

  it("counts leading zero bits byte 0 first, most significant bit first", () => {
    const count = (...bytes: Array<number>) => ProofOfWork.leadingZeroBits(Uint8Array.from(bytes))
    expect(count()).toBe(0)
    expect(count(0xff)).toBe(0)
    expect(count(0x80)).toBe(0)
    expect(count(0x40)).toBe(1)
    expect(count(0x01)).toBe(7)
    expect(count(0x00)).toBe(8)
    expect(count(0x00, 0x80)).toBe(8)
    expect(count(0x00, 0x01, 0x00)).toBe(15)
    expect(count(0x00, 0x00, 0x00, 0x0f)).toBe(28)
    expect(count(0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20)).toBe(66)
    expect(ProofOfWork.leadingZeroBits(new Uint8Array(32))).toBe(256)
    expect(ProofOfWork.leadingZeroBits(Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0)))).toBe(255)
  })
})

describe("ProofOfWork: hash", () => {
  it("equals node:crypto SHA3-256 for every tid length (one- and two-block tails)", () => {
    for (let length = 1; length <= 300; length++) {
      const blockHash = randomHex(32)
      const tid = randomHex(150).slice(0, length)
      const nonce = BigInt.asUintN(64, BigInt(`0x${randomHex(8)}`))
      expect(hex(ProofOfWork.hash(blockHash, tid, nonce))).toBe(reference(blockHash, tid, nonce))
    }
  })

  it("equals node:crypto SHA3-256 for random inputs", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.hexaString({ minLength: 64, maxLength: 64 }), fc.string({ minLength: 64, maxLength: 64 })),
        fc.oneof(
          fc.hexaString({ minLength: 1, maxLength: 300 }),
          fc.fullUnicodeString({ minLength: 1, maxLength: 100 })
        ),
        fc.bigUintN(64),
        (blockHash, tid, nonce) => {
          expect(hex(ProofOfWork.hash(blockHash, tid, nonce))).toBe(reference(blockHash, tid, nonce))
        }
      ),
      { numRuns: 500 }
    )
  })

  it("covers the ends of the nonce range", () => {
    for (const nonce of [0n, 1n, 255n, 256n, 2n ** 32n, 2n ** 63n, 2n ** 64n - 1n]) {
      expect(hex(ProofOfWork.hash(BLOCK_HASH, "tid", nonce))).toBe(reference(BLOCK_HASH, "tid", nonce))
    }
    expect(() => ProofOfWork.hash(BLOCK_HASH, "tid", -1n)).toThrow(RangeError)
    expect(() => ProofOfWork.hash(BLOCK_HASH, "tid", 2n ** 64n)).toThrow("nonce 18446744073709551616 is not a uint64")
    expect(ProofOfWork.verify(BLOCK_HASH, "tid", 2n ** 64n - 1n, 0)).toBe(true)
  })

  it("makes 64 lowercase hex tids", () => {
    const tids = new Set(Array.from({ length: 20 }, () => ProofOfWork.newTid()))
    expect(tids.size).toBe(20)
    for (const tid of tids) expect(tid).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe("ProofOfWork: solving", () => {
  it.effect("finds the first nonce like Go's solver on a two-block tail", () =>
    Effect.gen(function* () {
      const tid = "x".repeat(55) // 13 + 64 + 55 = 132 bytes: the nonce spills into a second block
      const solution = yield* ProofOfWork.solve(BLOCK_HASH, tid, 8, { singleThread: true })
      let first = 0n
      while (Buffer.from(reference(BLOCK_HASH, tid, first), "hex")[0] !== 0) first++
      expect(solution.nonce).toBe(first)
    })
  )

  it.effect("finds the same first nonce as the official solver", () =>
    Effect.gen(function* () {
      const pow = yield* official
      for (let i = 0; i < 5; i++) {
        const blockHash = randomHex(32)
        const tid = ProofOfWork.newTid()
        const ours = yield* ProofOfWork.solve(blockHash, tid, 12, { singleThread: true })
        const theirs = yield* Effect.promise(() => pow.solve(12, blockHash, tid))
        expect(ours.nonce).toBe(theirs.nonce)
      }
    })
  )

  it.live("solves in parallel: the official verifier accepts ours and ours accepts theirs", () =>
    Effect.gen(function* () {
      const pow = yield* official
      for (let i = 0; i < 6; i++) {
        const blockHash = randomHex(32)
        const tid = ProofOfWork.newTid()
        const difficulty = 12 + i
        const ours = yield* ProofOfWork.solve(blockHash, tid, difficulty)
        expect(ours.tid).toBe(tid)
        expect(ProofOfWork.verify(blockHash, tid, ours.nonce, difficulty)).toBe(true)
        expect(yield* Effect.promise(() => pow.verify(difficulty, blockHash, tid, ours.nonce))).toBe(true)
        const theirs = yield* Effect.promise(() => pow.solve(difficulty, blockHash, tid))
        expect(ProofOfWork.verify(blockHash, tid, theirs.nonce, difficulty)).toBe(true)
      }
    })
  )

  it.live("solves on the shared pool of one worker per core from difficulty 11", () =>
    Effect.gen(function* () {
      const tid = ProofOfWork.newTid()
      const solution = yield* ProofOfWork.solve(BLOCK_HASH, tid, 11)
      expect(ProofOfWork.verify(BLOCK_HASH, tid, solution.nonce, 11)).toBe(true)
      expect(WorkerPool.live).toBeGreaterThanOrEqual(availableParallelism())
    })
  )

  it.live("serves concurrent solves on one pool", () =>
    Effect.gen(function* () {
      const problems = Array.from({ length: 6 }, () => ({ blockHash: randomHex(32), tid: ProofOfWork.newTid() }))
      const solutions = yield* Effect.forEach(
        problems,
        ({ blockHash, tid }) => ProofOfWork.solve(blockHash, tid, 14, { timeout: "20 seconds" }),
        { concurrency: "unbounded" }
      )
      solutions.forEach((solution, i) => {
        expect(ProofOfWork.verify(problems[i].blockHash, problems[i].tid, solution.nonce, 14)).toBe(true)
      })
    })
  )

  it.effect("rejects invalid input like Go", () =>
    Effect.gen(function* () {
      const reason = (blockHash: string, tid: string, difficulty: number) =>
        ProofOfWork.solve(blockHash, tid, difficulty).pipe(
          Effect.flip,
          Effect.map((error) => error.reason)
        )
      for (const difficulty of [-1, 257, 1.5, Number.NaN]) {
        expect(yield* reason(BLOCK_HASH, "tid", difficulty)).toBe("InvalidDifficulty")
        expect(ProofOfWork.verify(BLOCK_HASH, "tid", 0n, difficulty)).toBe(false)
      }
      expect(yield* reason(BLOCK_HASH.slice(1), "tid", 1)).toBe("InvalidBlockHash")
      expect(yield* reason(`${BLOCK_HASH}0`, "tid", 1)).toBe("InvalidBlockHash")
      expect(yield* reason(BLOCK_HASH, "", 1)).toBe("InvalidTid")
      expect(ProofOfWork.verify(BLOCK_HASH.slice(1), "tid", 0n, 0)).toBe(false)
      expect(ProofOfWork.verify(BLOCK_HASH, "", 0n, 0)).toBe(false)
      expect(ProofOfWork.verify(BLOCK_HASH, "tid", -1n, 0)).toBe(false)
      expect(ProofOfWork.verify(BLOCK_HASH, "tid", 2n ** 64n, 0)).toBe(false)
      // difficulty 0 and 256 are valid: every nonce solves 0
      expect(ProofOfWork.verify(BLOCK_HASH, "tid", 123n, 0)).toBe(true)
      expect((yield* ProofOfWork.solve(BLOCK_HASH, "tid", 0)).nonce).toBe(0n)
      const error = yield* Effect.flip(ProofOfWork.solve(BLOCK_HASH, "", 1))
      expect(error._tag).toBe("ProofOfWorkError")
      expect(error).toBeInstanceOf(ProofOfWork.ProofOfWorkError)
    })
  )

  it.effect("says what is wrong with the input", () =>
    Effect.gen(function* () {
      const message = (blockHash: unknown, tid: unknown, difficulty: number) =>
        ProofOfWork.solve(blockHash as string, tid as string, difficulty).pipe(
          Effect.flip,
          Effect.map((error) => error.message)
        )
      expect(yield* message(BLOCK_HASH, "tid", 257)).toBe("difficulty must be an integer from 0 to 256, got 257")
      expect(yield* message(42, "tid", 1)).toBe("the block hash must be a string (the hex of the block hash), got 42")
      expect(yield* message("é".repeat(64), "tid", 1)).toBe(
        "the block hash must be 64 characters (the hex of the block hash), got 128 bytes"
      )
      expect(yield* message(BLOCK_HASH.slice(2), "tid", 1)).toBe(
        "the block hash must be 64 characters (the hex of the block hash), got 62 bytes"
      )
      expect(yield* message(BLOCK_HASH, "", 1)).toBe("the tid must be a non-empty string, got an empty one")
      expect(yield* message(BLOCK_HASH, 7, 1)).toBe("the tid must be a non-empty string, got 7")
    })
  )

  it.live("takes difficulty 256 as a problem to search, which runs out of time", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        ProofOfWork.solve(BLOCK_HASH, "tid", 256, { singleThread: true, timeout: "10 millis" })
      )
      expect(error.reason).toBe("Timeout")
      expect(error.message).toBe("no nonce found within 10ms at difficulty 256")
    })
  )

  it.live("fails with Timeout when the budget runs out, and stops searching", () =>
    Effect.gen(function* () {
      for (const singleThread of [false, true]) {
        const started = Date.now()
        const error = yield* Effect.flip(
          ProofOfWork.solve(BLOCK_HASH, ProofOfWork.newTid(), 64, { singleThread, timeout: "300 millis" })
        )
        expect(error.reason).toBe("Timeout")
        expect(Date.now() - started).toBeLessThan(1500)
        expect(yield* cpuDuring(300)).toBeLessThan(100)
      }
    })
  )

  it.live("interruption stops the workers at once", () =>
    Effect.gen(function* () {
      const searching = process.cpuUsage()
      const fiber = yield* Effect.fork(ProofOfWork.solve(BLOCK_HASH, ProofOfWork.newTid(), 64))
      // the workers are searching: 150 ms of CPU spent, however long a loaded machine takes to give it
      expect(yield* until(() => cpuMillisSince(searching) > 150, 20_000)).toBe(true)
      const started = Date.now()
      const exit = yield* Fiber.interrupt(fiber)
      expect(Exit.isInterrupted(exit)).toBe(true)
      // every worker let go (within one chunk, about 1.5 ms of work), before the stop's grace ran out
      expect(Date.now() - started).toBeLessThan(STOP_GRACE_MS)
      expect(yield* cpuDuring(300)).toBeLessThan(100)
    })
  )
})

describe("ProofOfWork: service", () => {
  it.live("layer: solves on its own workers and terminates them when closed", () =>
    Effect.gen(function* () {
      const before = WorkerPool.live
      const { scope, service } = yield* buildLayer(2)
      expect(WorkerPool.live).toBe(before + 2)
      const tid = ProofOfWork.newTid()
      const solution = yield* service.solve(BLOCK_HASH, tid, 16)
      expect(service.verify(BLOCK_HASH, tid, solution.nonce, 16)).toBe(true)

      const fiber = yield* Effect.fork(service.solve(BLOCK_HASH, tid, 64))
      yield* Effect.sleep(Duration.millis(100))
      yield* Fiber.interrupt(fiber)
      expect(yield* cpuDuring(300)).toBeLessThan(100)

      yield* Scope.close(scope, Exit.void)
      expect(yield* until(() => WorkerPool.live === before)).toBe(true)
      const error = yield* Effect.flip(service.solve(BLOCK_HASH, tid, 16))
      expect(error.reason).toBe("WorkerFailure")
      expect(error.message).toBe("the worker pool is closed")
      // below difficulty 11, and with singleThread, the calling thread solves: no worker needed
      expect((yield* Effect.flip(service.solve(BLOCK_HASH, tid, 11))).reason).toBe("WorkerFailure")
      expect(service.verify(BLOCK_HASH, tid, (yield* service.solve(BLOCK_HASH, tid, 10)).nonce, 10)).toBe(true)
      const single = yield* service.solve(BLOCK_HASH, tid, 16, { singleThread: true })
      expect(service.verify(BLOCK_HASH, tid, single.nonce, 16)).toBe(true)
    })
  )

  it.live("layer: one thread, and an invalid thread count", () =>
    Effect.gen(function* () {
      const solution = yield* ProofOfWork.ProofOfWork.pipe(
        Effect.flatMap((pow) => pow.solve(BLOCK_HASH, "tid", 14)),
        Effect.provide(ProofOfWork.layer({ threads: 1 }))
      )
      expect(ProofOfWork.verify(BLOCK_HASH, "tid", solution.nonce, 14)).toBe(true)
      const error = yield* Effect.flip(
        Effect.provide(ProofOfWork.ProofOfWork, ProofOfWork.layer({ threads: 0 })).pipe(Effect.asVoid)
      )
      expect(error.reason).toBe("InvalidThreads")
      expect(error.message).toBe("threads must be a positive integer, got 0")
    })
  )

  it(`an interrupted solve waits ${STOP_GRACE_MS} ms at most for workers that do not let go`, async () => {
    // the workers stop searching, but their letting go is never reported
    const { submit } = WorkerPool.prototype
    let submitted = () => {}
    const started = new Promise<void>((resolve) => (submitted = resolve))
    WorkerPool.prototype.submit = function (this: WorkerPool, context, onResult) {
      const job = submit.call(this, context, onResult)
      submitted()
      return { claimed: job.claimed, stop: () => job.stop(() => {}) }
    }
    const { scope, service } = await Effect.runPromise(buildLayer(1))
    try {
      const fiber = Effect.runFork(service.solve(BLOCK_HASH, ProofOfWork.newTid(), 256))
      await started
      // the bound is a timer of the event loop, not of Effect's clock
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] })
      let done = false
      const interrupted = Effect.runPromise(Fiber.interrupt(fiber)).then((exit) => {
        done = true
        return exit
      })
      await vi.advanceTimersByTimeAsync(STOP_GRACE_MS - 1)
      expect(done).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      expect(done).toBe(true)
      expect(Exit.isInterrupted(await interrupted)).toBe(true)
    } finally {
      vi.useRealTimers()
      WorkerPool.prototype.submit = submit
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  })

  it.effect("layerSingleThread: the first nonce, on the calling thread", () =>
    Effect.gen(function* () {
      const vector = VECTORS[4]
      const pow = yield* ProofOfWork.ProofOfWork
      const solution = yield* pow.solve(vector.blockHash, vector.tid, vector.difficulty)
      expect(solution.nonce).toBe(vector.nonce)
      expect(pow.verify(vector.blockHash, vector.tid, vector.nonce, vector.difficulty)).toBe(true)
    }).pipe(Effect.provide(ProofOfWork.layerSingleThread))
  )
})

describe("ProofOfWork: worker pool", () => {
  it.live("fails the job when a worker dies, and replaces the worker for the next one", () =>
    Effect.gen(function* () {
      const before = WorkerPool.live
      const pool = new WorkerPool(2, wasmModule())
      const kernel = new Kernel()
      const run = (difficulty: number) =>
        Effect.async<JobResult>((resume) => {
          pool.submit(kernel.context(BLOCK_HASH, ProofOfWork.newTid(), difficulty), (result) =>
            resume(Effect.succeed(result))
          )
        })
      const hopeless = yield* Effect.fork(run(256))
      yield* Effect.sleep(Duration.millis(50))
      yield* Effect.promise(() =>
        (pool as unknown as { workers: Array<{ terminate(): Promise<number> }> }).workers[0].terminate()
      )
      const failed = yield* Fiber.join(hopeless)
      expect(failed).toEqual({ _tag: "Failed", message: "the worker exited" })
      const found = yield* run(12)
      expect(found._tag).toBe("Found")
      // the dead worker's slot got a new worker
      expect(WorkerPool.live).toBe(before + 2)
      yield* Effect.promise(() => pool.terminate())
    })
  )

  it.live("reports each job once, calls back once every worker let go, and counts the nonces handed out", () =>
    Effect.gen(function* () {
      const pool = new WorkerPool(2, wasmModule())
      const kernel = new Kernel()
      const results: Array<JobResult> = []
      const found = pool.submit(kernel.context(BLOCK_HASH, ProofOfWork.newTid(), 12), (result) => results.push(result))
      expect(yield* until(() => results.length > 0)).toBe(true)
      // the other worker's empty-handed reply settles nothing more
      let foundStopped = false
      found.stop(() => (foundStopped = true))
      expect(yield* until(() => foundStopped)).toBe(true)
      expect(results.map((result) => result._tag)).toEqual(["Found"])
      // a job every worker let go of calls back at once
      let again = false
      found.stop(() => (again = true))
      expect(again).toBe(true)

      const hopeless: Array<JobResult> = []
      const job = pool.submit(kernel.context(BLOCK_HASH, ProofOfWork.newTid(), 256), (result) => hopeless.push(result))
      expect(yield* until(() => job.claimed() > 0n)).toBe(true)
      expect(job.claimed() % BigInt(CHUNK)).toBe(0n)
      let stopped = false
      job.stop(() => (stopped = true))
      // the workers let go by message: not before the call returns
      expect(stopped).toBe(false)
      expect(yield* until(() => stopped)).toBe(true)
      expect(hopeless).toEqual([])

      // a running job fails when the pool closes; a job given to a closed pool fails at once
      const running: Array<JobResult> = []
      pool.submit(kernel.context(BLOCK_HASH, ProofOfWork.newTid(), 256), (result) => running.push(result))
      yield* Effect.promise(() => pool.terminate())
      expect(running).toEqual([{ _tag: "Failed", message: "the worker pool is closed" }])
      const late: Array<JobResult> = []
      const closed = pool.submit(kernel.context(BLOCK_HASH, "tid", 12), (result) => late.push(result))
      expect(late).toEqual([{ _tag: "Failed", message: "the worker pool is closed" }])
      expect(closed.claimed()).toBe(0n)
      let closedStopped = false
      closed.stop(() => (closedStopped = true))
      expect(closedStopped).toBe(true)
    })
  )

  it.live("holds the process (ref) only while a job runs, and while the pool closes", () =>
    Effect.gen(function* () {
      const held = new WeakMap<Worker, boolean>()
      const { ref, unref } = Worker.prototype
      Worker.prototype.ref = function (this: Worker) {
        held.set(this, true)
        return ref.call(this)
      }
      Worker.prototype.unref = function (this: Worker) {
        held.set(this, false)
        return unref.call(this)
      }
      yield* Effect.addFinalizer(() =>
        Effect.sync(() => {
          Worker.prototype.ref = ref
          Worker.prototype.unref = unref
        })
      )
      const pool = new WorkerPool(2, wasmModule())
      const workers = (pool as unknown as { workers: Array<Worker> }).workers
      const holding = () => workers.map((worker) => held.get(worker) ?? true)
      expect(holding()).toEqual([false, false])
      const job = pool.submit(new Kernel().context(BLOCK_HASH, ProofOfWork.newTid(), 256), () => {})
      expect(holding()).toEqual([true, true])
      let stopped = false
      job.stop(() => (stopped = true))
      expect(yield* until(() => stopped)).toBe(true)
      expect(holding()).toEqual([false, false])
      // a job that ends while another waits for the workers lets go of nothing
      const first = pool.submit(new Kernel().context(BLOCK_HASH, ProofOfWork.newTid(), 256), () => {})
      pool.submit(new Kernel().context(BLOCK_HASH, ProofOfWork.newTid(), 256), () => {})
      expect(holding()).toEqual([true, true])
      let firstStopped = false
      first.stop(() => (firstStopped = true))
      expect(yield* until(() => firstStopped)).toBe(true)
      expect(holding()).toEqual([true, true])
      // a worker that replaces a dead one while another job still holds the others is held too
      const dying = workers[0]
      const replaced = new Promise<void>((resolve) =>
        // after the pool's own handler: the job the dead worker was in is failed, not yet let go of
        dying.once("exit", () => {
          pool.submit(new Kernel().context(BLOCK_HASH, ProofOfWork.newTid(), 256), () => {})
          resolve()
        })
      )
      yield* Effect.promise(() => dying.terminate())
      yield* Effect.promise(() => replaced)
      expect(workers[0]).not.toBe(dying)
      expect(holding()).toEqual([true, true])
      yield* Effect.promise(() => pool.terminate())
    }).pipe(Effect.scoped)
  )
})

/** Solves then opens and closes the layer, repeatedly, in a process with nothing else to keep it alive. */
const CHILD_SCRIPT = `
import { Context, Effect, Layer } from "effect"
import * as ProofOfWork from "./src/ProofOfWork.ts"
const blockHash = "${BLOCK_HASH}"
for (let i = 0; i < 8; i++) {
  await Effect.runPromise(ProofOfWork.solve(blockHash, ProofOfWork.newTid(), 14))
  const service = Effect.flatMap(Layer.build(ProofOfWork.layer({ threads: 2 })), (context) =>
    Context.get(context, ProofOfWork.ProofOfWork).solve(blockHash, ProofOfWork.newTid(), 14)
  )
  await Effect.runPromise(Effect.scoped(service))
}
console.log("done")
`

describe("ProofOfWork: in a process of its own", () => {
  it("keeps the process alive until the workers of a closed layer exit, also under --input-type=module", async () => {
    const packageDirectory = fileURLToPath(new URL("..", import.meta.url))
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        const child = execFile(
          process.execPath,
          ["--import", "tsx", "--input-type=module", "-e", CHILD_SCRIPT],
          { cwd: packageDirectory, timeout: 60_000 },
          (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr })
        )
      }
    )
    expect(stderr).toBe("")
    expect(stdout.trim()).toBe("done")
    expect(code).toBe(0)
  })
})
