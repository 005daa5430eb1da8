/**
 * The programs and what they derive per epoch, as the v0.75.8 data node answers them
 * (datanode/api/trading_data_v2.go, datanode/sqlstore/{referral_programs,volume_discount_program,
 * volume_discount_stats,party_activity_streak}.go, datanode/entities/{referral_program,
 * volume_discount_program,volume_discount_stats,activity_streak}.go):
 *
 * - `GET /api/v2/referral-programs/current` and `GET /api/v2/volume-discount-programs/current`:
 *   the current version of the program; `endOfProgramTimestamp` in nanoseconds (the core gives
 *   seconds), `endedAt` only once ended.
 * - `GET /api/v2/volume-discount-programs/stats` (GetVolumeDiscountStats): one row per party and
 *   epoch, ordered by `at_epoch DESC, party_id ASC` (flipped by the default oldest-first order), cursor
 *   `{"VegaTime":…,"AtEpoch":…,"PartyID":…}`. Without `atEpoch` and `partyId` only the last epoch
 *   with statistics; `partyId` alone gives every epoch of the party. `partyId` is compared as text
 *   with the lowercase id stored, never validated.
 * - `GET /api/v2/party/activity/streak/{partyId}` (GetPartyActivityStreak): the party's row of
 *   `epoch`, else of its latest epoch. The id must be 64 hex digits (400 `invalid party id`); a
 *   party without a row is 404 with the store's `no resource corresponding to this id` as the
 *   message (unmapped code 10000).
 */
import {
  Amount,
  DataNode,
  DataNodeApi,
  Decimal,
  Encoder,
  GatewayError,
  Ids,
  Integer,
  ReferralSetStats,
  type VegaEvents
} from "@vega-effect/schema"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { ReferralProgram, VolumeDiscountProgram, VolumeDiscountStatsRow } from "../world/programs.js"
import { compareStrings } from "../world/versioned.js"
import { arraySource, cachedJsonByVersion, list } from "./connection.js"
import { VolumeDiscountStatsCursor, writeCursor } from "./cursors.js"
import type { NodeView } from "./node.js"
import { type NodeVersion, since } from "./nodeVersion.js"
import { int64, pagination, str } from "./params.js"
import { badCursor, error, internal, invalidPagination, ok } from "./reply.js"

const { ApiErrors } = GatewayError
const decimal = (s: string) => Option.getOrThrow(Decimal.parse(s))
const seconds = (s: number) => (BigInt(s) * 1_000_000_000n) as never

/**
 * From v0.79 the tiers and statistics carry their factors per fee kind (the same factor for the
 * three kinds here) and their tier number, and leave the single deprecated factor empty
 * (vegaprotocol/vega v0.79.0, core/types/{referral_program,volume_discount_program}.go `IntoProto`,
 * core/volumediscount/engine.go).
 */
const BenefitTierV79 = Schema.Struct({
  minimumRunningNotionalTakerVolume: Amount.Amount,
  minimumEpochs: Integer.Uint64,
  referralRewardFactor: Decimal.DecimalOrEmpty,
  referralDiscountFactor: Decimal.DecimalOrEmpty,
  referralRewardFactors: ReferralSetStats.RewardFactors,
  referralDiscountFactors: ReferralSetStats.DiscountFactors,
  tierNumber: Integer.Uint64
})
const VolumeBenefitTierV79 = Schema.Struct({
  minimumRunningNotionalTakerVolume: Amount.Amount,
  volumeDiscountFactor: Decimal.DecimalOrEmpty,
  volumeDiscountFactors: ReferralSetStats.DiscountFactors,
  tierNumber: Integer.Uint64
})
const VolumeDiscountStatsV79 = Schema.Struct({
  atEpoch: Integer.Uint64,
  partyId: Schema.String,
  discountFactor: Decimal.DecimalOrEmpty,
  runningVolume: Amount.Amount,
  discountFactors: ReferralSetStats.DiscountFactors
})
const encodeBenefitTierV79 = Encoder.stringify(BenefitTierV79)
const encodeVolumeBenefitTierV79 = Encoder.stringify(VolumeBenefitTierV79)
const encodeStatsV79 = Encoder.stringify(VolumeDiscountStatsV79)

const discountFactors = (factor: string) => ({
  infrastructureDiscountFactor: decimal(factor),
  liquidityDiscountFactor: decimal(factor),
  makerDiscountFactor: decimal(factor)
})
const rewardFactors = (factor: string) => ({
  infrastructureRewardFactor: decimal(factor),
  liquidityRewardFactor: decimal(factor),
  makerRewardFactor: decimal(factor)
})

