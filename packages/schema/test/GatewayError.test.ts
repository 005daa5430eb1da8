import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import * as GatewayError from "@vega-effect/schema/GatewayError"
import { decodeError, decodeText, encodeText, expectByteIdentical, expectRoundTrips, fixture } from "./utils.js"

const text = (body: GatewayError.ErrorBody): string => encodeText(GatewayError.ErrorBody, body)

describe("GatewayError", () => {
  it("maps every gRPC code to the gateway's HTTP status", () => {
    const table: ReadonlyArray<readonly [GatewayError.GrpcCodeName, number, number]> = [
      ["OK", 0, 200],
      ["Canceled", 1, 408],
      ["Unknown", 2, 500],
      ["InvalidArgument", 3, 400],
      ["DeadlineExceeded", 4, 504],
      ["NotFound", 5, 404],
      ["AlreadyExists", 6, 409],
      ["PermissionDenied", 7, 403],
      ["ResourceExhausted", 8, 429],
      ["FailedPrecondition", 9, 400],
      ["Aborted", 10, 409],
      ["OutOfRange", 11, 400],
      ["Unimplemented", 12, 501],
      ["Internal", 13, 500],
      ["Unavailable", 14, 503],
      ["DataLoss", 15, 500],
      ["Unauthenticated", 16, 401]
    ]
    for (const [name, code, status] of table) {
      expect(GatewayError.GrpcCode[name]).toBe(code)
      expect(GatewayError.grpcCodeName(code)).toBe(name)
      expect(GatewayError.httpStatus(code)).toBe(status)
    }
    expect(Object.keys(GatewayError.GrpcCode)).toHaveLength(table.length)
    for (const other of [17, 99, -1, 1.5]) {
      expect(GatewayError.grpcCodeName(other)).toBeUndefined()
      expect(GatewayError.httpStatus(other)).toBe(500)
    }
  })

  it("decodes handler errors and writes them back byte for byte", () => {
    const notFound = expectByteIdentical(GatewayError.ErrorBody, fixture("error-market-not-found.json"))
    expect(GatewayError.httpStatusOf(notFound)).toBe(404)
    expect(GatewayError.vegaErrorDetail(notFound)).toEqual({
      "@type": "type.googleapis.com/vega.ErrorDetail",
      code: 30002,
      message: "failed to get market for ID",
      inner: "no resource corresponding to this id"
    })
    const pagination = expectByteIdentical(GatewayError.ErrorBody, fixture("error-invalid-pagination.json"))
    expect(GatewayError.vegaErrorDetail(pagination)?.code).toBe(GatewayError.ErrorDetailCode.InvalidPagination)
  })

  it("decodes gateway errors with empty details", () => {
    const body = expectByteIdentical(GatewayError.ErrorBody, fixture("error-query-parse.json"))
    expect(body).toEqual({ code: 3, message: 'strconv.ParseInt: parsing "abc": invalid syntax', details: [] })
    expect(GatewayError.vegaErrorDetail(body)).toBeUndefined()
  })

  it("keeps details of other types as received, @type first", () => {
    const raw =
      '{"code":3,"message":"bad request","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"pagination.first","description":"too big"}]},{"@type":"type.googleapis.com/vega.ErrorDetail","code":10028,"message":"invalid pagination","inner":""}]}'
    const body = expectByteIdentical(GatewayError.ErrorBody, raw)
    const [other, vega] = body.details ?? []
    expect(GatewayError.isVegaErrorDetail(other)).toBe(false)
    expect(other).toEqual({
      "@type": "type.googleapis.com/google.rpc.BadRequest",
      fieldViolations: [{ field: "pagination.first", description: "too big" }]
    })
    expect(GatewayError.isVegaErrorDetail(vega)).toBe(true)
    expect(GatewayError.vegaErrorDetail(body)).toBe(vega)
  })

  it("decodes the fallback body, which has spaces and no details", () => {
    const body = decodeText(GatewayError.ErrorBody, GatewayError.MARSHAL_FAILURE_TEXT)
    expect(body).toEqual(GatewayError.MARSHAL_FAILURE)
    expect(body.details).toBeUndefined()
    expect(GatewayError.httpStatusOf(body)).toBe(500)
    expect(text(body)).toBe('{"code":13,"message":"failed to marshal error message"}')
  })

  it("builds the bodies the node produces", () => {
    expect(
      text(
        GatewayError.invalidArgument(
          GatewayError.ErrorDetailCode.InvalidPagination,
          "invalid pagination",
          "cannot set both a before and after cursor"
        )
      )
    ).toBe(fixture("error-invalid-pagination.json"))
    expect(
      text(GatewayError.fromApiError(GatewayError.ApiErrors.MarketServiceGetById, GatewayError.NO_RESOURCE_INNER))
    ).toBe(fixture("error-market-not-found.json"))
    expect(text(GatewayError.notFound(200002, "failed to get asset for ID", GatewayError.NO_RESOURCE_INNER))).toBe(
      '{"code":5,"message":"NotFound error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":200002,"message":"failed to get asset for ID","inner":"no resource corresponding to this id"}]}'
    )
    expect(text(GatewayError.internal(300001, "failed to get stake linking"))).toBe(
      '{"code":13,"message":"Internal error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":300001,"message":"failed to get stake linking","inner":""}]}'
    )
    // a service error caused by an invalid id is reported as InvalidArgument
    const invalidId = GatewayError.fromApiError(
      GatewayError.ApiErrors.LiquidityProvision,
      "not a valid hex id (or well known exception)",
      GatewayError.GrpcCode.InvalidArgument
    )
    expect(invalidId.message).toBe("InvalidArgument error")
    expect(GatewayError.httpStatusOf(invalidId)).toBe(400)
    expect(GatewayError.vegaErrorDetail(invalidId)?.code).toBe(280001)

    expect(text(GatewayError.gatewayError(3, 'strconv.ParseInt: parsing "abc": invalid syntax'))).toBe(
      fixture("error-query-parse.json")
    )
    expect(text(GatewayError.ROUTE_NOT_FOUND)).toBe('{"code":5,"message":"Not Found","details":[]}')
    expect(text(GatewayError.METHOD_NOT_ALLOWED)).toBe('{"code":12,"message":"Method Not Allowed","details":[]}')
    expect(GatewayError.httpStatusOf(GatewayError.METHOD_NOT_ALLOWED)).toBe(501)
    expect(text(GatewayError.RATE_LIMITED)).toBe('{"code":8,"message":"api request rate limit exceeded","details":[]}')
    expect(GatewayError.httpStatusOf(GatewayError.RATE_LIMITED)).toBe(429)
    expect(text(GatewayError.TEMPORARILY_BANNED)).toBe(
      '{"code":7,"message":"temporarily banned for continuing to request while rate limited","details":[]}'
    )
    expect(GatewayError.httpStatusOf(GatewayError.TEMPORARILY_BANNED)).toBe(403)
  })

  it("knows the Vega error detail codes", () => {
    expect(GatewayError.ErrorDetailCode).toEqual({
      Unmapped: 10000,
      EmptyMarketId: 10003,
      MissingPartyId: 10014,
      MalformedRequest: 10015,
      InvalidAssetId: 10038,
      InvalidPagination: 10028,
      MissingOrderId: 10012,
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
    })
    const { ApiErrors } = GatewayError
    expect(ApiErrors.MissingPartyId).toEqual({ message: "missing party id", code: 10014, grpcCode: 3 })
    expect(ApiErrors.InvalidPartyId).toEqual({ message: "invalid party id", code: 10000, grpcCode: 3 })
    expect(ApiErrors.EpochIdParse).toEqual({ message: "failed to parse epoch id", code: 10036, grpcCode: 3 })
    expect(ApiErrors.InvalidAssetId).toEqual({ message: "invalid asset ID", code: 10038, grpcCode: 3 })
    expect(ApiErrors.ReferralSetStats).toEqual({
      message: "failed to get referral set stats",
      code: 10000,
      grpcCode: 13
    })
    // programs (datanode/api/errors.go at v0.75.8: none of them has a code)
    expect(ApiErrors.CurrentReferralProgram).toEqual({
      message: "failed to get current referral program",
      code: 10000,
      grpcCode: 13
    })
    expect(ApiErrors.CurrentVolumeDiscountProgram).toEqual({
      message: "failed to get current volume discount program",
      code: 10000,
      grpcCode: 13
    })
    expect(ApiErrors.VolumeDiscountStats).toEqual({
      message: "failed to get volume discount stats",
      code: 10000,
      grpcCode: 13
    })
    expect(ApiErrors.PartiesProfiles).toEqual({ message: "failed to get parties' profiles", code: 10000, grpcCode: 13 })
    expect(ApiErrors.ListTeams).toEqual({ message: "failed to list teams", code: 10000, grpcCode: 13 })
    expect(ApiErrors.ListTeamReferees).toEqual({ message: "failed to list team referees", code: 10000, grpcCode: 13 })
    expect(ApiErrors.ListTeamStatistics).toEqual({
      message: "failed to list team statistics",
      code: 10000,
      grpcCode: 13
    })
    expect(ApiErrors.ListGames).toEqual({ message: "failed to list games", code: 10000, grpcCode: 13 })
    expect(ApiErrors.InvalidGameId).toEqual({ message: "invalid game ID", code: 10000, grpcCode: 3 })
    expect(ApiErrors.GetTimeWeightedNotionalPosition).toEqual({
      message: "failed to get time weighted notional position",
      code: 10000,
      grpcCode: 13
    })
    expect(ApiErrors.ListTeamRefereeHistory).toEqual({
      message: "failed to list team referee history",
      code: 10000,
      grpcCode: 13
    })
    expect(ApiErrors.AddedMultisigEvents.code).toBe(270001)
    expect(ApiErrors.EstimateFee).toEqual({ message: "failed to estimate fee", code: 10039, grpcCode: 13 })
    expect(ApiErrors.MissingMarginFactor).toEqual({ message: "missing margin factor", code: 10000, grpcCode: 3 })
    expect(ApiErrors.ListPartyMarginModes).toEqual({
      message: "failed to list parties margin modes",
      code: 10000,
      grpcCode: 13
    })
    expect(ApiErrors.PartyServiceGetAll).toEqual({ message: "failed to get parties", code: 50001, grpcCode: 13 })
    expect(ApiErrors.PartyServiceGetById).toEqual({ message: "failed to get party for ID", code: 50002, grpcCode: 5 })
    expect(ApiErrors.MarketServiceGetAllPaged).toEqual({
      message: "failed to get all markets paged",
      code: 30005,
      grpcCode: 13
    })
    expect(ApiErrors.InvalidOracleSpecId).toEqual({ message: "invalid oracle spec ID", code: 10000, grpcCode: 3 })
    expect(ApiErrors.OracleSpecServiceGet).toEqual({
      message: "failed retrieve data for oracle spec",
      code: 190001,
      grpcCode: 5
    })
    expect(ApiErrors.OracleDataServiceGet.code).toBe(190003)
    expect(ApiErrors.NodeServiceGetNodes).toEqual({ message: "failed to get nodes", code: 110001, grpcCode: 13 })
    expect(ApiErrors.DelegationServiceGet).toEqual({ message: "failed to get delegation", code: 130001, grpcCode: 13 })
    expect(ApiErrors.GetEpoch).toEqual({ message: "failed to get epoch", code: 250001, grpcCode: 5 })
    expect(ApiErrors.FeesStatsRequest).toEqual({
      message: "marketID or assetID must be provided",
      code: 10000,
      grpcCode: 13
    })
    expect(ApiErrors.GetFeesStats).toEqual({ message: "failed to get current fees stats", code: 10000, grpcCode: 13 })
    expect(ApiErrors.GetFeesStatsForParty).toEqual({
      message: "failed to get current fees stats for party",
      code: 10000,
      grpcCode: 13
    })
    expect(ApiErrors.MalformedRequest).toEqual({ message: "malformed request", code: 10015, grpcCode: 3 })
    expect(ApiErrors.LiquidityProvisionServiceGetProviders).toEqual({
      message: "failed to get liquidity providers",
      code: 10000,
      grpcCode: 13
    })
    expect(ApiErrors.ListPaidLiquidityFees).toEqual({
      message: "failed to list paid liquidity fees",
      code: 10000,
      grpcCode: 13
    })
    expect(ApiErrors.ListFundingPeriod).toEqual({ message: "failed to get funding periods", code: 10000, grpcCode: 13 })
    expect(ApiErrors.ListFundingPeriodDataPoints).toEqual({
      message: "failed to get funding period data points",
      code: 10000,
      grpcCode: 13
    })
    // transfers (datanode/api/errors.go at v0.75.8)
    expect(ApiErrors.TransferServiceGet).toEqual({ message: "failed to get transfer", code: 220001, grpcCode: 13 })
    expect(ApiErrors.TransferServiceGetFeeDiscount).toEqual({
      message: "failed to get current transfer fee discount",
      code: 10000,
      grpcCode: 13
    })
    expect(ApiErrors.MissingTransferId).toEqual({ message: "missing transfer id", code: 10000, grpcCode: 13 })
    expect(ApiErrors.InvalidTransferAmount).toEqual({ message: "invalid transfer amount", code: 10000, grpcCode: 3 })
    expect(ApiErrors.ResourceNotFound).toEqual({
      message: "no resource corresponding to this id",
      code: 10000,
      grpcCode: 5
    })
    expect(ApiErrors.InvalidHexId).toEqual({
      message: "not a valid hex id (or well known exception)",
      code: 10000,
      grpcCode: 3
    })
    expect(ApiErrors.CheckpointServiceGet).toEqual({ message: "failed to get checkpoint", code: 290001, grpcCode: 13 })
    expect(ApiErrors.CoreSnapshotServiceListSnapshots).toEqual({
      message: "failed to list core snapshots",
      code: 320001,
      grpcCode: 13
    })
    expect(ApiErrors.NetworkHistoryNoTableName).toEqual({
      message: "no table name for network history supplied",
      code: 10000,
      grpcCode: 13
    })
    expect(ApiErrors.NetworkHistoryGetContiguousSegments).toEqual({
      message: "could not to get contiguous history segments",
      code: 10000,
      grpcCode: 3
    })
    expect(ApiErrors.ProtocolUpgradeServiceListProposals).toEqual({
      message: "failed to list protocol upgrade proposals",
      code: 330001,
      grpcCode: 13
    })
    expect(ApiErrors.NotaryForResourceId.message).toBe("failed to get notary for resource ID")
    expect(ApiErrors.RewardsSummary).toEqual({ message: "failed to get summary", code: 140001, grpcCode: 13 })
    expect(ApiErrors.Rewards).toEqual({ message: "failed to get rewards", code: 230001, grpcCode: 13 })
    expect(ApiErrors.AssetServiceGetById).toEqual({ message: "failed to get asset for ID", code: 200002, grpcCode: 5 })
    expect(ApiErrors.MissingOrderId).toEqual({ message: "missing orderID parameter", code: 10012, grpcCode: 3 })
    expect(ApiErrors.InvalidOrderId).toEqual({ message: "invalid orderID parameter", code: 10000, grpcCode: 3 })
    expect(ApiErrors.LastPaginationNotSupported.message).toBe("'last' pagination is not supported")
    expect(ApiErrors.OrderNotFound).toEqual({ message: "order not found", code: 20006, grpcCode: 5 })
    expect(ApiErrors.OrderServiceGetVersions).toEqual({
      message: "failed to get order versions",
      code: 20005,
      grpcCode: 13
    })
    expect(ApiErrors.TradeServiceList).toEqual({ message: "failed to list trades", code: 40005, grpcCode: 13 })
    expect(ApiErrors.TradeServiceGetByMarket.code).toBe(40001)
    // market data, depth and candles (datanode/api/errors.go at v0.75.8)
    expect(ApiErrors.EmptyMissingMarketId).toEqual({ message: "empty or missing market ID", code: 10003, grpcCode: 3 })
    expect(ApiErrors.MissingCandleId).toEqual({
      message: "candle id is a required parameter",
      code: 10030,
      grpcCode: 3
    })
    expect(ApiErrors.InvalidCandleTimestampsRange).toEqual({
      message: "invalid candle timestamps range",
      code: 10000,
      grpcCode: 3
    })
    expect(ApiErrors.MarketServiceGetMarketData).toEqual({
      message: "failed to get market data",
      code: 30004,
      grpcCode: 13
    })
    expect(ApiErrors.MarketServiceGetMarketDataHistory.code).toBe(30006)
    expect(ApiErrors.TradeServiceGetByMarket.message).toBe("failed to get trades for market")
    expect(ApiErrors.CandleServiceGetCandleData).toEqual({
      message: "failed to get candle data",
      code: 60001,
      grpcCode: 13
    })
    expect(ApiErrors.CandleServiceSubscribeToCandles.code).toBe(60002)
    // network parameters and governance (datanode/api/errors.go at v0.75.8)
    expect(ApiErrors.GetNetworkParameters).toEqual({
      message: "failed to get network parameters",
      code: 100002,
      grpcCode: 13
    })
    expect(ApiErrors.MissingProposalIdOrReference).toEqual({
      message: "missing proposal ID or reference",
      code: 10022,
      grpcCode: 3
    })
    expect(ApiErrors.MissingProposalIdAndPartyId).toEqual({
      message: "missing proposal id and party id",
      code: 10023,
      grpcCode: 3
    })
    expect(ApiErrors.MissingProposalIdOrPartyId).toEqual({
      message: "missing proposal id or party id",
      code: 10024,
      grpcCode: 3
    })
    expect(ApiErrors.GovernanceServiceGet).toEqual({ message: "failed to get proposal", code: 170001, grpcCode: 13 })
    expect(ApiErrors.GovernanceServiceGetProposals.code).toBe(170002)
    expect(ApiErrors.GovernanceServiceGetVotes).toEqual({ message: "failed to get votes", code: 170003, grpcCode: 13 })
    expect(ApiErrors.MissingProposalId).toEqual({
      message: "proposal id is a required parameter",
      code: 10021,
      grpcCode: 3
    })
    expect(ApiErrors.InvalidProposalId).toEqual({ message: "invalid proposal id", code: 10000, grpcCode: 3 })
    expect(ApiErrors.NotAnUpdateAssetProposal).toEqual({
      message: "not an update asset proposal",
      code: 10000,
      grpcCode: 13
    })
  })

  it("names the path and the expected type of a bad body", () => {
    const code = decodeError(GatewayError.ErrorBody, { code: "5", message: "Not Found", details: [] })
    expect(code).toContain('["code"]')
    expect(code).toContain('Expected number, actual "5"')

    const inner = decodeError(GatewayError.ErrorBody, {
      code: 5,
      message: "NotFound error",
      details: [{ "@type": GatewayError.VEGA_ERROR_DETAIL_TYPE, code: 30002, message: "failed to get market for ID" }]
    })
    expect(inner).toContain('["details"]')
    expect(inner).toContain("[0]")
    expect(inner).toContain('["inner"]')
    expect(inner).toContain("is missing")

    const noType = decodeError(GatewayError.ErrorBody, { code: 3, message: "x", details: [{ code: 1 }] })
    expect(noType).toContain('["@type"]')

    expect(decodeError(GatewayError.ErrorBody, { code: 3, details: [] })).toContain('["message"]')
  })

  it("ignores unknown members of the body", () => {
    const body = Schema.decodeUnknownSync(GatewayError.ErrorBody)({ code: 8, message: "m", details: [], error: "m" })
    expect(text(body)).toBe('{"code":8,"message":"m","details":[]}')
  })

  it("round-trips generated values", () => {
    expectRoundTrips(GatewayError.ErrorBody)
  })
})
