/**
 * `GET /api/v2/fees/stats` (GetFeesStats) and `GET /api/v2/fees/stats/parties/{partyId}`
 * (GetFeesStatsForParty), as the v0.75.8 data node answers them (`datanode/api/trading_data_v2.go`,
 * `datanode/sqlstore/fees_stats.go`, `datanode/entities/fees_stats.go`), from the world's fees
 * statistics (`world/feesStats.ts`).
 *
 * GetFeesStats needs a market or an asset (neither: 500 `marketID or assetID must be provided`;
 * both: 500 `failed to get current fees stats` with the store's message). Without `epochSeq` it
 * reads the last epoch the table has (of any market). The rows are ordered by market id, and only
 * the first is answered: for an asset, the stats of its market with the lowest id. No row is 500
 * `no  fees stats found` (the store's text, two spaces). With `partyId` the store keeps the rows
 * whose JSON lists contain the party, then filters each list of the answered row down to the
 * party's entries (as text, any case). The lists are stored with the Go field names (`party`,
 * `referrer`, `taker`), and the containment test asks for `party_id` in the lists of party
 * amounts, so only a party that was a taker (or a referrer) finds a row.
 *
 * The answer carries no `totalFeesPaidAndReceived`: the data node does not store it (`[]`).
 *
 * GetFeesStatsForParty sums the per-party table (a row for each party of a market's lists of
 * maker fees received, rewards received and discounts applied: makers and takers) per asset,
 * ordered by asset id; without an epoch range only the table's last epoch. Never an error for an
 * unknown party: `[]`.
 */
import { DataNodeApi, Decimal, Encoder, GatewayError, VegaEvents } from "@vega-effect/schema"
import { param, type Params, type Reply, type Route } from "../route.js"
import type { AssetInfo, MarketInfo } from "../world/catalog.js"
import type { MarketEpochFees } from "../world/feesStats.js"
import { compareStrings } from "../world/versioned.js"
import { storedIdKey } from "./ids.js"
import type { NodeView } from "./node.js"
import { int64, str } from "./params.js"
import { error, internal, invalidId, notHex, ok } from "./reply.js"

const { ApiErrors } = GatewayError

const DIVISION_PRECISION = 16n
const QUANTUM_PLACES = 6n

/**
 * `amount / quantum` as the core writes `quantumAmount`: shopspring's `Div` (rounded half away
 * from zero to 16 places), truncated to 6 places, printed without trailing zeros.
 */
