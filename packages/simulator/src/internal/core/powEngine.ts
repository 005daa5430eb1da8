/**
 * The proof-of-work and replay state of the core (vega `core/pow/engine.go`): the parameters in
 * force for each block height, the heights and block hashes a proof of work may be tied to, the
 * transaction ids seen since the last block, and what committed transactions used (hashes, tids,
 * party nonces, and per party and height how many transactions and how much difficulty), kept
 * while their height is in the window.
 */
import { ProofOfWork } from "@vega-effect/crypto"
import type { Commands } from "@vega-effect/schema"
import type { DecodedTransaction } from "./decode.js"
import {
  expectedTotalDifficulty,
  nextTransactionDifficulty,
  RING_SIZE,
  type SpamParameters,
  spamParameters
} from "./spam.js"

/** A decoded transaction and its hash (lowercase hex). */
export interface HashedTransaction extends DecodedTransaction {
  readonly hash: string
}

/**
 * The command names of vega `core/txn/command.go` (`Command.String()`), used in the node's
 * `unknown block height` text (as read from the node's code; the facts leave the names open).
 */
export const COMMAND_NAMES: { readonly [K in Commands.CommandName]: string } = {
  orderSubmission: "Submit Order",
  orderCancellation: "Cancel Order",
  orderAmendment: "Amend Order",
  withdrawSubmission: "Withdraw",
  voteSubmission: "Vote on Proposal",
  liquidityProvisionSubmission: "Liquidity Provision Order",
  delegateSubmission: "Delegate",
  undelegateSubmission: "Undelegate",
  liquidityProvisionCancellation: "Cancel LiquidityProvision Order",
  liquidityProvisionAmendment: "Amend LiquidityProvision Order",
  transfer: "Transfer Funds",
  cancelTransfer: "Cancel Transfer Funds",
  batchMarketInstructions: "Batch Market Instructions",
  stopOrdersSubmission: "Stop Orders Submission",
  stopOrdersCancellation: "Stop Orders Cancellation",
  createReferralSet: "Create Referral Set",
  updateReferralSet: "Update Referral Set",
  applyReferralCode: "Apply Referral Code",
  updateMarginMode: "Update Margin Mode",
  joinTeam: "Join Team",
  updatePartyProfile: "Update Party Profile"
}

interface ParameterSet {
  readonly fromBlock: number
  untilBlock: number | undefined
  params: SpamParameters
}

/** What one party's committed transactions tied to one height amount to. */
export interface PartyState {
  seen: number
  /** Sum of the leading zero bits of their proofs of work. */
  observed: number
}

/** What committed transactions tied to one proof-of-work height used. */
interface HeightState {
  readonly hashes: Array<string>
  readonly tids: Array<string>
  readonly nonces: Array<string>
  readonly parties: Map<string, PartyState>
}

/** Whether a mempool transaction goes into the block being built. */
export type BlockVerdict =
  | { readonly _tag: "Include" }
  /** The party already has all the transactions the height allows: left in the mempool. */
  | { readonly _tag: "TooMany" }
  /** No longer valid (height out of the window, or replayed): dropped from the mempool. */
  | { readonly _tag: "Invalid"; readonly error: string }

/** One height of a party's spam statistics. */
export interface BlockState {
  readonly blockHeight: number
  readonly blockHash: string
  readonly transactionsSeen: number
  /** The difficulty the party's next transaction at this height needs; absent when none is allowed. */
  readonly expectedDifficulty: number | undefined
  readonly params: SpamParameters
}

const nonceKey = (party: string, nonce: bigint): string => `${party}:${nonce}`

export class PowEngine {
  private currentHeight: number
  private readonly parameterSets: Array<ParameterSet>
  /** Transaction ids checked since the last block, whatever came of the check. */
  private readonly seenTids = new Set<string>()
  private readonly usedHashes = new Set<string>()
  private readonly usedTids = new Set<string>()
  private readonly usedNonces = new Set<string>()
  private readonly heights = new Map<number, HeightState>()
  private readonly hashes = new Map<number, string>()

  constructor(
    height: number,
    params: SpamParameters,
    private readonly blockHashOf: (height: number) => string
  ) {
    this.currentHeight = height
    this.parameterSets = [{ fromBlock: 0, untilBlock: undefined, params }]
  }

  /** The height of the last block committed. */
  get height(): number {
    return this.currentHeight
  }

  /** The parameters in force for proofs of work tied to `height`, if any set still covers it. */
  paramsFor(height: number): SpamParameters | undefined {
    for (let i = this.parameterSets.length - 1; i >= 0; i--) {
      const set = this.parameterSets[i]
      if (set.fromBlock <= height && (set.untilBlock === undefined || height <= set.untilBlock)) return set.params
    }
    return undefined
  }

  /** The parameters of the current height, which the node reports. */
  get params(): SpamParameters {
    return this.paramsFor(this.currentHeight) ?? this.parameterSets[this.parameterSets.length - 1].params
  }

  /** Changes parameters from the next block on, as a network parameter update does. */
  setParameters(overrides: Partial<SpamParameters>): void {
    const last = this.parameterSets[this.parameterSets.length - 1]
    const params = spamParameters(overrides, last.params)
    if (last.fromBlock === this.currentHeight + 1) {
      last.params = params
      return
    }
    last.untilBlock = this.currentHeight
    this.parameterSets.push({ fromBlock: this.currentHeight + 1, untilBlock: undefined, params })
  }

