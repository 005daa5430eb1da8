/**
 * The transaction submitter: builds, proves, signs and sends a key's transactions, and tells what
 * became of them.
 *
 * - Each transaction gets a random non-zero nonce, a fresh tid and a proof of work tied to a block
 *   the key still has room at (see the spam budget below); the command is validated locally first
 *   with the node's own rules and words.
 * - Outcomes are typed: accepted with its hash, or rejected with the node's code (51, 60, 70, 80,
 *   89) and text, or already in the mempool cache.
 * - Never a blind resend: when a POST may have reached the node (timeout, reset, 5xx), the very
 *   same bytes are offered again, which can never make a second transaction (a node answers
 *   "in cache", "hash already used" or accepts the one transaction); a new transaction, with a
 *   fresh tid and nonce, is built only when the node answered the only offer of the first one that
 *   its block is too old. When the node can no longer tell, the outcome is `OutcomeUnknown`.
 * - Spam-aware: the key's transactions are counted per proof-of-work block height; work spreads
 *   over the heights of the window, newest first; past the per-height allowance it raises the
 *   difficulty when the network allows it and otherwise waits for a new block, so the node never
 *   skips or punishes one. Counts can be resynchronised from `/statistics/spam/{party}`.
 * - A pool of proofs of work solved ahead for free slots makes bursts fast.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import { Keys, ProofOfWork, Signature, TxEncoding } from "@vega-effect/crypto"
import { DataNodeClient, type DataNodeError } from "@vega-effect/http"
import { CommandValidation, type Commands, type Transaction, type TransactionResult } from "@vega-effect/schema"
import { createHash, randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import { type Answer, type Mode, post, type Signed } from "./internal/deliver.js"
import { makeResultWatcher } from "./internal/resultWatcher.js"
import { SolvedPool } from "./internal/solvedPool.js"
import { type ChainHead, type Slot, SpamBudget } from "./internal/spamBudget.js"
import * as Errors from "./SubmitError.js"

/**
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /** The signing key: a key pair, or its hex (32-byte seed, or the wallets' 64-byte secret). */
  readonly key: Keys.KeyPair | Redacted.Redacted<string>
  /** Nodes to send to, in order of preference (data nodes forward to their core). */
  readonly urls: string | ReadonlyArray<string>
  /** Default submission mode: `"sync"` (`POST /transaction`), `"async"` or `"commit"` (`/transaction/raw`). */
  readonly mode?: Mode
  /** Refuse nodes on another chain. */
  readonly chainId?: string
  /** Time limit of one POST (commit mode waits for the block: give it more). Default 15 s. */
  readonly requestTimeout?: Duration.DurationInput
  /** How long a `/blockchain/height` answer is used before asking again. Default 500 ms. */
  readonly headTtl?: Duration.DurationInput
  /** Blocks of margin kept before a proof-of-work height leaves the window. Default 10. */
  readonly safetyBlocks?: number
  /** With increasing difficulty on, the highest difficulty the submitter will solve. Default base + 5. */
  readonly maxExtraDifficulty?: number
  /** Proofs of work solved ahead of time. Default 2; 0 turns the pool off. */
  readonly poolSize?: number
  /** Resynchronise the key's counts from `/statistics/spam/{party}` at start and after a spam rejection. Default true. */
  readonly syncSpamStatistics?: boolean
  /** Time limit of one proof-of-work search. Default 2 minutes. */
  readonly powTimeout?: Duration.DurationInput
  /** Offers of the same bytes after an ambiguous failure before giving up with `OutcomeUnknown`. Default 6. */
  readonly probes?: number
  /** Default time limit of {@link Service.submitAndWait}'s wait. Default 2 minutes. */
  readonly resultTimeout?: Duration.DurationInput
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface SubmitOptions {
  readonly mode?: Mode
}

/**
 * An accepted transaction.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Accepted {
  /** Lowercase hex; the node's answer writes it in uppercase, events in lowercase. */
  readonly txHash: string
  /** The block height its proof of work refers to: it can be included until that leaves the window. */
  readonly powHeight: bigint
  /** The including block's height in commit mode, else 0. */
  readonly height: bigint
  readonly node: string
  /** Set when the node had it already (an earlier offer of the same bytes got through). */
  readonly alreadyKnown: boolean
  /** The id the node gives an order this transaction submits (hex(SHA3-256(signature bytes))). */
  readonly deterministicId: string
}

