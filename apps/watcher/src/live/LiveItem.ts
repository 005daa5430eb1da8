/**
 * What the node's live streams tell the watcher, in the watcher's terms: whole rows to apply, hints
 * naming rows to read again, the passing of blocks, and gaps (a stream (re)connected, so what it
 * would have carried meanwhile is lost and the resources it feeds must be read again).
 *
 * Which live source feeds which resource, and what each event or stream record says of it (whole
 * rows or a hint), is each definition's `live` (see `ResourceDefinition.ts`); this module only
 * groups what they say by block and resource.
 */
import { EventBus } from "@vega-effect/schema"
import type { Row } from "../Event.js"
import type { LiveChange, LiveStreamName, StreamMessages, StreamSource } from "../ResourceDefinition.js"
import { allDefinitions, type AnyDefinition, definitionOf, type ResourceName } from "../Resources.js"

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
  /**
   * A source connected: what it carries may have been missed until now. `subscribed`: the gap
   * came with the message the node sends just before it subscribes the source to updates (the
   * positions stream's last snapshot page), so what was missed ends at the block the node is at
   * now; otherwise the node subscribes it at some point after the connection.
   */
  | {
      readonly _tag: "Gap"
      readonly resources: ReadonlyArray<ResourceName>
      readonly source: string
      readonly subscribed: boolean
    }
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

/** The resources each bus event type feeds. */
const busFeeds = new Map<EventBus.BusEventType, Array<AnyDefinition>>()
for (const definition of allDefinitions) {
  if (definition.live._tag !== "Bus") continue
  for (const type of definition.live.types) busFeeds.set(type, [...(busFeeds.get(type) ?? []), definition])
}

/** Changes of one source message, gathered per resource and block: rows in order, hints once each. */
class Gathered {
  private readonly items: Array<LiveItem> = []
  private readonly hints = new Map<string, { resource: ResourceName; at: BlockRef; hints: Set<string> }>()
  private readonly rows = new Map<
    string,
    { resource: ResourceName; at: BlockRef; rows: Array<readonly [string, Row]> }
  >()

  constructor(
    private readonly node: string,
    /** Whether the rows of one block are one item (a stream's) or one item per event (the bus's, in order). */
    private readonly rowsPerBlock: boolean
  ) {}

  add(resource: ResourceName, at: BlockRef, change: LiveChange): void {
    const id = `${resource}@${"height" in at ? at.height : `t${at.timeNanos}`}`
    if (change._tag === "Hint") {
      const entry = this.hints.get(id) ?? { resource, at, hints: new Set<string>() }
      entry.hints.add(change.hint)
      this.hints.set(id, entry)
    } else if (!this.rowsPerBlock) {
      this.items.push({ _tag: "Rows", resource, at, node: this.node, rows: change.rows })
    } else {
      const entry = this.rows.get(id) ?? { resource, at, rows: [] }
      entry.rows.push(...change.rows)
      this.rows.set(id, entry)
    }
  }

  tick(height: number, timeNanos: bigint): void {
    this.items.push({ _tag: "Tick", height, timeNanos })
  }

  done(): ReadonlyArray<LiveItem> {
    const { node } = this
    for (const { at, resource, rows } of this.rows.values()) this.items.push({ _tag: "Rows", resource, at, node, rows })
    for (const { at, hints, resource } of this.hints.values()) {
      this.items.push({ _tag: "Hints", resource, at, node, hints: [...hints] })
    }
    return this.items
  }
}

/** The items of one message of the bus: each event as its resource's definition reads it, hints grouped by resource and block. */
export const fromBusEvents = (events: ReadonlyArray<EventBus.BusEvent>, node: string): ReadonlyArray<LiveItem> => {
  const gathered = new Gathered(node, false)
  for (const event of [...events].sort(EventBus.comparePosition)) {
    const height = Number(EventBus.heightOf(event))
    if (height < 0) continue
    if (event.timeUpdate !== undefined) {
      gathered.tick(height, event.timeUpdate.timestamp)
      continue
    }
    for (const definition of busFeeds.get(event.type) ?? []) {
      const change = definition.live._tag === "Bus" ? definition.live.change(event) : undefined
      if (change !== undefined) gathered.add(definition.name, { height }, change)
    }
  }
  return gathered.done()
}

/** The items of one message of a dedicated stream, for the resources it feeds: grouped by resource and block. */
export const fromStream = <S extends LiveStreamName>(
  stream: S,
  feeds: ReadonlyArray<ResourceName>,
  message: StreamMessages[S],
  node: string
): ReadonlyArray<LiveItem> => {
  const gathered = new Gathered(node, true)
  for (const resource of feeds) {
    const { live } = definitionOf[resource]
    if (live._tag !== "Stream" || live.stream !== stream) continue
    // the definition's stream is `stream`, so its messages are this one's type
    for (const { change, timeNanos } of (live as unknown as StreamSource<S>).changes(message)) {
      gathered.add(resource, { timeNanos }, change)
    }
  }
  return gathered.done()
}

/** Unused bus types stay out of the subscription; the tick is always in it. */
export const busTypesFor = (resources: ReadonlyArray<ResourceName>): ReadonlyArray<EventBus.BusEventType> => [
  TICK_TYPE,
  ...resources.flatMap((resource) => busTypesOf[resource] ?? [])
]
