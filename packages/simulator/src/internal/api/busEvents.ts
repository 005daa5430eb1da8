/**
 * The events of a block on the node's event bus, built from the block's results and the world's
 * changes it recorded (`internal/world/journal.ts`).
 *
 * Sequence numbers follow the core's order: BEGIN_BLOCK first (sequence 1), TIME_UPDATE, the
 * block's own processing (epoch end and start, stake, provisions, profiles, payouts, referral
 * statistics, signer bundles), then each transaction's changes followed by its result (and, when
 * it failed, the legacy TxErrorEvent), END_BLOCK last. Payloads are built by the same converters
 * as the REST rows, so an event equals the REST row of the same state.
 *
 * The data node's broker delivers each event type through its own goroutine, so across types a
 * subscriber sees another order: {@link deliveryOrder} imitates it by sending a block's events
 * grouped by type, the groups in an order drawn (deterministically) per block.
 */
import { Decimal, EventBus, StreamForm, Timestamp, TransactionResult, Vega } from "@vega-effect/schema"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { BlockResults, IncludedResult } from "../core/contract.js"
import { makeRandom, mix } from "../random.js"
import type { BundleRow } from "../world/bundles.js"
import type { Chain } from "../world/chain.js"
import type { Change, Entry } from "../world/journal.js"
import type { ReferralStatsRow } from "../world/referrals.js"
import { compareStrings, idSortKey } from "../world/versioned.js"
import { provisionValue } from "./liquidity.js"
import { profileValue } from "./profiles.js"
import { type NodeVersion, resultAs } from "./nodeVersion.js"
import { rewardValue } from "./rewards.js"
import { stakeValue } from "./stake.js"
import { coreOrderValue, coreTradeValue } from "./tradingValues.js"

const TYPE = EventBus.BusEventType.values

/** One event and what the subscription filters look at (§1.4 of the fact sheet). */
export interface SimEvent {
  readonly type: number
  readonly event: EventBus.BusEvent
  /** The party `IsParty` answers for, when the event type has that method. */
  readonly party?: string
  /** A second party `IsParty` answers for (a trade's seller; its buyer is `party`). */
  readonly otherParty?: string
  /** `MarketID()`, when the event type has that method. */
  readonly marketId?: string
  /** Whether the event type has `PartyID()` too (needed when both filters are set). */
  readonly partyMethod?: boolean
}

type Payload = Omit<EventBus.BusEvent, "id" | "block" | "type" | "version" | "chainId" | "txHash">
type Typed = Omit<SimEvent, "event"> & { readonly typeName: EventBus.BusEventType; readonly payload: Payload }

const nanos = (micros: number): Timestamp.VegaTimestamp => Timestamp.VegaTimestamp.make(BigInt(micros) * 1000n)

// ---------------------------------------------------------------------------------------------
// Payloads of the world's changes
// ---------------------------------------------------------------------------------------------

const referralStats = (rows: ReadonlyArray<ReferralStatsRow>): EventBus.ReferralSetStatsUpdated => {
  const first = rows[0]
  return {
    setId: first.set.id,
    atEpoch: BigInt(first.epoch),
    referralSetRunningNotionalTakerVolume: first.runningVolume,
    refereesStats: [...rows]
      .sort((a, b) => compareStrings(a.referee.id, b.referee.id))
      .map((row) => ({
        partyId: row.referee.id,
        discountFactor: row.discountFactor,
        epochNotionalTakerVolume: row.epochVolume
      })),
    rewardFactor: first.rewardFactor,
    rewardsMultiplier: Option.getOrThrow(Decimal.parse(first.rewardsMultiplier)),
    rewardsFactorMultiplier: first.rewardsFactorMultiplier,
    wasEligible: first.wasEligible,
    referrerTakerVolume: first.referrerTakerVolume
  } as unknown as EventBus.ReferralSetStatsUpdated
}