/**
 * What the node's full check said of a transaction that was not sent.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Checked {
  readonly gasWanted: bigint
  readonly node: string
}

/**
 * Errors of building a transaction.
 *
 * @since 0.1.0
 * @category Errors
 */
export type BuildError =
  | CommandValidation.CommandValidationError
  | Errors.ChainMismatch
  | Errors.KeyBanned
  | Errors.ProofOfWorkFailed
  | DataNodeError.DataNodeError

/**
 * @since 0.1.0
 * @category Models
 */
export interface Service {
  /** The key's public key: the party id. */
  readonly partyId: string
  /** Builds, proves, signs and sends a command; succeeds once a node accepted it. */
  readonly submit: (
    command: Commands.Command,
    options?: SubmitOptions
  ) => Effect.Effect<Accepted, BuildError | Errors.SendError>
  /** {@link Service.submit}, then waits for the transaction's result in a block. */
  readonly submitAndWait: (
    command: Commands.Command,
    options?: SubmitOptions & { readonly timeout?: Duration.DurationInput }
  ) => Effect.Effect<TransactionResult.TransactionResult, BuildError | Errors.SendError | Errors.WaitError>
  /** Asks a node's full check (`/transaction/check`) without sending. */
  readonly check: (command: Commands.Command) => Effect.Effect<Checked, BuildError | Errors.SendError>
  /** Builds and signs a command without sending it. */
  readonly sign: (command: Commands.Command) => Effect.Effect<Signed, BuildError>
  /** Sends a transaction signed earlier (the same bytes each time: a second send finds it in the cache). */
  readonly send: (signed: Signed, options?: SubmitOptions) => Effect.Effect<Accepted, Errors.SendError>
  /** Proofs of work solved ahead and not yet used, for metrics. */
  readonly prepared: Effect.Effect<number>
  /** The key's per-height counts as the submitter knows them, for metrics. */
  readonly budget: Effect.Effect<ReadonlyArray<{ readonly height: bigint; readonly used: number }>>
}

export type { Mode, Signed }

/**
 * @since 0.1.0
 * @category Context
 */
export class TransactionSubmitter extends Context.Tag("@vega-effect/submitter/TransactionSubmitter")<
  TransactionSubmitter,
  Service
>() {}

/** A random non-zero uint64. */
const randomNonce = (): bigint => {
  for (;;) {
    const n = randomBytes(8).readBigUInt64BE()
    if (n !== 0n) return n
  }
}

const headOf = (r: {
  readonly height: bigint
  readonly hash: string
  readonly chainId: string
  readonly spamPowDifficulty: number
  readonly spamPowNumberOfPastBlocks: number
  readonly spamPowNumberOfTxPerBlock: number
  readonly spamPowIncreasingDifficulty: boolean
}): ChainHead => ({
  height: r.height,
  hash: r.hash,
  chainId: r.chainId,
  difficulty: r.spamPowDifficulty,
  pastBlocks: r.spamPowNumberOfPastBlocks,
  txPerBlock: Math.max(1, r.spamPowNumberOfTxPerBlock),
  increasingDifficulty: r.spamPowIncreasingDifficulty
})

/** Texts of the 89 rejections that prove a transaction is on the chain or in a node's mempool. */
const HASH_USED = "transaction hash already used"
/** The tid was seen: the first offer reached the node, which rejected it (an accepted one would be in the cache). */
const TID_SEEN = "proof of work tid already seen by the node"
/** The proof of work's height is no longer usable: build again on a newer block. */
const STALE_HEIGHT = ["unknown block height", "transaction too old"]

