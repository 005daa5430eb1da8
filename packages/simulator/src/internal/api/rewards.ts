/**
 * `GET /api/v2/rewards/summaries` (ListRewardSummaries): totals per party and asset, unpaged
 * (pagination is accepted and ignored).
 *
 * `GET /api/v2/rewards` (ListRewards): one row per payout and party, paged. The node orders by
 * `epoch_id` alone, so its cursor predicate (inclusive on the last ordering column) restarts a page
 * at the first row of the cursor's epoch: with quirks on, that is what we serve (rows of the
 * cursor's epoch can repeat or be skipped). Without quirks, rows are ordered and paged by
 * (epoch, party, asset), which the cursor identifies uniquely here (one row per party, asset and
 * epoch in this world), so cursor paging is exact.
 */
import { DataNodeApi, Encoder, GatewayError, Ids, Reward, RewardSummary, Vega } from "@vega-effect/schema"
import { resolve, type Source } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import { type RewardRow, Rewards } from "../world/rewards.js"
import { compareStrings, idSortKey } from "../world/versioned.js"
import { cachedJson, list } from "./connection.js"
import { EpochRewardSummaryCursor, RewardCursor, writeCursor } from "./cursors.js"
import { decodesAsId } from "./ids.js"
import type { NodeView } from "./node.js"
import { int64, pagination, str, strings } from "./params.js"
import { badCursor, internal, invalidId, invalidPagination, notHex, ok } from "./reply.js"

const encode = Encoder.stringify(RewardSummary.RewardSummary)

const { ApiErrors } = GatewayError

const handle = (params: Params, node: NodeView): Reply => {
  const partyId = str(params, "partyId") || undefined
  const assetId = str(params, "assetId") || undefined
  for (const id of [partyId, assetId]) {
    if (id !== undefined && !decodesAsId(id)) {
      return invalidId(ApiErrors.RewardsSummary, `querying rewards: scany: query multiple result rows: ${notHex(id)}`)
    }
  }
  const party = partyId === undefined || partyId === Ids.NETWORK_PARTY ? partyId : partyId.toLowerCase()
  const asset = assetId?.toLowerCase()
  const height = node.readableHeight
  const summaries: Array<{ readonly party: string; readonly asset: string; readonly amount: bigint }> = []
  const totals = node.world.rewards.totals
  const parties = party === undefined ? [...totals.keys()] : totals.has(party) ? [party] : []
  for (const p of parties) {
    for (const [a, history] of totals.get(p)!) {
      if (asset !== undefined && a !== asset) continue
      const amount = Rewards.at(history, height)
      if (amount !== undefined) summaries.push({ party: p, asset: a, amount })
    }
  }
  // v0.75 has no ORDER BY here; later nodes order by party, which is what we do
  summaries.sort((x, y) => compareStrings(idSortKey(x.party), idSortKey(y.party)) || compareStrings(x.asset, y.asset))
  const body = summaries
    .map((s) => encode({ assetId: s.asset, partyId: s.party, amount: s.amount } as RewardSummary.RewardSummary))
    .join(",")
  return ok(`{"summaries":[${body}]}`)
}

export const route: Route<NodeView> = {
  method: DataNodeApi.ListRewardSummaries.method,
  path: DataNodeApi.ListRewardSummaries.path,
  params: [param("partyId", "string"), param("assetId", "string"), ...paginationParams],
  handle
}

const encodeReward = Encoder.stringify(Reward.Reward)

export const rewardValue = (row: RewardRow): Reward.Reward =>
  ({
    assetId: row.asset.id,
    partyId: row.party.id,
    epoch: BigInt(row.epoch),
    amount: row.amount,
    percentageOfTotal: row.percentageOfTotal,
    receivedAt: row.receivedAt,
    marketId: "",
    rewardType: row.rewardType,
    lockedUntilEpoch: BigInt(row.epoch),
    quantumAmount: row.quantumAmount
  }) as Reward.Reward

export const rewardJson = cachedJson((row: RewardRow) => encodeReward(rewardValue(row)))

export const rewardCursor = (row: RewardRow): string =>
  writeCursor(RewardCursor, [row.party.id, row.asset.id, row.epoch])

/** The decoded cursor: its epoch, plus party and asset (used as tie-breakers without quirks). */
interface RewardKey {
  readonly epoch: number
  readonly partyKey: string
  readonly asset: string
}

