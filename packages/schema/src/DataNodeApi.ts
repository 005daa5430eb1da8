/**
 * The data node's REST API as data: one {@link Endpoint} per route, with its method, path
 * template, request schema (path and query parameters) and response schema. Clients build URLs
 * from it and servers (the simulator) route with it, so both agree on every name.
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import type * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Asset from "./Asset.js"
import * as ChainInfo from "./ChainInfo.js"
import * as Epoch from "./Epoch.js"
import * as EventBus from "./EventBus.js"
import * as LiquidityProvision from "./LiquidityProvision.js"
import * as Market from "./Market.js"
import * as PartyProfile from "./PartyProfile.js"
import * as Position from "./Position.js"
import * as QueryString from "./QueryString.js"
import * as ReferralSetStats from "./ReferralSetStats.js"
import * as Reward from "./Reward.js"
import * as RewardSummary from "./RewardSummary.js"
import * as SignerBundle from "./SignerBundle.js"
import * as SpamStatistics from "./SpamStatistics.js"
import * as StakeLinking from "./StakeLinking.js"
import * as Transaction from "./Transaction.js"
import * as TransactionResult from "./TransactionResult.js"

/**
 * A route of the API.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Endpoint<Req, ReqI, Res, ResI> {
  /** The RPC name behind the route. */
  readonly name: string
  readonly method: "GET" | "POST"
  /** Path template with `{param}` placeholders, e.g. `/api/v2/parties/{partyId}/stake`. */
  readonly path: string
  /** Names of the request fields that go in the path rather than the query string. */
  readonly pathParams: ReadonlyArray<string>
  readonly request: Schema.Schema<Req, ReqI>
  readonly response: Schema.Schema<Res, ResI>
}

/**
 * Any endpoint.
 *
 * @since 0.1.0
 * @category Models
 */
export type Any = Endpoint<any, any, any, any>

/**
 * The decoded request of an endpoint.
 *
 * @since 0.1.0
 * @category Models
 */
export type Request<E extends Any> = Schema.Schema.Type<E["request"]>

/**
 * The decoded response of an endpoint.
 *
 * @since 0.1.0
 * @category Models
 */
export type Response<E extends Any> = Schema.Schema.Type<E["response"]>

/**
 * Defines an endpoint; `pathParams` are read from the `{name}` segments of `path`.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = <Req, ReqI, Res, ResI>(options: {
  readonly name: string
  readonly method: "GET" | "POST"
  readonly path: string
  readonly request: Schema.Schema<Req, ReqI>
  readonly response: Schema.Schema<Res, ResI>
}): Endpoint<Req, ReqI, Res, ResI> => ({
  ...options,
  pathParams: Array.from(options.path.matchAll(/\{(\w+)\}/g), (m) => m[1]!)
})

/**
 * The relative URL of a request: its path, and for a GET its query string. A POST sends its
 * request as the JSON body instead (see {@link body}).
 *
 * @since 0.1.0
 * @category Encoding
 */
export const url = <Req, ReqI, Res, ResI>(
  endpoint: Endpoint<Req, ReqI, Res, ResI>,
  request: Req
): Either.Either<string, ParseResult.ParseError> =>
  Either.map(Schema.encodeEither(endpoint.request)(request), (encoded) => {
    const query: Record<string, unknown> = { ...(encoded as Record<string, unknown>) }
    let path = endpoint.path
    for (const name of endpoint.pathParams) {
      path = path.replace(`{${name}}`, QueryString.escape(String(query[name] ?? "")))
      delete query[name]
    }
    const qs = endpoint.method === "GET" ? QueryString.make(query) : ""
    return qs === "" ? path : `${path}?${qs}`
  })

/**
 * The JSON body of a POST request, encoded by its schema.
 *
 * @since 0.1.0
 * @category Encoding
 */
export const body = <Req, ReqI, Res, ResI>(
  endpoint: Endpoint<Req, ReqI, Res, ResI>,
  request: Req
): Either.Either<ReqI, ParseResult.ParseError> => Schema.encodeEither(endpoint.request)(request)

/**
 * The request of an endpoint that takes no parameters.
 *
 * @since 0.1.0
 * @category Requests
 */
export const NoParams = Schema.Struct({})

