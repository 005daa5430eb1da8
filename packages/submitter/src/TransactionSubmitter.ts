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
import { Keys, ProofOfWork } from "@vega-effect/crypto"
import { DataNodeClient, type DataNodeError } from "@vega-effect/http"
import type { CommandValidation, Commands, TransactionResult } from "@vega-effect/schema"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import type * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { makeBuilder } from "./internal/build.js"
import { makeHeads } from "./internal/chainHead.js"
import { type Mode, MODES, type Signed } from "./internal/deliver.js"
import { keepProofsAhead } from "./internal/proofsAhead.js"
import { makeResultWatcher } from "./internal/resultWatcher.js"
import { SolvedPool } from "./internal/solvedPool.js"
import { checkOptions, keyOf } from "./internal/options.js"
import { syncSpamStatistics } from "./internal/spamSync.js"
import { makeSubmissions } from "./internal/submit.js"
import type * as Errors from "./SubmitError.js"

/**
 * The defaults of {@link Options}.
 *
 * @since 0.1.0
 * @category Constants
 */
export const DEFAULTS = {
  requestTimeout: Duration.seconds(15),
  headTtl: Duration.millis(500),
  safetyBlocks: 10,
  maxExtraDifficulty: 5,
  poolSize: 2,
  powTimeout: Duration.minutes(2),
  probes: 6,
  resultTimeout: Duration.minutes(2)
} as const

/**
 * The key to sign with and how the submitter sends, proves and waits; everything but `key` has a
 * default (see {@link DEFAULTS}).
 *
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /** The signing key: a key pair, or its hex (32-byte seed, or the wallets' 64-byte secret). */
  readonly key: Keys.KeyPair | Redacted.Redacted<string>
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
 * Per-submission options: the submission mode, instead of the submitter's default.
 *
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
 * The submitter of one key: submit, or submit and wait for the result; check, or sign now and send
 * later; and its state for metrics.
 *
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

export type {
  /**
   * A submission mode: `"sync"` (`POST /transaction`), `"async"` or `"commit"` (`POST
   * /transaction/raw`, commit waiting for the block).
   *
   * @since 0.1.0
   * @category Models
   */
  Mode,
  /**
   * A signed transaction ready to send: the transaction, its bytes in Go's field order (the same
   * hash on every endpoint), its hash, the block height its proof of work refers to, and the
   * deterministic id the node derives from its signature.
   *
   * @since 0.1.0
   * @category Models
   */
  Signed
}

/**
 * The submitter service; provide it with {@link layer} or {@link layerConfig}.
 *
 * @since 0.1.0
 * @category Context
 */
export class TransactionSubmitter extends Context.Tag("@vega-effect/submitter/TransactionSubmitter")<
  TransactionSubmitter,
  Service
>() {}

