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
import * as LiquidityProvision from "./LiquidityProvision.js"
import * as PartyProfile from "./PartyProfile.js"
import * as Position from "./Position.js"
import * as QueryString from "./QueryString.js"
import * as ReferralSetStats from "./ReferralSetStats.js"
import * as RewardSummary from "./RewardSummary.js"
import * as SignerBundle from "./SignerBundle.js"
import * as StakeLinking from "./StakeLinking.js"

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

/** @since 0.1.0 @category Models */
export type Any = Endpoint<any, any, any, any>

/** @since 0.1.0 @category Models */
export type Request<E extends Any> = Schema.Schema.Type<E["request"]>

/** @since 0.1.0 @category Models */
export type Response<E extends Any> = Schema.Schema.Type<E["response"]>

/**
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
 * The relative URL (path and query string) of a request, or the reason it cannot be sent.
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
    const qs = QueryString.make(query)
    return qs === "" ? path : `${path}?${qs}`
  })

/** An endpoint without parameters. */
const NoParams = Schema.Struct({})

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

export { NoParams }
