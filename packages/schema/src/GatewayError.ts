/**
 * Error bodies of the data node's REST gateway (grpc-gateway v2.9.0): a `google.rpc.Status`
 * written with the REST rules, so `details` is always present (`[]` when empty) and each detail
 * starts with its `@type`:
 *
 * ```json
 * {"code":5,"message":"NotFound error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":30002,"message":"failed to get market for ID","inner":"no resource corresponding to this id"}]}
 * ```
 *
 * Also here: the gRPC code table, the HTTP status of each code, the Vega error detail codes, and
 * constructors for every body the node produces.
 *
 * @since 0.1.0
 */
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import { Int32 } from "./Integer.js"
import { jsonValue, optional } from "./internal/proto.js"
import * as RateLimit from "./RateLimit.js"

/**
 * gRPC status codes by name (`codes.Code.String()` in grpc-go).
 *
 * @since 0.1.0
 * @category Constants
 */
export const GrpcCode = {
  OK: 0,
  Canceled: 1,
  Unknown: 2,
  InvalidArgument: 3,
  DeadlineExceeded: 4,
  NotFound: 5,
  AlreadyExists: 6,
  PermissionDenied: 7,
  ResourceExhausted: 8,
  FailedPrecondition: 9,
  Aborted: 10,
  OutOfRange: 11,
  Unimplemented: 12,
  Internal: 13,
  Unavailable: 14,
  DataLoss: 15,
  Unauthenticated: 16
} as const

/**
 * The name of a gRPC status code.
 *
 * @since 0.1.0
 * @category Models
 */
export type GrpcCodeName = keyof typeof GrpcCode

/**
 * A gRPC status code number.
 *
 * @since 0.1.0
 * @category Models
 */
export type GrpcCode = (typeof GrpcCode)[GrpcCodeName]

const codeNames = new Map<number, GrpcCodeName>(
  (Object.keys(GrpcCode) as Array<GrpcCodeName>).map((name) => [GrpcCode[name], name])
)

/**
 * The name of a gRPC code, e.g. `5` → `"NotFound"`; `undefined` for a code outside the table.
 *
 * @since 0.1.0
 * @category Conversions
 */
export const grpcCodeName = (code: number): GrpcCodeName | undefined => codeNames.get(code)

/**
 * The HTTP status of each gRPC code (grpc-gateway `HTTPStatusFromCode`).
 *
 * @since 0.1.0
 * @category Constants
 */
export const HttpStatusByCode: { readonly [K in GrpcCodeName]: number } = {
  OK: 200,
  Canceled: 408,
  Unknown: 500,
  InvalidArgument: 400,
  DeadlineExceeded: 504,
  NotFound: 404,
  AlreadyExists: 409,
  PermissionDenied: 403,
  ResourceExhausted: 429,
  FailedPrecondition: 400,
  Aborted: 409,
  OutOfRange: 400,
  Unimplemented: 501,
  Internal: 500,
  Unavailable: 503,
  DataLoss: 500,
  // not produced by the data node; grpc-gateway maps it like this
  Unauthenticated: 401
}

/**
 * The HTTP status the gateway answers with for a gRPC code; 500 for a code outside the table.
 *
 * @since 0.1.0
 * @category Conversions
 */
export const httpStatus = (grpcCode: number): number => {
  const name = codeNames.get(grpcCode)
  return name === undefined ? 500 : HttpStatusByCode[name]
}

/**
 * The `@type` of a Vega error detail.
 *
 * @since 0.1.0
 * @category Constants
 */
export const VEGA_ERROR_DETAIL_TYPE = "type.googleapis.com/vega.ErrorDetail"

/**
 * `vega.ErrorDetail` inside `details`: the Vega error code, the API error text and the text of
 * the wrapped cause(s) (`""` when there is none). All four members are always written.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const VegaErrorDetail = Schema.Struct({
  "@type": Schema.Literal(VEGA_ERROR_DETAIL_TYPE),
  code: Int32,
  message: Schema.String,
  inner: Schema.String
}).annotations({ identifier: "VegaErrorDetail" })
/**
 * The decoded form of the `VegaErrorDetail` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type VegaErrorDetail = typeof VegaErrorDetail.Type

/**
 * Any other `google.protobuf.Any` detail, kept as received (the very object, members in their
 * order): an object whose `@type` is a string other than {@link VEGA_ERROR_DETAIL_TYPE}.
 *
 * @since 0.1.0
 * @category Models
 */
export interface OtherErrorDetail {
  readonly "@type": string
  readonly [key: string]: unknown
}

