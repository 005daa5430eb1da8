import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { Enum, Position } from "@vega-effect/schema"
import { decodeError, expectRoundTrips } from "./utils.js"

const Status = Position.PositionStatus

describe("Enum", () => {
  it("decodes names and keeps them as literals", () => {
    const decoded: Position.PositionStatus = Schema.decodeUnknownSync(Status)("POSITION_STATUS_DISTRESSED")
    expect(decoded).toBe("POSITION_STATUS_DISTRESSED")
  })

  it("keeps a value a newer node added as a typed unknown and writes it back verbatim", () => {
    const decoded = Schema.decodeUnknownSync(Status)("POSITION_STATUS_LIQUIDATED")
    expect(decoded).toEqual(Enum.unknownEnumValue("POSITION_STATUS_LIQUIDATED"))
    expect(Enum.isUnknownEnumValue(decoded)).toBe(true)
    expect(Schema.encodeSync(Status)(decoded)).toBe("POSITION_STATUS_LIQUIDATED")
  })

  it("reads a bare number (how the gateway prints a value it has no name for)", () => {
    expect(Schema.decodeUnknownSync(Status)(3)).toEqual(Enum.unknownEnumValue(3))
    expect(Schema.encodeSync(Status)(Enum.unknownEnumValue(3))).toBe(3)
    expect(Schema.decodeUnknownSync(Status)(4)).toBe("POSITION_STATUS_DISTRESSED")
  })

  it("has a stream form with numbers", () => {
    expect(Schema.encodeSync(Status.Number)("POSITION_STATUS_DISTRESSED")).toBe(4)
    expect(Schema.decodeUnknownSync(Status.Number)(2)).toBe("POSITION_STATUS_CLOSED_OUT")
    expect(Schema.decodeUnknownSync(Status.Number)(9)).toEqual(Enum.unknownEnumValue(9))
    expect(() => Schema.encodeSync(Status.Number)(Enum.unknownEnumValue("X"))).toThrow(/has no known number/)
  })

  it("exposes its table", () => {
    expect(Status.values.POSITION_STATUS_DISTRESSED).toBe(4)
    expect(Status.zero).toBe("POSITION_STATUS_UNSPECIFIED")
    expect(Status.nameOf(1)).toBe("POSITION_STATUS_ORDERS_CLOSED")
    expect(Status.numberOf("POSITION_STATUS_CLOSED_OUT")).toBe(2)
    expect(Status.is("POSITION_STATUS_CLOSED_OUT")).toBe(true)
    expect(Status.is("CLOSED_OUT")).toBe(false)
  })

  it("rejects what is neither a string nor an integer", () => {
    expect(decodeError(Status, true)).toContain("vega.PositionStatus")
    expect(decodeError(Status, 1.5)).toContain("vega.PositionStatus")
  })

  it("round-trips generated values, unknown ones included", () => {
    expectRoundTrips(Status, 500)
  })
})