const compareEpoch = (row: RewardRow, key: RewardKey): number => row.epoch - key.epoch

const compareFull = (row: RewardRow, key: RewardKey): number =>
  row.epoch - key.epoch ||
  compareStrings(idSortKey(row.party.id), key.partyKey) ||
  compareStrings(row.asset.id, key.asset)

/** First index with `epoch >= e` in rows sorted by epoch. */
const epochBound = (rows: ReadonlyArray<RewardRow>, e: number): number => {
  let lo = 0
  let hi = rows.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (rows[mid].epoch < e) lo = mid + 1
    else hi = mid
  }
  return lo
}

const epochParam = (params: Params, name: string): number | undefined => {
  const value = int64(params, name)
  return value === undefined
    ? undefined
    : value > BigInt(Number.MAX_SAFE_INTEGER)
      ? Number.MAX_SAFE_INTEGER
      : Number(value)
}

const handleList = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  // an empty filter counts as absent (asset: per the node; party: v0.75 has no party filter then)
  const partyId = str(params, "partyId") || undefined
  const assetId = str(params, "assetId") || undefined
  const teamId = str(params, "teamId") || undefined
  const gameId = str(params, "gameId") || undefined
  for (const id of [partyId, assetId, teamId, gameId]) {
    if (id !== undefined && !decodesAsId(id)) {
      return invalidId(ApiErrors.Rewards, `querying rewards: scany: query multiple result rows: ${notHex(id)}`)
    }
  }
  const party = partyId === undefined || partyId === Ids.NETWORK_PARTY ? partyId : partyId.toLowerCase()
  const asset = assetId?.toLowerCase()
  const fromEpoch = epochParam(params, "fromEpoch")
  const toEpoch = epochParam(params, "toEpoch")
  const height = node.readableHeight
  const all = node.world.rewards.rows
  // the rows are sorted by epoch: serve the epoch range as a slice; no row has a team or a game
  const lo = fromEpoch === undefined ? 0 : epochBound(all, fromEpoch)
  const hi = toEpoch === undefined ? all.length : epochBound(all, toEpoch + 1)
  const size = teamId !== undefined || gameId !== undefined ? 0 : Math.max(0, hi - lo)
  const source: Source<RewardRow, RewardKey> = {
    size,
    at: (i) => all[lo + i],
    include: (row) =>
      row.from <= height &&
      (party === undefined || row.party.id === party) &&
      (asset === undefined || row.asset.id === asset),
    compare: node.quirks ? compareEpoch : compareFull,
    cursorOf: rewardCursor
  }
  const result = list<RewardRow, RewardKey>({
    request,
    cursor: RewardCursor,
    keyOf: (v) => ({
      epoch: v.get("epoch_id") as number,
      partyKey: idSortKey(v.get("party_id") as string),
      asset: v.get("asset_id") as string
    }),
    source,
    nodeJson: rewardJson
  })
  if ("cursorError" in result) return internal(ApiErrors.Rewards, badCursor(result.cursorError))
  return ok(`{"rewards":${result.json}}`)
}

export const listRoute: Route<NodeView> = {
  method: DataNodeApi.ListRewards.method,
  path: DataNodeApi.ListRewards.path,
  params: [
    param("partyId", "string"),
    param("assetId", "string"),
    param("fromEpoch", "uint64"),
    param("toEpoch", "uint64"),
    param("teamId", "string"),
    param("gameId", "string"),
    ...paginationParams
  ],
  handle: handleList
}

/** One row of `GET /api/v2/rewards/epoch/summaries`: an epoch's rewards summed per asset, market and type. */
interface EpochSummary {
  readonly epoch: number
  readonly asset: string
  readonly market: string
  readonly rewardType: string
  readonly amount: bigint
}

const encodeEpochSummary = Encoder.stringify(Vega.EpochRewardSummary)

const epochSummaryJson = (s: EpochSummary): string =>
  encodeEpochSummary({
    epoch: BigInt(s.epoch),
    assetId: s.asset,
    marketId: s.market,
    rewardType: s.rewardType,
    amount: s.amount
  } as unknown as Vega.EpochRewardSummary)

const epochSummaryCursor = (s: EpochSummary): string =>
  writeCursor(EpochRewardSummaryCursor, [s.epoch, s.asset, s.market, s.rewardType, String(s.amount)])

