import { describe, expect, it } from "@effect/vitest"
import { DateTime, Option, Schema } from "effect"
import { Timestamp } from "@vega-effect/schema"
import { expectRoundTrips } from "./utils.js"

describe("Timestamp", () => {
  it("decodes Vega nanoseconds and Ethereum seconds as distinct exact values", () => {
    const vega = Schema.decodeUnknownSync(Timestamp.VegaTimestamp)("1711965012345678000")
    const eth = Schema.decodeUnknownSync(Timestamp.EthereumTimestamp)("1636134806")
    expect(vega).toBe(1711965012345678000n)
    expect(eth).toBe(1636134806n)
    expect(DateTime.formatIso(Timestamp.vegaTimeToDateTime(vega))).toBe("2024-04-01T09:50:12.345Z")
    expect(DateTime.formatIso(Timestamp.ethereumTimeToDateTime(eth))).toBe("2021-11-05T17:53:26.000Z")
  })

  it("keeps every nanosecond digit in ISO form", () => {
    expect(Timestamp.vegaTimeToIsoString(Timestamp.vegaTimestamp(1711965012345678901n))).toBe(
      "2024-04-01T09:50:12.345678901Z"
    )
    expect(Timestamp.vegaTimeToIsoString(Timestamp.vegaTimestamp(0n))).toBe("1970-01-01T00:00:00.000000000Z")
    expect(Timestamp.vegaTimeToIsoString(Timestamp.vegaTimestamp(-1n))).toBe("1969-12-31T23:59:59.999999999Z")
  })

  it("treats 0 as unset", () => {
    expect(Timestamp.vegaTimeToOption(Timestamp.vegaTimestamp(0n))).toEqual(Option.none())
    expect(Option.isSome(Timestamp.vegaTimeToOption(Timestamp.vegaTimestamp(1n)))).toBe(true)
  })

  it("converts from DateTime", () => {
    const dt = DateTime.unsafeMake("2024-04-01T09:50:12.345Z")
    expect(Timestamp.vegaTimeFromDateTime(dt)).toBe(1711965012345000000n)
    expect(Timestamp.ethereumTimeFromDateTime(dt)).toBe(1711965012n)
  })

  it("keeps RFC 3339 strings exact and readable", () => {
    const s = Schema.decodeUnknownSync(Timestamp.Rfc3339)("2024-03-01T12:00:00.123456789Z")
    expect(s).toBe("2024-03-01T12:00:00.123456789Z")
    expect(DateTime.toEpochMillis(Timestamp.rfc3339ToDateTime(s))).toBe(Date.UTC(2024, 2, 1, 12, 0, 0, 123))
  })

  it("round-trips generated values", () => {
    expectRoundTrips(Timestamp.VegaTimestamp)
    expectRoundTrips(Timestamp.EthereumTimestamp)
    expectRoundTrips(Timestamp.Rfc3339)
  })
})
