/**
 * `GET /api/v2/referral-sets/stats` (GetReferralSetStats).
 */
import { DataNodeApi, Decimal, Encoder, GatewayError, ReferralSetStats } from "@vega-effect/schema"
import * as Option from "effect/Option"
import { resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import { compareReferralStatsToKey, type ReferralStatsKey, type ReferralStatsRow } from "../world/referrals.js"
import { idSortKey } from "../world/versioned.js"
import { arraySource, cachedJsonByVersion, list } from "./connection.js"
import { type NodeVersion, since } from "./nodeVersion.js"
import { ReferralSetStatsCursor, writeCursor } from "./cursors.js"
import { decodesAsId } from "./ids.js"
import type { NodeView } from "./node.js"
import { int64, pagination, str } from "./params.js"
import { badCursor, internal, invalidId, invalidPagination, notHex, ok } from "./reply.js"

const encode = Encoder.stringify(ReferralSetStats.ReferralSetStats)
const decimal = (s: string) => Option.getOrThrow(Decimal.parse(s))

/** The same factor for the three fee kinds. */
const rewardFactors = (factor: string) => ({
  infrastructureRewardFactor: decimal(factor),
  liquidityRewardFactor: decimal(factor),
  makerRewardFactor: decimal(factor)
})

/**
 * From v0.78 the factors are objects per fee kind and the single deprecated factors are written as
 * `""` (see the data-node facts, changes by version).
 */
const factorsOf = (row: ReferralStatsRow, version: NodeVersion) =>
  since(version, "v0.79")
    ? {
        discountFactor: Option.none(),
        rewardFactor: Option.none(),
        rewardsFactorMultiplier: Option.none(),
        discountFactors: {
          infrastructureDiscountFactor: decimal(row.discountFactor),
          liquidityDiscountFactor: decimal(row.discountFactor),
          makerDiscountFactor: decimal(row.discountFactor)
        },
        rewardFactors: rewardFactors(row.rewardFactor),
        rewardsFactorsMultiplier: rewardFactors(row.rewardsFactorMultiplier)
      }
    : {
        discountFactor: Option.some(decimal(row.discountFactor)),
        rewardFactor: Option.some(decimal(row.rewardFactor)),
        rewardsFactorMultiplier: Option.some(decimal(row.rewardsFactorMultiplier))
      }

export const statsJson = cachedJsonByVersion((row: ReferralStatsRow, version) =>
  encode({
    atEpoch: BigInt(row.epoch),
    referralSetRunningNotionalTakerVolume: row.runningVolume,
    partyId: row.referee.id,
    epochNotionalTakerVolume: row.epochVolume,
    rewardsMultiplier: decimal(row.rewardsMultiplier),
    wasEligible: row.wasEligible,
    referrerTakerVolume: row.referrerTakerVolume,
    ...factorsOf(row, version)
  } as unknown as ReferralSetStats.ReferralSetStats)
)

/** The cursor of a row; the v0.75 node never fills `SetID`, the correct node does. */
const statsCursor = (row: ReferralStatsRow): string =>
  writeCursor(ReferralSetStatsCursor, [row.vt, row.epoch, row.set.id, row.referee.id])
const quirkyStatsCursor = (row: ReferralStatsRow): string =>
  writeCursor(ReferralSetStatsCursor, [row.vt, row.epoch, "", row.referee.id])

const { ApiErrors } = GatewayError

const handle = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const setId = str(params, "referralSetId") || undefined
  const referee = str(params, "referee") || undefined
  const atEpoch = int64(params, "atEpoch")
  if (setId !== undefined && !decodesAsId(setId)) return invalidId(ApiErrors.ReferralSetStats, notHex(setId))
  const { referralSets } = node.world
  const height = node.readableHeight
  // without atEpoch: the last epoch with statistics, unless both the set and the referee are
  // given, in which case the whole history of that referee in that set
  const epochs: Array<number> = []
  if (atEpoch !== undefined) {
    epochs.push(Number(atEpoch))
  } else if (setId !== undefined && referee !== undefined) {
    epochs.push(...[...referralSets.byEpoch.keys()].sort((a, b) => b - a))
  } else {
    const latest = referralSets.latestEpoch(height)
    if (latest !== undefined) epochs.push(latest)
  }
  const set = setId?.toLowerCase()
  const rows: Array<ReferralStatsRow> = []
  for (const epoch of epochs) {
    for (const row of referralSets.byEpoch.get(epoch) ?? []) {
      // referee is compared as text with the lowercase id the node stored
      if (
        row.from <= height &&
        (set === undefined || row.set.id === set) &&
        (referee === undefined || row.referee.id === referee)
      ) {
        rows.push(row)
      }
    }
  }
  const cursorOf = node.quirks ? quirkyStatsCursor : statsCursor
  const result = list<ReferralStatsRow, ReferralStatsKey>({
    request,
    cursor: ReferralSetStatsCursor,
    keyOf: (v) => ({
      epoch: v.get("AtEpoch") as number,
      setId: (v.get("SetID") as string).toLowerCase(),
      partyKey: idSortKey(v.get("PartyID") as string)
    }),
    source: arraySource(rows, compareReferralStatsToKey, cursorOf),
    nodeJson: statsJson(node.nodeVersion)
  })
  if ("cursorError" in result) return internal(ApiErrors.ReferralSetStats, badCursor(result.cursorError))
  return ok(`{"stats":${result.json}}`)
}

export const route: Route<NodeView> = {
  method: DataNodeApi.GetReferralSetStats.method,
  path: DataNodeApi.GetReferralSetStats.path,
  params: [
    param("referralSetId", "string"),
    param("atEpoch", "uint64"),
    param("referee", "string"),
    ...paginationParams
  ],
  handle
}
