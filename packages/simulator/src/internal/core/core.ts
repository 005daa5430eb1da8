/**
 * The simulated core's transaction side: the checks a transaction goes through on its way into
 * the mempool (in the node's order: decoding 60, proof of work and replay 89, network limits 51,
 * command handlers 70), the mempool itself, and the building of each block from it, whose results
 * are published on the {@link ResultFeed}.
 *
 * Every data node of the simulator forwards its submissions to the one core, as real data nodes
 * forward them to their core.
 */
import { TxEncoding } from "@vega-effect/crypto"
import type { Transaction } from "@vega-effect/schema"
import * as Duration from "effect/Duration"
import type { World } from "../../World.js"
import { applyTransaction } from "../world/apply.js"
import { commandCheckError, type NetworkLimits, networkLimitError } from "./admission.js"
import type { BlockResults, IncludedResult, IncludedTransaction, ResultFeed } from "./contract.js"
import { makeResultFeed } from "./contract.js"
import { checkTransaction, decodeTransactionBytes } from "./decode.js"
import { Mempool } from "./mempool.js"
import { type BlockState, type HashedTransaction, PowEngine } from "./powEngine.js"
import { type SpamParameters, spamParameters } from "./spam.js"

export interface CoreOptions {
  /** The `spam.pow.*` parameters; the core's defaults for those not given. */
  readonly spam?: Partial<SpamParameters> | undefined
  /** Whether the network allows trading; `true` by default. */
  readonly tradingEnabled?: boolean | undefined
}

/** CheckTx result codes (`core/blockchain/response.go`). */
export const Code = {
  OK: 0,
  ValidationFailure: 51,
  DecodingFailure: 60,
  InternalError: 70,
  PartialProcessingError: 71,
  SpamError: 89
} as const

/**
 * The gas a transaction asks for: the network's default gas per transaction (the node estimates
 * more for orders on busy books, which the simulator does not model).
 */
export const DEFAULT_GAS = 1n

/** What the checks said about a transaction. */
export interface Checked {
  readonly _tag: "Checked"
  /** Lowercase hex hash of the bytes checked; empty when the node never marshalled them. */
  readonly hash: string
  readonly code: number
  /** Why it failed, in plain text; empty when accepted. */
  readonly data: string
  /** 0 unless the network limits were checked and passed. */
  readonly gasWanted: bigint
}

/** The same bytes are already waiting in the mempool: refused before any check. */
export interface InCache {
  readonly _tag: "InCache"
  readonly hash: string
}

export type Submitted = Checked | InCache

/** A party's proof-of-work state, as `GetSpamStatistics` reports it. */
export interface PowStatistics {
  readonly blockStates: ReadonlyArray<BlockState>
  readonly numberOfPastBlocks: number
}

interface AppCheck {
  readonly code: number
  readonly data: string
  readonly gasWanted: bigint
  readonly tx?: HashedTransaction
}

const rejected = (code: number, data: string): AppCheck => ({ code, data, gasWanted: 0n })

export class Core {
  readonly limits: { tradingEnabled: boolean }
  private readonly pow: PowEngine
  private readonly mempool = new Mempool()

  constructor(
    readonly world: World,
    options: CoreOptions = {},
    readonly feed: ResultFeed = makeResultFeed()
  ) {
    this.limits = { tradingEnabled: options.tradingEnabled ?? true }
    this.pow = new PowEngine(world.height, spamParameters(options.spam), (height) => world.chain.blockHash(height))
  }

  /** The height of the last block the core committed. */
  get height(): number {
    return this.pow.height
  }

  /** Lowercase hex hash of a recent block (the proof-of-work block hash). */
  blockHash(height: number): string {
    return this.pow.blockHash(height)
  }

  /** The spam parameters in force at the current height. */
  get spamParameters(): SpamParameters {
    return this.pow.params
  }

  /** Changes spam parameters from the next block on, as a network parameter update does. */
  setSpamParameters(overrides: Partial<SpamParameters>): void {
    this.pow.setParameters(overrides)
  }

  /** Transactions accepted and not yet in a block. */
  get mempoolSize(): number {
    return this.mempool.size
  }

  /** `POST /transaction`: decoded and checked here first, then marshalled and sent to the mempool. */
  submitTransaction(tx: Transaction.Transaction | undefined): Submitted {
    const local = checkTransaction(tx, this.world.chain.chainId)
    if (!local.ok) return { _tag: "Checked", hash: "", code: Code.DecodingFailure, data: local.error, gasWanted: 0n }
    return this.submitRaw(TxEncoding.encodeTransaction(tx!))
  }

  /** `POST /transaction/check`: the same checks, without entering the mempool. */
  checkTransaction(tx: Transaction.Transaction | undefined): Checked {
    const local = checkTransaction(tx, this.world.chain.chainId)
    if (!local.ok) return { _tag: "Checked", hash: "", code: Code.DecodingFailure, data: local.error, gasWanted: 0n }
    return this.checkRaw(TxEncoding.encodeTransaction(tx!))
  }

