/**
 * Assets as served by `GET /api/v2/assets` and `GET /api/v2/asset/{assetId}`.
 *
 * `details.decimals` is decoded to {@link Scaling.AssetDecimals}: it scales every amount of the
 * asset (stake, commitments, rewards, transfers). The `source` oneof is laid out flat, as the
 * gateway writes it: at most one of `builtinAsset` and `erc20` is present.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { Amount } from "./Amount.js"
import { Decimal } from "./Decimal.js"
import * as Enum from "./Enum.js"
import { EthereumAddress } from "./Ethereum.js"
import { AssetId } from "./Ids.js"
import { oneof, optional } from "./internal/proto.js"
import * as Pagination from "./Pagination.js"
import type * as Scaling from "./Scaling.js"
import { AssetDecimalsFromString } from "./Scaling.js"

/**
 * `vega.Asset.Status`
 *
 * @since 0.1.0
 * @category Enums
 */
export const AssetStatus = Enum.make("vega.Asset.Status", {
  STATUS_UNSPECIFIED: 0,
  STATUS_PROPOSED: 1,
  STATUS_REJECTED: 2,
  STATUS_PENDING_LISTING: 3,
  STATUS_ENABLED: 4
})
/**
 * The values of the `AssetStatus` enum: its known names or an `UnknownEnumValue`.
 *
 * @since 0.1.0
 * @category Enums
 */
export type AssetStatus = Enum.Type<typeof AssetStatus>

/**
 * `vega.ERC20`: an asset bridged from an EVM chain. Limits are in the asset's base units.
 * `chainId` (the EVM chain id, e.g. `"1"`) is added by v0.76 nodes.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Erc20 = Schema.Struct({
  contractAddress: EthereumAddress,
  lifetimeLimit: Amount,
  withdrawThreshold: Amount,
  chainId: optional(Schema.String)
}).annotations({ identifier: "ERC20" })
/**
 * The decoded form of the `Erc20` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Erc20 = typeof Erc20.Type

/**
 * `vega.BuiltinAsset`: an asset that exists only on Vega (test networks), with its faucet limit
 * in base units.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const BuiltinAsset = Schema.Struct({
  maxFaucetAmountMint: Amount
}).annotations({ identifier: "BuiltinAsset" })
/**
 * The decoded form of the `BuiltinAsset` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type BuiltinAsset = typeof BuiltinAsset.Type

/**
 * `vega.AssetDetails`. `quantum` is a decimal amount in base units that the network treats as
 * "about 1 USD" of the asset. Neither source member is present when a newer node sends a source
 * kind this package does not know.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const AssetDetails = Schema.Struct({
  name: Schema.String,
  symbol: Schema.String,
  decimals: AssetDecimalsFromString,
  quantum: Decimal,
  builtinAsset: optional(BuiltinAsset),
  erc20: optional(Erc20)
}).pipe(oneof("source", ["builtinAsset", "erc20"]), Schema.annotations({ identifier: "AssetDetails" }))
/**
 * The decoded form of the `AssetDetails` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type AssetDetails = typeof AssetDetails.Type

/**
 * `vega.Asset`
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Asset = Schema.Struct({
  id: AssetId,
  details: AssetDetails,
  status: AssetStatus
}).annotations({ identifier: "Asset" })
/**
 * The decoded form of the `Asset` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Asset = typeof Asset.Type

/**
 * The decimals that scale the asset's amounts.
 *
 * @since 0.1.0
 * @category Getters
 */
export const decimals = (asset: Asset): Scaling.AssetDecimals => asset.details.decimals

/**
 * Request of `GET /api/v2/asset/{assetId}`; `assetId` goes in the path.
 *
 * @since 0.1.0
 * @category Requests
 */
export const GetAssetRequest = Schema.Struct({
  assetId: AssetId
}).annotations({ identifier: "GetAssetRequest" })
/**
 * The decoded form of the `GetAssetRequest` schema.
 *
 * @since 0.1.0
 * @category Requests
 */
export type GetAssetRequest = typeof GetAssetRequest.Type

/**
 * Response of `GET /api/v2/asset/{assetId}`. An unknown asset is a 404 with detail code 200002.
 *
 * @since 0.1.0
 * @category Responses
 */
export const GetAssetResponse = Schema.Struct({
  asset: Asset
}).annotations({ identifier: "GetAssetResponse" })
/**
 * The decoded form of the `GetAssetResponse` schema.
 *
 * @since 0.1.0
 * @category Responses
 */
export type GetAssetResponse = typeof GetAssetResponse.Type

/**
 * Request of `GET /api/v2/assets`: query `assetId` (one asset) and `pagination.*`.
 *
 * @since 0.1.0
 * @category Requests
 */
export const ListAssetsRequest = Schema.Struct({
  assetId: optional(AssetId),
  pagination: optional(Pagination.PaginationParams)
}).annotations({ identifier: "ListAssetsRequest" })
/**
 * The decoded form of the `ListAssetsRequest` schema.
 *
 * @since 0.1.0
 * @category Requests
 */
export type ListAssetsRequest = typeof ListAssetsRequest.Type

/**
 * Response of `GET /api/v2/assets`.
 *
 * @since 0.1.0
 * @category Responses
 */
export const ListAssetsResponse = Schema.Struct({
  assets: Pagination.Connection(Asset)
}).annotations({ identifier: "ListAssetsResponse" })
/**
 * The decoded form of the `ListAssetsResponse` schema.
 *
 * @since 0.1.0
 * @category Responses
 */
export type ListAssetsResponse = typeof ListAssetsResponse.Type