const isOtherErrorDetail = (u: unknown): u is OtherErrorDetail =>
  Predicate.isRecord(u) && typeof u["@type"] === "string" && u["@type"] !== VEGA_ERROR_DETAIL_TYPE

/**
 * Any error detail that is not a `vega.ErrorDetail`, checked only for its string `@type` and kept
 * as received.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const OtherErrorDetail: Schema.Schema<OtherErrorDetail> = Schema.declare(isOtherErrorDetail, {
  identifier: "OtherErrorDetail",
  description: `an object with a string "@type" other than ${VEGA_ERROR_DETAIL_TYPE}`,
  arbitrary: () => (fc) =>
    fc
      .tuple(
        fc.string().filter((t) => t !== VEGA_ERROR_DETAIL_TYPE),
        fc.dictionary(
          fc.string().filter((k) => k !== "@type"),
          jsonValue(fc)
        )
      )
      .map(([type, rest]): OtherErrorDetail => ({ "@type": type, ...rest }))
})

/**
 * An element of `details`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const ErrorDetail = Schema.Union(VegaErrorDetail, OtherErrorDetail).annotations({ identifier: "ErrorDetail" })
/**
 * The decoded form of the `ErrorDetail` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type ErrorDetail = typeof ErrorDetail.Type

/**
 * Whether an error detail is a `vega.ErrorDetail` (its `@type` is {@link VEGA_ERROR_DETAIL_TYPE}).
 *
 * @since 0.1.0
 * @category Guards
 */
export const isVegaErrorDetail = (detail: ErrorDetail): detail is VegaErrorDetail =>
  detail["@type"] === VEGA_ERROR_DETAIL_TYPE

/**
 * An error body. `details` is absent only in the gateway's fallback body (see
 * {@link MARSHAL_FAILURE_TEXT}).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const ErrorBody = Schema.Struct({
  code: Int32,
  message: Schema.String,
  details: optional(Schema.Array(ErrorDetail))
}).annotations({ identifier: "ErrorBody" })
/**
 * The decoded form of the `ErrorBody` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type ErrorBody = typeof ErrorBody.Type

/**
 * The first Vega error detail of a body, if any.
 *
 * @since 0.1.0
 * @category Getters
 */
export const vegaErrorDetail = (body: ErrorBody): VegaErrorDetail | undefined => body.details?.find(isVegaErrorDetail)

/**
 * The HTTP status the gateway sends with a body.
 *
 * @since 0.1.0
 * @category Getters
 */
export const httpStatusOf = (body: ErrorBody): number => httpStatus(body.code)

/**
 * Vega error detail codes (`details[0].code`) relevant to the read endpoints. `Unmapped` (10000)
 * is what the node sends for an API error missing from its code table.
 *
 * @since 0.1.0
 * @category Constants
 */
export const ErrorDetailCode = {
  Unmapped: 10000,
  EmptyMarketId: 10003,
  MissingOrderId: 10012,
  MissingPartyId: 10014,
  MalformedRequest: 10015,
  InvalidAssetId: 10038,
  InvalidPagination: 10028,
  MissingCandleId: 10030,
  EpochIdParse: 10036,
  OrderServiceGetVersions: 20005,
  OrderNotFound: 20006,
  InvalidFilter: 10029,
  MissingWithdrawalId: 80003,
  MissingDepositId: 80004,
  AccountServiceListAccounts: 80006,
  FailedToSendSnapshot: 80008,
  AccountServiceGetBalances: 90004,
  WithdrawalServiceGet: 150001,
  DepositServiceGet: 210001,
  TransferServiceGet: 220001,
  LedgerServiceGet: 260001,
  MarketServiceGetById: 30002,
  TradeServiceGetByMarket: 40001,
  TradeServiceList: 40005,
  MarketServiceGetMarketData: 30004,
  MarketServiceGetMarketDataHistory: 30006,
  CandleServiceGetCandleData: 60001,
  CandleServiceSubscribeToCandles: 60002,
  RewardsSummary: 140001,
  Rewards: 230001,
  PositionsForParty: 160001,
  NotaryForResourceId: 180001,
  AssetServiceGetById: 200002,
  AddedMultisigEvents: 270001,
  LiquidityProvision: 280001,
  StakeLinking: 300001,
  MissingProposalId: 10021,
  MissingProposalIdOrReference: 10022,
  MissingProposalIdAndPartyId: 10023,
  MissingProposalIdOrPartyId: 10024,
  GetNetworkParameters: 100002,
  NetworkParameterNotFound: 100003,
  GovernanceServiceGet: 170001,
  GovernanceServiceGetProposals: 170002,
  GovernanceServiceGetVotes: 170003,
  MissingPrice: 10026,
  EstimateFee: 10039,
  EstimateMargin: 10040,
  RiskServiceGetMarginLevelsById: 70001,
  RiskFactorServiceGet: 310001,
  PartyServiceGetAll: 50001,
  PartyServiceGetById: 50002,
  MarketServiceGetAllPaged: 30005,
  MissingOracleSpecId: 10031,
  OracleSpecServiceGet: 190001,
  OracleSpecServiceGetAll: 190002,
  OracleDataServiceGet: 190003,
  NodeServiceGetNodes: 110001,
  NodeServiceGetNodeData: 110002,
  DelegationServiceGet: 130001,
  GetEpoch: 250001,
  MissingAssetId: 10017,
  MissingResourceId: 10025,
  Erc20InvalidTokenContractAddress: 120001,
  RemovedMultisigEvents: 270002,
  KeyRotationServiceGetPerNode: 340001,
  KeyRotationServiceGetAll: 340002,
  EthereumKeyRotationServiceGetPerNode: 350001,
  CheckpointServiceGet: 290001,
  CoreSnapshotServiceListSnapshots: 320001,
  ProtocolUpgradeServiceListProposals: 330001
} as const

