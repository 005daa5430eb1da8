/**
 * What a client reads about the chain before it does anything else:
 *
 * - `GET /api/v2/info`: the data node's version;
 * - `GET /statistics` (core, proxied by the data node): chain id, heights, times, epoch;
 * - `GET /blockchain/height` (core): the block to anchor a transaction to and the proof-of-work
 *   parameters;
 * - `GET /api/v2/vega/time` (also core `GET /time`): the current Vega time.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import * as Enum from "./Enum.js"
import { BlockHash } from "./Ids.js"
import { Uint32, Uint64 } from "./Integer.js"
import { optional } from "./internal/proto.js"
import { Rfc3339, VegaTimestamp } from "./Timestamp.js"

/**
 * Response of `GET /api/v2/info`, e.g. `{"version":"v0.75.8","commitHash":"7ecac479…"}`.
 *
 * @since 0.1.0
 * @category Responses
 */
export const InfoResponse = Schema.Struct({
  version: Schema.String,
  commitHash: Schema.String
}).annotations({ identifier: "InfoResponse" })
/**
 * The decoded form of the `InfoResponse` schema.
 *
 * @since 0.1.0
 * @category Responses
 */
export type InfoResponse = typeof InfoResponse.Type

/**
 * `vega.ChainStatus`
 *
 * @since 0.1.0
 * @category Enums
 */
export const ChainStatus = Enum.make("vega.ChainStatus", {
  CHAIN_STATUS_UNSPECIFIED: 0,
  CHAIN_STATUS_DISCONNECTED: 1,
  CHAIN_STATUS_REPLAYING: 2,
  CHAIN_STATUS_CONNECTED: 3
})
/**
 * The values of the `ChainStatus` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type ChainStatus = Enum.Type<typeof ChainStatus>

/**
 * `vega.Statistics`, members in proto declaration order.
 *
 * Required: the members a client relies on (`blockHeight`, `totalPeers`, the three times,
 * `status`, `appVersion`, `blockDuration` in nanoseconds, `chainId`, `epochSeq` and the epoch
 * times). The other members are optional: their names and types follow the proto as recalled,
 * not a checked source, and core leaves several of them (market and subscription counters) at
 * zero. `blockHash` and `uptime` are kept as plain strings.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Statistics = Schema.Struct({
  blockHeight: Uint64,
  backlogLength: optional(Uint64),
  totalPeers: Uint64,
  genesisTime: Rfc3339,
  currentTime: Rfc3339,
  vegaTime: Rfc3339,
  status: ChainStatus,
  txPerBlock: optional(Uint64),
  averageTxBytes: optional(Uint64),
  averageOrdersPerBlock: optional(Uint64),
  tradesPerSecond: optional(Uint64),
  ordersPerSecond: optional(Uint64),
  totalMarkets: optional(Uint64),
  totalAmendOrder: optional(Uint64),
  totalCancelOrder: optional(Uint64),
  totalCreateOrder: optional(Uint64),
  totalOrders: optional(Uint64),
  totalTrades: optional(Uint64),
  orderSubscriptions: optional(Uint32),
  tradeSubscriptions: optional(Uint32),
  candleSubscriptions: optional(Uint32),
  marketDepthSubscriptions: optional(Uint32),
  positionsSubscriptions: optional(Uint32),
  accountSubscriptions: optional(Uint32),
  marketDataSubscriptions: optional(Uint32),
  appVersionHash: optional(Schema.String),
  appVersion: Schema.String,
  chainVersion: optional(Schema.String),
  blockDuration: Uint64,
  uptime: optional(Schema.String),
  chainId: Schema.String,
  marketDepthUpdatesSubscriptions: optional(Uint32),
  blockHash: optional(Schema.String),
  epochSeq: Uint64,
  epochStartTime: Rfc3339,
  epochExpiryTime: Rfc3339,
  eventCount: optional(Uint64),
  eventsPerSecond: optional(Uint64)
}).annotations({ identifier: "Statistics" })
/**
 * The decoded form of the `Statistics` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Statistics = typeof Statistics.Type

/**
 * Response of `GET /statistics`.
 *
 * @since 0.1.0
 * @category Responses
 */
export const StatisticsResponse = Schema.Struct({
  statistics: Statistics
}).annotations({ identifier: "StatisticsResponse" })
/**
 * The decoded form of the `StatisticsResponse` schema.
 *
 * @since 0.1.0
 * @category Responses
 */
export type StatisticsResponse = typeof StatisticsResponse.Type

/**
 * The hash function core names for its proof of work.
 *
 * @since 0.1.0
 * @category Constants
 */
export const SPAM_POW_HASH_FUNCTION = "sha3_24_rounds"

/**
 * Response of `GET /blockchain/height` (`vega.api.v1.LastBlockHeightResponse`): put `height` in
 * the transaction's `blockHeight`, solve the proof of work on `hash`, sign for `chainId`.
 *
 * @since 0.1.0
 * @category Responses
 */
export const LastBlockHeightResponse = Schema.Struct({
  height: Uint64,
  hash: BlockHash,
  spamPowHashFunction: Schema.String,
  spamPowDifficulty: Uint32,
  spamPowNumberOfPastBlocks: Uint32,
  spamPowNumberOfTxPerBlock: Uint32,
  spamPowIncreasingDifficulty: Schema.Boolean,
  chainId: Schema.String
}).annotations({ identifier: "LastBlockHeightResponse" })
/**
 * The decoded form of the `LastBlockHeightResponse` schema.
 *
 * @since 0.1.0
 * @category Responses
 */
export type LastBlockHeightResponse = typeof LastBlockHeightResponse.Type

/**
 * Response of `GET /api/v2/vega/time` and core `GET /time`: Vega time in unix nanoseconds.
 *
 * @since 0.1.0
 * @category Responses
 */
export const GetVegaTimeResponse = Schema.Struct({
  timestamp: VegaTimestamp
}).annotations({ identifier: "GetVegaTimeResponse" })
/**
 * The decoded form of the `GetVegaTimeResponse` schema.
 *
 * @since 0.1.0
 * @category Responses
 */
export type GetVegaTimeResponse = typeof GetVegaTimeResponse.Type
