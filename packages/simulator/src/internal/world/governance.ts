/**
 * Governance: proposals the world's parties make, their votes, and what becomes of them
 * (core/governance/engine.go `OnTick`, core/governance/proposal.go `Close`, v0.75.8). What the
 * world models:
 *
 * - **Proposals** of two kinds: a network-parameter change (`updateNetworkParameter`) and a
 *   freeform proposal (`newFreeform`), each by one of the world's parties, with a reference, a
 *   rationale, and the required majority and participation the network parameters of its kind
 *   held when it was made (`governance.proposal.updateNetParam.*`, `governance.proposal.freeform.*`).
 *   It opens at once (STATE_OPEN) and closes at the first block whose time, in whole seconds, is
 *   past its closing timestamp (one to two epochs of blocks later).
 * - **Votes**: while a proposal is open, parties vote yes or no; a party voting again replaces its
 *   vote (the vote's time is the new one's). A vote carries the party's governance-token balance
 *   and zero weights until the close.
 * - **Close**: the votes are counted with the tokens (yes at least the required majority of the
 *   tokens that voted, and those at least the required participation of the total supply,
 *   {@link TOTAL_SUPPLY}): STATE_PASSED, else STATE_DECLINED with reason
 *   PROPOSAL_ERROR_PARTICIPATION_THRESHOLD_NOT_REACHED (no votes, or too few tokens) or
 *   PROPOSAL_ERROR_MAJORITY_THRESHOLD_NOT_REACHED. Every vote is sent again with its weight (its
 *   balance over the tokens that voted, to 16 places). A freeform proposal that passes is enacted
 *   in the same block (the core enacts them as they pass), so the node only keeps STATE_ENACTED.
 * - **Enactment** of a passed network-parameter change at the first block past its enactment
 *   timestamp: STATE_ENACTED, and the parameter takes its new value from that block.
 *
 * - **Asset updates** (`updateAsset`): new ERC-20 limits for one of the world's assets (its
 *   quantum unchanged), with the `governance.proposal.updateAsset.*` majority and participation,
 *   voted on, closed and enacted like a network-parameter change. They draw from a per-block
 *   stream of their own (and only parties that already voted elsewhere vote on them, their
 *   balances already drawn), so the other proposals are as they were without them. When one is
 *   enacted the core asks the validators to sign the asset's new limits for the bridge
 *   (`core/processor/abci.go` `enactAssetUpdate`, v0.75.8: the notary's ASSET_UPDATE signatures,
 *   see notary.ts); the asset keeps its limits until the bridge reports them set, which nobody
 *   does in this world, so the assets' answers do not change.
 *
 * Simplifications: no other kinds of proposal, no batch proposals, no rejection at submission,
 * no node validation; each voter's token balance is drawn once rather than read from the stake
 * linkings, and the total supply is a constant; equity-like shares are always zero. The close and
 * enactment happen before the block's other changes, as the core's tick runs at the start of a
 * block. Each block draws from a random stream of its own.
 *
 * Every change is a new version of the proposal or vote, visible from the height that made it.
 */
import type { Random } from "../random.js"
import type { AssetInfo, Catalog, Party } from "./catalog.js"
import type { Chain } from "./chain.js"
import type { Journal } from "./journal.js"
import type { NetworkParameters } from "./networkParameters.js"
import { addVersion, latestVersion, versionAt, type Versioned } from "./versioned.js"

/** The governance token's total supply the participation is measured against (VEGA, 18 decimals). */
export const TOTAL_SUPPLY = 64_999_723n * 10n ** 18n

export type ProposalState = "STATE_OPEN" | "STATE_PASSED" | "STATE_DECLINED" | "STATE_ENACTED"

/** The proto numbers of the states (vega.Proposal.State), as the node's cursor writes them. */
export const PROPOSAL_STATE_NUMBER: Record<ProposalState, number> = {
  STATE_OPEN: 2,
  STATE_PASSED: 3,
  STATE_DECLINED: 5,
  STATE_ENACTED: 6
}

export type ProposalReason =
  "PROPOSAL_ERROR_PARTICIPATION_THRESHOLD_NOT_REACHED" | "PROPOSAL_ERROR_MAJORITY_THRESHOLD_NOT_REACHED"

/** The key of a kind's change in the terms' JSON (what the node's type filter looks for). */
export type ProposalKind = "updateNetworkParameter" | "newFreeform" | "updateAsset"