/**
 * An API error of the data node: its text (`details[0].message`), its detail code, and the gRPC
 * code it is reported with. Service errors (`failed to get …`) are `Internal` unless their cause
 * is an invalid id (then `InvalidArgument`) or an unknown resource (then `NotFound`).
 *
 * @since 0.1.0
 * @category Models
 */
export interface ApiError {
  readonly message: string
  readonly code: number
  readonly grpcCode: GrpcCode
}

const apiErrorEntry = (message: string, code: number, grpcCode: GrpcCode): ApiError => ({ message, code, grpcCode })

/**
 * The API errors of the read endpoints, as the node words them (`datanode/api/errors.go`,
 * v0.75.8: an error missing from its code table, e.g. `invalid orderID parameter`, is sent with
 * the code `Unmapped`).
 *
 * @since 0.1.0
 * @category Constants
 */
export const ApiErrors = {
  MissingPartyId: apiErrorEntry("missing party id", ErrorDetailCode.MissingPartyId, GrpcCode.InvalidArgument),
  InvalidPartyId: apiErrorEntry("invalid party id", ErrorDetailCode.Unmapped, GrpcCode.InvalidArgument),
  InvalidMarketId: apiErrorEntry("invalid market ID", ErrorDetailCode.Unmapped, GrpcCode.InvalidArgument),
  InvalidAssetId: apiErrorEntry("invalid asset ID", ErrorDetailCode.InvalidAssetId, GrpcCode.InvalidArgument),
  EmptyMissingMarketId: apiErrorEntry(
    "empty or missing market ID",
    ErrorDetailCode.EmptyMarketId,
    GrpcCode.InvalidArgument
  ),
  MissingCandleId: apiErrorEntry(
    "candle id is a required parameter",
    ErrorDetailCode.MissingCandleId,
    GrpcCode.InvalidArgument
  ),
  InvalidCandleTimestampsRange: apiErrorEntry(
    "invalid candle timestamps range",
    ErrorDetailCode.Unmapped,
    GrpcCode.InvalidArgument
  ),
  InvalidPagination: apiErrorEntry("invalid pagination", ErrorDetailCode.InvalidPagination, GrpcCode.InvalidArgument),
  EpochIdParse: apiErrorEntry("failed to parse epoch id", ErrorDetailCode.EpochIdParse, GrpcCode.InvalidArgument),
  MissingOrderId: apiErrorEntry("missing orderID parameter", ErrorDetailCode.MissingOrderId, GrpcCode.InvalidArgument),
  InvalidOrderId: apiErrorEntry("invalid orderID parameter", ErrorDetailCode.Unmapped, GrpcCode.InvalidArgument),
  NegativeOrderVersion: apiErrorEntry("negative order version", ErrorDetailCode.Unmapped, GrpcCode.InvalidArgument),
  LastPaginationNotSupported: apiErrorEntry(
    "'last' pagination is not supported",
    ErrorDetailCode.Unmapped,
    GrpcCode.InvalidArgument
  ),
  OrderNotFound: apiErrorEntry("order not found", ErrorDetailCode.OrderNotFound, GrpcCode.NotFound),
  OrderServiceGetVersions: apiErrorEntry(
    "failed to get order versions",
    ErrorDetailCode.OrderServiceGetVersions,
    GrpcCode.Internal
  ),
  TradeServiceGetByMarket: apiErrorEntry(
    "failed to get trades for market",
    ErrorDetailCode.TradeServiceGetByMarket,
    GrpcCode.Internal
  ),
  TradeServiceList: apiErrorEntry("failed to list trades", ErrorDetailCode.TradeServiceList, GrpcCode.Internal),
  StakeLinking: apiErrorEntry("failed to get stake linking", ErrorDetailCode.StakeLinking, GrpcCode.Internal),
  LiquidityProvision: apiErrorEntry(
    "failed to get liquidity provision",
    ErrorDetailCode.LiquidityProvision,
    GrpcCode.Internal
  ),
  PositionsForParty: apiErrorEntry(
    "failed to get positions for party",
    ErrorDetailCode.PositionsForParty,
    GrpcCode.Internal
  ),
  ReferralSetStats: apiErrorEntry("failed to get referral set stats", ErrorDetailCode.Unmapped, GrpcCode.Internal),
  CurrentReferralProgram: apiErrorEntry(
    "failed to get current referral program",
    ErrorDetailCode.Unmapped,
    GrpcCode.Internal
  ),
  CurrentVolumeDiscountProgram: apiErrorEntry(
    "failed to get current volume discount program",
    ErrorDetailCode.Unmapped,
    GrpcCode.Internal
  ),
  VolumeDiscountStats: apiErrorEntry(
    "failed to get volume discount stats",
    ErrorDetailCode.Unmapped,
    GrpcCode.Internal
  ),
  AddedMultisigEvents: apiErrorEntry(
    "failed to get added multisig events",
    ErrorDetailCode.AddedMultisigEvents,
    GrpcCode.Internal
  ),
  RemovedMultisigEvents: apiErrorEntry(
    "failed to get removed multisig events",
    ErrorDetailCode.RemovedMultisigEvents,
    GrpcCode.Internal
  ),
  MissingResourceId: apiErrorEntry("missing resource ID", ErrorDetailCode.MissingResourceId, GrpcCode.InvalidArgument),
  MissingAssetId: apiErrorEntry("missing asset ID", ErrorDetailCode.MissingAssetId, GrpcCode.InvalidArgument),
  Erc20InvalidTokenContractAddress: apiErrorEntry(
    "invalid erc20 token contract address",
    ErrorDetailCode.Erc20InvalidTokenContractAddress,
    GrpcCode.Internal
  ),
  KeyRotationServiceGetPerNode: apiErrorEntry(
    "failed to get key rotations for node",
    ErrorDetailCode.KeyRotationServiceGetPerNode,
    GrpcCode.Internal
  ),
  KeyRotationServiceGetAll: apiErrorEntry(
    "failed to get all key rotations",
    ErrorDetailCode.KeyRotationServiceGetAll,
    GrpcCode.Internal
  ),
  EthereumKeyRotationServiceGetPerNode: apiErrorEntry(
    "failed to get ethereum key rotations for node",
    ErrorDetailCode.EthereumKeyRotationServiceGetPerNode,
    GrpcCode.Internal
  ),
  NotaryForResourceId: apiErrorEntry(
    "failed to get notary for resource ID",
    ErrorDetailCode.NotaryForResourceId,
    GrpcCode.Internal
  ),
  PartiesProfiles: apiErrorEntry("failed to get parties' profiles", ErrorDetailCode.Unmapped, GrpcCode.Internal),
  ListTeams: apiErrorEntry("failed to list teams", ErrorDetailCode.Unmapped, GrpcCode.Internal),
  ListTeamReferees: apiErrorEntry("failed to list team referees", ErrorDetailCode.Unmapped, GrpcCode.Internal),
  ListTeamStatistics: apiErrorEntry("failed to list team statistics", ErrorDetailCode.Unmapped, GrpcCode.Internal),
  ListGames: apiErrorEntry("failed to list games", ErrorDetailCode.Unmapped, GrpcCode.Internal),
  InvalidGameId: apiErrorEntry("invalid game ID", ErrorDetailCode.Unmapped, GrpcCode.InvalidArgument),
  GetTimeWeightedNotionalPosition: apiErrorEntry(
    "failed to get time weighted notional position",
    ErrorDetailCode.Unmapped,
    GrpcCode.Internal
  ),
  ListTeamRefereeHistory: apiErrorEntry(
    "failed to list team referee history",
    ErrorDetailCode.Unmapped,
    GrpcCode.Internal
  ),
  RewardsSummary: apiErrorEntry("failed to get summary", ErrorDetailCode.RewardsSummary, GrpcCode.Internal),
  Rewards: apiErrorEntry("failed to get rewards", ErrorDetailCode.Rewards, GrpcCode.Internal),
  MarketServiceGetById: apiErrorEntry(
    "failed to get market for ID",
    ErrorDetailCode.MarketServiceGetById,
    GrpcCode.NotFound
  ),
  AssetServiceGetById: apiErrorEntry(
    "failed to get asset for ID",
    ErrorDetailCode.AssetServiceGetById,
    GrpcCode.NotFound
  ),
  InvalidFilter: apiErrorEntry("invalid filter", ErrorDetailCode.InvalidFilter, GrpcCode.InvalidArgument),
  NotAValidVegaId: apiErrorEntry("not a valid vega id", ErrorDetailCode.Unmapped, GrpcCode.InvalidArgument),
  AccountServiceListAccounts: apiErrorEntry(
    "failed to get accounts",
    ErrorDetailCode.AccountServiceListAccounts,
    GrpcCode.Internal
  ),
  /** Reported as Internal, or InvalidArgument when an id of the request does not decode. */
  FailedToSendSnapshot: apiErrorEntry(
    "failed to send accounts snapshot",
    ErrorDetailCode.FailedToSendSnapshot,
    GrpcCode.Internal
  ),
  AccountServiceGetBalances: apiErrorEntry(
    "failed to get balances",
    ErrorDetailCode.AccountServiceGetBalances,
    GrpcCode.Internal
  ),
  /** Not in the node's code table, and not an invalid-argument error: Internal with code 10000. */
  DateRangeValidationFailed: apiErrorEntry("invalid date range", ErrorDetailCode.Unmapped, GrpcCode.Internal),
  LedgerServiceGet: apiErrorEntry(
    "failed to query ledger entries",
    ErrorDetailCode.LedgerServiceGet,
    GrpcCode.Internal
  ),
  MissingDepositId: apiErrorEntry("missing deposit ID", ErrorDetailCode.MissingDepositId, GrpcCode.InvalidArgument),
  DepositServiceGet: apiErrorEntry("failed to get deposit", ErrorDetailCode.DepositServiceGet, GrpcCode.Internal),
  MissingWithdrawalId: apiErrorEntry(
    "missing withdrawal ID",
    ErrorDetailCode.MissingWithdrawalId,
    GrpcCode.InvalidArgument
  ),
  InvalidWithdrawalId: apiErrorEntry("invalid withdrawal ID", ErrorDetailCode.Unmapped, GrpcCode.InvalidArgument),
  WithdrawalServiceGet: apiErrorEntry(
    "failed to get withdrawal",
    ErrorDetailCode.WithdrawalServiceGet,
    GrpcCode.Internal
  ),
  MarketServiceGetMarketData: apiErrorEntry(
    "failed to get market data",
    ErrorDetailCode.MarketServiceGetMarketData,
    GrpcCode.Internal
  ),
  MarketServiceGetMarketDataHistory: apiErrorEntry(
    "failed to get market data history",
    ErrorDetailCode.MarketServiceGetMarketDataHistory,
    GrpcCode.Internal
  ),
  CandleServiceGetCandleData: apiErrorEntry(
    "failed to get candle data",
    ErrorDetailCode.CandleServiceGetCandleData,
    GrpcCode.Internal
  ),
  CandleServiceSubscribeToCandles: apiErrorEntry(
    "failed to subscribe to candle data",
    ErrorDetailCode.CandleServiceSubscribeToCandles,
    GrpcCode.Internal
  ),
  /** Reported as NotFound when the key is unknown. */
  GetNetworkParameters: apiErrorEntry(
    "failed to get network parameters",
    ErrorDetailCode.GetNetworkParameters,
    GrpcCode.Internal
  ),
  MissingProposalId: apiErrorEntry(
    "proposal id is a required parameter",
    ErrorDetailCode.MissingProposalId,
    GrpcCode.InvalidArgument
  ),
  InvalidProposalId: apiErrorEntry("invalid proposal id", ErrorDetailCode.Unmapped, GrpcCode.InvalidArgument),
  /** An asset-limits bundle asked for a proposal that does not update an asset (no code in the table). */
  NotAnUpdateAssetProposal: apiErrorEntry("not an update asset proposal", ErrorDetailCode.Unmapped, GrpcCode.Internal),
  MissingProposalIdOrReference: apiErrorEntry(
    "missing proposal ID or reference",
    ErrorDetailCode.MissingProposalIdOrReference,
    GrpcCode.InvalidArgument
  ),
  MissingProposalIdAndPartyId: apiErrorEntry(
    "missing proposal id and party id",
    ErrorDetailCode.MissingProposalIdAndPartyId,
    GrpcCode.InvalidArgument
  ),
  MissingProposalIdOrPartyId: apiErrorEntry(
    "missing proposal id or party id",
    ErrorDetailCode.MissingProposalIdOrPartyId,
    GrpcCode.InvalidArgument
  ),
  /** Reported as NotFound for an unknown proposal, InvalidArgument for an id that does not decode. */
  GovernanceServiceGet: apiErrorEntry(
    "failed to get proposal",
    ErrorDetailCode.GovernanceServiceGet,
    GrpcCode.Internal
  ),
  GovernanceServiceGetProposals: apiErrorEntry(
    "failed to get proposals",
    ErrorDetailCode.GovernanceServiceGetProposals,
    GrpcCode.Internal
  ),
  GovernanceServiceGetVotes: apiErrorEntry(
    "failed to get votes",
    ErrorDetailCode.GovernanceServiceGetVotes,
    GrpcCode.Internal
  ),
  MissingPrice: apiErrorEntry("missing price", ErrorDetailCode.MissingPrice, GrpcCode.InvalidArgument),
  /** Reported as Internal, or with the code of its cause (an invalid argument, an unknown market). */
  EstimateFee: apiErrorEntry("failed to estimate fee", ErrorDetailCode.EstimateFee, GrpcCode.Internal),
  /** Reported as Internal, or with the code of its cause (an invalid argument, an unknown market). */
  EstimateMargin: apiErrorEntry("failed to estimate margin", ErrorDetailCode.EstimateMargin, GrpcCode.Internal),
  RiskServiceGetMarginLevelsById: apiErrorEntry(
    "failed to get margin levels",
    ErrorDetailCode.RiskServiceGetMarginLevelsById,
    GrpcCode.Internal
  ),
  RiskFactorServiceGet: apiErrorEntry(
    "failed to get risk factor",
    ErrorDetailCode.RiskFactorServiceGet,
    GrpcCode.NotFound
  ),
  ListPartyMarginModes: apiErrorEntry(
    "failed to list parties margin modes",
    ErrorDetailCode.Unmapped,
    GrpcCode.Internal
  ),
  PositionsInvalidAccountBalance: apiErrorEntry(
    "invalid account balance",
    ErrorDetailCode.Unmapped,
    GrpcCode.InvalidArgument
  ),
  MissingMarginFactor: apiErrorEntry("missing margin factor", ErrorDetailCode.Unmapped, GrpcCode.InvalidArgument),
  PartyServiceGetAll: apiErrorEntry("failed to get parties", ErrorDetailCode.PartyServiceGetAll, GrpcCode.Internal),
  PartyServiceGetById: apiErrorEntry(
    "failed to get party for ID",
    ErrorDetailCode.PartyServiceGetById,
    GrpcCode.NotFound
  ),
  MarketServiceGetAllPaged: apiErrorEntry(
    "failed to get all markets paged",
    ErrorDetailCode.MarketServiceGetAllPaged,
    GrpcCode.Internal
  ),
  MissingOracleSpecId: apiErrorEntry(
    "missing oracle spec ID",
    ErrorDetailCode.MissingOracleSpecId,
    GrpcCode.InvalidArgument
  ),
  InvalidOracleSpecId: apiErrorEntry("invalid oracle spec ID", ErrorDetailCode.Unmapped, GrpcCode.InvalidArgument),
  OracleSpecServiceGet: apiErrorEntry(
    "failed retrieve data for oracle spec",
    ErrorDetailCode.OracleSpecServiceGet,
    GrpcCode.NotFound
  ),
  OracleSpecServiceGetAll: apiErrorEntry(
    "failed retrieve data for oracle specs",
    ErrorDetailCode.OracleSpecServiceGetAll,
    GrpcCode.Internal
  ),
  OracleDataServiceGet: apiErrorEntry(
    "failed retrieve data for oracle data",
    ErrorDetailCode.OracleDataServiceGet,
    GrpcCode.Internal
  ),
  NodeServiceGetNodes: apiErrorEntry("failed to get nodes", ErrorDetailCode.NodeServiceGetNodes, GrpcCode.Internal),
  NodeServiceGetNodeData: apiErrorEntry(
    "failed to get node data",
    ErrorDetailCode.NodeServiceGetNodeData,
    GrpcCode.Internal
  ),
  /** Reported as Internal, or InvalidArgument when an id of the filter does not decode. */
  DelegationServiceGet: apiErrorEntry(
    "failed to get delegation",
    ErrorDetailCode.DelegationServiceGet,
    GrpcCode.Internal
  ),
  /** Reported as NotFound for an epoch the node does not have. */
  GetEpoch: apiErrorEntry("failed to get epoch", ErrorDetailCode.GetEpoch, GrpcCode.NotFound),
  /** A GetFeesStats request with neither a market nor an asset. */
  FeesStatsRequest: apiErrorEntry("marketID or assetID must be provided", ErrorDetailCode.Unmapped, GrpcCode.Internal),
  GetFeesStats: apiErrorEntry("failed to get current fees stats", ErrorDetailCode.Unmapped, GrpcCode.Internal),
  GetFeesStatsForParty: apiErrorEntry(
    "failed to get current fees stats for party",
    ErrorDetailCode.Unmapped,
    GrpcCode.Internal
  ),
  MalformedRequest: apiErrorEntry("malformed request", ErrorDetailCode.MalformedRequest, GrpcCode.InvalidArgument),
  LiquidityProvisionServiceGetProviders: apiErrorEntry(
    "failed to get liquidity providers",
    ErrorDetailCode.Unmapped,
    GrpcCode.Internal
  ),
  ListPaidLiquidityFees: apiErrorEntry(
    "failed to list paid liquidity fees",
    ErrorDetailCode.Unmapped,
    GrpcCode.Internal
  ),
  ListFundingPeriod: apiErrorEntry("failed to get funding periods", ErrorDetailCode.Unmapped, GrpcCode.Internal),
  ListFundingPeriodDataPoints: apiErrorEntry(
    "failed to get funding period data points",
    ErrorDetailCode.Unmapped,
    GrpcCode.Internal
  ),
  /** Reported as Internal, or InvalidArgument when an id of the request does not decode. */
  TransferServiceGet: apiErrorEntry("failed to get transfer", ErrorDetailCode.TransferServiceGet, GrpcCode.Internal),
  /** Reported as NotFound when the party has no discount, InvalidArgument when an id does not decode. */
  TransferServiceGetFeeDiscount: apiErrorEntry(
    "failed to get current transfer fee discount",
    ErrorDetailCode.Unmapped,
    GrpcCode.Internal
  ),
  /** Not an invalid-argument error in the node's sense: reported as Internal. */
  MissingTransferId: apiErrorEntry("missing transfer id", ErrorDetailCode.Unmapped, GrpcCode.Internal),
  InvalidTransferAmount: apiErrorEntry("invalid transfer amount", ErrorDetailCode.Unmapped, GrpcCode.InvalidArgument),
  /** The store's own error for an unknown id, when the API reports it alone (`entities.ErrNotFound`). */
  ResourceNotFound: apiErrorEntry("no resource corresponding to this id", ErrorDetailCode.Unmapped, GrpcCode.NotFound),
  /** The store's own error for an id that does not decode, reported alone (`entities.ErrInvalidID`). */
  InvalidHexId: apiErrorEntry(
    "not a valid hex id (or well known exception)",
    ErrorDetailCode.Unmapped,
    GrpcCode.InvalidArgument
  ),
  CheckpointServiceGet: apiErrorEntry(
    "failed to get checkpoint",
    ErrorDetailCode.CheckpointServiceGet,
    GrpcCode.Internal
  ),
  CoreSnapshotServiceListSnapshots: apiErrorEntry(
    "failed to list core snapshots",
    ErrorDetailCode.CoreSnapshotServiceListSnapshots,
    GrpcCode.Internal
  ),
  ProtocolUpgradeServiceListProposals: apiErrorEntry(
    "failed to list protocol upgrade proposals",
    ErrorDetailCode.ProtocolUpgradeServiceListProposals,
    GrpcCode.Internal
  ),
  NetworkHistoryNoTableName: apiErrorEntry(
    "no table name for network history supplied",
    ErrorDetailCode.Unmapped,
    GrpcCode.Internal
  ),
  /** The node's own text, "could not to get". */
  NetworkHistoryGetContiguousSegments: apiErrorEntry(
    "could not to get contiguous history segments",
    ErrorDetailCode.Unmapped,
    GrpcCode.InvalidArgument
  )
} as const

