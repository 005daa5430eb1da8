/**
 * The endpoints a client needs next to the seven: node info, core statistics and block height,
 * Vega time, epochs, assets and markets.
 */
import { DataNodeApi, Asset, ChainInfo, CoreApi, Decimal, Epoch, GatewayError, Ids } from "@vega-effect/schema"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { microsToNanos } from "../goTime.js"
import { resolve } from "../paging.js"
import { paginationParams, param, type Route } from "../route.js"
import type { AssetInfo, MarketInfo } from "../world/catalog.js"
import { epochStake } from "../world/delegations.js"
import { compareStrings } from "../world/versioned.js"
import { arraySource, cachedJson, cachedJsonByVersion, list } from "./connection.js"
import { marketJson } from "./marketJson.js"
import { delegationValue, epochNotFound, knownEpoch, nodeValue } from "./nodes.js"
import { ETHEREUM_CHAIN_ID, RELEASES, since } from "./nodeVersion.js"
import { AssetCursor, MarketCursor, writeCursor } from "./cursors.js"
import type { NodeView } from "./node.js"
import { int64, pagination, str } from "./params.js"
import { error, internal, invalidPagination, ok } from "./reply.js"

/** Go's `time.Time` RFC 3339 form with nanoseconds, as core writes times in `/statistics`. */
const rfc3339Nano = (micros: number): string => {
  const iso = new Date(Math.floor(micros / 1000)).toISOString()
  const fraction = String(((micros % 1_000_000) + 1_000_000) % 1_000_000).padStart(6, "0") + "000"
  const trimmed = fraction.replace(/0+$/, "")
  return `${iso.slice(0, 19)}${trimmed === "" ? "" : `.${trimmed}`}Z`
}

const encodeInfo = Schema.encodeSync(ChainInfo.InfoResponse)
const encodeStatistics = Schema.encodeSync(ChainInfo.StatisticsResponse)
const encodeHeight = Schema.encodeSync(ChainInfo.LastBlockHeightResponse)
const encodeTime = Schema.encodeSync(ChainInfo.GetVegaTimeResponse)
const encodeCoreTime = Schema.encodeSync(CoreApi.GetVegaTimeResponse)
const encodeEpoch = Schema.encodeSync(Epoch.GetEpochResponse)
const encodeAsset = Schema.encodeSync(Asset.Asset)

const { ApiErrors } = GatewayError

const info: Route<NodeView> = {
  method: DataNodeApi.Info.method,
  path: DataNodeApi.Info.path,
  params: [],
  handle: (_, node) => {
    const { commit, version } = RELEASES[node.nodeVersion]
    return ok(JSON.stringify(encodeInfo({ version, commitHash: commit })))
  }
}

/** The counters of `/statistics` the simulator does not keep: zero, as on a node that counted nothing. */
const zeroCounters = {
  txPerBlock: 0n,
  averageTxBytes: 0n,
  averageOrdersPerBlock: 0n,
  tradesPerSecond: 0n,
  ordersPerSecond: 0n,
  totalAmendOrder: 0n,
  totalCancelOrder: 0n,
  totalCreateOrder: 0n,
  totalOrders: 0n,
  totalTrades: 0n,
  orderSubscriptions: 0,
  tradeSubscriptions: 0,
  candleSubscriptions: 0,
  marketDepthSubscriptions: 0,
  positionsSubscriptions: 0,
  accountSubscriptions: 0,
  marketDataSubscriptions: 0
}

const statistics: Route<NodeView> = {
  method: DataNodeApi.Statistics.method,
  path: DataNodeApi.Statistics.path,
  params: [],
  handle: (_, node) => {
    const { chain, catalog } = node.world
    // forwarded to the core: its height, not the data node's
    const height = node.core.height
    const now = chain.blockTime(height)
    const epoch = chain.epochOf(height)
    // every member of vega.api.v1.Statistics, as the gateway writes them all; the throughput,
    // order and subscription counters are not modelled and stay at zero
    const statistics = {
      blockHeight: BigInt(height),
      backlogLength: 0n,
      totalPeers: BigInt(catalog.validators.length - 1),
      genesisTime: rfc3339Nano(chain.genesisMicros),
      currentTime: rfc3339Nano(now),
      vegaTime: rfc3339Nano(now),
      status: "CHAIN_STATUS_CONNECTED",
      ...zeroCounters,
      totalMarkets: BigInt(catalog.markets.length),
      appVersionHash: RELEASES[node.nodeVersion].commit,
      appVersion: RELEASES[node.nodeVersion].version,
      chainVersion: "0.38.8",
      blockDuration: 1_000_000_000n,
      uptime: rfc3339Nano(chain.genesisMicros),
      chainId: chain.chainId,
      marketDepthUpdatesSubscriptions: 0,
      blockHash: node.core.blockHash(height),
      epochSeq: BigInt(epoch),
      epochStartTime: rfc3339Nano(chain.blockTime(chain.epochFirstBlock(epoch))),
      epochExpiryTime: rfc3339Nano(chain.blockTime(chain.epochLastBlock(epoch))),
      eventCount: 0n,
      eventsPerSecond: 0n
    }
    return ok(JSON.stringify(encodeStatistics({ statistics } as unknown as ChainInfo.StatisticsResponse)))
  }
}