  /** Whether the engine remembers a height: one of the last {@link RING_SIZE} blocks. */
  knows(height: number): boolean {
    return height >= 1 && height <= this.currentHeight && height > this.currentHeight - RING_SIZE
  }

  /** Lowercase hex hash of a block the engine remembers. */
  blockHash(height: number): string {
    let hash = this.hashes.get(height)
    if (hash === undefined) {
      hash = this.blockHashOf(height)
      this.hashes.set(height, hash)
    }
    return hash
  }

  /**
   * The mempool check (code 89 on failure): the transaction id is recorded first, so even a
   * rejected transaction, or a check-only request, blocks that id until the next block.
   */
  checkTx(tx: HashedTransaction): string | undefined {
    if (this.seenTids.has(tx.tid)) return "proof of work tid already seen by the node"
    this.seenTids.add(tx.tid)
    return this.verify(tx)
  }

  /** The checks of the node's `verify`, in its order, against the committed state. */
  verify(tx: HashedTransaction): string | undefined {
    if (this.usedHashes.has(tx.hash)) return "transaction hash already used"
    const height = Number(tx.blockHeight)
    const params = this.paramsFor(height)
    if (params === undefined) return "transaction too old"
    if (!this.knows(height) || height + params.numberOfPastBlocks <= this.currentHeight) {
      return `unknown block height for tx:${tx.hash}, command:${COMMAND_NAMES[tx.command._tag]}, party:${tx.partyId}`
    }
    if (this.usedTids.has(tx.tid)) return "proof of work tid already used"
    if (this.usedNonces.has(nonceKey(tx.partyId, tx.nonce))) return "nonce already used by party"
    if (!ProofOfWork.verify(this.blockHash(height), tx.tid, tx.powNonce, params.difficulty)) {
      return "failed to verify proof of work"
    }
    return undefined
  }

  /**
   * Whether the block being built (on top of the current height) takes the transaction: it must
   * still verify, and the party must have room at its proof-of-work height (§6.6): at most
   * `numberOfTxPerBlock` transactions, or, with increasing difficulty, enough total difficulty.
   * An included transaction is recorded at once, so later ones in the block see it.
   */
  include(tx: HashedTransaction): BlockVerdict {
    const error = this.verify(tx)
    if (error !== undefined) return { _tag: "Invalid", error }
    const height = Number(tx.blockHeight)
    const params = this.paramsFor(height)!
    const state = this.heightState(height)
    const party = state.parties.get(tx.partyId) ?? { seen: 0, observed: 0 }
    const zeros = ProofOfWork.leadingZeroBits(ProofOfWork.hash(this.blockHash(height), tx.tid, tx.powNonce))
    if (party.seen > 0) {
      if (!params.increasingDifficulty && party.seen >= params.numberOfTxPerBlock) return { _tag: "TooMany" }
      const expected = expectedTotalDifficulty(params.difficulty, params.numberOfTxPerBlock, party.seen + 1)
      if (party.observed + zeros < expected) return { _tag: "TooMany" }
    }
    party.seen++
    party.observed += zeros
    state.parties.set(tx.partyId, party)
    state.hashes.push(tx.hash)
    state.tids.push(tx.tid)
    state.nonces.push(nonceKey(tx.partyId, tx.nonce))
    this.usedHashes.add(tx.hash)
    this.usedTids.add(tx.tid)
    this.usedNonces.add(nonceKey(tx.partyId, tx.nonce))
    return { _tag: "Include" }
  }

  /**
   * Commits block `height`: it becomes the current height, the seen transaction ids are
   * forgotten, and so is whatever was tied to heights that left the window.
   */
  commit(height: number): void {
    this.currentHeight = height
    this.seenTids.clear()
    this.hashes.delete(height - RING_SIZE)
    for (const [h, state] of this.heights) {
      const params = this.paramsFor(h)
      if (params !== undefined && h + params.numberOfPastBlocks > height) continue
      for (const hash of state.hashes) this.usedHashes.delete(hash)
      for (const tid of state.tids) this.usedTids.delete(tid)
      for (const nonce of state.nonces) this.usedNonces.delete(nonce)
      this.heights.delete(h)
    }
    // a parameter set is dropped once every height it covers has left its window
    while (this.parameterSets.length > 1) {
      const first = this.parameterSets[0]
      if (first.untilBlock === undefined || first.untilBlock + first.params.numberOfPastBlocks > height) break
      this.parameterSets.shift()
    }
  }

  /** A party's state at each height it has committed transactions for, plus the current height. */
  statistics(partyId: string): ReadonlyArray<BlockState> {
    const states: Array<BlockState> = []
    const heights = [...this.heights.keys()].sort((a, b) => a - b)
    for (const height of heights) {
      const party = this.heights.get(height)!.parties.get(partyId)
      const params = this.paramsFor(height)
      if (party === undefined || params === undefined) continue
      states.push(this.blockState(height, params, party))
    }
    if (!states.some((s) => s.blockHeight === this.currentHeight)) {
      states.push(this.blockState(this.currentHeight, this.params, { seen: 0, observed: 0 }))
    }
    return states
  }

  private blockState(height: number, params: SpamParameters, party: PartyState): BlockState {
    return {
      blockHeight: height,
      blockHash: this.blockHash(height),
      transactionsSeen: party.seen,
      expectedDifficulty: nextTransactionDifficulty(params, party.seen, party.observed),
      params
    }
  }

  private heightState(height: number): HeightState {
    let state = this.heights.get(height)
    if (state === undefined) {
      state = { hashes: [], tids: [], nonces: [], parties: new Map() }
      this.heights.set(height, state)
    }
    return state
  }
}
