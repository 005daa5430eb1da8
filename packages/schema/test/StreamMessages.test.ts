import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { LiquidityProvision, Position, StreamForm } from "@vega-effect/schema"

const PARTY = "b5fd9d3c4ad553cb3196303b6e6df7f484cf7f5331a572a45031239fd71ad8a0"
const MARKET = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"

describe("positions stream", () => {
  const Frame = StreamForm.frame(Position.ObservePositionsResponse)

  it("reads a snapshot page and an update, defaults omitted, and writes them back unchanged", () => {
    const position = `{"marketId":"${MARKET}","partyId":"${PARTY}","realisedPnl":"-5","unrealisedPnl":"7","averageEntryPrice":"100","updatedAt":"1711965012345678000","lossSocialisationAmount":"0"}`
    for (const line of [
      `{"result":{"snapshot":{"positions":[${position}]}}}`,
      `{"result":{"snapshot":{"lastPage":true}}}`,
      `{"result":{"updates":{"positions":[${position.replace('"realisedPnl"', '"openVolume":"-3","realisedPnl"')}]}}}`
    ]) {
      const frame = Schema.decodeUnknownSync(Frame)(JSON.parse(line))
      expect(JSON.stringify(Schema.encodeSync(Frame)(frame))).toBe(line)
    }
    const first = Schema.decodeUnknownSync(Frame)(JSON.parse(`{"result":{"snapshot":{"positions":[${position}]}}}`))
    if (!("result" in first)) throw new Error("expected a result")
    expect(first.result.snapshot?.lastPage).toBe(false)
    expect(first.result.snapshot?.positions[0].openVolume).toBe(0n)
    expect(first.result.snapshot?.positions[0].positionStatus).toBe("POSITION_STATUS_UNSPECIFIED")
  })

  it("refuses a message holding both a snapshot and updates", () => {
    expect(() =>
      Schema.decodeUnknownSync(Position.ObservePositionsResponse)({ snapshot: { lastPage: true }, updates: {} })
    ).toThrow(/oneof response/)
  })
})

describe("liquidity provisions stream", () => {
  it("reads the plain records, enums as numbers", () => {
    const Frame = StreamForm.frame(LiquidityProvision.ObserveLiquidityProvisionsResponse)
    const line = `{"result":{"liquidityProvisions":[{"id":"${MARKET}","partyId":"${PARTY}","createdAt":"1","updatedAt":"2","marketId":"${MARKET}","commitmentAmount":"1000","fee":"0.001","version":"2","status":1}]}}`
    const frame = Schema.decodeUnknownSync(Frame)(JSON.parse(line))
    if (!("result" in frame)) throw new Error("expected a result")
    const [lp] = frame.result.liquidityProvisions
    expect(lp.status).toBe("STATUS_ACTIVE")
    expect(lp.version).toBe(2n)
    expect(lp.reference).toBe("")
    expect(JSON.stringify(Schema.encodeSync(Frame)(frame))).toBe(line)
  })
})
