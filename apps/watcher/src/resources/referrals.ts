/**
 * Referral set statistics, one row per set and epoch holding every referee's statistics.
 *
 * Without `atEpoch` the node serves only the last epoch for which any set has statistics, so a read
 * asks for that epoch (per configured set, or for all sets at once) and is incremental: earlier
 * epochs stay as they were held. When the epochs held for a set stop short of the latest, the
 * missing ones are read by `atEpoch` too (the most recent {@link MAX_CATCH_UP} of them), so a
 * watcher that was stopped for a few epochs still reports them. The latest epoch is read again on
 * every cycle, so statistics the node revises show as a change.
 *
 * The node's rows do not name their set: with `sets` configured each read is for one set and its
 * rows carry that set's id; without, all sets of an epoch share one row, with `setId: ""` and a key
 * starting with `-`.
 *
 * Pages hold `Pagination.MAX_PAGE_SIZE` rows (5000, the node's maximum): a real v0.75 node cannot
 * page these statistics by cursor within an epoch (the client stops with `PaginationLoopError`
 * rather than lose rows), so an epoch must fit in one page; narrow the read with `sets` if it
 * does not.
 */
import type { DataNodeClient, DataNodeError } from "@vega-effect/http"
import { Encoder, Pagination, ReferralSetStats } from "@vega-effect/schema"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type { Change, Row } from "../Event.js"
import { sameMultiset } from "../FieldChanges.js"
import type { Resource } from "../Resource.js"
import { type DecodedDiff, define, liveHint, noAssets, rowDiff, SHARED_BUS, unsharded } from "../ResourceDefinition.js"
import * as Units from "../Units.js"
import { IdList, type OptionsOf } from "../WatchOptions.js"
import { catalog } from "../ResourceCatalog.js"

const encodeStats = Encoder.encodeSync(ReferralSetStats.ReferralSetStats)

/** `watch.referrals`: the referral sets to read (absent: all at once, the set unknown). */
const fields = { sets: Schema.optional(IdList) }
export type Options = OptionsOf<typeof fields>

/** One set's (or all sets', `setId: ""`) statistics of one epoch: every referee's, as the node lists them. */
export const ReferralEpochRow = Schema.Struct({
  setId: Schema.String,
  epoch: Schema.String,
  referees: Schema.Array(ReferralSetStats.ReferralSetStats)
})
export type ReferralEpochRow = typeof ReferralEpochRow.Encoded
type StatsRow = typeof ReferralSetStats.ReferralSetStats.Encoded
type EpochStats = typeof ReferralEpochRow.Type
type Referee = ReferralSetStats.ReferralSetStats

/** Missing epochs read per set and cycle at most; older ones are skipped. */
export const MAX_CATCH_UP = 24

export const referralKey = (setId: string, epoch: string): string => `${setId === "" ? "-" : setId}/${epoch}`

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Referees by id; ties (one party in two sets, when sets are not told apart) by their JSON. */
const compareReferees = (a: StatsRow, b: StatsRow): number =>
  byText(a.partyId, b.partyId) || byText(JSON.stringify(a), JSON.stringify(b))

export const epochRow = (setId: string, epoch: string, referees: ReadonlyArray<StatsRow>): ReferralEpochRow => ({
  setId,
  epoch,
  referees: [...referees].sort(compareReferees)
})

/** Totals of one set and epoch; the running volume is the set's, so it is given only when all referees agree on it. */
const summaryOf = (stats: EpochStats) => {
  const { referees } = stats
  const running = new Set(referees.map((r) => r.referralSetRunningNotionalTakerVolume.toString()))
  return {
    setId: stats.setId,
    epoch: stats.epoch,
    referees: referees.length,
    eligible: referees.filter((r) => r.wasEligible).length,
    epochNotionalTakerVolume: referees.reduce((sum, r) => sum + r.epochNotionalTakerVolume, 0n).toString(),
    runningNotionalTakerVolume: running.size === 1 ? [...running][0] : null
  }
}

const sameReferee = Schema.equivalence(ReferralSetStats.ReferralSetStats)
const sameEpochStats = Schema.equivalence(ReferralEpochRow)

/** Each referee id with its statistics (several when one party is counted in several sets). */
const statsByReferee = (stats: EpochStats): ReadonlyMap<string, ReadonlyArray<Referee>> => {
  const out = new Map<string, Array<Referee>>()
  for (const referee of stats.referees) out.set(referee.partyId, [...(out.get(referee.partyId) ?? []), referee])
  return out
}

const refereeChanges = (before: EpochStats, after: EpochStats) => {
  const [was, now] = [statsByReferee(before), statsByReferee(after)]
  return {
    refereesAdded: [...now.keys()].filter((id) => !was.has(id)).sort(byText),
    refereesRemoved: [...was.keys()].filter((id) => !now.has(id)).sort(byText),
    refereesChanged: [...now.keys()]
      .filter((id) => was.has(id) && !sameMultiset(was.get(id)!, now.get(id)!, sameReferee))
      .sort(byText)
  }
}