/** An asset update's changes: the asset's quantum (unchanged) and its new ERC-20 limits. */
export interface AssetUpdate {
  readonly asset: AssetInfo
  /** Decimal text, as the asset's. */
  readonly quantum: string
  readonly lifetimeLimit: bigint
  readonly withdrawThreshold: bigint
}

export interface ProposalRow extends Versioned {
  readonly id: string
  readonly reference: string
  readonly party: Party
  readonly kind: ProposalKind
  /** A network-parameter change: the key and its new value. */
  readonly change?: { readonly key: string; readonly value: string }
  /** An asset update: the asset and its changes. */
  readonly assetUpdate?: AssetUpdate
  readonly title: string
  readonly description: string
  readonly state: ProposalState
  readonly reason?: ProposalReason
  /** Unix microseconds, when it was submitted. */
  readonly submittedAt: number
  /** Unix seconds (enactment 0 for a freeform proposal, which has none). */
  readonly closingSecs: number
  readonly enactmentSecs: number
  /** Decimal text, as the node writes it (no trailing zeros). */
  readonly requiredMajority: string
  readonly requiredParticipation: string
  /** Block time of this state, unix microseconds. */
  readonly vt: number
  readonly seq: number
}

export type VoteValue = "VALUE_YES" | "VALUE_NO"

export interface VoteRow extends Versioned {
  readonly proposalId: string
  readonly party: Party
  readonly value: VoteValue
  /** Governance tokens, 18 decimals. */
  readonly balance: bigint
  /** Decimal text: the share of the tokens that voted, set at the close ("0" before). */
  readonly weight: string
  /** Unix microseconds of the vote (the core's timestamp; the store's `initial_time`). */
  readonly initialAt: number
  /** Block time of this version, unix microseconds. */
  readonly vt: number
  readonly seq: number
}

/** A decimal text as shopspring's `String` writes it: no trailing zeros, no trailing point. */
export const decimalText = (text: string): string => {
  if (!text.includes(".")) return text === "" ? "0" : text
  const trimmed = text.replace(/0+$/, "").replace(/\.$/, "")
  return trimmed === "" || trimmed === "-" ? "0" : trimmed
}

/** A non-negative decimal text as a fraction: numerator over 10^scale. */
const fraction = (text: string): { readonly n: bigint; readonly d: bigint } => {
  const [whole, decimals = ""] = text.split(".")
  return { n: BigInt((whole || "0") + decimals), d: 10n ** BigInt(decimals.length) }
}

/** `a / b` to 16 decimal places, halves rounded up, as decimal text without trailing zeros. */
export const ratioText = (a: bigint, b: bigint): string => {
  const scaled = (a * 10n ** 17n) / b
  const rounded = (scaled + 5n) / 10n
  const whole = rounded / 10n ** 16n
  const decimals = (rounded % 10n ** 16n).toString().padStart(16, "0")
  return decimalText(`${whole}.${decimals}`)
}

/** Network parameters the world's proposals change, with the values they propose. */
const CHANGES: ReadonlyArray<readonly [key: string, value: (random: Random) => string]> = [
  ["network.markPriceUpdateMaximumFrequency", (r) => `${r.between(1, 10)}s`],
  ["spam.protection.max.votes", (r) => String(r.between(50, 200))],
  ["spam.protection.max.proposals", (r) => String(r.between(50, 200))],
  ["limits.markets.maxPeggedOrders", (r) => String(r.between(10, 30) * 100)],
  ["governance.proposal.freeform.minClose", (r) => `${r.between(5, 60)}s`]
]

const TOPICS = ["fees", "liquidity", "the treasury", "a new market", "spam limits", "rewards", "the roadmap"]

/** The chance a block has a new proposal (unless told). */
export const PROPOSAL_CHANCE = 0.04
/** The chances an open proposal gets a vote in a block: none, a few, many. */
const TURNOUTS = [0, 0.05, 0.3, 0.3]

/** Asset updates per block, as a share of the chance of a proposal. */
const ASSET_UPDATE_SHARE = 0.25

type Draft = Omit<ProposalRow, "seq" | "from" | "to" | "vt">
type VoteDraft = Omit<VoteRow, "seq" | "from" | "to" | "vt">

