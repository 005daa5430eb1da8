/**
 * Vega's spam proof of work ("sha3_24_rounds"): find a nonce such that
 * `SHA3-256("Vega_SPAM_PoW" || blockHash || tid || uint64_be(nonce))` starts with at least
 * `difficulty` zero bits, where blockHash and tid are used as their text (64 hex characters).
 *
 * - `hash`, `leadingZeroBits`, `verify`, `newTid` are plain functions.
 * - `solve` searches on all cores by default (a reused pool of `worker_threads`; any valid nonce),
 *   or, with `singleThread: true`, tries 0, 1, 2, … on the calling thread and returns the first
 *   valid nonce: the one Go's solver and the test vectors give. It never returns a nonce that does
 *   not verify, and interrupting it stops the workers within a few milliseconds.
 * - The `ProofOfWork` service does the same with a pool owned by its layer.
 *
 * The hash runs in a WebAssembly Keccak-f[1600] that absorbs the first 136 bytes of the preimage
 * once per problem, so each nonce costs one permutation.
 *
 * @since 0.1.0
 */
import { randomBytes } from "node:crypto"
import { availableParallelism } from "node:os"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { Kernel, wasmModule } from "./internal/keccak.js"
import { STOP_GRACE_MS, WorkerPool } from "./internal/powPool.js"

/**
 * Why a proof of work could not be computed.
 *
 * @since 0.1.0
 * @category Errors
 */
export class ProofOfWorkError extends Schema.TaggedError<ProofOfWorkError>("@vega-effect/crypto/ProofOfWorkError")(
  "ProofOfWorkError",
  {
    reason: Schema.Literal(
      "InvalidDifficulty",
      "InvalidBlockHash",
      "InvalidTid",
      "InvalidThreads",
      "Timeout",
      "Exhausted",
      "WorkerFailure"
    ),
    message: Schema.String
  }
) {}

/**
 * A solved proof of work, in the shape of the transaction's `ProofOfWork` message (plus the hash
 * function's network name).
 *
 * @since 0.1.0
 * @category Models
 */
export interface Solution {
  readonly tid: string
  readonly nonce: bigint
  readonly hashFunction: typeof hashFunction
}

/**
 * The only hash function Vega accepts (`spam.pow.hashFunction`): plain SHA3-256.
 *
 * @since 0.1.0
 * @category Constants
 */
export const hashFunction = "sha3_24_rounds" as const

/**
 * The largest difficulty a node accepts as a parameter (the digest has 256 bits).
 *
 * @since 0.1.0
 * @category Constants
 */
export const maxDifficulty = 256

/**
 * Options of `solve`.
 *
 * @since 0.1.0
 * @category Models
 */
export interface SolveOptions {
  /**
   * Search 0, 1, 2, … on the calling thread and return the first valid nonce (deterministic; the
   * nonce of Go's solver). Default: all workers of the pool, returning whichever valid nonce is found first.
   */
  readonly singleThread?: boolean | undefined
  /** Give up after this long with a `ProofOfWorkError` of reason `"Timeout"`. */
  readonly timeout?: Duration.DurationInput | undefined
}

const U64_MAX = (1n << 64n) - 1n
const encoder = new TextEncoder()

let mainKernel: Kernel | undefined
const kernel = (): Kernel => (mainKernel ??= new Kernel())

/**
 * Number of leading zero bits of a digest, first byte first, most significant bit first (Go's
 * `CountZeros`).
 *
 * @since 0.1.0
 * @category Hashing
 */
export const leadingZeroBits = (digest: Uint8Array): number => {
  let zeros = 0
  for (const byte of digest) {
    if (byte !== 0) return zeros + Math.clz32(byte) - 24
    zeros += 8
  }
  return zeros
}

/**
 * `SHA3-256("Vega_SPAM_PoW" || blockHash || tid || uint64_be(nonce))`, strings as UTF-8 text.
 *
 * @throws RangeError when `nonce` is not a uint64.
 * @since 0.1.0
 * @category Hashing
 */
export const hash = (blockHash: string, tid: string, nonce: bigint): Uint8Array => {
  if (nonce < 0n || nonce > U64_MAX) throw new RangeError(`nonce ${nonce} is not a uint64`)
  const k = kernel()
  k.search(k.context(blockHash, tid, 0), nonce, 1)
  return k.found()
}

