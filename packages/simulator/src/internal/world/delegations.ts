/**
 * Validators' stake per epoch, derived from the world's stake linkings (no random draws of its own).
 *
 * Each validator's operator self-delegates a fixed {@link OPERATOR_STAKE} (its Vega key is the
 * party). Each party of the world delegates all the stake it has linked and accepted as of the
 * epoch's first block to one validator, chosen from its id. A node's totals are the sums of the
 * epoch's delegations to it, as datanode/sqlstore/node.go (v0.75.8) adds them up: by the
 * operator (party = the node's Vega key), by the others, and in all.
 */
import type { Catalog, Validator } from "./catalog.js"
import type { Chain } from "./chain.js"
import { MILLI_VEGA, type StakeLinkings } from "./stake.js"
import { compareStrings } from "./versioned.js"

/** What each operator stakes on its own node: 1,000,000 VEGA in base units. */
export const OPERATOR_STAKE = 1_000_000n * 10n ** 18n

export interface DelegationRow {
  /** Lowercase hex: a party id, or the node's Vega key for its operator. */
  readonly party: string
  readonly nodeId: string
  readonly epoch: number
  /** VEGA base units. */
  readonly amount: bigint
  /** Unix microseconds: the block the epoch's balances were written at (its first block). */
  readonly vt: number
}

export interface NodeStake {
  readonly validator: Validator
  readonly epoch: number
  readonly stakedByOperator: bigint
  readonly stakedByDelegates: bigint
  readonly stakedTotal: bigint
  /** Sorted by party id. */
  readonly delegations: ReadonlyArray<DelegationRow>
}

export interface EpochStake {
  readonly epoch: number
  /** Base order of the delegations store: `vega_time, party_id, node_id, epoch_id`. */
  readonly delegations: ReadonlyArray<DelegationRow>
  /** By node id ascending (the node store's order). */
  readonly nodes: ReadonlyArray<NodeStake>
  readonly total: bigint
}

export const compareDelegations = (a: DelegationRow, b: DelegationRow): number =>
  a.vt - b.vt || compareStrings(a.party, b.party) || compareStrings(a.nodeId, b.nodeId) || a.epoch - b.epoch

/** The validator a party delegates to: from the first 8 hex digits of its id. */
export const validatorIndexOf = (partyId: string, validators: number): number =>
  Number.parseInt(partyId.slice(0, 8), 16) % validators

interface Sources {
  readonly catalog: Catalog
  readonly chain: Chain
  readonly stakeLinkings: StakeLinkings
}

const cache = new WeakMap<StakeLinkings, Map<number, EpochStake>>()

/**
 * The stake of `epoch`. Callers only ask for epochs that have started at the height they read,
 * and the linkings as of an epoch's first block never change after it, so the answer is cached.
 */
export const epochStake = (world: Sources, epoch: number): EpochStake => {
  let byEpoch = cache.get(world.stakeLinkings)
  if (byEpoch === undefined) {
    byEpoch = new Map()
    cache.set(world.stakeLinkings, byEpoch)
  }
  const cached = byEpoch.get(epoch)
  if (cached !== undefined) return cached
  const stake = computeEpochStake(world, epoch)
  byEpoch.set(epoch, stake)
  return stake
}

const computeEpochStake = ({ catalog, chain, stakeLinkings }: Sources, epoch: number): EpochStake => {
  const first = chain.epochFirstBlock(epoch)
  const vt = chain.blockTime(first)
  const validators = catalog.validators
  const perNode = validators.map((): Array<DelegationRow> => [])
  validators.forEach((v, i) =>
    perNode[i].push({ party: v.pubKey, nodeId: v.nodeId, epoch, amount: OPERATOR_STAKE, vt })
  )
  for (const partyId of stakeLinkings.byParty.keys()) {
    const milli = stakeLinkings.available(partyId, first)
    if (milli <= 0) continue
    const index = validatorIndexOf(partyId, validators.length)
    perNode[index].push({
      party: partyId,
      nodeId: validators[index].nodeId,
      epoch,
      amount: BigInt(milli) * MILLI_VEGA,
      vt
    })
  }
  const nodes: Array<NodeStake> = validators.map((validator, i) => {
    const delegations = perNode[i].sort(compareDelegations)
    let operator = 0n
    let delegates = 0n
    for (const d of delegations) {
      if (d.party === validator.pubKey) operator += d.amount
      else delegates += d.amount
    }
    return {
      validator,
      epoch,
      stakedByOperator: operator,
      stakedByDelegates: delegates,
      stakedTotal: operator + delegates,
      delegations
    }
  })
  nodes.sort((a, b) => compareStrings(a.validator.nodeId, b.validator.nodeId))
  const delegations = perNode.flat().sort(compareDelegations)
  const total = nodes.reduce((sum, n) => sum + n.stakedTotal, 0n)
  return { epoch, delegations, nodes, total }
}