interface EpochSummaryKey {
  readonly epoch: number
  readonly asset: string
  readonly market: string
  readonly rewardType: string
}

const compareSummaryEpoch = (s: EpochSummary, k: EpochSummaryKey): number => s.epoch - k.epoch

const compareSummaryFull = (s: EpochSummary, k: EpochSummaryKey): number =>
  s.epoch - k.epoch ||
  compareStrings(s.asset, k.asset) ||
  compareStrings(s.market, k.market) ||
  compareStrings(s.rewardType, k.rewardType)

/**
 * `GET /api/v2/rewards/epoch/summaries` (ListEpochRewardSummaries): the reward rows ListRewards
 * serves, summed per epoch, asset, market and reward type (datanode/sqlstore/rewards.go
 * `GetEpochSummaries`, v0.75.8), filtered by `filter.assetIds`, `filter.marketIds` (the rows have
 * no market: only an empty id matches them), `filter.fromEpoch` and `filter.toEpoch`. The store
 * orders by `epoch_id` alone: with quirks on, a cursor restarts at its epoch's first summary as
 * ListRewards does; without, summaries are ordered and paged by (epoch, asset, market, type).
 * An asset or market id that is not hex is 400 `failed to get summary`.
 */
const handleEpochSummaries = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const assets = strings(params, "filter.assetIds")
  const markets = strings(params, "filter.marketIds")
  for (const [ids, what] of [
    [assets, "asset"],
    [markets, "market"]
  ] as const) {
    const bad = ids.find((id) => !decodesAsId(id) && id !== "")
    if (bad !== undefined) {
      return invalidId(ApiErrors.RewardsSummary, `could not decode ${what} ID: ${notHex(bad)}`)
    }
  }
  const assetSet = new Set(assets.map((a) => a.toLowerCase()))
  const marketSet = new Set(markets.map((m) => m.toLowerCase()))
  const fromEpoch = epochParam(params, "filter.fromEpoch")
  const toEpoch = epochParam(params, "filter.toEpoch")
  const height = node.readableHeight
  const all = node.world.rewards.rows
  const lo = fromEpoch === undefined ? 0 : epochBound(all, fromEpoch)
  const hi = toEpoch === undefined ? all.length : epochBound(all, toEpoch + 1)
  const sums = new Map<string, EpochSummary>()
  for (let i = lo; i < hi; i++) {
    const row = all[i]
    if (row.from > height) continue
    if (assetSet.size > 0 && !assetSet.has(row.asset.id)) continue
    if (marketSet.size > 0 && !marketSet.has("")) continue
    const key = `${row.epoch}/${row.asset.id}/${row.rewardType}`
    const sum = sums.get(key)
    sums.set(key, {
      epoch: row.epoch,
      asset: row.asset.id,
      market: "",
      rewardType: row.rewardType,
      amount: (sum?.amount ?? 0n) + row.amount
    })
  }
  const summaries = [...sums.values()].sort((a, b) => compareSummaryFull(a, b))
  const source: Source<EpochSummary, EpochSummaryKey> = {
    size: summaries.length,
    at: (i) => summaries[i],
    include: () => true,
    compare: node.quirks ? compareSummaryEpoch : compareSummaryFull,
    cursorOf: epochSummaryCursor
  }
  const result = list<EpochSummary, EpochSummaryKey>({
    request,
    cursor: EpochRewardSummaryCursor,
    keyOf: (v) => ({
      epoch: v.get("epoch_id") as number,
      asset: v.get("asset_id") as string,
      market: v.get("market_id") as string,
      rewardType: v.get("reward_type") as string
    }),
    source,
    nodeJson: epochSummaryJson
  })
  if ("cursorError" in result) return internal(ApiErrors.RewardsSummary, badCursor(result.cursorError))
  return ok(`{"summaries":${result.json}}`)
}

export const epochSummariesRoute: Route<NodeView> = {
  method: DataNodeApi.ListEpochRewardSummaries.method,
  path: DataNodeApi.ListEpochRewardSummaries.path,
  params: [
    param("filter.assetIds", "string", true),
    param("filter.marketIds", "string", true),
    param("filter.fromEpoch", "uint64"),
    param("filter.toEpoch", "uint64"),
    ...paginationParams
  ],
  handle: handleEpochSummaries
}