  /** `POST /transaction/raw` (and the marshalled `/transaction`): the mempool cache, then CheckTx. */
  submitRaw(bytes: Uint8Array): Submitted {
    const hash = TxEncoding.txHash(bytes)
    if (this.mempool.has(hash)) return { _tag: "InCache", hash }
    const result = this.appCheck(bytes, hash)
    if (result.tx !== undefined) this.mempool.add({ tx: result.tx, bytes })
    return { _tag: "Checked", hash, code: result.code, data: result.data, gasWanted: result.gasWanted }
  }

  /** `POST /transaction/raw/check`: CheckTx without the mempool (the transaction id is still recorded). */
  checkRaw(bytes: Uint8Array): Checked {
    const hash = TxEncoding.txHash(bytes)
    const result = this.appCheck(bytes, hash)
    return { _tag: "Checked", hash, code: result.code, data: result.data, gasWanted: result.gasWanted }
  }

  /** The application's CheckTx, in the node's order. */
  private appCheck(bytes: Uint8Array, hash: string): AppCheck {
    const decoded = decodeTransactionBytes(bytes)
    if (!decoded.ok) return rejected(Code.DecodingFailure, decoded.error)
    const checked = checkTransaction(decoded.tx, this.world.chain.chainId)
    if (!checked.ok) return rejected(Code.DecodingFailure, checked.error)
    const tx: HashedTransaction = { ...checked.value, hash }
    const spam = this.pow.checkTx(tx)
    if (spam !== undefined) return rejected(Code.SpamError, spam)
    const limit = networkLimitError(this.limits satisfies NetworkLimits, tx.command)
    if (limit !== undefined) return rejected(Code.ValidationFailure, limit)
    const handler = commandCheckError(this.world, tx.command)
    if (handler !== undefined) return rejected(Code.InternalError, handler)
    return { code: Code.OK, data: "", gasWanted: DEFAULT_GAS, tx }
  }

  /** Builds the blocks the world has advanced to since the core's last one. */
  sync(): void {
    while (this.pow.height < this.world.height) this.buildBlock(this.pow.height + 1)
  }

  /**
   * Builds block `height` from the mempool in arrival order (skipping what the party's proof-of-work
   * height has no room for, dropping what no longer verifies), commits it, drops from the mempool
   * what the new height makes invalid, applies the included transactions to the world and
   * publishes the block's results.
   */
  private buildBlock(height: number): BlockResults {
    const included: Array<HashedTransaction> = []
    for (const entry of this.mempool.list()) {
      const verdict = this.pow.include(entry.tx)
      if (verdict._tag === "TooMany") continue
      this.mempool.remove(entry.tx.hash)
      if (verdict._tag === "Include") included.push(entry.tx)
    }
    this.pow.commit(height)
    // the mempool's recheck after a commit: a height that left the window, or a replay, is dropped
    for (const entry of this.mempool.list()) {
      if (this.pow.verify(entry.tx) !== undefined) this.mempool.remove(entry.tx.hash)
    }
    const results: Array<IncludedResult> = included.map((tx, index) => {
      const transaction: IncludedTransaction = {
        hash: tx.hash,
        partyId: tx.partyId,
        command: tx.command,
        signature: tx.signature,
        height,
        index
      }
      this.world.journal.during(tx.hash)
      const result = applyTransaction(this.world, transaction)
      this.world.journal.during("")
      return { transaction, result }
    })
    const block: BlockResults = {
      height,
      blockHash: this.pow.blockHash(height),
      timeMicros: this.world.chain.blockTime(height),
      results,
      changes: this.world.journal.take(height)
    }
    this.feed.publish(block)
    return block
  }

  /**
   * Resolves with the block that includes the transaction (lowercase hash), or `undefined` after
   * `timeout`.
   */
  waitForInclusion(
    hash: string,
    timeout: Duration.DurationInput
  ): Promise<{ readonly block: BlockResults; readonly included: IncludedResult } | undefined> {
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined = undefined
      const unsubscribe = this.feed.subscribe((block) => {
        const included = block.results.find((r) => r.transaction.hash === hash)
        if (included === undefined) return
        clearTimeout(timer)
        unsubscribe()
        resolve({ block, included })
      })
      timer = setTimeout(
        () => {
          unsubscribe()
          resolve(undefined)
        },
        Duration.toMillis(Duration.decode(timeout))
      )
      timer.unref()
    })
  }

  /** A party's proof-of-work statistics. */
  powStatistics(partyId: string): PowStatistics {
    return { blockStates: this.pow.statistics(partyId), numberOfPastBlocks: this.pow.params.numberOfPastBlocks }
  }
}