const blockchainHeight: Route<NodeView> = {
  method: DataNodeApi.LastBlockHeight.method,
  path: DataNodeApi.LastBlockHeight.path,
  params: [],
  handle: (_, node) => {
    // forwarded to the core: its height, block hash and spam parameters
    const { core } = node
    const spam = core.spamParameters
    return ok(
      JSON.stringify(
        encodeHeight({
          height: BigInt(core.height),
          hash: core.blockHash(core.height),
          spamPowHashFunction: ChainInfo.SPAM_POW_HASH_FUNCTION,
          spamPowDifficulty: spam.difficulty,
          spamPowNumberOfPastBlocks: spam.numberOfPastBlocks,
          spamPowNumberOfTxPerBlock: spam.numberOfTxPerBlock,
          spamPowIncreasingDifficulty: spam.increasingDifficulty,
          chainId: node.world.chain.chainId
        } as unknown as ChainInfo.LastBlockHeightResponse)
      )
    )
  }
}

const vegaTime: Route<NodeView> = {
  method: DataNodeApi.GetVegaTime.method,
  path: DataNodeApi.GetVegaTime.path,
  params: [],
  handle: (_, node) =>
    ok(
      JSON.stringify(
        encodeTime({
          timestamp: BigInt(microsToNanos(node.world.chain.blockTime(node.height)))
        } as unknown as ChainInfo.GetVegaTimeResponse)
      )
    )
}

/**
 * Core's `GET /time`, forwarded to the core: the time of the core's last block (core/api/core.go,
 * v0.75.8, answers its time service's current time), which may be ahead of the data node's.
 */
const coreVegaTime: Route<NodeView> = {
  method: DataNodeApi.CoreGetVegaTime.method,
  path: DataNodeApi.CoreGetVegaTime.path,
  params: [],
  handle: (_, node) =>
    ok(
      JSON.stringify(
        encodeCoreTime({
          timestamp: BigInt(microsToNanos(node.world.chain.blockTime(node.core.height)))
        } as unknown as CoreApi.GetVegaTimeResponse)
      )
    )
}

const epoch: Route<NodeView> = {
  method: DataNodeApi.GetEpoch.method,
  path: DataNodeApi.GetEpoch.path,
  params: [param("id", "uint64"), param("block", "uint64")],
  handle: (params, node) => {
    const { chain } = node.world
    const id = int64(params, "id")
    const block = int64(params, "block")
    const current = chain.epochOf(node.readableHeight)
    // formatE(ErrGetEpoch, …) in trading_data_v2.go GetEpoch, v0.75.8: 404 with code 250001
    const seq = knownEpoch(
      node,
      id !== undefined ? Number(id) : block !== undefined ? chain.epochOf(Number(block)) : current
    )
    if (seq === undefined) return epochNotFound()
    const first = chain.epochFirstBlock(seq)
    const last = chain.epochLastBlock(seq)
    const stake = epochStake(node.world, seq)
    const validators = stake.nodes.map((n) => nodeValue(n, stake))
    const body = {
      epoch: {
        seq: BigInt(seq),
        timestamps: {
          startTime: BigInt(microsToNanos(chain.blockTime(first))),
          expiryTime: BigInt(microsToNanos(chain.blockTime(last))),
          endTime: seq < current ? BigInt(microsToNanos(chain.blockTime(last))) : 0n,
          firstBlock: BigInt(first),
          lastBlock: seq < current ? BigInt(last) : 0n
        },
        validators,
        delegations: stake.delegations.map(delegationValue)
      }
    }
    return ok(JSON.stringify(encodeEpoch(body as unknown as Epoch.GetEpochResponse)))
  }
}

const assetJson = cachedJsonByVersion((asset: AssetInfo, version) =>
  JSON.stringify(
    encodeAsset({
      id: asset.id,
      details: {
        name: asset.name,
        symbol: asset.symbol,
        decimals: asset.decimals,
        quantum: Option.getOrThrow(Decimal.parse(asset.quantum)),
        erc20: {
          contractAddress: asset.contractAddress,
          lifetimeLimit: asset.lifetimeLimit,
          withdrawThreshold: asset.withdrawThreshold,
          ...(since(version, "v0.79") ? { chainId: ETHEREUM_CHAIN_ID } : {})
        }
      },
      status: "STATUS_ENABLED"
    } as unknown as Asset.Asset)
  )
)