const signerAdded = (row: BundleRow): EventBus.ERC20MultiSigSignerAdded =>
  ({
    signatureId: row.id,
    validatorId: row.validator.nodeId,
    timestamp: BigInt(row.vt) * 1000n,
    newSigner: row.validator.ethereumAddress,
    submitter: row.submitter.ethereumAddress,
    nonce: BigInt(row.nonce),
    epochSeq: BigInt(row.epoch)
  }) as unknown as EventBus.ERC20MultiSigSignerAdded

/** The hex of each 65-byte signature in a bundle's `0x…` concatenation. */
const SIGNATURE_HEX = 130

const nodeSignatures = (row: BundleRow): Array<Typed> => {
  const hex = row.signatures.slice(2)
  const out: Array<Typed> = []
  for (let at = 0; at + SIGNATURE_HEX <= hex.length; at += SIGNATURE_HEX) {
    const sig = Buffer.from(hex.slice(at, at + SIGNATURE_HEX), "hex").toString("base64")
    out.push({
      type: TYPE.BUS_EVENT_TYPE_NODE_SIGNATURE,
      typeName: "BUS_EVENT_TYPE_NODE_SIGNATURE",
      payload: { nodeSignature: { id: row.id, sig, kind: "NODE_SIGNATURE_KIND_ERC20_MULTISIG_SIGNER_ADDED" } }
    })
  }
  return out
}

const epochEvent = (chain: Chain, epoch: number, action: "START" | "END", atMicros: number): EventBus.EpochEvent =>
  ({
    seq: BigInt(epoch),
    action: action === "START" ? "EPOCH_ACTION_START" : "EPOCH_ACTION_END",
    startTime: BigInt(chain.blockTime(chain.epochFirstBlock(epoch))) * 1000n,
    expireTime: BigInt(chain.blockTime(chain.epochLastBlock(epoch))) * 1000n,
    endTime: action === "END" ? BigInt(atMicros) * 1000n : 0n
  }) as unknown as EventBus.EpochEvent

/** Payouts one payout (asset and type) after another, each sorted by party. */
const rewardPayouts = (change: Extract<Change, { _tag: "Rewards" }>): Array<Typed> =>
  [...change.rows]
    .sort(
      (a, b) =>
        compareStrings(a.asset.id, b.asset.id) ||
        compareStrings(a.rewardType, b.rewardType) ||
        compareStrings(idSortKey(a.party.id), idSortKey(b.party.id))
    )
    .map((row) => {
      const r = rewardValue(row)
      return {
        type: TYPE.BUS_EVENT_TYPE_REWARD_PAYOUT_EVENT,
        typeName: "BUS_EVENT_TYPE_REWARD_PAYOUT_EVENT",
        payload: {
          rewardPayout: {
            party: r.partyId,
            epochSeq: r.epoch,
            asset: r.assetId,
            amount: r.amount,
            percentOfTotalReward: r.percentageOfTotal,
            timestamp: r.receivedAt,
            rewardType: r.rewardType,
            lockedUntilEpoch: r.lockedUntilEpoch,
            quantumAmount: r.quantumAmount
          } as unknown as EventBus.RewardPayoutEvent
        }
      }
    })

// the bus keeps orders and trades as received: they go in already in their stream form
const encodeOrderStream = Schema.encodeSync(StreamForm.make(Vega.Order))
const encodeTradeStream = Schema.encodeSync(StreamForm.make(Vega.Trade))

/** The core's event of an order change or a trade: IsParty, MarketID, and PartyID for orders only. */
const tradingEvent = (change: Extract<Change, { _tag: "Order" | "Trade" }>): Typed =>
  change._tag === "Order"
    ? {
        type: TYPE.BUS_EVENT_TYPE_ORDER,
        typeName: "BUS_EVENT_TYPE_ORDER",
        payload: { order: encodeOrderStream(coreOrderValue(change.row)) },
        party: change.row.party.id,
        marketId: change.row.market.id,
        partyMethod: true
      }
    : {
        type: TYPE.BUS_EVENT_TYPE_TRADE,
        typeName: "BUS_EVENT_TYPE_TRADE",
        payload: { trade: encodeTradeStream(coreTradeValue(change.row)) },
        party: change.row.buyer.id,
        otherParty: change.row.seller.id,
        marketId: change.row.market.id
      }

