/**
 * The chain head as the submitter needs it (height, hash, chain id, proof-of-work parameters),
 * read from `/blockchain/height` at most once per `ttl`, and the key's spam budget, which follows
 * every head read.
 */
import type { DataNodeClient, DataNodeError } from "@vega-effect/http"
import type { ChainInfo } from "@vega-effect/schema"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import * as Errors from "../SubmitError.js"
import { type ChainHead, SpamBudget } from "./spamBudget.js"

export const headOf = (r: ChainInfo.LastBlockHeightResponse): ChainHead => ({
  height: r.height,
  hash: r.hash,
  chainId: r.chainId,
  difficulty: r.spamPowDifficulty,
  pastBlocks: r.spamPowNumberOfPastBlocks,
  txPerBlock: Math.max(1, r.spamPowNumberOfTxPerBlock),
  increasingDifficulty: r.spamPowIncreasingDifficulty
})

export type HeadError = Errors.ChainMismatch | DataNodeError.DataNodeError

export interface HeadOptions {
  /** How long a head is used before asking again. */
  readonly ttl: Duration.Duration
  /** Refuse nodes on another chain. */
  readonly chainId?: string | undefined
  readonly safetyBlocks: number
  /** With increasing difficulty on, how far above the base difficulty the budget may go. */
  readonly maxExtraDifficulty: number
  /** Called with every head read (to refill the proofs solved ahead, say). */
  readonly onHead: Effect.Effect<void>
}

export interface Heads {
  /** The head, read again once it is older than the ttl. */
  readonly current: Effect.Effect<ChainHead, HeadError>
  /** The head, read now. */
  readonly read: Effect.Effect<ChainHead, HeadError>
  /** Waits until the chain is past `height`. */
  readonly after: (height: bigint) => Effect.Effect<ChainHead, HeadError>
  /** Forgets the cached head, so that the next `current` reads it. */
  readonly invalidate: Effect.Effect<void>
  /** The last head read, if any, without reading. */
  readonly last: () => ChainHead | undefined
  /** The key's spam budget once a head was read (its highest difficulty comes from the first head). */
  readonly budget: () => SpamBudget | undefined
  /** The budget, made from `head` if there is none yet. */
  readonly budgetFor: (head: ChainHead) => SpamBudget
}

export const makeHeads = (client: DataNodeClient.Service, options: HeadOptions): Heads => {
  let cached: { readonly head: ChainHead; readonly at: number } | undefined
  let budget: SpamBudget | undefined
  const budgetFor = (head: ChainHead) =>
    (budget ??= new SpamBudget({
      safetyBlocks: options.safetyBlocks,
      maxDifficulty: head.difficulty + options.maxExtraDifficulty
    }))
  const ttlMillis = Duration.toMillis(options.ttl)
  const read = Effect.gen(function* () {
    const head = headOf(yield* client.lastBlockHeight)
    if (options.chainId !== undefined && head.chainId !== options.chainId) {
      return yield* new Errors.ChainMismatch({ expected: options.chainId, actual: head.chainId })
    }
    cached = { head, at: yield* Clock.currentTimeMillis }
    budgetFor(head).observe(head)
    yield* options.onHead
    return head
  })
  const current = Effect.flatMap(Clock.currentTimeMillis, (now) =>
    cached !== undefined && now - cached.at < ttlMillis ? Effect.succeed(cached.head) : read
  )
  const polling = Schedule.spaced(Duration.millis(Math.max(50, Math.min(ttlMillis, 500))))
  return {
    current,
    read,
    after: (height) =>
      Effect.repeat(
        read,
        polling.pipe(
          Schedule.whileInput((head: ChainHead) => head.height <= height),
          Schedule.passthrough
        )
      ),
    invalidate: Effect.sync(() => void (cached = undefined)),
    last: () => cached?.head,
    budget: () => budget,
    budgetFor
  }
}