export const quantumAmount = (amount: bigint, quantum: string): string => {
  const q = BigInt(quantum)
  const scaled = (amount * 10n ** DIVISION_PRECISION * 2n + q) / (2n * q)
  const units = scaled / 10n ** (DIVISION_PRECISION - QUANTUM_PLACES)
  const whole = units / 10n ** QUANTUM_PLACES
  const fraction = (units % 10n ** QUANTUM_PLACES).toString().padStart(Number(QUANTUM_PLACES), "0").replace(/0+$/, "")
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`
}

const partyAmount = (party: string, amount: bigint, asset: AssetInfo) => ({
  party,
  amount,
  quantumAmount: Decimal.parse(quantumAmount(amount, asset.quantum))
})

const sortedKeys = <V>(map: ReadonlyMap<string, V>): Array<string> => [...map.keys()].sort(compareStrings)

const encode = Encoder.stringify(VegaEvents.FeesStats)

/** The answer's stats, the lists restricted to `party`'s entries when given. */
const statsJson = (fees: MarketEpochFees, party: string | undefined): string => {
  const asset = fees.market.settlementAsset
  const keep = (id: string) => party === undefined || id.toLowerCase() === party.toLowerCase()
  const takers = [...fees.takers].sort(compareStrings).filter(keep)
  const zeros = takers.map((taker) => partyAmount(taker, 0n, asset))
  return encode({
    market: fees.market.id,
    asset: asset.id,
    epochSeq: BigInt(fees.epoch),
    totalRewardsReceived: [],
    referrerRewardsGenerated: [],
    refereesDiscountApplied: zeros,
    volumeDiscountApplied: zeros,
    totalMakerFeesReceived: sortedKeys(fees.makerReceived)
      .filter(keep)
      .map((maker) => partyAmount(maker, fees.makerReceived.get(maker)!, asset)),
    makerFeesGenerated: sortedKeys(fees.makerGenerated)
      .filter(keep)
      .map((taker) => {
        const paid = fees.makerGenerated.get(taker)!
        return { taker, makerFeesPaid: sortedKeys(paid).map((maker) => partyAmount(maker, paid.get(maker)!, asset)) }
      }),
    totalFeesPaidAndReceived: []
  } as unknown as VegaEvents.FeesStats)
}

/** The markets a bytea filter value selects (`""` decodes to no bytes: none). */
const marketsOf = (node: NodeView, key: string): ReadonlyArray<MarketInfo> =>
  node.world.catalog.markets.filter((m) => m.id === key)

const handleStats = (params: Params, node: NodeView): Reply => {
  const marketId = str(params, "marketId")
  const assetId = str(params, "assetId")
  const epochSeq = int64(params, "epochSeq")
  const partyId = str(params, "partyId")
  if (marketId === undefined && assetId === undefined)
    return error(GatewayError.fromApiError(ApiErrors.FeesStatsRequest))
  if (marketId !== undefined && assetId !== undefined) {
    return internal(ApiErrors.GetFeesStats, "only a marketID or assetID should be provided")
  }
  const id = (marketId ?? assetId)!
  const key = storedIdKey(id)
  if (key === undefined) return invalidId(ApiErrors.GetFeesStats, notHex(id))
  const { feesStats } = node.world
  const latest = feesStats.latestEpoch(node.readableHeight)
  const epoch = epochSeq === undefined ? latest : epochSeq >= 1n && epochSeq <= BigInt(latest) ? Number(epochSeq) : 0
  const markets =
    marketId !== undefined
      ? marketsOf(node, key)
      : node.world.catalog.markets.filter((m) => m.settlementAsset.id === key)
  const rows =
    epoch === 0
      ? []
      : [...markets]
          .sort((a, b) => compareStrings(a.id, b.id))
          .map((market) => feesStats.of(market, epoch))
          // the store's JSON containment finds a party only as a taker of maker fees (or a referrer)
          .filter((fees) => partyId === undefined || fees.makerGenerated.has(partyId))
  if (rows.length === 0) return internal(ApiErrors.GetFeesStats, "no  fees stats found")
  return ok(`{"feesStats":${statsJson(rows[0], partyId)}}`)
}

const handleForParty = (params: Params, node: NodeView): Reply => {
  const partyId = params.path.get("partyId") ?? ""
  const assetId = str(params, "assetId")
  const fromEpoch = int64(params, "fromEpoch")
  const toEpoch = int64(params, "toEpoch")
  const party = storedIdKey(partyId)
  if (party === undefined) return invalidId(ApiErrors.GetFeesStatsForParty, notHex(partyId))
  const asset = assetId === undefined ? undefined : storedIdKey(assetId)
  if (assetId !== undefined && asset === undefined) return invalidId(ApiErrors.GetFeesStatsForParty, notHex(assetId))
  const { catalog, feesStats } = node.world
  const latest = feesStats.latestEpoch(node.readableHeight)
  let from = 1n
  let to = BigInt(latest)
  if (fromEpoch === undefined && toEpoch === undefined) from = to
  if (fromEpoch !== undefined && fromEpoch > from) from = fromEpoch
  if (toEpoch !== undefined && toEpoch < to) to = toEpoch
  const totals = new Map<string, bigint>()
  const present = new Set<string>()
  for (const market of catalog.markets) {
    if (asset !== undefined && market.settlementAsset.id !== asset) continue
    for (let epoch = Number(from); from >= 1n && epoch <= Number(to); epoch++) {
      const fees = feesStats.of(market, epoch)
      const received = fees.makerReceived.get(party)
      if (received === undefined && !fees.takers.has(party)) continue
      const assetKey = market.settlementAsset.id
      present.add(assetKey)
      totals.set(assetKey, (totals.get(assetKey) ?? 0n) + (received ?? 0n))
    }
  }
  const stats = [...present].sort(compareStrings).map((assetKey) => ({
    assetId: assetKey,
    totalRewardsReceived: "0",
    refereesDiscountApplied: "0",
    volumeDiscountApplied: "0",
    totalMakerFeesReceived: totals.get(assetKey)!.toString()
  }))
  return ok(`{"feesStatsForParty":${JSON.stringify(stats)}}`)
}

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.GetFeesStats.method,
    path: DataNodeApi.GetFeesStats.path,
    params: [
      param("marketId", "string"),
      param("assetId", "string"),
      param("epochSeq", "uint64"),
      param("partyId", "string")
    ],
    handle: handleStats
  },
  {
    method: DataNodeApi.GetFeesStatsForParty.method,
    path: DataNodeApi.GetFeesStatsForParty.path,
    params: [param("assetId", "string"), param("fromEpoch", "uint64"), param("toEpoch", "uint64")],
    handle: handleForParty
  }
]
