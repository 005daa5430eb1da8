import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { LiquidityProvision, Position, StakeLinking, StreamForm } from "@vega-effect/schema"
import { decodeText, expectRoundTrips, fixture } from "./utils.js"

const PositionStream = StreamForm.make(Position.Position)
const LiquidityProvisionStream = StreamForm.make(LiquidityProvision.LiquidityProvisionNode)
const StakeLinkingStream = StreamForm.make(StakeLinking.StakeLinking)

describe("StreamForm", () => {
  it("omits default values and writes enums as numbers", () => {
    const rest = decodeText(Position.ListPositionsResponse, fixture("positions.json"))
    const [short, network] = rest.positions.edges.map((e) => e.node)
    expect(JSON.stringify(Schema.encodeSync(PositionStream)(short))).toBe(
      `{"marketId":"${short.marketId}","partyId":"${short.partyId}","openVolume":"-5","realisedPnl":"-1250000","unrealisedPnl":"340000","averageEntryPrice":"123456","updatedAt":"1711965012345678000","lossSocialisationAmount":"0"}`
    )
    // int64 zero ("0") and the zero timestamp are defaults; "0" in a proto string field is not
    const encoded = Schema.encodeSync(PositionStream)(network) as Record<string, unknown>
    expect(encoded.positionStatus).toBe(4)
    expect("updatedAt" in encoded).toBe(false)
    expect(encoded.realisedPnl).toBe("0")
  })

  it("reads a stream message back to the same value as its REST twin", () => {
    const streamed = Schema.decodeUnknownSync(PositionStream)({
      marketId: "a08d564afb14acd3fa86b004f899b2639942cd7cb5e0c9bed8f92fdf15e4033b",
      partyId: "network",
      openVolume: "3",
      realisedPnl: "0",
      unrealisedPnl: "0",
      averageEntryPrice: "0",
      lossSocialisationAmount: "0",
      positionStatus: 2
    })
    expect(streamed.positionStatus).toBe("POSITION_STATUS_CLOSED_OUT")
    expect(streamed.updatedAt).toBe(0n)
    expect(streamed.openVolume).toBe(3n)
  })

  it("keeps optional members and arrays right", () => {
    const rest = decodeText(LiquidityProvision.ListLiquidityProvisionsResponse, fixture("liquidity-provisions.json"))
    const node = rest.liquidityProvisions.edges[1].node
    const encoded = Schema.encodeSync(LiquidityProvisionStream)(node) as { current: Record<string, unknown> }
    expect("pending" in encoded).toBe(false)
    expect("buys" in encoded.current).toBe(false)
    expect(encoded.current.status).toBe(1)
    expect(Schema.decodeUnknownSync(LiquidityProvisionStream)(encoded)).toEqual(node)
  })

  it("converts JSON between the two forms", () => {
    const rest = JSON.parse(fixture("stake.json")).stakeLinkings.edges[1].node
    const stream = StreamForm.fromRestJson(StakeLinking.StakeLinking, rest) as Record<string, unknown>
    expect(stream.type).toBe(1)
    expect(stream.status).toBe(2)
    expect(StreamForm.toRestJson(StakeLinking.StakeLinking, stream)).toEqual(rest)
  })

  it("round-trips generated values", () => {
    expectRoundTrips(PositionStream, 100)
    expectRoundTrips(StakeLinkingStream, 100)
  })
})

describe("StreamForm.frame", () => {
  const Frame = StreamForm.frame(PositionStream)

  it("wraps results and errors the way the gateway frames stream messages", () => {
    const rest = decodeText(Position.ListPositionsResponse, fixture("positions.json")).positions.edges[0].node
    const line = JSON.stringify(Schema.encodeSync(Frame)({ result: rest }))
    expect(line.startsWith('{"result":{"marketId":')).toBe(true)
    expect(Schema.decodeUnknownSync(Frame)(JSON.parse(line))).toEqual({ result: rest })
    const error = Schema.decodeUnknownSync(Frame)({ error: { code: 14, message: "stream closed" } })
    expect(error).toEqual({ error: { code: 14, message: "stream closed" } })
    expect(JSON.stringify(Schema.encodeSync(Frame)(error))).toBe('{"error":{"code":14,"message":"stream closed"}}')
  })
})