const assets: Route<NodeView> = {
  method: DataNodeApi.ListAssets.method,
  path: DataNodeApi.ListAssets.path,
  params: [param("assetId", "string"), ...paginationParams],
  handle: (params, node) => {
    const request = resolve(pagination(params))
    if ("error" in request) return invalidPagination(request.error)
    const wanted = str(params, "assetId")?.toLowerCase() || undefined
    const rows = [...node.world.catalog.assets]
      .filter((a) => wanted === undefined || a.id === wanted)
      .sort((a, b) => compareStrings(a.id, b.id))
    const result = list<AssetInfo, string>({
      request,
      cursor: AssetCursor,
      keyOf: (v) => (v.get("id") as string).toLowerCase(),
      source: arraySource(
        rows,
        (a, key) => compareStrings(a.id, key),
        (a) => writeCursor(AssetCursor, [a.id])
      ),
      nodeJson: assetJson(node.nodeVersion)
    })
    if ("cursorError" in result) return internal(ApiErrors.AssetServiceGetById, result.cursorError)
    return ok(`{"assets":${result.json}}`)
  }
}

const asset: Route<NodeView> = {
  method: DataNodeApi.GetAsset.method,
  path: DataNodeApi.GetAsset.path,
  params: [],
  handle: (params, node) => {
    const id = params.path.get("assetId") ?? ""
    if (!Ids.isVegaId(id)) {
      return error(GatewayError.invalidArgument(GatewayError.ErrorDetailCode.Unmapped, "invalid asset ID"))
    }
    const found = node.world.catalog.assetById.get(id.toLowerCase())
    if (found === undefined)
      return error(GatewayError.fromApiError(ApiErrors.AssetServiceGetById, GatewayError.NO_RESOURCE_INNER))
    return ok(`{"asset":${assetJson(node.nodeVersion)(found)}}`)
  }
}

export const marketJsons = {
  "v0.75": cachedJson((market: MarketInfo) => marketJson(market, "v0.75")),
  "v0.79": cachedJson((market: MarketInfo) => marketJson(market, "v0.79"))
}

const markets: Route<NodeView> = {
  method: DataNodeApi.ListMarkets.method,
  path: DataNodeApi.ListMarkets.path,
  params: [param("includeSettled", "bool"), ...paginationParams],
  handle: (params, node) => {
    const request = resolve(pagination(params))
    if ("error" in request) return invalidPagination(request.error)
    const rows = [...node.world.catalog.markets].sort(
      (a, b) => a.proposedMicros - b.proposedMicros || compareStrings(a.id, b.id)
    )
    const result = list<MarketInfo, { vt: number; id: string }>({
      request,
      cursor: MarketCursor,
      keyOf: (v) => ({ vt: v.get("vegaTime") as number, id: (v.get("id") as string).toLowerCase() }),
      source: arraySource(
        rows,
        (m, k) => m.proposedMicros - k.vt || compareStrings(m.id, k.id),
        (m) => writeCursor(MarketCursor, [m.proposedMicros, m.id])
      ),
      nodeJson: marketJsons[node.nodeVersion]
    })
    if ("cursorError" in result) return internal(ApiErrors.MarketServiceGetById, result.cursorError)
    return ok(`{"markets":${result.json}}`)
  }
}

const market: Route<NodeView> = {
  method: DataNodeApi.GetMarket.method,
  path: DataNodeApi.GetMarket.path,
  params: [],
  handle: (params, node) => {
    const id = params.path.get("marketId") ?? ""
    if (id === "") {
      return error(GatewayError.invalidArgument(GatewayError.ErrorDetailCode.EmptyMarketId, "empty market id"))
    }
    if (!Ids.isVegaId(id)) return error(GatewayError.fromApiError(ApiErrors.InvalidMarketId))
    const found = node.world.catalog.marketById.get(id.toLowerCase())
    if (found === undefined)
      return error(GatewayError.fromApiError(ApiErrors.MarketServiceGetById, GatewayError.NO_RESOURCE_INNER))
    return ok(`{"market":${marketJsons[node.nodeVersion](found)}}`)
  }
}

export const routes: ReadonlyArray<Route<NodeView>> = [
  info,
  statistics,
  blockchainHeight,
  vegaTime,
  epoch,
  assets,
  asset,
  markets,
  market,
  coreVegaTime
]
