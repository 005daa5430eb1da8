/**
 * What the watcher knows about one resource, in one place: its name, how its stored rows spread
 * over shards, its configuration, how to read it, which live source feeds it, what a change of one
 * of its rows means, and how a person is shown a row. Each `resources/<name>.ts` exports one
 * definition; `Resources.ts` lists them, and every other per-resource table (the names, the shard
 * counts, the `watch` configuration, the readers, the live subscriptions, the console's fields) is
 * derived from that list, so a resource added there is a resource the watcher fully handles, and
 * one missing a part does not compile.
 */
import type { DataNodeClient, DataNodeError } from "@vega-effect/http"
import { Decoder, type Enum, type EventBus, type LiquidityProvision, type Position } from "@vega-effect/schema"
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import type { Change, Row } from "./Event.js"
import type { DiffContext, Resource } from "./Resource.js"
import type { Shard } from "./Shard.js"
import type { Units } from "./Units.js"
import type { OptionsOf } from "./WatchOptions.js"

/** The command line's `--party` and `--market` fill these fields of every resource that lists them. */
export type SharedFilter = "parties" | "markets"

/**
 * How a resource is cut into shards. The count is part of the stored state (a row belongs to the
 * slice that wrote it), so it is fixed here rather than configured; changing it needs a migration.
 */
export interface Sharding<Options> {
  readonly count: number
  /** The id a stored row is sharded by (its market, its party), from its key and its stored row. */
  readonly idOf: (key: string, row: Row) => string
  /** Every id there is to cut into shards (the node's markets, the watched parties). */
  readonly ids: (
    client: DataNodeClient.Service,
    options: Options
  ) => Effect.Effect<ReadonlyArray<string>, DataNodeError.DataNodeError>
}

/** A resource read whole: one slice, named after the resource. */
export const unsharded: Sharding<unknown> = { count: 1, idOf: () => "", ids: () => Effect.succeed([]) }

/** What a reader is made from when a watcher takes one of the resource's slices. */
export interface ReaderInput<Options> {
  readonly client: DataNodeClient.Service
  readonly options: Options
  readonly shard: Shard
  /**
   * The ids the resource is sharded by (see `Sharding.ids`), read once for all its shards and
   * kept briefly (about a cycle); for an unsharded resource, no ids.
   */
  readonly shardIds: Effect.Effect<ReadonlyArray<string>, DataNodeError.DataNodeError>
}

/** The event-bus subscription most resources share; it also carries the block ticks. */
export const SHARED_BUS = "bus"

/** What each of the node's dedicated streams a resource can be fed by carries (see `live/Sources.ts`). */
export interface StreamMessages {
  readonly positions: Position.ObservePositionsResponse
  readonly liquidity: ReadonlyArray<LiquidityProvision.LiquidityProvision>
}

/** The node's dedicated streams a resource can be fed by. */
export type LiveStreamName = keyof StreamMessages

/**
 * What a live event or stream record says of a resource: whole rows (by key) to apply as they are,
 * or a hint naming what to read again (the resource's `readHinted` reads it; `""` where the
 * resource is read whole).
 */
export type LiveChange =
  | { readonly _tag: "Rows"; readonly rows: ReadonlyArray<readonly [string, Row]> }
  | { readonly _tag: "Hint"; readonly hint: string }

/** A stream record's change, with the time of the block it belongs to (the streams carry no height). */
export interface TimedChange {
  readonly timeNanos: bigint
  readonly change: LiveChange
}

/**
 * Where live changes of a resource come from, and what they say: bus event types (on the shared
 * subscription or on one of their own, named for logs and metrics) with what each event says, or
 * a dedicated stream with what each of its messages says.
 */
export type LiveSource =
  | {
      readonly _tag: "Bus"
      readonly types: ReadonlyArray<EventBus.BusEventType>
      readonly subscription: string
      /** What an event of one of `types` says of the resource; nothing for one that says nothing. */
      readonly change: (event: EventBus.BusEvent) => LiveChange | undefined
    }
  | { readonly [S in LiveStreamName]: StreamSource<S> }[LiveStreamName]