/** Replaces the `benefitTiers` array of a program's JSON by the v0.79 tiers. */
const withTiers = (json: string, tiers: ReadonlyArray<string>): string =>
  json.replace(/"benefitTiers":\[[^\]]*\]/, `"benefitTiers":[${tiers.join(",")}]`)

const encodeReferralProgram = Encoder.stringify(DataNode.GetCurrentReferralProgramResponse)
const encodeVolumeProgram = Encoder.stringify(DataNode.GetCurrentVolumeDiscountProgramResponse)
const encodeStats = Encoder.stringify(DataNode.VolumeDiscountStats)
const encodeStreak = Encoder.stringify(DataNode.GetPartyActivityStreakResponse)

const referralProgramJson = (p: ReferralProgram, version: NodeVersion): string => {
  const json = referralProgramJsonV75(p)
  if (!since(version, "v0.79")) return json
  return withTiers(
    json,
    p.benefitTiers.map((t, i) =>
      encodeBenefitTierV79({
        minimumRunningNotionalTakerVolume: t.minimumRunningNotionalTakerVolume,
        minimumEpochs: t.minimumEpochs,
        referralRewardFactor: Option.none(),
        referralDiscountFactor: Option.none(),
        referralRewardFactors: rewardFactors(t.referralRewardFactor),
        referralDiscountFactors: discountFactors(t.referralDiscountFactor),
        tierNumber: BigInt(i + 1)
      } as unknown as typeof BenefitTierV79.Type)
    )
  )
}

const referralProgramJsonV75 = (p: ReferralProgram): string =>
  encodeReferralProgram({
    currentReferralProgram: {
      version: p.version,
      id: p.id as Ids.VegaId,
      benefitTiers: p.benefitTiers.map((t) => ({
        minimumRunningNotionalTakerVolume: t.minimumRunningNotionalTakerVolume,
        minimumEpochs: t.minimumEpochs,
        referralRewardFactor: decimal(t.referralRewardFactor),
        referralDiscountFactor: decimal(t.referralDiscountFactor)
      })),
      endOfProgramTimestamp: seconds(p.endOfProgramSeconds),
      windowLength: BigInt(p.windowLength),
      stakingTiers: p.stakingTiers.map((t) => ({
        minimumStakedTokens: t.minimumStakedTokens,
        referralRewardMultiplier: decimal(t.referralRewardMultiplier)
      }))
    }
  } as unknown as DataNode.GetCurrentReferralProgramResponse)

const volumeProgramJson = (p: VolumeDiscountProgram, version: NodeVersion): string => {
  const json = volumeProgramJsonV75(p)
  if (!since(version, "v0.79")) return json
  return withTiers(
    json,
    p.benefitTiers.map((t, i) =>
      encodeVolumeBenefitTierV79({
        minimumRunningNotionalTakerVolume: t.minimumRunningNotionalTakerVolume,
        volumeDiscountFactor: Option.none(),
        volumeDiscountFactors: discountFactors(t.volumeDiscountFactor),
        tierNumber: BigInt(i + 1)
      } as unknown as typeof VolumeBenefitTierV79.Type)
    )
  )
}

const volumeProgramJsonV75 = (p: VolumeDiscountProgram): string =>
  encodeVolumeProgram({
    currentVolumeDiscountProgram: {
      version: p.version,
      id: p.id as Ids.VegaId,
      benefitTiers: p.benefitTiers.map((t) => ({
        minimumRunningNotionalTakerVolume: t.minimumRunningNotionalTakerVolume,
        volumeDiscountFactor: decimal(t.volumeDiscountFactor)
      })),
      endOfProgramTimestamp: seconds(p.endOfProgramSeconds),
      windowLength: BigInt(p.windowLength)
    }
  } as unknown as DataNode.GetCurrentVolumeDiscountProgramResponse)

/** No program: `pgxscan.Get` finds no row, reported as Internal with scany's text. */
const noProgram = (api: GatewayError.ApiError): Reply => internal(api, "scany: no row was found")

const handleReferralProgram = (_: Params, node: NodeView): Reply => {
  const program = node.world.programs.referralProgram
  if (program === undefined || program.from > node.readableHeight) return noProgram(ApiErrors.CurrentReferralProgram)
  return ok(referralProgramJson(program, node.nodeVersion))
}

const handleVolumeProgram = (_: Params, node: NodeView): Reply => {
  const program = node.world.programs.volumeDiscountProgram
  if (program === undefined || program.from > node.readableHeight) {
    return noProgram(ApiErrors.CurrentVolumeDiscountProgram)
  }
  return ok(volumeProgramJson(program, node.nodeVersion))
}

