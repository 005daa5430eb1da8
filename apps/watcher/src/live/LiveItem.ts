/**
 * What the node's live streams tell the watcher, in the watcher's terms: whole rows to apply, hints
 * naming rows to read again, the passing of blocks, and gaps (a stream (re)connected, so what it
 * would have carried meanwhile is lost and the resources it feeds must be read again).
 *
 * Which live source feeds which resource (declared by each definition's `live`), and whether it
 * carries the whole row or only a hint (decided here, per event):
 *
 * | resource      | source                                        | carries                        |
 * |---------------|-----------------------------------------------|--------------------------------|
 * | positions     | positions stream, updates                     | whole rows (the REST row)      |
 * | liquidity     | liquidity-provisions stream                   | hint: market, party, id        |
 * | stake         | bus STAKE_LINKING                             | hint: the party                |
 * | profiles      | bus PARTY_PROFILE_UPDATED, PARTY              | whole rows                     |
 * | rewards       | bus REWARD_PAYOUT_EVENT (a payout, not a sum) | hint: read the totals again    |
 * | referrals     | bus REFERRAL_SET_STATS_UPDATED                | hint: read the sets again      |
 * | signerBundles | bus ERC20_MULTI_SIG_SIGNER_ADDED, NODE_SIGNATURE | hint: read the bundles again |
 *
 * Stake comes as a hint although the event holds the linking: the party's available stake is not
 * in it, and one read of the party gives both. A liquidity provision's REST row pairs the version
 * in force with a pending one, which the stream's plain record cannot rebuild.
 */
import { Encoder, EventBus, type LiquidityProvision, Position } from "@vega-effect/schema"
import type { Row } from "../Event.js"
import { allDefinitions, type ResourceName } from "../Resources.js"
import { hintOf } from "../resources/liquidity.js"
import { keyOf as positionKey } from "../resources/positions.js"
import { newPartyRow, rowOf as profileRow } from "../resources/profiles.js"

/**
 * When a change happened: a block height (bus events carry it in their id), or only the block's
 * time (the positions and liquidity streams carry no height; the bus's time updates map it).
 */
export type BlockRef = { readonly height: number } | { readonly timeNanos: bigint }

export type LiveItem =
  /** A block's time update: the block `height` happened at `timeNanos`. */
  | { readonly _tag: "Tick"; readonly height: number; readonly timeNanos: bigint }
  | {
      readonly _tag: "Rows"
      readonly resource: ResourceName
      readonly at: BlockRef
      /** The node whose stream said it. */
      readonly node: string
      readonly rows: ReadonlyArray<readonly [string, Row]>
    }
  | {
      readonly _tag: "Hints"
      readonly resource: ResourceName
      readonly at: BlockRef
      readonly node: string
      readonly hints: ReadonlyArray<string>
    }
  /** A source connected: what it carries may have been missed until now. */
  | { readonly _tag: "Gap"; readonly resources: ReadonlyArray<ResourceName>; readonly source: string }
  /** A source went down: until it is back and its gap read again, its resources are not known complete. */
  | { readonly _tag: "Down"; readonly resources: ReadonlyArray<ResourceName>; readonly source: string }

/** The bus event types each resource fed by the bus needs: its definition's `live.types`. */
export const busTypesOf: { readonly [R in ResourceName]?: ReadonlyArray<EventBus.BusEventType> } = Object.fromEntries(
  allDefinitions.flatMap((definition) =>
    definition.live._tag === "Bus" ? [[definition.name, definition.live.types] as const] : []
  )
)

/** Every block's time update: the watcher's clock, and the map from block times to heights. */
export const TICK_TYPE: EventBus.BusEventType = "BUS_EVENT_TYPE_TIME_UPDATE"

const encodePosition = Encoder.encodeSync(Position.Position)

/** The items of one message of the bus: events of one resource and block grouped together. */
export const fromBusEvents = (events: ReadonlyArray<EventBus.BusEvent>, node: string): ReadonlyArray<LiveItem> => {
  const items: Array<LiveItem> = []
  const hints = new Map<string, { resource: ResourceName; height: number; hints: Set<string> }>()
  const hint = (resource: ResourceName, height: number, value: string) => {
    const id = `${resource}@${height}`
    const entry = hints.get(id) ?? { resource, height, hints: new Set<string>() }
    entry.hints.add(value)
    hints.set(id, entry)
  }
  for (const event of [...events].sort(EventBus.comparePosition)) {
    const height = Number(EventBus.heightOf(event))
    if (height < 0) continue
    if (event.timeUpdate !== undefined) {
      items.push({ _tag: "Tick", height, timeNanos: event.timeUpdate.timestamp })
    } else if (event.stakeLinking !== undefined) {
      hint("stake", height, event.stakeLinking.party)
    } else if (event.partyProfileUpdated !== undefined) {
      const profile = event.partyProfileUpdated.updatedProfile
      items.push({
        _tag: "Rows",
        resource: "profiles",
        at: { height },
        node,
        rows: [[profile.partyId, profileRow(profile)]]
      })
    } else if (event.party !== undefined) {
      items.push({
        _tag: "Rows",
        resource: "profiles",
        at: { height },
        node,
        rows: [[event.party.id, newPartyRow(event.party.id)]]
      })
    } else if (event.rewardPayout !== undefined) {
      hint("rewards", height, "")
    } else if (event.referralSetStatsUpdated !== undefined) {
      hint("referrals", height, event.referralSetStatsUpdated.setId)
    } else if (event.erc20MultisigSignerAdded !== undefined || event.nodeSignature !== undefined) {
      hint("signerBundles", height, "")
    }
  }
  for (const entry of hints.values()) {
    items.push({ _tag: "Hints", resource: entry.resource, at: { height: entry.height }, node, hints: [...entry.hints] })
  }
  return items
}

/** A positions stream message: a block's updates as whole rows, grouped by block; snapshot pages are not used. */
export const fromPositions = (message: Position.ObservePositionsResponse, node: string): ReadonlyArray<LiveItem> => {
  const positions = message.updates?.positions ?? []
  const byBlock = new Map<bigint, Array<readonly [string, Row]>>()
  for (const position of positions) {
    const rows = byBlock.get(position.updatedAt) ?? []
    rows.push([positionKey(position.marketId, position.partyId), encodePosition(position)])
    byBlock.set(position.updatedAt, rows)
  }
  return [...byBlock].map(([timeNanos, rows]) => ({
    _tag: "Rows",
    resource: "positions",
    at: { timeNanos },
    node,
    rows
  }))
}

/** A liquidity-provisions stream message: a hint per provision, grouped by block. */
export const fromProvisions = (
  provisions: ReadonlyArray<LiquidityProvision.LiquidityProvision>,
  node: string
): ReadonlyArray<LiveItem> => {
  const byBlock = new Map<bigint, Array<string>>()
  for (const lp of provisions) {
    const hints = byBlock.get(lp.updatedAt) ?? []
    hints.push(hintOf(lp))
    byBlock.set(lp.updatedAt, hints)
  }
  return [...byBlock].map(([timeNanos, hints]) => ({
    _tag: "Hints",
    resource: "liquidity",
    at: { timeNanos },
    node,
    hints
  }))
}

/** Unused bus types stay out of the subscription; the tick is always in it. */
export const busTypesFor = (resources: ReadonlyArray<ResourceName>): ReadonlyArray<EventBus.BusEventType> => [
  TICK_TYPE,
  ...resources.flatMap((resource) => busTypesOf[resource] ?? [])
]