export class Governance {
  /** Each proposal's versions, oldest first. */
  readonly byId = new Map<string, Array<ProposalRow>>()
  /** The first version of each proposal, in the order submitted. */
  readonly placed: Array<ProposalRow> = []
  /** Each vote's versions (by proposal and party), oldest first. */
  private readonly votes = new Map<string, Array<VoteRow>>()
  /** The first version of each vote, in the order cast; by proposal and by party too. */
  readonly cast: Array<VoteRow> = []
  readonly votesByProposal = new Map<string, Array<VoteRow>>()
  readonly votesByParty = new Map<string, Array<VoteRow>>()
  /** Proposals open or passed and waiting for enactment, in the order submitted. */
  private readonly active: Array<string> = []
  /** Asset updates open or passed and waiting for enactment, in the order submitted. */
  private readonly assetActive: Array<string> = []
  /** The block that enacted each asset update. */
  readonly assetUpdatesEnacted = new Map<string, number>()
  /** How likely each open proposal is to get a vote in a block, and a vote to be yes. */
  private readonly interest = new Map<string, { readonly turnout: number; readonly support: number }>()
  /** Each voter's governance-token balance, drawn at its first vote. */
  private readonly balances = new Map<string, bigint>()
  private seq = 0

  constructor(
    private readonly catalog: Catalog,
    private readonly chain: Chain,
    private readonly parameters: NetworkParameters,
    private readonly journal?: Journal
  ) {}

  /** The proposal as a view at `height` sees it. */
  at(id: string, height: number): ProposalRow | undefined {
    return versionAt(this.byId.get(id), height)
  }

  /** The latest version of a proposal. */
  current(id: string): ProposalRow | undefined {
    return latestVersion(this.byId.get(id))
  }

  /** A vote as a view at `height` sees it. */
  voteAt(first: VoteRow, height: number): VoteRow | undefined {
    return versionAt(this.votes.get(`${first.proposalId}/${first.party.id}`), height)
  }

  private write(row: Draft, height: number): ProposalRow {
    const written: ProposalRow = {
      ...row,
      vt: this.chain.blockTime(height),
      seq: this.seq++,
      from: height,
      to: Infinity
    }
    const versions = this.byId.get(row.id)
    if (versions === undefined) {
      this.byId.set(row.id, [written])
      this.placed.push(written)
    } else {
      const replaced = addVersion(versions, written)
      if (replaced !== undefined && versions.length === 1) this.placed[this.placed.indexOf(replaced)] = written
    }
    this.journal?.record(height, { _tag: "Proposal", row: written })
    return written
  }

  private writeVote(row: VoteDraft, height: number): VoteRow {
    const written: VoteRow = { ...row, vt: this.chain.blockTime(height), seq: this.seq++, from: height, to: Infinity }
    const key = `${row.proposalId}/${row.party.id}`
    const versions = this.votes.get(key)
    if (versions === undefined) {
      this.votes.set(key, [written])
      this.cast.push(written)
      let own = this.votesByProposal.get(row.proposalId)
      if (own === undefined) this.votesByProposal.set(row.proposalId, (own = []))
      own.push(written)
      let mine = this.votesByParty.get(row.party.id)
      if (mine === undefined) this.votesByParty.set(row.party.id, (mine = []))
      mine.push(written)
    } else addVersion(versions, written)
    this.journal?.record(height, { _tag: "Vote", row: written })
    return written
  }

  /** The latest version of each vote on a proposal, in the order first cast. */
  private currentVotes(proposalId: string): Array<VoteRow> {
    return (this.votesByProposal.get(proposalId) ?? []).map((first) =>
      this.votes.get(`${proposalId}/${first.party.id}`)!.at(-1)!
    )
  }

  /**
   * Block `height`: closes and enacts what is due, then votes and perhaps a new proposal; then the
   * same for the asset updates, from `assets` (none without it).
   */
  advance(random: Random, height: number, proposalChance = PROPOSAL_CHANCE, assets?: Random): void {
    const nowSecs = Math.floor(this.chain.blockTime(height) / 1_000_000)
    this.closeDue(this.active, nowSecs, height)
    for (const id of this.active) {
      const proposal = this.current(id)!
      const { support, turnout } = this.interest.get(id)!
      if (proposal.state === "STATE_OPEN" && random.chance(turnout)) this.vote(random, proposal, height, support)
    }
    if (proposalChance > 0 && random.chance(proposalChance)) this.propose(random, height)
    if (assets !== undefined) this.advanceAssetUpdates(assets, height, proposalChance)
  }

