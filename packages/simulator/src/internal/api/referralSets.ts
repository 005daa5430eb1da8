/**
 * `GET /api/v2/referral-sets` (ListReferralSets) and `GET /api/v2/referral-sets/referees`
 * (ListReferralSetReferees), as the v0.75.8 data node answers them (datanode/api/trading_data_v2.go,
 * datanode/sqlstore/referral_sets.go, datanode/entities/referral_sets.go).
 *
 * Both take at most one filter: the set id, else the referrer, else the referee (the others are
 * then ignored, not even decoded). The filters are ids bound as bytes: any case matches, and a
 * value that does not decode fails the query, which the handler reports as the bare store error
 * (400, unmapped code 10000, the error's text as message, no inner).
 *
 * Sets are ordered by `created_at` alone; their cursor is `{"CreatedAt":…,"ID":…}`, of which only
 * the time is compared (with quirks on, a cursor restarts at the first set of its time; without,
 * the id breaks ties). `totalMembers` counts the set's current referees plus the referrer.
 *
 * Referees are the current memberships (a party's latest join), ordered by `joined_at, referee`,
 * cursor `{"JoinedAt":…,"Referee":…}`. `totalRefereeNotionalTakerVolume` sums the referee's epoch
 * volumes in the referral statistics of every set over the last `aggregationEpochs` ended epochs
 * (default 30); `totalRefereeGeneratedRewards` sums the referrer rewards the referee generated as
 * the fees statistics record them, which the world does not model: always `"0"`.
 */
import { DataNode, DataNodeApi, Decimal, Encoder, GatewayError, type Ids } from "@vega-effect/schema"
import * as Option from "effect/Option"
import { resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { RefereeJoin, ReferralSetCreation } from "../world/referrals.js"
import { compareStrings, idSortKey } from "../world/versioned.js"
import { arraySource, list } from "./connection.js"
import { ReferralSetCursor, ReferralSetRefereeCursor, writeCursor } from "./cursors.js"
import { storedIdKey } from "./ids.js"
import type { NodeView } from "./node.js"
import { int, pagination, str } from "./params.js"
import { badCursor, error, invalidPagination, notHex, ok } from "./reply.js"

const encodeSet = Encoder.stringify(DataNode.ReferralSet)
const encodeReferee = Encoder.stringify(DataNode.ReferralSetReferee)
const ZERO = Option.getOrThrow(Decimal.parse("0"))

/** Microseconds to the nanoseconds of a `VegaTimestamp`. */
const nanos = (micros: number) => (BigInt(micros) * 1000n) as never

/**
 * The store's error returned as it is (`formatE(err)` without an API error): its text is the
 * message, with the unmapped code; an id that does not decode makes it InvalidArgument.
 */
const storeError = (message: string, grpcCode: GatewayError.GrpcCode): Reply =>
  error(GatewayError.handlerError(grpcCode, GatewayError.ErrorDetailCode.Unmapped, message))

const badFilter = (value: string): Reply =>
  storeError(`scany: query multiple result rows: ${notHex(value)}`, GatewayError.GrpcCode.InvalidArgument)

/** The one filter the store applies: the set id, else the referrer, else the referee. */
type Filter =
  | { readonly by: "none" }
  | { readonly by: "set" | "referrer" | "referee"; readonly key: string | undefined; readonly raw: string }

const filterOf = (params: Params): Filter => {
  for (const [name, by] of [
    ["referralSetId", "set"],
    ["referrer", "referrer"],
    ["referee", "referee"]
  ] as const) {
    const raw = str(params, name)
    if (raw !== undefined) return { by, key: storedIdKey(raw), raw }
  }
  return { by: "none" }
}

const setCursor = (c: ReferralSetCreation): string => writeCursor(ReferralSetCursor, [c.vt, c.set.id])

interface SetKey {
  readonly vt: number
  readonly id: string
}

const handleSets = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const filter = filterOf(params)
  if (filter.by !== "none" && filter.key === undefined) return badFilter(filter.raw)
  const { referralSets } = node.world
  const height = node.readableHeight
  const counts = referralSets.refereeCounts(height)
  const refereeOf =
    filter.by === "referee"
      ? referralSets.currentRefereesAt(height).find((j) => j.referee.id === filter.key)?.set.id
      : undefined
  const rows = referralSets.creations.filter(
    (c) =>
      c.height <= height &&
      (filter.by === "none" ||
        (filter.by === "set" && c.set.id === filter.key) ||
        (filter.by === "referrer" && c.set.referrer.id === filter.key) ||
        (filter.by === "referee" && c.set.id === refereeOf))
  )
  const json = (c: ReferralSetCreation) =>
    encodeSet({
      id: c.set.id as Ids.VegaId,
      referrer: c.set.referrer.id as Ids.PartyId,
      createdAt: nanos(c.vt),
      updatedAt: nanos(c.vt),
      totalMembers: BigInt((counts.get(c.set.id) ?? 0) + 1)
    })
  const compare = node.quirks
    ? (c: ReferralSetCreation, k: SetKey) => c.vt - k.vt
    : (c: ReferralSetCreation, k: SetKey) => c.vt - k.vt || compareStrings(c.set.id, k.id)
  const result = list<ReferralSetCreation, SetKey>({
    request,
    cursor: ReferralSetCursor,
    keyOf: (v) => ({ vt: v.get("CreatedAt") as number, id: (v.get("ID") as string).toLowerCase() }),
    source: arraySource(rows, compare, setCursor),
    nodeJson: json
  })
  if ("cursorError" in result) return storeError(badCursor(result.cursorError), GatewayError.GrpcCode.Internal)
  return ok(`{"referralSets":${result.json}}`)
}

