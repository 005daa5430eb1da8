import { describe, expect, it } from "@effect/vitest"
import { BigDecimal, Option, Schema } from "effect"
import {
  Enum,
  LiquidityProvision,
  PartyProfile,
  Position,
  ReferralSetStats,
  RewardSummary,
  SignerBundle,
  StakeLinking
} from "@vega-effect/schema"
import { decodeError, decodeText, expectByteIdentical, expectRoundTrips, fixture } from "./utils.js"

describe("GetStakeResponse", () => {
  const schema = StakeLinking.GetStakeResponse

  it("decodes the node's response and writes it back byte for byte", () => {
    const res = expectByteIdentical(schema, fixture("stake.json"))
    expect(res.currentStakeAvailable).toBe(5000000000000000000n)
    const [pending, accepted] = res.stakeLinkings.edges.map((e) => e.node)
    expect(accepted.type).toBe("TYPE_LINK")
    expect(accepted.status).toBe("STATUS_ACCEPTED")
    expect(accepted.amount).toBe(5000000000000000000n)
    expect(accepted.ts).toBe(1636134806n)
    expect(accepted.blockTime).toBe(1636134806n)
    expect(accepted.finalizedAt).toBe(1711965012345678000n)
    expect(accepted.ethereumAddress).toBe("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
    expect(pending.status).toBe("STATUS_PENDING")
    expect(pending.finalizedAt).toBe(0n)
    expect(res.stakeLinkings.pageInfo.hasNextPage).toBe(true)
    expect(res.stakeLinkings.pageInfo.endCursor).toBe(res.stakeLinkings.edges[1].cursor)
  })

  it("decodes a party without stake", () => {
    const res = expectByteIdentical(schema, fixture("stake-empty.json"))
    expect(res.currentStakeAvailable).toBe(0n)
    expect(res.stakeLinkings.edges).toEqual([])
    expect(res.stakeLinkings.pageInfo.startCursor).toBe("")
  })

  it("round-trips generated responses", () => expectRoundTrips(schema, 50))
})

describe("ListLiquidityProvisionsResponse", () => {
  const schema = LiquidityProvision.ListLiquidityProvisionsResponse

  it("decodes current + pending and a node without pending, byte for byte", () => {
    const res = expectByteIdentical(schema, fixture("liquidity-provisions.json"))
    const [amended, plain] = res.liquidityProvisions.edges.map((e) => e.node)
    expect(amended.pending?.status).toBe("STATUS_PENDING")
    expect(amended.pending?.version).toBe(3n)
    expect(amended.current.version).toBe(2n)
    expect(amended.current.commitmentAmount).toBe(250000000n)
    expect(BigDecimal.equals(amended.pending!.fee, BigDecimal.make(15n, 4))).toBe(true)
    expect("pending" in plain).toBe(false)
    expect(plain.current.reference).toBe("my-lp")
    expect(plain.current.buys).toEqual([])
  })

  it("decodes the legacy order entries", () => {
    const res = expectByteIdentical(schema, fixture("liquidity-provisions-order-entries.json"))
    const lp = res.liquidityProvisions.edges[0].node.current
    expect(lp.buys[0].liquidityOrder).toEqual({ reference: "PEGGED_REFERENCE_BEST_BID", proportion: 10, offset: 2000n })
    expect(lp.status).toBe("STATUS_UNDEPLOYED")
  })

  it("round-trips generated responses", () => expectRoundTrips(schema, 30))
})

describe("ListPositionsResponse", () => {
  const schema = Position.ListPositionsResponse

  it("decodes signed volumes and PnL, the network party and zero timestamps, byte for byte", () => {
    const res = expectByteIdentical(schema, fixture("positions.json"))
    const [short, network, closed] = res.positions.edges.map((e) => e.node)
    expect(short.openVolume).toBe(-5n)
    expect(short.realisedPnl).toBe(-1250000n)
    expect(short.positionStatus).toBe("POSITION_STATUS_UNSPECIFIED")
    expect(network.partyId).toBe("network")
    expect(network.openVolume).toBe(9223372036854775807n)
    expect(network.updatedAt).toBe(0n)
    expect(network.lossSocialisationAmount).toBe(-42n)
    expect(network.positionStatus).toBe("POSITION_STATUS_DISTRESSED")
    expect(closed.realisedPnl).toBe(2n ** 256n - 1n)
    expect(closed.averageEntryPrice).toBe(18446744073709551616n)
    expect(closed.positionStatus).toBe("POSITION_STATUS_CLOSED_OUT")
  })

  it("decodes an empty page", () => {
    expect(expectByteIdentical(schema, fixture("positions-empty.json")).positions.edges).toEqual([])
  })

  it("decodes the fee and funding fields of newer nodes", () => {
    const res = expectByteIdentical(schema, fixture("positions-v079.json"))
    expect(res.positions.edges[0].node.fundingPaymentAmount).toBe(-77n)
    expect(res.positions.edges[0].node.feesPaid).toBe(1500n)
  })

  it("tolerates unknown fields and unknown enum values", () => {
    const json = JSON.parse(fixture("positions.json"))
    json.positions.edges[0].node.positionStatus = "POSITION_STATUS_LIQUIDATED"
    json.positions.edges[0].node.somethingNew = { nested: [1, 2] }
    json.positions.somethingElse = true
    const res = Schema.decodeUnknownSync(schema)(json)
    expect(res.positions.edges[0].node.positionStatus).toEqual(Enum.unknownEnumValue("POSITION_STATUS_LIQUIDATED"))
    expect("somethingNew" in res.positions.edges[0].node).toBe(false)
    expect(JSON.stringify(Schema.encodeSync(schema)(res))).toContain('"positionStatus":"POSITION_STATUS_LIQUIDATED"')
  })

  it("normalises uppercase ids to lowercase", () => {
    const json = JSON.parse(fixture("positions.json"))
    const id: string = json.positions.edges[0].node.marketId
    json.positions.edges[0].node.marketId = id.toUpperCase()
    expect(Schema.decodeUnknownSync(schema)(json).positions.edges[0].node.marketId).toBe(id)
  })

  it("names the path and the expected type of bad input", () => {
    const json = JSON.parse(fixture("positions.json"))
    json.positions.edges[1].node.openVolume = -5
    json.positions.edges[2].node.realisedPnl = "12.5"
    const message = decodeError(schema, json)
    expect(message).toContain('["positions"]')
    expect(message).toContain('["edges"]')
    expect(message).toContain("[1]")
    expect(message).toContain('["openVolume"]')
    expect(message).toContain("Expected string, actual -5")
    expect(message).toContain("[2]")
    expect(message).toContain('["realisedPnl"]')
    expect(message).toContain(
      'Expected a signed integer amount in base units (at most 256 bits) as a decimal string, actual "12.5"'
    )
  })

  it("reports a missing field by name", () => {
    const json = JSON.parse(fixture("positions.json"))
    delete json.positions.edges[0].node.updatedAt
    expect(decodeError(schema, json)).toMatch(/\["updatedAt"\]\n\s+└─ is missing/)
  })

  it("round-trips generated responses", () => expectRoundTrips(schema, 30))
})

describe("GetReferralSetStatsResponse", () => {
  const schema = ReferralSetStats.GetReferralSetStatsResponse

  it("decodes v0.75 statistics with exact factors, byte for byte", () => {
    const res = expectByteIdentical(schema, fixture("referral-set-stats.json"))
    const stats = res.stats.edges[1].node
    expect(stats.atEpoch).toBe(4321n)
    expect(stats.discountFactor).toEqual(Option.some(BigDecimal.make(1n, 2)))
    expect(stats.rewardsMultiplier).toEqual(BigDecimal.make(1n, 0))
    expect(stats.referrerTakerVolume).toBe(990000000n)
    expect(stats.wasEligible).toBe(true)
  })

  it("decodes v0.78 statistics whose deprecated factors are empty", () => {
    const res = expectByteIdentical(schema, fixture("referral-set-stats-v078.json"))
    const stats = res.stats.edges[0].node
    expect(stats.discountFactor).toEqual(Option.none())
    expect(stats.discountFactors?.makerDiscountFactor).toEqual(BigDecimal.make(3n, 2))
  })

  it("round-trips generated responses", () => expectRoundTrips(schema, 30))
})

describe("ListSignerAddedBundlesResponse", () => {
  const schema = SignerBundle.ListSignerAddedBundlesResponse

  it("decodes bundles, with and without signatures, byte for byte", () => {
    const res = expectByteIdentical(schema, fixture("signer-bundles.json"))
    const [signed, unsigned] = res.bundles.edges.map((e) => e.node)
    expect(SignerBundle.splitSignatures(signed.signatures)).toHaveLength(3)
    expect(SignerBundle.splitSignatures(signed.signatures).every((s) => s.length === 130)).toBe(true)
    expect(signed.nonce).toBe(1711965001n)
    expect(signed.epochSeq).toBe(4310n)
    expect(unsigned.signatures).toBe("")
    expect(SignerBundle.splitSignatures(unsigned.signatures)).toEqual([])
    expect(unsigned.nonce).toBe(2n ** 256n - 1n)
  })

  it("rejects malformed signatures", () => {
    const json = JSON.parse(fixture("signer-bundles.json"))
    json.bundles.edges[0].node.signatures = "0xabc"
    expect(decodeError(schema, json)).toContain('["signatures"]')
  })

  it("round-trips generated responses", () => expectRoundTrips(schema, 30))
})

describe("ListPartiesProfilesResponse", () => {
  const schema = PartyProfile.ListPartiesProfilesResponse

  it("decodes profiles, blank ones and the network party, byte for byte", () => {
    const res = expectByteIdentical(schema, fixture("profiles.json"))
    const [blank, joe, network] = res.profiles.edges.map((e) => e.node)
    expect(blank).toEqual({ partyId: blank.partyId, alias: "", metadata: [] })
    expect(joe.metadata).toEqual([
      { key: "twitter", value: "@joe" },
      { key: "discord", value: "joe#1234" }
    ])
    expect(network.partyId).toBe("network")
    expect(network.alias).toBe("network")
  })

  it("accepts the derived keys of newer nodes", () => {
    const json = JSON.parse(fixture("profiles.json"))
    json.profiles.edges[0].node.derivedKeys = ["a", "b"]
    expect(decodeText(schema, JSON.stringify(json)).profiles.edges[0].node.derivedKeys).toEqual(["a", "b"])
  })

  it("round-trips generated responses", () => expectRoundTrips(schema, 30))
})

describe("ListRewardSummariesResponse", () => {
  const schema = RewardSummary.ListRewardSummariesResponse

  it("decodes an unpaged list, byte for byte", () => {
    const res = expectByteIdentical(schema, fixture("reward-summaries.json"))
    expect(res.summaries).toHaveLength(3)
    expect(res.summaries[0].amount).toBe(731250000000000000n)
    expect(res.summaries[1].amount).toBe(18446744073709551615n)
    expect(res.summaries[2].partyId).toBe("network")
    expect("pageInfo" in res).toBe(false)
  })

  it("decodes an empty list", () => {
    expect(expectByteIdentical(schema, fixture("reward-summaries-empty.json")).summaries).toEqual([])
  })

  it("round-trips generated responses", () => expectRoundTrips(schema, 50))
})
