import { describe, expect, it } from "@effect/vitest"
import { BigDecimal, Either, Option, Schema } from "effect"
import { DataNodeApi, Decoder, Encoder, Enum, Reward } from "@vega-effect/schema"
import { decodeError, expectByteIdentical, expectRoundTrips, fixture } from "./utils.js"

const node = () => JSON.parse(fixture("rewards.json")).rewards.edges[1].node

describe("ListRewardsResponse", () => {
  const schema = Reward.ListRewardsResponse

  it("decodes the node's response and writes it back byte for byte", () => {
    const res = expectByteIdentical(schema, fixture("rewards.json"))
    const [game, staking, infra] = res.rewards.edges.map((e) => e.node)
    expect(staking.epoch).toBe(4321n)
    expect(staking.amount).toBe(731250000000000000n)
    expect(staking.percentageOfTotal).toBe("33.333333333333336")
    expect(staking.receivedAt).toBe(1711965012345678000n)
    expect(staking.marketId).toBe("")
    expect(staking.rewardType).toBe("ACCOUNT_TYPE_GLOBAL_REWARD")
    expect(staking.lockedUntilEpoch).toBe(4321n)
    expect(staking.quantumAmount).toBe(1n)
    expect("gameId" in staking).toBe(false)
    expect("teamId" in staking).toBe(false)
    expect(game.percentageOfTotal).toBe("5e-05")
    expect(game.lockedUntilEpoch).toBe(4351n)
    expect(game.gameId).toBe("9d7a4c5f1a0b2e3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4")
    expect(game.teamId).toBe("e2f4a6c8b0d1e3f5a7c9b1d3e5f7a9c1b3d5e7f9a1c3e5b7d9f1a3c5e7b9d1f3")
    expect(infra.amount).toBe(18446744073709551615n)
    expect(infra.rewardType).toBe("ACCOUNT_TYPE_FEES_INFRASTRUCTURE")
    expect(res.rewards.pageInfo.endCursor).toBe(res.rewards.edges[2].cursor)
  })

  it("decodes an empty page", () => {
    expect(expectByteIdentical(schema, fixture("rewards-empty.json")).rewards.edges).toEqual([])
  })

  it("keeps a reward type added by a later node, and writes it back", () => {
    const json = JSON.parse(fixture("rewards.json"))
    json.rewards.edges[0].node.rewardType = "ACCOUNT_TYPE_REWARD_REALISED_RETURN"
    const res = Schema.decodeUnknownSync(schema)(json)
    expect(res.rewards.edges[0].node.rewardType).toEqual(Enum.unknownEnumValue("ACCOUNT_TYPE_REWARD_REALISED_RETURN"))
    expect(JSON.stringify(Schema.encodeSync(schema)(res))).toBe(JSON.stringify(json))
  })

  it("agrees with the compiled decoder and encoder", () => {
    const json = JSON.parse(fixture("rewards.json"))
    const decoded = Decoder.decodeUnknownSync(schema)(json)
    expect(decoded).toEqual(Schema.decodeUnknownSync(schema)(json))
    expect(Encoder.stringify(schema)(decoded)).toBe(fixture("rewards.json"))
  })

  it("round-trips generated responses", () => expectRoundTrips(schema, 50))
})

describe("Reward", () => {
  it("rejects bad values", () => {
    expect(decodeError(Reward.Reward, { ...node(), epoch: 4321 })).toContain('["epoch"]')
    expect(decodeError(Reward.Reward, { ...node(), amount: "1.5" })).toContain('["amount"]')
    expect(decodeError(Reward.Reward, { ...node(), amount: "-1" })).toContain('["amount"]')
    expect(decodeError(Reward.Reward, { ...node(), receivedAt: 1711965012345678000 })).toContain('["receivedAt"]')
    expect(decodeError(Reward.Reward, { ...node(), assetId: "VEGA" })).toContain('["assetId"]')
    for (const bad of ["", "0.1e-5", "1.50", "+5", "-5", ".5", "5e-5", "NaN", "1,5", " 5"]) {
      expect(decodeError(Reward.Reward, { ...node(), percentageOfTotal: bad })).toContain('["percentageOfTotal"]')
    }
    expect(decodeError(Reward.Reward, { ...node(), percentageOfTotal: 25 })).toContain('["percentageOfTotal"]')
  })

  it("reads a percentage exactly, exponent form included", () => {
    const exact = (s: string) => BigDecimal.format(Reward.percentageToBigDecimal(s as Reward.PercentageOfTotal))
    expect(exact("5e-05")).toBe("0.00005")
    expect(exact("1.2345e-07")).toBe("0.00000012345")
    expect(exact("33.333333333333336")).toBe("33.333333333333336")
    expect(exact("100")).toBe("100")
    expect(Option.isNone(Reward.parsePercentage("1.5e"))).toBe(true)
  })

  it("keeps the node's field order, optional fields last", () => {
    const encoded = Schema.encodeSync(Reward.Reward)(Schema.decodeUnknownSync(Reward.Reward)(node()))
    expect(Object.keys(encoded)).toEqual([
      "assetId",
      "partyId",
      "epoch",
      "amount",
      "percentageOfTotal",
      "receivedAt",
      "marketId",
      "rewardType",
      "lockedUntilEpoch",
      "quantumAmount"
    ])
  })
})

describe("ListRewards endpoint", () => {
  const party = "7d30838be180ddf0c9d31e3cf3b8a06bb3738d19bc3b61f6ed5b20a57bcb3dfc"
  const asset = "b4f2726571fbe8e33b442dc92ed2d7f0d810e21835b7371a7915a365f07ccd9b"

  it("is GET /api/v2/rewards with the node's parameter names", () => {
    expect(DataNodeApi.endpoints).toContain(DataNodeApi.ListRewards)
    const request = Schema.decodeUnknownSync(Reward.ListRewardsRequest)({
      partyId: party,
      assetId: asset,
      fromEpoch: "10",
      toEpoch: "20",
      pagination: { first: 5000, newestFirst: false }
    })
    expect(Either.getOrThrow(DataNodeApi.url(DataNodeApi.ListRewards, request))).toBe(
      `/api/v2/rewards?partyId=${party}&assetId=${asset}&fromEpoch=10&toEpoch=20&pagination.first=5000&pagination.newestFirst=false`
    )
    expect(Either.getOrThrow(DataNodeApi.url(DataNodeApi.ListRewards, {}))).toBe("/api/v2/rewards")
  })

  it("refuses a page larger than the node serves", () => {
    expect(Either.isLeft(DataNodeApi.url(DataNodeApi.ListRewards, { pagination: { first: 5001 } }))).toBe(true)
  })
})