/**
 * Whether `nonce` solves the problem at `difficulty`, as a node checks it. Inputs a node rejects
 * (difficulty outside 0..256, a block hash that is not 64 characters, an empty tid, a nonce that is
 * not a uint64) are `false`.
 *
 * @since 0.1.0
 * @category Verifying
 */
export const verify = (blockHash: string, tid: string, nonce: bigint, difficulty: number): boolean =>
  validate(blockHash, tid, difficulty) === undefined &&
  nonce >= 0n &&
  nonce <= U64_MAX &&
  leadingZeroBits(hash(blockHash, tid, nonce)) >= difficulty

/**
 * A fresh transaction id for a proof of work: 64 lowercase hex characters from 32 random bytes.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const newTid = (): string => randomBytes(32).toString("hex")

const validate = (blockHash: string, tid: string, difficulty: number): ProofOfWorkError | undefined => {
  if (!Number.isInteger(difficulty) || difficulty < 0 || difficulty > maxDifficulty) {
    return new ProofOfWorkError({
      reason: "InvalidDifficulty",
      message: `difficulty must be an integer from 0 to ${maxDifficulty}, got ${String(difficulty)}`
    })
  }
  if (typeof blockHash !== "string") {
    return new ProofOfWorkError({
      reason: "InvalidBlockHash",
      message: `the block hash must be a string (the hex of the block hash), got ${String(blockHash)}`
    })
  }
  const blockHashBytes = encoder.encode(blockHash).length
  if (blockHashBytes !== 64) {
    return new ProofOfWorkError({
      reason: "InvalidBlockHash",
      message: `the block hash must be 64 characters (the hex of the block hash), got ${blockHashBytes} bytes`
    })
  }
  if (typeof tid !== "string" || tid.length === 0) {
    return new ProofOfWorkError({
      reason: "InvalidTid",
      message: `the tid must be a non-empty string, got ${tid === "" ? "an empty one" : String(tid)}`
    })
  }
  return undefined
}

/** Nonces per step of the single-threaded search (a few ms between yields to the event loop). */
const STEP = 16_384

/** Below this difficulty (≤ 1024 hashes expected) the calling thread is quicker than a round trip to workers. */
const INLINE_BELOW = 11

/** Lets timers and I/O run: Effect's own yield can go on for many steps without a macrotask. */
const yieldToEventLoop = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

const searchHere = (context: Uint8Array): Effect.Effect<bigint, ProofOfWorkError> =>
  Effect.gen(function* () {
    let start = 0n
    for (;;) {
      const count = start + BigInt(STEP) - 1n > U64_MAX ? Number(U64_MAX - start + 1n) : STEP
      const found = kernel().search(context, start, count)
      if (found >= 0) return start + BigInt(found)
      start += BigInt(count)
      if (start > U64_MAX) {
        return yield* new ProofOfWorkError({ reason: "Exhausted", message: "no nonce solves this problem" })
      }
      yield* yieldToEventLoop
    }
  })

const searchOnPool = (pool: WorkerPool, context: Uint8Array): Effect.Effect<bigint, ProofOfWorkError> =>
  Effect.async<bigint, ProofOfWorkError>((resume) => {
    const job = pool.submit(context, (result) => {
      switch (result._tag) {
        case "Found":
          return resume(Effect.succeed(result.nonce))
        case "Exhausted":
          return resume(
            Effect.fail(new ProofOfWorkError({ reason: "Exhausted", message: "no nonce solves this problem" }))
          )
        case "Failed":
          return resume(Effect.fail(new ProofOfWorkError({ reason: "WorkerFailure", message: result.message })))
      }
    })
    return Effect.async<void>((stopped) => {
      const timer = setTimeout(() => stopped(Effect.void), STOP_GRACE_MS)
      job.stop(() => {
        clearTimeout(timer)
        stopped(Effect.void)
      })
    })
  })