  /** Closes and enacts the proposals of `active` that are due, and lets go of those that are done. */
  private closeDue(active: Array<string>, nowSecs: number, height: number): void {
    for (const id of [...active]) {
      const proposal = this.current(id)!
      if (proposal.state === "STATE_OPEN" && proposal.closingSecs < nowSecs) this.close(proposal, height)
      const after = this.current(id)!
      if (after.state === "STATE_PASSED" && after.enactmentSecs < nowSecs) this.enact(after, height)
      const state = this.current(id)!.state
      if (state !== "STATE_OPEN" && state !== "STATE_PASSED") {
        active.splice(active.indexOf(id), 1)
        this.interest.delete(id)
      }
    }
  }

  /** The asset updates' part of a block, after the other proposals', from a stream of their own. */
  private advanceAssetUpdates(random: Random, height: number, proposalChance: number): void {
    const nowSecs = Math.floor(this.chain.blockTime(height) / 1_000_000)
    this.closeDue(this.assetActive, nowSecs, height)
    for (const id of this.assetActive) {
      const proposal = this.current(id)!
      const { support, turnout } = this.interest.get(id)!
      if (proposal.state !== "STATE_OPEN" || !random.chance(turnout)) continue
      // only a party whose balance is already known votes, so no balance is drawn from this stream
      const party = random.pick(this.voters())
      const balance = this.balances.get(party.id)
      const value: VoteValue = random.chance(support) ? "VALUE_YES" : "VALUE_NO"
      if (balance === undefined) continue
      this.writeVote(
        { proposalId: proposal.id, party, value, balance, weight: "0", initialAt: this.chain.blockTime(height) },
        height
      )
    }
    if (proposalChance > 0 && random.chance(proposalChance * ASSET_UPDATE_SHARE))
      this.proposeAssetUpdate(random, height)
  }

  /** A proposal to set new ERC-20 limits for one of the world's assets. */
  proposeAssetUpdate(random: Random, height: number): ProposalRow {
    const submittedAt = this.chain.blockTime(height)
    const submitSecs = Math.floor(submittedAt / 1_000_000)
    const closingSecs = submitSecs + random.between(this.chain.blocksPerEpoch, 2 * this.chain.blocksPerEpoch)
    const enactmentSecs = closingSecs + random.between(5, this.chain.blocksPerEpoch)
    const party = random.pick(this.voters())
    const asset = random.pick(this.catalog.assets)
    const unit = 10n ** BigInt(asset.decimals)
    const assetUpdate: AssetUpdate = {
      asset,
      quantum: asset.quantum,
      lifetimeLimit: BigInt(random.between(1, 100)) * 10n ** 6n * unit,
      withdrawThreshold: BigInt(random.between(1, 100)) * 10n ** 3n * unit
    }
    const id = random.hex(32)
    const prefix = "governance.proposal.updateAsset"
    const row = this.write(
      {
        id,
        reference: random.hex(32),
        party,
        kind: "updateAsset",
        assetUpdate,
        title: `Update the limits of ${asset.symbol}`,
        description: `Sets the bridge's deposit and withdrawal limits of ${asset.name}.`,
        state: "STATE_OPEN",
        submittedAt,
        closingSecs,
        enactmentSecs,
        requiredMajority: decimalText(this.parameters.current(`${prefix}.requiredMajority`) ?? "0.66"),
        requiredParticipation: decimalText(this.parameters.current(`${prefix}.requiredParticipation`) ?? "0.00001")
      },
      height
    )
    this.assetActive.push(id)
    this.interest.set(id, { turnout: random.pick(TURNOUTS), support: random.between(30, 90) / 100 })
    return row
  }

  private voters(): ReadonlyArray<Party> {
    return this.catalog.parties.slice(1)
  }

