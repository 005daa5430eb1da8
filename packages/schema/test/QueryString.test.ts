import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { DataNodeApi, Ids, Pagination, QueryString } from "@vega-effect/schema"

const party = Schema.decodeUnknownSync(Ids.PartyId)("7d30838be180ddf0c9d31e3cf3b8a06bb3738d19bc3b61f6ed5b20a57bcb3dfc")
const party2 = Schema.decodeUnknownSync(Ids.PartyId)("0e3ab8bd4d7cd4f5a63b4a8dd6d0b41ea31dd8e6ef3f6e0d35e8f2d2e0e7f0a1")
const market = Schema.decodeUnknownSync(Ids.MarketId)(
  "a08d564afb14acd3fa86b004f899b2639942cd7cb5e0c9bed8f92fdf15e4033b"
)
const cursor = Schema.decodeUnknownSync(Pagination.Cursor)("eyJ2ZWdhVGltZSI6IjIw+/MDI0LTAzLTAxVD==")

const urlOf = <E extends DataNodeApi.Any>(endpoint: E, request: DataNodeApi.Request<E>): string =>
  Either.getOrThrow(DataNodeApi.url(endpoint, request))

describe("QueryString", () => {
  it("dots nested fields, repeats keys of arrays and keeps field order", () => {
    expect(
      QueryString.make({
        filter: { partyIds: ["a", "b"], marketIds: ["m"] },
        pagination: { first: 10, newestFirst: false }
      })
    ).toBe("filter.partyIds=a&filter.partyIds=b&filter.marketIds=m&pagination.first=10&pagination.newestFirst=false")
  })

  it("percent-encodes base64 cursors so + / = survive", () => {
    expect(QueryString.make({ pagination: { after: "ab+c/d==" } })).toBe("pagination.after=ab%2Bc%2Fd%3D%3D")
  })

  it("omits unset parameters, empty strings and empty arrays", () => {
    expect(QueryString.make({ a: undefined, b: "", c: [], d: { e: undefined }, f: null })).toBe("")
    expect(QueryString.make({ parties: ["", "x"] })).toBe("parties=x")
  })

  it("writes bigints and booleans as the gateway parses them", () => {
    expect(QueryString.make({ atEpoch: 18446744073709551615n, live: true })).toBe(
      "atEpoch=18446744073709551615&live=true"
    )
  })

  it("refuses values the gateway cannot read", () => {
    expect(() => QueryString.make({ a: [{ b: 1 }] })).toThrow(/arrays may only hold scalars/)
  })

  it("encodes a typed request through its schema", () => {
    expect(
      QueryString.encode(DataNodeApi.GetReferralSetStats.request)({
        atEpoch: 4321n,
        referee: party,
        pagination: { last: 5, before: cursor }
      })
    ).toBe(
      `atEpoch=4321&referee=${party}&pagination.last=5&pagination.before=eyJ2ZWdhVGltZSI6IjIw%2B%2FMDI0LTAzLTAxVD%3D%3D`
    )
  })
})

describe("DataNodeApi.url", () => {
  it("puts path parameters in the path", () => {
    expect(urlOf(DataNodeApi.GetStake, { partyId: party, pagination: { first: 100 } })).toBe(
      `/api/v2/parties/${party}/stake?pagination.first=100`
    )
    expect(urlOf(DataNodeApi.GetStake, { partyId: "network" as Ids.PartyId })).toBe("/api/v2/parties/network/stake")
  })

  it("builds every endpoint's query with the real parameter names", () => {
    expect(urlOf(DataNodeApi.ListLiquidityProvisions, { marketId: market, live: true, reference: "my lp" })).toBe(
      `/api/v2/liquidity/all-provisions?marketId=${market}&reference=my%20lp&live=true`
    )
    expect(urlOf(DataNodeApi.ListPositions, { filter: { partyIds: [party, party2] } })).toBe(
      `/api/v2/positions?filter.partyIds=${party}&filter.partyIds=${party2}`
    )
    expect(
      urlOf(DataNodeApi.ListSignerAddedBundles, {
        submitter: "0xabcdefabcdefabcdefabcdefabcdefabcdefabcd" as any,
        epochSeq: 12n
      })
    ).toBe(
      "/api/v2/erc20/multisigcontrol/signer/added/bundles?submitter=0xabcdefabcdefabcdefabcdefabcdefabcdefabcd&epochSeq=12"
    )
    expect(urlOf(DataNodeApi.ListPartiesProfiles, { parties: [party, party2], pagination: { first: 5000 } })).toBe(
      `/api/v2/parties/profiles?parties=${party}&parties=${party2}&pagination.first=5000`
    )
    expect(urlOf(DataNodeApi.ListRewardSummaries, {})).toBe("/api/v2/rewards/summaries")
  })

  it("refuses a request the node would reject, before anything is sent", () => {
    const both = DataNodeApi.url(DataNodeApi.ListPositions, { pagination: { after: cursor, before: cursor } })
    expect(Either.isLeft(both) && both.left.message).toContain("cannot set both a before and after cursor")
    const tooBig = DataNodeApi.url(DataNodeApi.ListPositions, { pagination: { first: 5001 } })
    expect(Either.isLeft(tooBig) && tooBig.left.message).toContain(
      "Expected a page size between 1 and 5000, actual 5001"
    )
    const zero = DataNodeApi.url(DataNodeApi.ListPositions, { pagination: { last: 0 } })
    expect(Either.isLeft(zero)).toBe(true)
    const empty = DataNodeApi.url(DataNodeApi.ListPositions, { pagination: { after: "" as Pagination.Cursor } })
    expect(Either.isLeft(empty) && empty.left.message).toContain("cursor is empty")
  })

  it("derives path parameter names from the template", () => {
    expect(DataNodeApi.GetStake.pathParams).toEqual(["partyId"])
    expect(DataNodeApi.ListPositions.pathParams).toEqual([])
  })
})

describe("DataNodeApi neighbours", () => {
  it("describes the core and data-node routes a client needs", () => {
    const routes = DataNodeApi.endpoints.map((e) => `${e.method} ${e.path}`)
    expect(routes).toContain("GET /blockchain/height")
    expect(routes).toContain("GET /api/v2/asset/{assetId}")
    expect(routes).toContain("POST /transaction")
    expect(new Set(DataNodeApi.endpoints.map((e) => e.name)).size).toBe(DataNodeApi.endpoints.length)
  })

  it("builds neighbour URLs and leaves POST requests to the body", () => {
    const asset = "b4f2726571fbe8e33b442dc92ed2d7f0d810e21835b7371a7915a365f07ccd9b"
    expect(urlOf(DataNodeApi.GetAsset, { assetId: asset as any })).toBe(`/api/v2/asset/${asset}`)
    expect(urlOf(DataNodeApi.LastBlockHeight, {})).toBe("/blockchain/height")
    expect(urlOf(DataNodeApi.GetEpoch, { id: 12n } as any)).toBe("/api/v2/epoch?id=12")
    const submit = {
      tx: { inputData: new Uint8Array([1, 2]), version: "TX_VERSION_V3" as const },
      type: "TYPE_SYNC" as const
    }
    expect(urlOf(DataNodeApi.SubmitTransaction, submit)).toBe("/transaction")
    expect(Either.getOrThrow(DataNodeApi.body(DataNodeApi.SubmitTransaction, submit))).toEqual({
      tx: { inputData: "AQI=", version: "TX_VERSION_V3" },
      type: "TYPE_SYNC"
    })
  })
})