const statsJson = cachedJsonByVersion((row: VolumeDiscountStatsRow, version) =>
  since(version, "v0.79")
    ? encodeStatsV79({
        atEpoch: BigInt(row.epoch),
        partyId: row.party.id,
        discountFactor: Option.none(),
        runningVolume: row.runningVolume,
        discountFactors: discountFactors(row.discountFactor)
      } as unknown as typeof VolumeDiscountStatsV79.Type)
    : encodeStats({
        atEpoch: BigInt(row.epoch),
        partyId: row.party.id as Ids.PartyId,
        discountFactor: decimal(row.discountFactor),
        runningVolume: row.runningVolume
      })
)

const statsCursor = (row: VolumeDiscountStatsRow): string =>
  writeCursor(VolumeDiscountStatsCursor, [row.vt, row.epoch, row.party.id])

interface StatsKey {
  readonly epoch: number
  readonly party: string
}

const handleStats = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const atEpoch = int64(params, "atEpoch")
  const partyId = str(params, "partyId")
  const { programs } = node.world
  const height = node.readableHeight
  const epochs: Array<number> = []
  if (atEpoch !== undefined) {
    epochs.push(Number(atEpoch))
  } else if (partyId !== undefined) {
    epochs.push(...[...programs.discountStats.keys()].sort((a, b) => b - a))
  } else {
    const latest = programs.latestDiscountEpoch(height)
    if (latest !== undefined) epochs.push(latest)
  }
  const rows: Array<VolumeDiscountStatsRow> = []
  for (const epoch of epochs) {
    for (const row of programs.discountStats.get(epoch) ?? []) {
      if (row.from <= height && (partyId === undefined || row.party.id === partyId)) rows.push(row)
    }
  }
  const result = list<VolumeDiscountStatsRow, StatsKey>({
    request,
    cursor: VolumeDiscountStatsCursor,
    keyOf: (v) => ({ epoch: v.get("AtEpoch") as number, party: v.get("PartyID") as string }),
    source: arraySource(rows, (row, k) => k.epoch - row.epoch || compareStrings(row.party.id, k.party), statsCursor),
    nodeJson: statsJson(node.nodeVersion)
  })
  if ("cursorError" in result) return internal(ApiErrors.VolumeDiscountStats, badCursor(result.cursorError))
  return ok(`{"stats":${result.json}}`)
}

const handleStreak = (params: Params, node: NodeView): Reply => {
  const id = params.path.get("partyId") ?? ""
  if (!Ids.isVegaId(id)) return error(GatewayError.fromApiError(ApiErrors.InvalidPartyId))
  const epoch = int64(params, "epoch")
  const height = node.readableHeight
  const rows = (node.world.programs.streaks.get(id.toLowerCase()) ?? []).filter((r) => r.from <= height)
  const row = epoch === undefined ? rows[rows.length - 1] : rows.find((r) => BigInt(r.epoch) === epoch)
  if (row === undefined) {
    return error(
      GatewayError.handlerError(
        GatewayError.GrpcCode.NotFound,
        GatewayError.ErrorDetailCode.Unmapped,
        GatewayError.NO_RESOURCE_INNER
      )
    )
  }
  const streak: VegaEvents.PartyActivityStreak = {
    party: row.party.id as Ids.PartyId,
    activeFor: BigInt(row.activeFor),
    inactiveFor: BigInt(row.inactiveFor),
    isActive: row.isActive,
    rewardDistributionActivityMultiplier: decimal(row.rewardDistributionActivityMultiplier),
    rewardVestingActivityMultiplier: decimal(row.rewardVestingActivityMultiplier),
    epoch: BigInt(row.epoch),
    tradedVolume: row.tradedVolume,
    openVolume: row.openVolume
  } as unknown as VegaEvents.PartyActivityStreak
  return ok(encodeStreak({ activityStreak: streak }))
}

export const referralProgramRoute: Route<NodeView> = {
  method: DataNodeApi.GetCurrentReferralProgram.method,
  path: DataNodeApi.GetCurrentReferralProgram.path,
  params: [],
  handle: handleReferralProgram
}

export const volumeProgramRoute: Route<NodeView> = {
  method: DataNodeApi.GetCurrentVolumeDiscountProgram.method,
  path: DataNodeApi.GetCurrentVolumeDiscountProgram.path,
  params: [],
  handle: handleVolumeProgram
}

export const volumeStatsRoute: Route<NodeView> = {
  method: DataNodeApi.GetVolumeDiscountStats.method,
  path: DataNodeApi.GetVolumeDiscountStats.path,
  params: [param("atEpoch", "uint64"), param("partyId", "string"), ...paginationParams],
  handle: handleStats
}

export const streakRoute: Route<NodeView> = {
  method: DataNodeApi.GetPartyActivityStreak.method,
  path: DataNodeApi.GetPartyActivityStreak.path,
  params: [param("epoch", "uint64")],
  handle: handleStreak
}