const changeEvents = (change: Change, chain: Chain, timeMicros: number): Array<Typed> => {
  switch (change._tag) {
    case "Party":
      return [
        {
          type: TYPE.BUS_EVENT_TYPE_PARTY,
          typeName: "BUS_EVENT_TYPE_PARTY",
          payload: { party: { id: change.party.id, alias: "", metadata: [] } }
        }
      ]
    case "Stake":
      return [
        {
          type: TYPE.BUS_EVENT_TYPE_STAKE_LINKING,
          typeName: "BUS_EVENT_TYPE_STAKE_LINKING",
          payload: { stakeLinking: stakeValue(change.row) }
        }
      ]
    case "Provision":
      return [
        {
          type: TYPE.BUS_EVENT_TYPE_LIQUIDITY_PROVISION,
          typeName: "BUS_EVENT_TYPE_LIQUIDITY_PROVISION",
          payload: { liquidityProvision: provisionValue(change.row) },
          party: change.row.party.id,
          marketId: change.row.market.id,
          partyMethod: true
        }
      ]
    case "Profile":
      return [
        {
          type: TYPE.BUS_EVENT_TYPE_PARTY_PROFILE_UPDATED,
          typeName: "BUS_EVENT_TYPE_PARTY_PROFILE_UPDATED",
          payload: { partyProfileUpdated: { updatedProfile: profileValue(change.row) } }
        }
      ]
    case "ReferralStats":
      return [
        {
          type: TYPE.BUS_EVENT_TYPE_REFERRAL_SET_STATS_UPDATED,
          typeName: "BUS_EVENT_TYPE_REFERRAL_SET_STATS_UPDATED",
          payload: { referralSetStatsUpdated: referralStats(change.rows) }
        }
      ]
    case "Rewards":
      return rewardPayouts(change)
    case "BundleIssued":
      return [
        {
          type: TYPE.BUS_EVENT_TYPE_ERC20_MULTI_SIG_SIGNER_ADDED,
          typeName: "BUS_EVENT_TYPE_ERC20_MULTI_SIG_SIGNER_ADDED",
          payload: { erc20MultisigSignerAdded: signerAdded(change.row) }
        }
      ]
    case "BundleSigned":
      return nodeSignatures(change.row)
    case "Order":
    case "Trade":
      return [tradingEvent(change)]
    case "Epoch":
      return [
        {
          type: TYPE.BUS_EVENT_TYPE_EPOCH_UPDATE,
          typeName: "BUS_EVENT_TYPE_EPOCH_UPDATE",
          payload: { epochEvent: epochEvent(chain, change.epoch, change.action, timeMicros) }
        }
      ]
    // governance is not on the simulated event bus yet
    case "Proposal":
    case "Vote":
      return []
  }
}

// ---------------------------------------------------------------------------------------------
// Transactions
// ---------------------------------------------------------------------------------------------

const encodeResultStream = Schema.encodeSync(TransactionResult.TransactionResultStream)
// the commands TxErrorEvent can echo (fields 101 to 119)
const TX_ERROR_COMMANDS = [
  "orderSubmission",
  "orderAmendment",
  "orderCancellation",
  "proposal",
  "voteSubmission",
  "liquidityProvisionSubmission",
  "withdrawSubmission",
  "delegateSubmission",
  "undelegateSubmission",
  "liquidityProvisionCancellation",
  "liquidityProvisionAmendment",
  "transfer",
  "cancelTransfer",
  "announceNode",
  "oracleDataSubmission",
  "protocolUpgradeProposal",
  "issueSignatures",
  "batchMarketInstructions"
]

const resultEvents = (included: IncludedResult, version: NodeVersion): Array<Typed> => {
  const result = resultAs(included.result, version)
  const events: Array<Typed> = [
    {
      type: TYPE.BUS_EVENT_TYPE_TRANSACTION_RESULT,
      typeName: "BUS_EVENT_TYPE_TRANSACTION_RESULT",
      payload: { transactionResult: result },
      party: result.partyId
    }
  ]
  if (result.failure !== undefined) {
    const streamed = encodeResultStream(result) as Record<string, unknown>
    const txErrEvent: Record<string, unknown> = {
      partyId: result.partyId,
      errMsg: Option.getOrElse(TransactionResult.failureMessage(result), () => "")
    }
    for (const name of TX_ERROR_COMMANDS) if (streamed[name] !== undefined) txErrEvent[name] = streamed[name]
    events.push({
      type: TYPE.BUS_EVENT_TYPE_TX_ERROR,
      typeName: "BUS_EVENT_TYPE_TX_ERROR",
      payload: { txErrEvent },
      party: result.partyId
    })
  }
  return events
}