/**
 * Builds the submitter. It reads the chain through the `DataNodeClient`, posts with the ambient
 * `HttpClient`, solves with the `ProofOfWork` service, and keeps a subscription to the key's
 * results for the life of the scope.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = (
  options: Options
): Effect.Effect<
  Service,
  Keys.KeyError,
  DataNodeClient.DataNodeClient | HttpClient.HttpClient | ProofOfWork.ProofOfWork | Scope.Scope
> =>
  Effect.gen(function* () {
    const pair = Redacted.isRedacted(options.key) ? yield* Keys.fromHex(options.key) : options.key
    const partyId = pair.publicKey
    const client = yield* DataNodeClient.DataNodeClient
    const http = yield* HttpClient.HttpClient
    const pow = yield* ProofOfWork.ProofOfWork
    const urls = (typeof options.urls === "string" ? [options.urls] : [...options.urls]).map((u) =>
      u.replace(/\/+$/, "")
    )
    if (urls.length === 0) return yield* Effect.dieMessage("TransactionSubmitter needs at least one node URL")
    const defaultMode = options.mode ?? "sync"
    const requestTimeout = Duration.decode(options.requestTimeout ?? "15 seconds")
    const headTtl = Duration.toMillis(options.headTtl ?? "500 millis")
    const powTimeout = Duration.decode(options.powTimeout ?? "2 minutes")
    const probes = Math.max(1, options.probes ?? 6)
    const resultTimeout = options.resultTimeout ?? "2 minutes"
    const syncSpam = options.syncSpamStatistics ?? true
    const maxExtra = options.maxExtraDifficulty ?? 5
    let budget: SpamBudget | undefined
    const budgetFor = (head: ChainHead) =>
      (budget ??= new SpamBudget({
        safetyBlocks: options.safetyBlocks ?? 10,
        maxDifficulty: head.difficulty + maxExtra
      }))
    const solved = new SolvedPool(Math.max(0, options.poolSize ?? 2))
    const refill = yield* Queue.sliding<void>(1)

    // ---------------------------------------------------------------------------------------------
    // The chain head, read at most once per `headTtl`
    // ---------------------------------------------------------------------------------------------

    let cached: { head: ChainHead; at: number } | undefined
    const readHead = Effect.gen(function* () {
      const response = yield* client.lastBlockHeight
      const head = headOf(response)
      if (options.chainId !== undefined && head.chainId !== options.chainId) {
        return yield* new Errors.ChainMismatch({ expected: options.chainId, actual: head.chainId })
      }
      cached = { head, at: yield* Clock.currentTimeMillis }
      budgetFor(head).observe(head)
      yield* refill.offer(undefined)
      return head
    })
    const currentHead = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      return cached !== undefined && now - cached.at < headTtl ? cached.head : yield* readHead
    })
    /** Waits until the chain is past `height`. */
    const nextBlock = (height: bigint) =>
      Effect.gen(function* () {
        for (;;) {
          const head = yield* readHead
          if (head.height > height) return head
          yield* Effect.sleep(Duration.millis(Math.max(50, Math.min(headTtl, 500))))
        }
      })

    const syncSpamStatistics = Effect.gen(function* () {
      const response = yield* client.getSpamStatistics({ partyId })
      const statistic = response.statistics?.pow
      if (statistic === undefined) return
      if (statistic.bannedUntil !== undefined && statistic.bannedUntil > BigInt(Date.now()) * 1_000_000n) {
        return yield* new Errors.KeyBanned({ partyId, until: statistic.bannedUntil })
      }
      const head = yield* currentHead
      const b = budgetFor(head)
      for (const state of statistic.blockStates) {
        // no expected difficulty: the node allows nothing more at that height
        const seen = state.expectedDifficulty === undefined ? Number.MAX_SAFE_INTEGER : Number(state.transactionsSeen)
        b.learn(state.blockHeight, state.blockHash, seen)
      }
    })

    // ---------------------------------------------------------------------------------------------
    // Building
    // ---------------------------------------------------------------------------------------------

    const solve = (hash: string, difficulty: number) =>
      Effect.suspend(() => pow.solve(hash, ProofOfWork.newTid(), difficulty, { timeout: powTimeout })).pipe(
        Effect.mapError((error) => new Errors.ProofOfWorkFailed({ message: error.message }))
      )

    /** A slot for the next transaction, waiting for a new block when the key has used them all. */
    const reserveSlot: Effect.Effect<{ head: ChainHead; slot: Slot }, BuildError> = Effect.gen(function* () {
      for (;;) {
        const head = yield* currentHead
        const slot = budgetFor(head).reserve(head, (h) => solved.has(h))
        if (slot !== undefined) {
          yield* refill.offer(undefined)
          return { head, slot }
        }
        yield* Effect.logDebug("proof-of-work slots used up; waiting for a new block").pipe(
          Effect.annotateLogs({ partyId, height: String(head.height) })
        )
        yield* nextBlock(head.height)
      }
    })

    const signWith = (
      command: Commands.Command,
      chainId: string,
      slot: Slot,
      solution: { readonly tid: string; readonly nonce: bigint }
    ): Signed => {
      const inputData = TxEncoding.encodeInputData({ nonce: randomNonce(), blockHeight: slot.height, command })
      const transaction: Transaction.Transaction = {
        inputData,
        signature: Signature.signInputData(pair, inputData, chainId),
        pubKey: partyId,
        version: "TX_VERSION_V3",
        pow: { tid: solution.tid, nonce: solution.nonce }
      }
      const bytes = TxEncoding.encodeTransaction(transaction)
      return {
        transaction,
        bytes,
        txHash: TxEncoding.txHash(bytes).toLowerCase(),
        powHeight: slot.height,
        deterministicId: createHash("sha3-256").update(Buffer.from(transaction.signature!.value, "hex")).digest("hex")
      }
    }

    const validate = (command: Commands.Command) =>
      Either.match(CommandValidation.validate(command), { onLeft: Effect.fail, onRight: () => Effect.void })

    const build = (command: Commands.Command): Effect.Effect<Signed, BuildError> =>
      Effect.gen(function* () {
        yield* validate(command)
        const { head, slot } = yield* reserveSlot
        const ready = slot.difficulty === head.difficulty ? solved.take(slot.height, slot.hash) : undefined
        const solution = ready ?? (yield* solve(slot.hash, slot.difficulty))
        return signWith(command, head.chainId, slot, solution)
      }).pipe(Effect.withSpan("TransactionSubmitter.build"))

    // keeps proofs of work ready for the newest free base-difficulty slots, following new blocks
    if (solved.capacity > 0) {
      yield* Effect.forkScoped(
        Effect.repeat(Effect.ignore(readHead), Schedule.spaced(Duration.millis(Math.max(headTtl, 100))))
      )
      yield* Effect.forkScoped(
        Effect.forever(
          Effect.gen(function* () {
            yield* refill.take
            for (;;) {
              const head = cached?.head
              if (head === undefined || budget === undefined) break
              const free = budget.freeBaseSlots(head)
              solved.retain(new Set(budget.usable(head)))
              const target = free.find((s) => solved.at(s.height) < s.free)
              if (target === undefined || solved.size >= solved.capacity) break
              const solution = yield* Effect.either(solve(target.hash, head.difficulty))
              if (Either.isLeft(solution)) break
              solved.add(target.height, target.hash, solution.right)
            }
          })
        )
      )
    }

    // ---------------------------------------------------------------------------------------------
    // Sending
    // ---------------------------------------------------------------------------------------------

    // the key's results, for waits and to settle probes the node can no longer answer
    const watcher = yield* makeResultWatcher(client, partyId)

    type Settled =
      | { readonly _tag: "Accepted"; readonly accepted: Accepted }
      | { readonly _tag: "Failed"; readonly error: Errors.SendError }

    const accepted = (signed: Signed, answer: Answer & { _tag: "Accepted" }, alreadyKnown: boolean): Settled => ({
      _tag: "Accepted",
      accepted: {
        txHash: signed.txHash,
        powHeight: signed.powHeight,
        height: answer.height,
        node: answer.node,
        alreadyKnown,
        deterministicId: signed.deterministicId
      }
    })

    const rejected = (signed: Signed, code: number, message: string, node: string): Settled => ({
      _tag: "Failed",
      error: new Errors.TransactionRejected({
        code,
        reason: Errors.reasonOf(code),
        message,
        txHash: signed.txHash,
        node
      })
    })

    /**
     * Offers the same bytes again after an answer that did not settle the outcome, until one does.
     * Probes go through `/transaction`, which always waits for the node's check. They come often
     * (at most a second apart), so that an included transaction is still remembered by the node
     * ("hash already used") when a probe gets through.
     *
     * Once the first offer may have reached a node, no answer short of a final one proves that it did
     * not land: "tid already seen" only says some offer of this tid came since the last block (a probe
     * whose answer was lost, say), and a height that left the window means the node has forgotten
     * whether it included the transaction. So probing never builds the transaction anew; it ends
     * accepted, rejected for good, or `OutcomeUnknown`.
     */
    const probe = (signed: Signed, start: number, last: string): Effect.Effect<Settled> =>
      Effect.gen(function* () {
        let description = last
        for (let i = 0; i < probes; i++) {
          yield* Effect.sleep(Duration.millis(Math.min(1_000, 100 * 2 ** i)))
          const node = urls[(start + 1 + i) % urls.length]
          const answer = yield* post(http, node, signed, "sync", requestTimeout)
          switch (answer._tag) {
            case "Accepted":
              return accepted(signed, answer, false)
            case "InCache":
              return accepted(signed, { _tag: "Accepted", node, height: 0n, gasWanted: 0n }, true)
            case "Rejected":
              if (answer.code === 89 && answer.message.includes(HASH_USED)) {
                return accepted(signed, { _tag: "Accepted", node, height: 0n, gasWanted: 0n }, true)
              }
              if (answer.code === 89 && answer.message.includes(TID_SEEN)) {
                description = answer.message // cleared at the next block: ask again then
                break
              }
              if (answer.code === 89 && STALE_HEIGHT.some((text) => answer.message.includes(text))) {
                // the node forgot; the key's results stream may have seen it included
                if (watcher.seen(signed.txHash)) {
                  return accepted(signed, { _tag: "Accepted", node, height: 0n, gasWanted: 0n }, true)
                }
                return {
                  _tag: "Failed",
                  error: new Errors.OutcomeUnknown({
                    txHash: signed.txHash,
                    message: `the node no longer knows whether it included the transaction: ${answer.message}`
                  })
                }
              }
              return rejected(signed, answer.code, answer.message, node)
            case "Refused":
              return { _tag: "Failed", error: new Errors.RequestRefused(answer) }
            default:
              description = answer.description
          }
        }
        return {
          _tag: "Failed",
          error: new Errors.OutcomeUnknown({
            txHash: signed.txHash,
            message: `could not find out whether the transaction reached a node: ${description}`
          })
        }
      })

    const deliver = (signed: Signed, mode: Mode): Effect.Effect<Settled> =>
      Effect.gen(function* () {
        let answer: Answer | undefined
        let index = 0
        // move on to the next node only while the request provably never reached one
        for (; index < urls.length; index++) {
          answer = yield* post(http, urls[index], signed, mode, requestTimeout)
          if (answer._tag !== "NotSent") break
        }
        if (answer === undefined || answer._tag === "NotSent") {
          // nothing was delivered anywhere: offering the same bytes later is still safe
          return yield* probe(signed, urls.length - 1, answer?.description ?? "no node")
        }
        switch (answer._tag) {
          case "Accepted":
            return accepted(signed, answer, false)
          case "InCache":
            return { _tag: "Failed", error: new Errors.AlreadyInMempool({ txHash: signed.txHash, node: answer.node }) }
          case "Rejected":
            return rejected(signed, answer.code, answer.message, answer.node)
          case "Refused":
            return { _tag: "Failed", error: new Errors.RequestRefused(answer) }
          case "Unknown":
            yield* Effect.logWarning("submission outcome unknown; offering the same transaction again").pipe(
              Effect.annotateLogs({ txHash: signed.txHash, node: answer.node, description: answer.description })
            )
            return yield* probe(signed, index, answer.description)
        }
      })

    const send = (signed: Signed, options?: SubmitOptions): Effect.Effect<Accepted, Errors.SendError> =>
      Effect.flatMap(deliver(signed, options?.mode ?? defaultMode), (settled) =>
        settled._tag === "Accepted" ? Effect.succeed(settled.accepted) : Effect.fail(settled.error)
      )

    /**
     * Builds and delivers, building anew (fresh tid, nonce and block) only when the node answered
     * the first and only offer of the last one that its block is too old: then it cannot land. After
     * an ambiguous failure the probe settles the outcome itself and never asks for a new build.
     */
    const submitWith = (
      command: Commands.Command,
      mode: Mode,
      onSigned: (signed: Signed) => Effect.Effect<void>
    ): Effect.Effect<{ accepted: Accepted; signed: Signed }, BuildError | Errors.SendError> =>
      Effect.gen(function* () {
        for (let attempt = 0; ; attempt++) {
          const signed = yield* build(command)
          yield* onSigned(signed)
          const settled = yield* deliver(signed, mode)
          if (settled._tag === "Accepted") return { accepted: settled.accepted, signed }
          const error = settled.error
          const retryable =
            attempt < 2 &&
            error._tag === "TransactionRejected" &&
            error.code === 89 &&
            STALE_HEIGHT.some((text) => error.message.includes(text))
          if (error._tag === "TransactionRejected" && error.code === 89) {
            cached = undefined
            if (syncSpam) yield* Effect.ignore(syncSpamStatistics)
          }
          if (!retryable) return yield* Effect.fail(error)
          cached = undefined
          yield* Effect.logInfo("building the transaction again with a fresh proof of work").pipe(
            Effect.annotateLogs({ txHash: signed.txHash })
          )
        }
      })

    // ---------------------------------------------------------------------------------------------
    // Waiting for results
    // ---------------------------------------------------------------------------------------------

    /**
     * Fails once the transaction can never be included any more: its height left the window with
     * no result seen. A failed read of the chain only delays the check.
     */
    const expiry = (signed: Signed): Effect.Effect<never, Errors.TransactionExpired | Errors.ResultMissed> =>
      Effect.gen(function* () {
        for (;;) {
          const head = yield* Effect.option(currentHead)
          if (Option.isSome(head) && signed.powHeight + BigInt(head.value.pastBlocks) <= head.value.height) break
          yield* Effect.sleep(Duration.millis(Math.max(200, headTtl)))
        }
        // included while the stream was down? the node still remembers its hash for a while
        const answer = yield* post(http, urls[0], signed, "check", requestTimeout)
        if (answer._tag === "Rejected" && answer.message.includes(HASH_USED)) {
          return yield* new Errors.ResultMissed({ txHash: signed.txHash })
        }
        return yield* new Errors.TransactionExpired({ txHash: signed.txHash, blockHeight: signed.powHeight })
      })

    const submitAndWait: Service["submitAndWait"] = (command, submitOptions) =>
      Effect.gen(function* () {
        const timeout = Duration.decode(submitOptions?.timeout ?? resultTimeout)
        let waiting: { signed: Signed; deferred: Deferred.Deferred<TransactionResult.TransactionResult> } | undefined
        const { signed } = yield* submitWith(command, submitOptions?.mode ?? defaultMode, (signed) =>
          Effect.gen(function* () {
            if (waiting !== undefined) yield* watcher.forget(waiting.signed.txHash)
            waiting = { signed, deferred: yield* watcher.expect(signed.txHash) }
          })
        )
        const deferred = waiting!.deferred
        return yield* Deferred.await(deferred).pipe(
          Effect.raceFirst(expiry(signed)),
          Effect.timeoutFail({
            duration: timeout,
            onTimeout: () => new Errors.ResultTimeout({ txHash: signed.txHash, timeout })
          }),
          Effect.ensuring(watcher.forget(signed.txHash))
        )
      }).pipe(Effect.withSpan("TransactionSubmitter.submitAndWait"))

    // ---------------------------------------------------------------------------------------------

    yield* Effect.ignore(readHead)
    if (syncSpam) yield* Effect.ignore(syncSpamStatistics)

    return TransactionSubmitter.of({
      partyId,
      submit: (command, submitOptions) =>
        submitWith(command, submitOptions?.mode ?? defaultMode, () => Effect.void).pipe(
          Effect.map(({ accepted }) => accepted),
          Effect.withSpan("TransactionSubmitter.submit")
        ),
      submitAndWait,
      check: (command) =>
        Effect.gen(function* () {
          yield* validate(command)
          // a check is not included anywhere, so it spends no slot: the newest block at base difficulty
          const head = yield* currentHead
          const slot: Slot = { height: head.height, hash: head.hash, difficulty: head.difficulty }
          const signed = signWith(command, head.chainId, slot, yield* solve(slot.hash, slot.difficulty))
          const answer = yield* post(http, urls[0], signed, "check", requestTimeout)
          switch (answer._tag) {
            case "Accepted":
              return { gasWanted: answer.gasWanted, node: answer.node }
            case "Rejected":
              return yield* new Errors.TransactionRejected({
                code: answer.code,
                reason: Errors.reasonOf(answer.code),
                message: answer.message,
                txHash: signed.txHash,
                node: answer.node
              })
            case "Refused":
              return yield* new Errors.RequestRefused(answer)
            case "InCache":
              return yield* new Errors.AlreadyInMempool({ txHash: signed.txHash, node: answer.node })
            default:
              return yield* new Errors.OutcomeUnknown({ txHash: signed.txHash, message: answer.description })
          }
        }).pipe(Effect.withSpan("TransactionSubmitter.check")),
      sign: build,
      send,
      prepared: Effect.sync(() => solved.size),
      budget: Effect.sync(() => {
        const head = cached?.head
        if (head === undefined || budget === undefined) return []
        const b = budget
        return b.usable(head).map((height) => ({ height, used: b.count(height) }))
      })
    })
  })

