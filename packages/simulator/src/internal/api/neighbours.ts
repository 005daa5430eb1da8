/**
 * The endpoints a client needs next to the seven: node info, core statistics and block height,
 * Vega time, epochs, assets and markets.
 */
import { DataNodeApi, Asset, ChainInfo, Decimal, Epoch, GatewayError, Ids, Market } from "@vega-effect/schema"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { microsToNanos } from "../goTime.js"
import { resolve } from "../paging.js"
import { paginationParams, param, type Route } from "../route.js"
import type { AssetInfo, MarketInfo } from "../world/catalog.js"
import { compareStrings } from "../world/versioned.js"
import { arraySource, cachedJson, list } from "./connection.js"
import { AssetCursor, MarketCursor, writeCursor } from "./cursors.js"
import type { NodeView } from "./node.js"
import { pagination, str, uint64 } from "./params.js"
import { error, internal, invalidPagination, ok } from "./reply.js"

/** The node version the simulator reproduces. */
export const VERSION = "v0.75.8"
const COMMIT = "7ecac479f2e0ae13b9d8b6b3e9c85a2d5de35f1b"

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
const encodeEpoch = Schema.encodeSync(Epoch.GetEpochResponse)
const encodeAsset = Schema.encodeSync(Asset.Asset)
const encodeMarket = Schema.encodeSync(Market.Market)

const { ApiErrors } = GatewayError

const info: Route<NodeView> = {
  method: DataNodeApi.Info.method,
  path: DataNodeApi.Info.path,
  params: [],
  handle: () => ok(JSON.stringify(encodeInfo({ version: VERSION, commitHash: COMMIT })))
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
    const statistics = {
      blockHeight: BigInt(height),
      totalPeers: BigInt(catalog.validators.length - 1),
      genesisTime: rfc3339Nano(chain.genesisMicros),
      currentTime: rfc3339Nano(now),
      vegaTime: rfc3339Nano(now),
      status: "CHAIN_STATUS_CONNECTED",
      totalMarkets: BigInt(catalog.markets.length),
      appVersionHash: COMMIT,
      appVersion: VERSION,
      chainVersion: "0.38.8",
      blockDuration: 1_000_000_000n,
      uptime: rfc3339Nano(chain.genesisMicros),
      chainId: chain.chainId,
      blockHash: node.core.blockHash(height),
      epochSeq: BigInt(epoch),
      epochStartTime: rfc3339Nano(chain.blockTime(chain.epochFirstBlock(epoch))),
      epochExpiryTime: rfc3339Nano(chain.blockTime(chain.epochLastBlock(epoch)))
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

const epoch: Route<NodeView> = {
  method: DataNodeApi.GetEpoch.method,
  path: DataNodeApi.GetEpoch.path,
  params: [param("id", "uint64"), param("block", "uint64")],
  handle: (params, node) => {
    const { catalog, chain } = node.world
    const id = uint64(params, "id")
    const block = uint64(params, "block")
    const current = chain.epochOf(node.readableHeight)
    const seq = id !== undefined ? Number(id) : block !== undefined ? chain.epochOf(Number(block)) : current
    if (seq > current || seq < 1) {
      return error(
        GatewayError.notFound(
          GatewayError.ErrorDetailCode.Unmapped,
          "failed to get epoch",
          GatewayError.NO_RESOURCE_INNER
        )
      )
    }
    const first = chain.epochFirstBlock(seq)
    const last = chain.epochLastBlock(seq)
    const stake = 1_000_000n * 10n ** 18n
    const validators = catalog.validators.map((v) => ({
      id: v.nodeId,
      pubKey: v.pubKey,
      tmPubKey: "",
      ethereumAddress: v.ethereumAddress,
      infoUrl: `https://${v.name}.example`,
      location: "",
      stakedByOperator: stake,
      stakedByDelegates: stake * 3n,
      stakedTotal: stake * 4n,
      maxIntendedStake: 0n,
      pendingStake: 0n,
      epochData: null,
      status: "NODE_STATUS_VALIDATOR",
      delegations: [],
      rewardScore: null,
      rankingScore: null,
      name: v.name,
      avatarUrl: ""
    }))
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
        delegations: []
      }
    }
    return ok(JSON.stringify(encodeEpoch(body as unknown as Epoch.GetEpochResponse)))
  }
}

const assetJson = cachedJson((asset: AssetInfo) =>
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
          withdrawThreshold: asset.withdrawThreshold
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
      nodeJson: assetJson
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
    return ok(`{"asset":${assetJson(found)}}`)
  }
}

const marketJson = cachedJson((market: MarketInfo) => {
  const product = {
    settlementAsset: market.settlementAsset.id,
    quoteName: market.settlementAsset.symbol,
    ...(market.product === "perpetual"
      ? {
          marginFundingFactor: Option.getOrThrow(Decimal.parse("0.1")),
          interestRate: Option.getOrThrow(Decimal.parse("0")),
          clampLowerBound: Option.getOrThrow(Decimal.parse("-0.0005")),
          clampUpperBound: Option.getOrThrow(Decimal.parse("0.0005"))
        }
      : {})
  }
  return JSON.stringify(
    encodeMarket({
      id: market.id,
      tradableInstrument: {
        instrument: {
          id: "",
          code: market.code,
          name: market.name,
          metadata: {
            tags: [`base:${market.code.split(/USD|DAI|WETH/)[0]}`, `quote:${market.settlementAsset.symbol}`]
          },
          [market.product]: product
        }
      },
      decimalPlaces: market.priceDecimals,
      tradingMode: "TRADING_MODE_CONTINUOUS",
      state: "STATE_ACTIVE",
      marketTimestamps: {
        proposed: BigInt(market.proposedMicros) * 1000n,
        pending: BigInt(market.proposedMicros + 86_400_000_000) * 1000n,
        open: BigInt(market.openMicros) * 1000n,
        close: 0n
      },
      positionDecimalPlaces: market.positionDecimals,
      tickSize: market.tickSize
    } as unknown as Market.Market)
  )
})

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
      nodeJson: marketJson
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
    return ok(`{"market":${marketJson(found)}}`)
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
  market
]
