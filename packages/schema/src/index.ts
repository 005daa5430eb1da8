/**
 * Every wire shape of the Vega data-node API as Effect Schema: ids, exact amounts and decimals,
 * open enums, the resources, pages, errors, assets and markets, transactions and commands with the
 * node's validation. Each module is a namespace of the package
 * (`import { Position } from "@vega-effect/schema"`) and a subpath of its own
 * (`@vega-effect/schema/Position`).
 *
 * @since 0.1.0
 */

/**
 * Amounts in base units: integer decimal strings of any size, decoded to `bigint`.
 *
 * @since 0.1.0
 */
export * as Amount from "./Amount.js"

/**
 * Assets as served by `GET /api/v2/assets` and `GET /api/v2/asset/{assetId}`.
 *
 * @since 0.1.0
 */
export * as Asset from "./Asset.js"

/**
 * What a client reads about the chain first: node version, chain id, heights, times and epoch.
 *
 * @since 0.1.0
 */
export * as ChainInfo from "./ChainInfo.js"

/**
 * The messages and enums of the core node's API (proto package `vega.api.v1`) that its routes
 * reach, generated from Vega's spec.
 *
 * @since 0.2.0
 */
export * as CoreApi from "./generated/CoreApi.js"

/**
 * The node's stateless validation of submitted commands, with the node's exact wording.
 *
 * @since 0.1.0
 */
export * as CommandValidation from "./CommandValidation.js"

/**
 * The commands a party submits in a transaction, as the REST gateway writes them in JSON.
 *
 * @since 0.1.0
 */
export * as Commands from "./Commands.js"

/**
 * The data node's REST API as data: one endpoint per route with its method, path, request and
 * response schemas.
 *
 * @since 0.1.0
 */
export * as DataNodeApi from "./DataNodeApi.js"

/**
 * The requests and answers of the data node's API (proto package `datanode.api.v2`), generated
 * from Vega's spec.
 *
 * @since 0.2.0
 */
export * as DataNode from "./generated/DataNode.js"

/**
 * A route of the API as data: method, path, request and answer schemas; paged, stream and file
 * routes.
 *
 * @since 0.2.0
 */
export * as Endpoint from "./Endpoint.js"

/**
 * Exact decimal fractions (fees, factors, multipliers) as Effect `BigDecimal`.
 *
 * @since 0.1.0
 */
export * as Decimal from "./Decimal.js"

/**
 * Fast decoders for bulk responses: drop-in replacements for `Schema.decodeUnknownSync` and
 * `Schema.decodeUnknownEither`.
 *
 * @since 0.1.0
 */
export * as Decoder from "./Decoder.js"

/**
 * Durations as people write them in command lines, environment variables and configuration files.
 *
 * @since 0.1.0
 */
export * as DurationText from "./DurationText.js"

/**
 * Fast encoders for bulk output: drop-in replacements for `Schema.encodeSync` and
 * `Schema.encodeEither`.
 *
 * @since 0.1.0
 */
export * as Encoder from "./Encoder.js"

/**
 * Open proto enums: names in REST responses, numbers in streams, unknown values kept.
 *
 * @since 0.1.0
 */
export * as Enum from "./Enum.js"

/**
 * Epochs as served by `GET /api/v2/epoch`: times, blocks, validators and delegated stake.
 *
 * @since 0.1.0
 */
export * as Epoch from "./Epoch.js"

/**
 * The event bus stream: its request, frames and bus events.
 *
 * @since 0.1.0
 */
export * as EventBus from "./EventBus.js"

/**
 * Ethereum values that appear in Vega data: addresses and transaction hashes.
 *
 * @since 0.1.0
 */
export * as Ethereum from "./Ethereum.js"

/**
 * Error bodies of the data node's REST gateway (`google.rpc.Status`).
 *
 * @since 0.1.0
 */
export * as GatewayError from "./GatewayError.js"

/**
 * Vega identifiers: 64 hexadecimal characters, normalised to lowercase.
 *
 * @since 0.1.0
 */
export * as Ids from "./Ids.js"

/**
 * Checks for values that reach a public function from outside the type system.
 *
 * @since 0.1.0
 */
export * as Input from "./Input.js"