/**
 * @since 0.1.0
 * @category Layers
 */
export const layer = (
  options: Options
): Layer.Layer<
  TransactionSubmitter,
  Keys.KeyError,
  DataNodeClient.DataNodeClient | HttpClient.HttpClient | ProofOfWork.ProofOfWork
> => Layer.scoped(TransactionSubmitter, make(options))

/**
 * The submitter from configuration (see {@link config}).
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerConfig = (
  config: Config.Config<Options>
): Layer.Layer<
  TransactionSubmitter,
  Keys.KeyError | ConfigError.ConfigError,
  DataNodeClient.DataNodeClient | HttpClient.HttpClient | ProofOfWork.ProofOfWork
> => Layer.scoped(TransactionSubmitter, Effect.flatMap(config, make))

/**
 * Configuration: the key from `<prefix>KEY` (hex, redacted) or from `<prefix>MNEMONIC` (redacted)
 * with `<prefix>KEY_INDEX` (default 0) and `<prefix>DERIVATION_VERSION` (default 2); nodes from
 * `<prefix>URLS` (default `VEGA_DATANODE_URLS`); `<prefix>MODE` (sync, async or commit) and
 * `<prefix>CHAIN_ID`.
 *
 * @since 0.1.0
 * @category Config
 */
export const config = (prefix = "VEGA_SUBMITTER_"): Config.Config<Options> => {
  const fromMnemonic = Config.all({
    mnemonic: Config.redacted(`${prefix}MNEMONIC`),
    index: Config.integer(`${prefix}KEY_INDEX`).pipe(Config.withDefault(0)),
    version: Config.literal(1, 2)(`${prefix}DERIVATION_VERSION`).pipe(Config.withDefault(2 as const))
  }).pipe(
    Config.mapOrFail(({ index, mnemonic, version }) =>
      Either.mapLeft(Keys.fromMnemonic(mnemonic, { index, version }), (error) =>
        ConfigError.InvalidData([`${prefix}MNEMONIC`], error.message)
      )
    )
  )
  const key: Config.Config<Keys.KeyPair | Redacted.Redacted<string>> = Config.orElse(
    Config.redacted(`${prefix}KEY`),
    () => fromMnemonic
  )
  return Config.all({
    key,
    urls: Config.array(Config.string(), `${prefix}URLS`).pipe(
      Config.orElse(() => Config.array(Config.string(), "VEGA_DATANODE_URLS"))
    ),
    mode: Config.literal("sync", "async", "commit")(`${prefix}MODE`).pipe(Config.withDefault("sync" as const)),
    chainId: Config.option(Config.string(`${prefix}CHAIN_ID`))
  }).pipe(Config.map(({ chainId, ...rest }) => (Option.isSome(chainId) ? { ...rest, chainId: chainId.value } : rest)))
}