/**
 * `GET /api/v2/parties/{partyId}/stake`
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const GetStake = make({
  name: "GetStake",
  method: "GET",
  path: "/api/v2/parties/{partyId}/stake",
  request: StakeLinking.GetStakeRequest,
  response: StakeLinking.GetStakeResponse
})

/**
 * `GET /api/v2/liquidity/all-provisions`
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const ListLiquidityProvisions = make({
  name: "ListAllLiquidityProvisions",
  method: "GET",
  path: "/api/v2/liquidity/all-provisions",
  request: LiquidityProvision.ListLiquidityProvisionsRequest,
  response: LiquidityProvision.ListLiquidityProvisionsResponse
})

/**
 * `GET /api/v2/positions`
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const ListPositions = make({
  name: "ListAllPositions",
  method: "GET",
  path: "/api/v2/positions",
  request: Position.ListPositionsRequest,
  response: Position.ListPositionsResponse
})

/**
 * `GET /api/v2/referral-sets/stats`
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const GetReferralSetStats = make({
  name: "GetReferralSetStats",
  method: "GET",
  path: "/api/v2/referral-sets/stats",
  request: ReferralSetStats.GetReferralSetStatsRequest,
  response: ReferralSetStats.GetReferralSetStatsResponse
})

/**
 * `GET /api/v2/erc20/multisigcontrol/signer/added/bundles`
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const ListSignerAddedBundles = make({
  name: "ListERC20MultiSigSignerAddedBundles",
  method: "GET",
  path: "/api/v2/erc20/multisigcontrol/signer/added/bundles",
  request: SignerBundle.ListSignerAddedBundlesRequest,
  response: SignerBundle.ListSignerAddedBundlesResponse
})

/**
 * `GET /api/v2/parties/profiles`
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const ListPartiesProfiles = make({
  name: "ListPartiesProfiles",
  method: "GET",
  path: "/api/v2/parties/profiles",
  request: PartyProfile.ListPartiesProfilesRequest,
  response: PartyProfile.ListPartiesProfilesResponse
})

/**
 * `GET /api/v2/rewards/summaries`
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const ListRewardSummaries = make({
  name: "ListRewardSummaries",
  method: "GET",
  path: "/api/v2/rewards/summaries",
  request: RewardSummary.ListRewardSummariesRequest,
  response: RewardSummary.ListRewardSummariesResponse
})

/**
 * `GET /api/v2/rewards`: per-epoch reward rows (see `Reward` for the node's epoch-only cursor).
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const ListRewards = make({
  name: "ListRewards",
  method: "GET",
  path: "/api/v2/rewards",
  request: Reward.ListRewardsRequest,
  response: Reward.ListRewardsResponse
})

/**
 * `GET /api/v2/info`: the data node's version.
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const Info = make({
  name: "Info",
  method: "GET",
  path: "/api/v2/info",
  request: NoParams,
  response: ChainInfo.InfoResponse
})

/**
 * `GET /statistics` (core, proxied by the data node).
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const Statistics = make({
  name: "Statistics",
  method: "GET",
  path: "/statistics",
  request: NoParams,
  response: ChainInfo.StatisticsResponse
})

/**
 * `GET /blockchain/height` (core, proxied): height, block hash, chain id and proof-of-work parameters.
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const LastBlockHeight = make({
  name: "LastBlockHeight",
  method: "GET",
  path: "/blockchain/height",
  request: NoParams,
  response: ChainInfo.LastBlockHeightResponse
})

/**
 * `GET /statistics/spam/{partyId}` (core, proxied): the party's proof-of-work and spam-policy state.
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const GetSpamStatistics = make({
  name: "GetSpamStatistics",
  method: "GET",
  path: "/statistics/spam/{partyId}",
  request: SpamStatistics.GetSpamStatisticsRequest,
  response: SpamStatistics.GetSpamStatisticsResponse
})

/**
 * `GET /api/v2/vega/time`
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const GetVegaTime = make({
  name: "GetVegaTime",
  method: "GET",
  path: "/api/v2/vega/time",
  request: NoParams,
  response: ChainInfo.GetVegaTimeResponse
})

/**
 * `GET /api/v2/epoch`
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const GetEpoch = make({
  name: "GetEpoch",
  method: "GET",
  path: "/api/v2/epoch",
  request: Epoch.GetEpochRequest,
  response: Epoch.GetEpochResponse
})

/**
 * `GET /api/v2/assets`
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const ListAssets = make({
  name: "ListAssets",
  method: "GET",
  path: "/api/v2/assets",
  request: Asset.ListAssetsRequest,
  response: Asset.ListAssetsResponse
})

/**
 * `GET /api/v2/asset/{assetId}`
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const GetAsset = make({
  name: "GetAsset",
  method: "GET",
  path: "/api/v2/asset/{assetId}",
  request: Asset.GetAssetRequest,
  response: Asset.GetAssetResponse
})

/**
 * `GET /api/v2/markets`
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const ListMarkets = make({
  name: "ListMarkets",
  method: "GET",
  path: "/api/v2/markets",
  request: Market.ListMarketsRequest,
  response: Market.ListMarketsResponse
})

/**
 * `GET /api/v2/market/{marketId}`
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const GetMarket = make({
  name: "GetMarket",
  method: "GET",
  path: "/api/v2/market/{marketId}",
  request: Market.GetMarketRequest,
  response: Market.GetMarketResponse
})

/**
 * `POST /transaction`: submit a signed transaction (body: JSON `tx` and `type`).
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const SubmitTransaction = make({
  name: "SubmitTransaction",
  method: "POST",
  path: "/transaction",
  request: Transaction.SubmitTransactionRequest,
  response: Transaction.SubmitTransactionResponse
})

/**
 * `POST /transaction/raw`: submit a marshalled transaction; the node hashes exactly these bytes.
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const SubmitRawTransaction = make({
  name: "SubmitRawTransaction",
  method: "POST",
  path: "/transaction/raw",
  request: Transaction.SubmitRawTransactionRequest,
  response: Transaction.SubmitTransactionResponse
})

/**
 * `POST /transaction/check`: run the mempool checks without submitting.
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const CheckTransaction = make({
  name: "CheckTransaction",
  method: "POST",
  path: "/transaction/check",
  request: Transaction.CheckTransactionRequest,
  response: Transaction.CheckTransactionResponse
})

/**
 * `POST /transaction/raw/check`
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const CheckRawTransaction = make({
  name: "CheckRawTransaction",
  method: "POST",
  path: "/transaction/raw/check",
  request: Transaction.CheckRawTransactionRequest,
  response: Transaction.CheckTransactionResponse
})

/**
 * Every endpoint described here.
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const endpoints: ReadonlyArray<Any> = [
  GetStake,
  ListLiquidityProvisions,
  ListPositions,
  GetReferralSetStats,
  ListSignerAddedBundles,
  ListPartiesProfiles,
  ListRewardSummaries,
  ListRewards,
  Info,
  Statistics,
  LastBlockHeight,
  GetSpamStatistics,
  GetVegaTime,
  GetEpoch,
  ListAssets,
  GetAsset,
  ListMarkets,
  GetMarket,
  SubmitTransaction,
  SubmitRawTransaction,
  CheckTransaction,
  CheckRawTransaction
]

/**
 * The headers the node adds to every answer of a unary call (its unary interceptor): the height
 * and time (unix nanoseconds) of the block it had processed. HTTP header names are
 * case-insensitive: compare them lowercased.
 *
 * @since 0.1.0
 * @category Constants
 */