/**
 * Protobuf integers as the gateway writes them: 64-bit values as decimal strings, 32-bit values as
 * numbers.
 *
 * @since 0.1.0
 */
export * as Integer from "./Integer.js"

/**
 * Liquidity provisions as served by `GET /api/v2/liquidity/all-provisions`.
 *
 * @since 0.1.0
 */
export * as LiquidityProvision from "./LiquidityProvision.js"

/**
 * Markets as served by `GET /api/v2/markets` and `GET /api/v2/market/{marketId}`.
 *
 * @since 0.1.0
 */
export * as Market from "./Market.js"

/**
 * Cursor pagination as the data node speaks it: request parameters and the `edges` + `pageInfo`
 * connection.
 *
 * @since 0.1.0
 */
export * as Pagination from "./Pagination.js"

/**
 * Party profiles as served by `GET /api/v2/parties/profiles`.
 *
 * @since 0.1.0
 */
export * as PartyProfile from "./PartyProfile.js"

/**
 * Positions as served by `GET /api/v2/positions`.
 *
 * @since 0.1.0
 */
export * as Position from "./Position.js"

/**
 * Query strings the way the data node's gateway reads them.
 *
 * @since 0.1.0
 */
export * as QueryString from "./QueryString.js"

/**
 * The data node's default rate limiter: rate, burst and ban.
 *
 * @since 0.1.0
 */
export * as RateLimit from "./RateLimit.js"

/**
 * Referral set statistics as served by `GET /api/v2/referral-sets/stats`.
 *
 * @since 0.1.0
 */
export * as ReferralSetStats from "./ReferralSetStats.js"

/**
 * Per-epoch reward payouts as served by `GET /api/v2/rewards`.
 *
 * @since 0.1.0
 */
export * as Reward from "./Reward.js"

/**
 * Reward totals per party and asset, as served by `GET /api/v2/rewards/summaries`.
 *
 * @since 0.1.0
 */
export * as RewardSummary from "./RewardSummary.js"

/**
 * What the node does with each route that a client must know to read it completely: broken
 * cursors, bounded windows, one-way paging.
 *
 * @since 0.2.0
 */
export * as RouteFacts from "./RouteFacts.js"

/**
 * Exact conversions between base units and human decimals, explicit about which decimals apply.
 *
 * @since 0.1.0
 */
export * as Scaling from "./Scaling.js"

/**
 * Signature bundles that add a validator to the ERC-20 multisig control contract's signer set.
 *
 * @since 0.1.0
 */
export * as SignerBundle from "./SignerBundle.js"

/**
 * A party's spam-protection state, as served by `GET /statistics/spam/{partyId}`.
 *
 * @since 0.1.0
 */
export * as SpamStatistics from "./SpamStatistics.js"

/**
 * Stake linkings: VEGA tokens associated with or dissociated from a Vega key.
 *
 * @since 0.1.0
 */
export * as StakeLinking from "./StakeLinking.js"

/**
 * The JSON form of the node's streams (enums as numbers, defaults omitted) derived from the REST
 * schemas.
 *
 * @since 0.1.0
 */
export * as StreamForm from "./StreamForm.js"

/**
 * The two clocks in Vega data, kept apart by type: Vega nanoseconds and Ethereum seconds.
 *
 * @since 0.1.0
 */
export * as Timestamp from "./Timestamp.js"

/**
 * The messages and enums of proto package `vega` (orders, trades, accounts, market data,
 * governance, ...) that the API's routes reach, generated from Vega's spec.
 *
 * @since 0.2.0
 */
export * as Vega from "./generated/Vega.js"

/**
 * The messages and enums of proto package `vega.data.v1` (oracle data) that the API's routes
 * reach, generated from Vega's spec.
 *
 * @since 0.2.0
 */
export * as VegaData from "./generated/VegaData.js"

/**
 * The messages and enums of proto package `vega.events.v1` that the API's routes reach,
 * generated from Vega's spec.
 *
 * @since 0.2.0
 */
export * as VegaEvents from "./generated/VegaEvents.js"

/**
 * Signed transactions and their submission, as the core API reads and writes them.
 *
 * @since 0.1.0
 */
export * as Transaction from "./Transaction.js"

/**
 * What became of a transaction once a block included it.
 *
 * @since 0.1.0
 */
export * as TransactionResult from "./TransactionResult.js"