// ---------------------------------------------------------------------------------------------
// A block's events
// ---------------------------------------------------------------------------------------------

/** What {@link eventsOf} needs besides the block. */
export interface BusContext {
  readonly chainId: string
  readonly chain: Chain
  /** Draws the delivery order of each block. */
  readonly seed: number
  /** The node release whose wire shapes the events carry. */
  readonly nodeVersion: NodeVersion
}

interface Numbering {
  sequence: number
  readonly out: Array<SimEvent>
}

const push = (block: BlockResults, chainId: string, n: Numbering, txHash: string, typed: Typed): void => {
  const { payload, typeName, ...filters } = typed
  n.out.push({
    ...filters,
    event: {
      id: `${block.height}-${n.sequence++}`,
      block: block.blockHash,
      type: typeName,
      ...payload,
      version: 1,
      chainId,
      txHash
    } as EventBus.BusEvent
  })
}

/** The block's events in (height, sequence) order. */
export const eventsOf = (block: BlockResults, context: BusContext): ReadonlyArray<SimEvent> => {
  const { chain, chainId } = context
  const n: Numbering = { sequence: 1, out: [] }
  push(block, chainId, n, "", {
    type: TYPE.BUS_EVENT_TYPE_BEGIN_BLOCK,
    typeName: "BUS_EVENT_TYPE_BEGIN_BLOCK",
    payload: {
      beginBlock: { height: BigInt(block.height), timestamp: nanos(block.timeMicros), hash: block.blockHash }
    } as Payload
  })
  push(block, chainId, n, "", {
    type: TYPE.BUS_EVENT_TYPE_TIME_UPDATE,
    typeName: "BUS_EVENT_TYPE_TIME_UPDATE",
    payload: { timeUpdate: { timestamp: nanos(block.timeMicros) } }
  })
  const entries: ReadonlyArray<Entry> = block.changes?.entries ?? []
  let at = 0
  const changesOf = (txHash: string): void => {
    for (; at < entries.length && entries[at].txHash === txHash; at++) {
      for (const typed of changeEvents(entries[at].change, chain, block.timeMicros)) {
        push(block, chainId, n, txHash, typed)
      }
    }
  }
  changesOf("")
  for (const included of block.results) {
    const txHash = included.transaction.hash.toLowerCase()
    changesOf(included.transaction.hash)
    for (const typed of resultEvents(included, context.nodeVersion)) push(block, chainId, n, txHash, typed)
  }
  push(block, chainId, n, "", {
    type: TYPE.BUS_EVENT_TYPE_END_BLOCK,
    typeName: "BUS_EVENT_TYPE_END_BLOCK",
    payload: { endBlock: { height: BigInt(block.height) } } as Payload
  })
  return n.out
}

/**
 * The order a subscriber receives a block's events in: grouped by type (each type's events in
 * sequence order), the groups in an order drawn from the seed and the height.
 */
export const deliveryOrder = (
  events: ReadonlyArray<SimEvent>,
  seed: number,
  height: number
): ReadonlyArray<SimEvent> => {
  const groups = new Map<number, Array<SimEvent>>()
  for (const event of events) {
    const group = groups.get(event.type)
    if (group === undefined) groups.set(event.type, [event])
    else group.push(event)
  }
  const order = [...groups.keys()]
  const random = makeRandom(mix(seed, height, 0x6275))
  for (let i = order.length - 1; i > 0; i--) {
    const j = random.int(i + 1)
    const t = order[i]
    order[i] = order[j]
    order[j] = t
  }
  return order.flatMap((type) => groups.get(type)!)
}