const refereeCursor = (j: RefereeJoin): string => writeCursor(ReferralSetRefereeCursor, [j.vt, j.referee.id])

interface RefereeKey {
  readonly vt: number
  readonly partyKey: string
}

const handleReferees = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const filter = filterOf(params)
  if (filter.by !== "none" && filter.key === undefined) return badFilter(filter.raw)
  const { referralSets } = node.world
  const height = node.readableHeight
  const rows = referralSets
    .currentRefereesAt(height)
    .filter(
      (j) =>
        filter.by === "none" ||
        (filter.by === "set" && j.set.id === filter.key) ||
        (filter.by === "referrer" && j.set.referrer.id === filter.key) ||
        (filter.by === "referee" && j.referee.id === filter.key)
    )
  // the window: the last ended epoch and the `aggregationEpochs` before it, from epoch 0
  const aggregation = int(params, "aggregationEpochs") ?? 30
  const last = referralSets.latestEpoch(height) ?? 0
  const volumes = referralSets.periodVolumes(Math.max(last - aggregation, 0), last, height)
  const json = (j: RefereeJoin) =>
    encodeReferee({
      referralSetId: j.set.id as Ids.VegaId,
      referee: j.referee.id as Ids.PartyId,
      joinedAt: nanos(j.vt),
      atEpoch: BigInt(j.epoch),
      totalRefereeNotionalTakerVolume: volumes.get(j.referee.id) ?? 0n,
      totalRefereeGeneratedRewards: ZERO
    })
  const result = list<RefereeJoin, RefereeKey>({
    request,
    cursor: ReferralSetRefereeCursor,
    keyOf: (v) => ({ vt: v.get("JoinedAt") as number, partyKey: idSortKey(v.get("Referee") as string) }),
    source: arraySource(rows, (j, k) => j.vt - k.vt || compareStrings(j.referee.key, k.partyKey), refereeCursor),
    nodeJson: json
  })
  if ("cursorError" in result) return storeError(badCursor(result.cursorError), GatewayError.GrpcCode.Internal)
  return ok(`{"referralSetReferees":${result.json}}`)
}

export const setsRoute: Route<NodeView> = {
  method: DataNodeApi.ListReferralSets.method,
  path: DataNodeApi.ListReferralSets.path,
  params: [
    param("referralSetId", "string"),
    ...paginationParams,
    param("referrer", "string"),
    param("referee", "string")
  ],
  handle: handleSets
}

export const refereesRoute: Route<NodeView> = {
  method: DataNodeApi.ListReferralSetReferees.method,
  path: DataNodeApi.ListReferralSetReferees.path,
  params: [
    param("referralSetId", "string"),
    ...paginationParams,
    param("referrer", "string"),
    param("referee", "string"),
    param("aggregationEpochs", "uint32")
  ],
  handle: handleReferees
}