const solveWith =
  (pool: () => WorkerPool | undefined) =>
  (
    blockHash: string,
    tid: string,
    difficulty: number,
    options?: SolveOptions
  ): Effect.Effect<Solution, ProofOfWorkError> =>
    Effect.suspend(() => {
      const invalid = validate(blockHash, tid, difficulty)
      if (invalid !== undefined) return Effect.fail(invalid)
      const context = kernel().context(blockHash, tid, difficulty)
      const workers = options?.singleThread === true || difficulty < INLINE_BELOW ? undefined : pool()
      const search = workers === undefined ? searchHere(context) : searchOnPool(workers, context)
      const checked = Effect.flatMap(search, (nonce) =>
        verify(blockHash, tid, nonce, difficulty)
          ? Effect.succeed<Solution>({ tid, nonce, hashFunction })
          : Effect.fail(
              new ProofOfWorkError({ reason: "WorkerFailure", message: `nonce ${nonce} was found but does not verify` })
            )
      )
      if (options?.timeout === undefined) return checked
      const timeout = Duration.decode(options.timeout)
      return Effect.timeoutFail(checked, {
        duration: timeout,
        onTimeout: () =>
          new ProofOfWorkError({
            reason: "Timeout",
            message: `no nonce found within ${Duration.format(timeout)} at difficulty ${difficulty}`
          })
      })
    })

let sharedPool: WorkerPool | undefined

/**
 * Finds a nonce that solves `(blockHash, tid)` at `difficulty`.
 *
 * By default the search runs on a pool of one worker thread per core, started on first use and
 * reused (idle workers do not keep the process alive), and returns whichever valid nonce is found
 * first. With `singleThread: true` it runs on the calling thread (yielding to the event loop every
 * few milliseconds) and returns the smallest valid nonce. Difficulties below 11 are always solved
 * on the calling thread. The result is verified before it is returned.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import * as ProofOfWork from "@vega-effect/crypto/ProofOfWork"
 *
 * // the hash of the block the proof of work refers to (from `GET /blockchain/height`)
 * const blockHash = "2e4f3a5c1b0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f"
 *
 * const program = ProofOfWork.solve(blockHash, ProofOfWork.newTid(), 15, { timeout: "10 seconds" }).pipe(
 *   Effect.tap((solution) => Effect.log(`nonce ${solution.nonce} for tid ${solution.tid}`))
 * )
 * ```
 *
 * @since 0.1.0
 * @category Solving
 */
export const solve: (
  blockHash: string,
  tid: string,
  difficulty: number,
  options?: SolveOptions
) => Effect.Effect<Solution, ProofOfWorkError> = solveWith(
  () => (sharedPool ??= new WorkerPool(availableParallelism(), wasmModule()))
)

/**
 * The proof-of-work operations.
 *
 * @since 0.1.0
 * @category Service
 */
export interface Service {
  readonly solve: (
    blockHash: string,
    tid: string,
    difficulty: number,
    options?: SolveOptions
  ) => Effect.Effect<Solution, ProofOfWorkError>
  readonly verify: (blockHash: string, tid: string, nonce: bigint, difficulty: number) => boolean
}

/**
 * The proof-of-work service.
 *
 * @since 0.1.0
 * @category Service
 */
export class ProofOfWork extends Context.Tag("@vega-effect/crypto/ProofOfWork")<ProofOfWork, Service>() {}

/**
 * A service whose `solve` runs on worker threads (`threads`, default one per core) started when the
 * layer is built and terminated when its scope closes.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layer = (options?: {
  readonly threads?: number | undefined
}): Layer.Layer<ProofOfWork, ProofOfWorkError> =>
  Layer.scoped(
    ProofOfWork,
    Effect.gen(function* () {
      const threads = options?.threads ?? availableParallelism()
      if (!Number.isInteger(threads) || threads < 1) {
        return yield* new ProofOfWorkError({
          reason: "InvalidThreads",
          message: `threads must be a positive integer, got ${threads}`
        })
      }
      const pool = yield* Effect.acquireRelease(
        Effect.sync(() => new WorkerPool(threads, wasmModule())),
        (pool) => Effect.promise(() => pool.terminate())
      )
      return ProofOfWork.of({ solve: solveWith(() => pool), verify })
    })
  )

/**
 * A service that solves on the calling thread only, for environments without worker threads.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerSingleThread: Layer.Layer<ProofOfWork> = Layer.succeed(
  ProofOfWork,
  ProofOfWork.of({ solve: solveWith(() => undefined), verify })
)