/** A dedicated stream feeding a resource, and what each of its messages says of it. */
export interface StreamSource<S extends LiveStreamName> {
  readonly _tag: "Stream"
  readonly stream: S
  readonly changes: (message: StreamMessages[S]) => ReadonlyArray<TimedChange>
}

/** Rows as a live change. */
export const liveRows = (rows: ReadonlyArray<readonly [string, Row]>): LiveChange => ({ _tag: "Rows", rows })

/** A hint as a live change. */
export const liveHint = (hint: string): LiveChange => ({ _tag: "Hint", hint })

/** What a diff is told besides the decoded rows. */
export interface DiffInput<Options> extends DiffContext {
  readonly options: Options
}

/** What the change from `before` to `after` (either absent: created or gone) means; may be nothing. */
export type DecodedDiff<A, Options> = (
  before: A | undefined,
  after: A | undefined,
  input: DiffInput<Options>
) => ReadonlyArray<Change>

/** The field names of a stored row (of any of its forms, for a resource with several). */
export type FieldNames<I> = I extends unknown ? Extract<keyof I, string> : never

export interface ResourceDefinition<Name extends string, Fields extends Schema.Struct.Fields, A, I extends Row> {
  /** The resource's name: in events, slices, the store and `watch.<name>`. */
  readonly name: Name
  /** How people call it, in help texts. */
  readonly label: string
  readonly sharding: Sharding<OptionsOf<Fields>>
  /** The fields of `watch.<name>` besides `enabled` (filters, thresholds). */
  readonly options: Fields
  /** Which of those fields the command line's shared `--party`/`--market` flags fill. */
  readonly sharedFilters: ReadonlyArray<SharedFilter & keyof Fields>
  /** The reader of one shard (see `Resource`), with `diff` over stored rows (see `rowDiff`). */
  readonly reader: (input: ReaderInput<OptionsOf<Fields>>) => Resource
  readonly live: LiveSource
  /** The stored row: its wire form (what is stored and put in events) and its decoded form (what `diff` reads). */
  readonly row: Schema.Schema<A, I>
  readonly diff: DecodedDiff<A, OptionsOf<Fields>>
  /** The fields that say the most about a row, best first: what the console shows of it. */
  readonly mainFields: ReadonlyArray<FieldNames<I>>
  /** Which decimals scale which fields and details, for the console's human units (`Units.none`: none). */
  readonly units: Units
}

/** A definition, its types checked and kept (a `const` name, so that names stay literal). */
export const define = <const Name extends string, Fields extends Schema.Struct.Fields, A, I extends Row>(
  definition: ResourceDefinition<Name, Fields, A, I>
): ResourceDefinition<Name, Fields, A, I> => definition

/** A diff context without assets: amounts are said in raw units only. */
export const noAssets: DiffContext = { asset: () => undefined }

/**
 * The diff of stored rows: each decoded with the row's schema, then the decoded diff. A stored row
 * is always the encoding of its schema (rows are written by encoding what was read), so decoding
 * it cannot fail unless the schema changed incompatibly.
 */
export const rowDiff = <A, I, Options>(row: Schema.Schema<A, I>, diff: DecodedDiff<A, Options>) => {
  const decode = Decoder.decodeUnknownSync(row)
  return (
    before: Row | undefined,
    after: Row | undefined,
    context: DiffContext,
    options: Options
  ): ReadonlyArray<Change> =>
    diff(before === undefined ? undefined : decode(before), after === undefined ? undefined : decode(after), {
      asset: context.asset,
      options
    })
}

/**
 * An open enum's value as the node names it: a known name, or an unknown one as received; an
 * unknown bare number (the node did not know the name either) says `fallback`.
 */
export const enumName = (value: string | Enum.UnknownEnumValue, fallback: string): string =>
  typeof value === "string" ? value : typeof value.value === "string" ? value.value : fallback