export const BlockHeaders = {
  height: "X-Block-Height",
  timestamp: "X-Block-Timestamp"
} as const

/**
 * A streaming route (`/api/v2/stream/...`): a chunked HTTP answer of one `{"result":…}` line per
 * message, or the same lines as WebSocket text frames. Messages are written in the stream form
 * (enums as numbers, defaults left out; see `StreamForm`).
 *
 * @since 0.1.0
 * @category Models
 */
export interface StreamEndpoint<Msg, MsgI> {
  /** The RPC name behind the route. */
  readonly name: string
  readonly path: string
  /** One message (the `result` of a line). */
  readonly message: Schema.Schema<Msg, MsgI>
}

/**
 * Any stream endpoint.
 *
 * @since 0.1.0
 * @category Models
 */
export type AnyStream = StreamEndpoint<any, any>

const stream = <Msg, MsgI>(options: StreamEndpoint<Msg, MsgI>): StreamEndpoint<Msg, MsgI> => options

/**
 * `GET /api/v2/stream/transaction-results`: transaction results as blocks include them; query
 * `partyIds`, `hashes` (repeated) and `status`.
 *
 * @since 0.1.0
 * @category Streams
 */
export const ObserveTransactionResults = stream({
  name: "ObserveTransactionResults",
  path: "/api/v2/stream/transaction-results",
  message: TransactionResult.ObserveTransactionResultsResponse
})

/**
 * `GET /api/v2/stream/event/bus`: the event bus, over a WebSocket (the client sends
 * `ObserveEventBusRequest`s as frames).
 *
 * @since 0.1.0
 * @category Streams
 */
export const ObserveEventBus = stream({
  name: "ObserveEventBus",
  path: "/api/v2/stream/event/bus",
  message: EventBus.ObserveEventBusResponse
})

/**
 * `GET /stream/event/bus`: the core node's own event bus, which the data node's mirrors.
 *
 * @since 0.1.0
 * @category Streams
 */
export const CoreObserveEventBus = stream({
  name: "CoreObserveEventBus",
  path: "/stream/event/bus",
  message: EventBus.ObserveEventBusResponse
})

/**
 * `GET /api/v2/stream/positions`: a snapshot of the matching positions in pages of 50, then each
 * block's changed positions; query `partyId`, `marketId`.
 *
 * @since 0.1.0
 * @category Streams
 */
export const ObservePositions = stream({
  name: "ObservePositions",
  path: "/api/v2/stream/positions",
  message: Position.ObservePositionsResponse
})

/**
 * `GET /api/v2/stream/liquidity-provisions`: each block's changed provisions, no snapshot; query
 * `marketId`, `partyId`.
 *
 * @since 0.1.0
 * @category Streams
 */
export const ObserveLiquidityProvisions = stream({
  name: "ObserveLiquidityProvisions",
  path: "/api/v2/stream/liquidity-provisions",
  message: LiquidityProvision.ObserveLiquidityProvisionsResponse
})

/**
 * Every streaming route described here.
 *
 * @since 0.1.0
 * @category Streams
 */
export const streams: ReadonlyArray<AnyStream> = [
  ObserveTransactionResults,
  ObserveEventBus,
  CoreObserveEventBus,
  ObservePositions,
  ObserveLiquidityProvisions
]