/**
 * The `inner` text of a lookup of an unknown id.
 *
 * @since 0.1.0
 * @category Constants
 */
export const NO_RESOURCE_INNER = "no resource corresponding to this id"

/**
 * A Vega error detail.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const vegaDetail = (code: number, message: string, inner = ""): VegaErrorDetail => ({
  "@type": VEGA_ERROR_DETAIL_TYPE,
  code,
  message,
  inner
})

/**
 * The body of an error raised inside a data-node handler: `message` is `"<GrpcCodeName> error"`
 * and `details` holds one Vega error detail.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const handlerError = (grpcCode: GrpcCode, detailCode: number, message: string, inner = ""): ErrorBody => ({
  code: grpcCode,
  message: `${codeNames.get(grpcCode)} error`,
  details: [vegaDetail(detailCode, message, inner)]
})

/**
 * `{"code":3,"message":"InvalidArgument error","details":[…]}` (HTTP 400).
 *
 * @since 0.1.0
 * @category Constructors
 */
export const invalidArgument = (detailCode: number, message: string, inner = ""): ErrorBody =>
  handlerError(GrpcCode.InvalidArgument, detailCode, message, inner)

/**
 * `{"code":5,"message":"NotFound error","details":[…]}` (HTTP 404).
 *
 * @since 0.1.0
 * @category Constructors
 */