/**
 * Builds the submitter. It reads the chain and sends through the `DataNodeClient` (its nodes, its
 * pacing, its node choice; POSTs never retried), solves with the `ProofOfWork` service, and keeps
 * a subscription to the key's results for the life of the scope. Fails with a `KeyError` when the
 * key is not a key pair or its hex, and with a `ConfigError` naming another unusable option (an
 * unknown `mode`, a `timeout` that is not a duration, a negative count, ...).
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = (
  options: Options
): Effect.Effect<
  Service,
  Keys.KeyError | ConfigError.ConfigError,
  DataNodeClient.DataNodeClient | ProofOfWork.ProofOfWork | Scope.Scope
> =>
  Effect.gen(function* () {
    const pair = yield* keyOf(options)
    yield* checkOptions(options)
    const client = yield* DataNodeClient.DataNodeClient
    const headTtl = Duration.decode(options.headTtl ?? DEFAULTS.headTtl)
    const wake = yield* Queue.sliding<void>(1)
    const heads = makeHeads(client, {
      ttl: headTtl,
      chainId: options.chainId,
      safetyBlocks: options.safetyBlocks ?? DEFAULTS.safetyBlocks,
      maxExtraDifficulty: options.maxExtraDifficulty ?? DEFAULTS.maxExtraDifficulty,
      onHead: wake.offer(undefined)
    })
    const solved = new SolvedPool(Math.max(0, options.poolSize ?? DEFAULTS.poolSize))
    const builder = makeBuilder({
      pair,
      heads,
      solved,
      pow: yield* ProofOfWork.ProofOfWork,
      powTimeout: Duration.decode(options.powTimeout ?? DEFAULTS.powTimeout),
      onReserved: wake.offer(undefined)
    })
    yield* keepProofsAhead({ heads, solved, builder, wake }, headTtl)
    const syncSpam = options.syncSpamStatistics ?? true
    const resync = syncSpam ? Effect.ignore(syncSpamStatistics(client, heads, pair.publicKey)) : Effect.void
    const submissions = makeSubmissions({
      client,
      heads,
      builder,
      resync,
      expiryPoll: Duration.max(headTtl, Duration.millis(200)),
      offering: {
        execute: client.execute,
        watcher: yield* makeResultWatcher(client, pair.publicKey),
        probes: Math.max(1, options.probes ?? DEFAULTS.probes),
        timeout: Duration.decode(options.requestTimeout ?? DEFAULTS.requestTimeout),
        nodes: (yield* client.nodes).length
      }
    })
    yield* Effect.ignore(heads.read)
    yield* resync
    const defaultMode = options.mode ?? "sync"
    const resultTimeout = Duration.decode(options.resultTimeout ?? DEFAULTS.resultTimeout)
    return TransactionSubmitter.of({
      partyId: pair.publicKey,
      submit: (command, submitOptions) => submissions.submit(command, submitOptions?.mode ?? defaultMode),
      submitAndWait: (command, waitOptions) =>
        submissions.submitAndWait(
          command,
          waitOptions?.mode ?? defaultMode,
          waitOptions?.timeout === undefined ? resultTimeout : Duration.decode(waitOptions.timeout)
        ),
      check: submissions.check,
      sign: builder.build,
      send: (signed, sendOptions) => submissions.send(signed, sendOptions?.mode ?? defaultMode),
      prepared: Effect.sync(() => solved.size),
      budget: Effect.sync(() => {
        const head = heads.last()
        const budget = heads.budget()
        if (head === undefined || budget === undefined) return []
        return budget.usable(head).map((height) => ({ height, used: budget.count(height) }))
      })
    })
  })

/**
 * The submitter as a layer: built as {@link make} does, with its result subscription and its
 * proofs solved ahead running for the life of the layer.
 *
 * @example
 * ```ts
 * import { FetchHttpClient } from "@effect/platform"
 * import { Keys, ProofOfWork } from "@vega-effect/crypto"
 * import { DataNodeClient } from "@vega-effect/http"
 * import { Commands } from "@vega-effect/schema"
 * import { TransactionSubmitter } from "@vega-effect/submitter"
 * import { Config, Effect, Layer } from "effect"
 *
 * // the key: wallet key 1 of a mnemonic read (redacted) from the environment
 * const Submitter = Layer.unwrapEffect(
 *   Effect.gen(function* () {
 *     const mnemonic = yield* Config.redacted("MNEMONIC")
 *     const key = yield* Keys.fromMnemonic(mnemonic, { index: 1 })
 *     return TransactionSubmitter.layer({ key })
 *   })
 * ).pipe(
 *   // every request, POSTs included, goes through the client's nodes, pacing and node choice
 *   Layer.provide(DataNodeClient.layer({ urls: ["https://node-a.example", "https://node-b.example"] })),
 *   Layer.provide(ProofOfWork.layer()), // worker threads, one per core
 *   Layer.provide(FetchHttpClient.layer)
 * )
 *
 * const program = Effect.gen(function* () {
 *   const submitter = yield* TransactionSubmitter.TransactionSubmitter
 *   const order = Commands.command(
 *     "orderSubmission",
 *     Commands.orderSubmission({
 *       marketId: "a08d564afb14acd3fa86b004f899b2639942cd7cb5e0c9bed8f92fdf15e4033b",
 *       price: "123450000",
 *       size: 10n,
 *       side: "SIDE_BUY",
 *       timeInForce: "TIME_IN_FORCE_GTC",
 *       type: "TYPE_LIMIT"
 *     })
 *   )
 *   // sent, then its result once a block includes it
 *   const result = yield* submitter.submitAndWait(order, { timeout: "1 minute" })
 *   yield* Effect.log(result.hash, result.status)
 * })
 *
 * // run it with NodeRuntime.runMain(main) from @effect/platform-node
 * const main = program.pipe(Effect.provide(Submitter))
 * ```
 *
 * @since 0.1.0
 * @category Layers
 */
export const layer = (
  options: Options
): Layer.Layer<
  TransactionSubmitter,
  Keys.KeyError | ConfigError.ConfigError,
  DataNodeClient.DataNodeClient | ProofOfWork.ProofOfWork
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
  DataNodeClient.DataNodeClient | ProofOfWork.ProofOfWork
> => Layer.scoped(TransactionSubmitter, Effect.flatMap(config, make))

/**
 * Configuration: the key from `<prefix>KEY` (hex, redacted) or from `<prefix>MNEMONIC` (redacted)
 * with `<prefix>KEY_INDEX` (default 0) and `<prefix>DERIVATION_VERSION` (default 2);
 * `<prefix>MODE` (sync, async or commit) and `<prefix>CHAIN_ID`. The nodes are the
 * `DataNodeClient`'s (see `DataNodeClient.config`, `VEGA_DATANODE_URLS`).
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
    mode: Config.literal(...MODES)(`${prefix}MODE`).pipe(Config.withDefault("sync" as const)),
    chainId: Config.option(Config.string(`${prefix}CHAIN_ID`))
  }).pipe(Config.map(({ chainId, ...rest }) => (Option.isSome(chainId) ? { ...rest, chainId: chainId.value } : rest)))
}
