import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { Ids } from "@vega-effect/schema"
import { decodeError, expectRoundTrips } from "./utils.js"

const hex = "b825e23f8f9fe0c1a8b1b62df1a8a6c3bd5d5f2ec1cbd1be4e0c2c3bfb9afdf2"

describe("Ids", () => {
  it("accepts any case and normalises to lowercase", () => {
    expect(Schema.decodeUnknownSync(Ids.MarketId)(hex.toUpperCase())).toBe(hex)
    expect(Schema.decodeUnknownSync(Ids.PartyId)("B825e23F" + hex.slice(8))).toBe(hex)
    expect(Schema.encodeSync(Ids.AssetId)(Schema.decodeUnknownSync(Ids.AssetId)(hex))).toBe(hex)
  })

  it("admits the network party only where a party is expected", () => {
    expect(Schema.decodeUnknownSync(Ids.PartyId)("network")).toBe("network")
    expect(decodeError(Ids.MarketId, "network")).toContain(
      'Expected a market id (64 hexadecimal characters), actual "network"'
    )
    expect(decodeError(Ids.PartyId, "Network")).toContain('(64 hexadecimal characters or "network")')
  })

  it("rejects wrong lengths and non-hex characters", () => {
    expect(decodeError(Ids.AssetId, hex.slice(1))).toContain("an asset id")
    expect(decodeError(Ids.AssetId, hex + "0")).toContain("an asset id")
    expect(decodeError(Ids.NodeId, "g".repeat(64))).toContain("a node id")
    expect(decodeError(Ids.LiquidityProvisionId, "")).toContain("a liquidity provision id")
  })

  it("exposes the node's id predicates", () => {
    expect(Ids.isVegaId(hex.toUpperCase())).toBe(true)
    expect(Ids.isVegaId("network")).toBe(false)
    expect(Ids.isPartyId("network")).toBe(true)
  })

  it("round-trips generated ids", () => {
    expectRoundTrips(Ids.PartyId)
    expectRoundTrips(Ids.StakeLinkingId)
  })
})