export const notFound = (detailCode: number, message: string, inner = ""): ErrorBody =>
  handlerError(GrpcCode.NotFound, detailCode, message, inner)

/**
 * `{"code":13,"message":"Internal error","details":[…]}` (HTTP 500).
 *
 * @since 0.1.0
 * @category Constructors
 */
export const internal = (detailCode: number, message: string, inner = ""): ErrorBody =>
  handlerError(GrpcCode.Internal, detailCode, message, inner)

/**
 * The body of an {@link ApiError} from the table, reported with its own gRPC code unless one is
 * given (e.g. `InvalidArgument` for a service error caused by an invalid id).
 *
 * @since 0.1.0
 * @category Constructors
 */
export const fromApiError = (error: ApiError, inner = "", grpcCode: GrpcCode = error.grpcCode): ErrorBody =>
  handlerError(grpcCode, error.code, error.message, inner)

/**
 * The body of an error raised by the gateway itself (query or path parsing, routing, rate
 * limiting): the raw message and `details: []`, e.g.
 * `gatewayError(3, 'strconv.ParseInt: parsing "abc": invalid syntax')`.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const gatewayError = (grpcCode: GrpcCode, message: string): ErrorBody => ({
  code: grpcCode,
  message,
  details: []
})

/**
 * Unknown path: HTTP 404 `{"code":5,"message":"Not Found","details":[]}`.
 *
 * @since 0.1.0
 * @category Constants
 */