const diffDecoded: DecodedDiff<EpochStats, Options> = (before, after) => {
  if (after === undefined) {
    return before === undefined ? [] : [{ kind: "referral.epoch_stats_removed", details: summaryOf(before) }]
  }
  if (before === undefined) return [{ kind: "referral.epoch_stats", details: summaryOf(after) }]
  if (sameEpochStats(before, after)) return []
  return [{ kind: "referral.epoch_stats_changed", details: { ...summaryOf(after), ...refereeChanges(before, after) } }]
}

const diffRows = rowDiff(ReferralEpochRow, diffDecoded)

/** {@link diffDecoded} over stored rows. */
export const diff = (before: Row | undefined, after: Row | undefined): ReadonlyArray<Change> =>
  diffRows(before, after, noAssets, { enabled: true })

/** The highest epoch held for a set, from the held keys. */
export const lastHeldEpoch = (heldKeys: ReadonlyArray<string>, setId: string): bigint | undefined => {
  const prefix = `${setId === "" ? "-" : setId}/`
  let last: bigint | undefined
  for (const key of heldKeys) {
    if (!key.startsWith(prefix)) continue
    const epoch = key.slice(prefix.length)
    if (/^\d+$/.test(epoch) && (last === undefined || BigInt(epoch) > last)) last = BigInt(epoch)
  }
  return last
}

export const make = (client: DataNodeClient.Service, options: Options): Resource => {
  const sets = options.sets === undefined || options.sets.length === 0 ? [""] : [...new Set(options.sets)]

  /** The statistics of one set (or all: `""`) at `atEpoch` (or the latest), by epoch. */
  const readEpochs = (
    setId: string,
    atEpoch: bigint | undefined
  ): Effect.Effect<Map<string, Array<StatsRow>>, DataNodeError.DataNodeError> =>
    client
      .referralSetStats(
        {
          ...(setId === "" ? {} : { referralSetId: setId }),
          ...(atEpoch === undefined ? {} : { atEpoch: atEpoch.toString() })
        },
        { pageSize: Pagination.MAX_PAGE_SIZE }
      )
      .pipe(
        Stream.runCollect,
        Effect.map((items) => {
          const byEpoch = new Map<string, Array<StatsRow>>()
          for (const { node } of Chunk.toReadonlyArray(items)) {
            const stats = encodeStats(node)
            const list = byEpoch.get(stats.atEpoch)
            if (list === undefined) byEpoch.set(stats.atEpoch, [stats])
            else list.push(stats)
          }
          return byEpoch
        })
      )

  const readSet = (setId: string, heldKeys: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      const byEpoch = yield* readEpochs(setId, undefined)
      const latest = [...byEpoch.keys()].reduce<bigint | undefined>(
        (max, epoch) => (max === undefined || BigInt(epoch) > max ? BigInt(epoch) : max),
        undefined
      )
      const held = lastHeldEpoch(heldKeys, setId)
      if (latest !== undefined && held !== undefined && latest - held > 1n) {
        const first = held + 1n > latest - BigInt(MAX_CATCH_UP) ? held + 1n : latest - BigInt(MAX_CATCH_UP)
        const missing: Array<bigint> = []
        for (let epoch = first; epoch < latest; epoch++) missing.push(epoch)
        const caught = yield* Effect.forEach(missing, (epoch) => readEpochs(setId, epoch), { concurrency: 2 })
        for (const more of caught) for (const [epoch, stats] of more) byEpoch.set(epoch, stats)
      }
      return [...byEpoch]
        .sort(([a], [b]) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0))
        .map(([epoch, stats]): readonly [string, Row] => [referralKey(setId, epoch), epochRow(setId, epoch, stats)])
    })

  return {
    name: "referrals",
    read: ({ heldKeys, previous }) =>
      Effect.flatMap(previous.size === 0 ? Effect.succeed([]) : heldKeys, (keys) =>
        Effect.forEach(sets, (setId) => readSet(setId, keys), { concurrency: 4 })
      ).pipe(Effect.map((perSet) => ({ rows: new Map<string, Row>(perSet.flat()), complete: false }))),
    diff: (before, after) => diff(before, after)
  }
}

/** Referral set statistics: one slice, read again on a hint when the bus says a set's statistics were updated. */
export const definition = define({
  ...catalog.referrals,
  sharding: unsharded,
  options: fields,
  reader: ({ client, options }) => make(client, options),
  live: {
    _tag: "Bus",
    types: ["BUS_EVENT_TYPE_REFERRAL_SET_STATS_UPDATED"],
    subscription: SHARED_BUS,
    change: (event) =>
      event.referralSetStatsUpdated === undefined ? undefined : liveHint(event.referralSetStatsUpdated.setId)
  },
  row: ReferralEpochRow,
  diff: diffDecoded,
  // the statistics are per referee, inside `referees`: a row is shown by its set and epoch
  mainFields: ["setId", "epoch", "referees"],
  units: Units.none
})