  /** A new proposal by one of the world's parties. */
  propose(random: Random, height: number): ProposalRow {
    const freeform = random.chance(0.3)
    const kind: ProposalKind = freeform ? "newFreeform" : "updateNetworkParameter"
    const prefix = freeform ? "governance.proposal.freeform" : "governance.proposal.updateNetParam"
    const submittedAt = this.chain.blockTime(height)
    const submitSecs = Math.floor(submittedAt / 1_000_000)
    const closingSecs = submitSecs + random.between(this.chain.blocksPerEpoch, 2 * this.chain.blocksPerEpoch)
    // a freeform proposal has no enactment time: it must be 0 (commands/proposal_submission.go, v0.75.8)
    const enactmentSecs = freeform ? 0 : closingSecs + random.between(5, this.chain.blocksPerEpoch)
    const party = random.pick(this.voters())
    const topic = random.pick(TOPICS)
    let change: { key: string; value: string } | undefined
    if (!freeform) {
      const [key, value] = random.pick(CHANGES)
      change = { key, value: value(random) }
    }
    const id = random.hex(32)
    const row = this.write(
      {
        id,
        reference: random.hex(32),
        party,
        kind,
        ...(change === undefined ? {} : { change }),
        title: change === undefined ? `Discuss ${topic}` : `Set ${change.key} to ${change.value}`,
        description: change === undefined ? `A freeform proposal about ${topic}.` : `Changes ${change.key}.`,
        state: "STATE_OPEN",
        submittedAt,
        closingSecs,
        enactmentSecs,
        requiredMajority: decimalText(this.parameters.current(`${prefix}.requiredMajority`) ?? "0.66"),
        requiredParticipation: decimalText(this.parameters.current(`${prefix}.requiredParticipation`) ?? "0.00001")
      },
      height
    )
    this.active.push(id)
    // some proposals draw no votes at all, and support varies
    this.interest.set(id, { turnout: random.pick(TURNOUTS), support: random.between(30, 90) / 100 })
    return row
  }

  /** A vote (or a changed vote) on an open proposal by one of the world's parties. */
  private vote(random: Random, proposal: ProposalRow, height: number, support: number): void {
    const party = random.pick(this.voters())
    const value: VoteValue = random.chance(support) ? "VALUE_YES" : "VALUE_NO"
    let balance = this.balances.get(party.id)
    if (balance === undefined) {
      balance = BigInt(random.between(1, 2_000_000)) * 10n ** 18n
      this.balances.set(party.id, balance)
    }
    // each vote is a new one, timed now, with zero weights (core/governance/engine.go AddVote)
    this.writeVote(
      { proposalId: proposal.id, party, value, balance, weight: "0", initialAt: this.chain.blockTime(height) },
      height
    )
  }

  private close(proposal: ProposalRow, height: number): void {
    const votes = this.currentVotes(proposal.id)
    let yes = 0n
    let total = 0n
    for (const vote of votes) {
      total += vote.balance
      if (vote.value === "VALUE_YES") yes += vote.balance
    }
    const majority = fraction(proposal.requiredMajority)
    const participation = fraction(proposal.requiredParticipation)
    const participated = total > 0n && total * participation.d >= TOTAL_SUPPLY * participation.n
    const passed = participated && yes * majority.d >= total * majority.n
    const { reason: _, ...rest } = proposal
    const closed = this.write(
      passed
        ? { ...rest, state: "STATE_PASSED" }
        : {
            ...rest,
            state: "STATE_DECLINED",
            reason: participated
              ? "PROPOSAL_ERROR_MAJORITY_THRESHOLD_NOT_REACHED"
              : "PROPOSAL_ERROR_PARTICIPATION_THRESHOLD_NOT_REACHED"
          },
      height
    )
    // the votes again, weighted, in party order (core/governance/engine.go newUpdatedProposalEvents)
    const byParty = [...votes].sort((a, b) => (a.party.id < b.party.id ? -1 : a.party.id > b.party.id ? 1 : 0))
    for (const vote of byParty) {
      const { from: _f, seq: _s, to: _t, vt: _v, ...draft } = vote
      this.writeVote({ ...draft, weight: total === 0n ? "0" : ratioText(vote.balance, total) }, height)
    }
    if (passed && closed.kind === "newFreeform") this.enact(closed, height)
  }

  private enact(proposal: ProposalRow, height: number): void {
    const { from: _f, seq: _s, to: _t, vt: _v, ...draft } = proposal
    this.write({ ...draft, state: "STATE_ENACTED" }, height)
    if (proposal.assetUpdate !== undefined) this.assetUpdatesEnacted.set(proposal.id, height)
    if (proposal.change !== undefined) this.parameters.set(proposal.change.key, proposal.change.value, height)
  }
}