export const ROUTE_NOT_FOUND: ErrorBody = gatewayError(GrpcCode.NotFound, "Not Found")

/**
 * Known path, wrong method: HTTP **501** `{"code":12,"message":"Method Not Allowed","details":[]}`.
 *
 * @since 0.1.0
 * @category Constants
 */
export const METHOD_NOT_ALLOWED: ErrorBody = gatewayError(GrpcCode.Unimplemented, "Method Not Allowed")

/**
 * Over the rate limit: HTTP 429.
 *
 * @since 0.1.0
 * @category Constants
 */
export const RATE_LIMITED: ErrorBody = gatewayError(GrpcCode.ResourceExhausted, RateLimit.RATE_LIMITED_MESSAGE)

/**
 * Banned for requesting while rate limited: HTTP 403, with a `Ratelimit-Retry-After` header.
 *
 * @since 0.1.0
 * @category Constants
 */
export const TEMPORARILY_BANNED: ErrorBody = gatewayError(GrpcCode.PermissionDenied, RateLimit.BANNED_MESSAGE)

/**
 * The body the gateway sends (HTTP 500) when it cannot marshal an error, byte for byte: note the
 * spaces and the missing `details`.
 *
 * @since 0.1.0
 * @category Constants
 */
export const MARSHAL_FAILURE_TEXT = '{"code": 13, "message": "failed to marshal error message"}'

/**
 * {@link MARSHAL_FAILURE_TEXT} decoded.
 *
 * @since 0.1.0
 * @category Constants
 */
export const MARSHAL_FAILURE: ErrorBody = { code: GrpcCode.Internal, message: "failed to marshal error message" }
