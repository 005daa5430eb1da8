import { describe, expect, it } from "@effect/vitest"
import { BigDecimal, Either, Schema } from "effect"
import { Decimal, Scaling } from "@vega-effect/schema"

const asset18 = Scaling.assetDecimals(18)
const asset6 = Scaling.assetDecimals(6)

describe("Scaling", () => {
  it("converts asset base units exactly, at 18 decimals too", () => {
    expect(Decimal.format(Scaling.fromAssetUnits(5000000000000000000n, asset18))).toBe("5")
    expect(Decimal.format(Scaling.fromAssetUnits(731250000000000000n, asset18))).toBe("0.73125")
    expect(Decimal.format(Scaling.fromAssetUnits(1n, asset18))).toBe("0.000000000000000001")
    expect(Decimal.format(Scaling.fromAssetUnits(123456789012345678901234567890n, asset18))).toBe(
      "123456789012.34567890123456789"
    )
    expect(Scaling.toAssetUnits(BigDecimal.make(73125n, 5), asset18)).toEqual(Either.right(731250000000000000n))
  })

  it("refuses to round when going back to base units", () => {
    const result = Scaling.toAssetUnits(BigDecimal.make(1234567n, 7), asset6)
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) {
      expect(result.left._tag).toBe("PrecisionLossError")
      expect(result.left.message).toBe(
        "0.1234567 has more than 6 decimal places and cannot be expressed in base units exactly"
      )
    }
    expect(Scaling.toAssetUnits(BigDecimal.make(1234560n, 7), asset6)).toEqual(Either.right(123456n))
  })

  it("scales prices with market decimals and volumes with position decimals, negative ones included", () => {
    expect(Decimal.format(Scaling.fromPriceUnits(123456n, Scaling.priceDecimals(5)))).toBe("1.23456")
    expect(Decimal.format(Scaling.fromPositionUnits(-5n, Scaling.positionDecimals(-2)))).toBe("-500")
    expect(Decimal.format(Scaling.fromPositionUnits(-5n, Scaling.positionDecimals(3)))).toBe("-0.005")
    expect(Scaling.toPositionUnits(BigDecimal.make(500n, 0), Scaling.positionDecimals(-2))).toEqual(Either.right(5n))
    expect(Either.isLeft(Scaling.toPositionUnits(BigDecimal.make(510n, 0), Scaling.positionDecimals(-2)))).toBe(true)
  })

  it("decodes decimals fields from the wire into their own kinds", () => {
    const assetDecimals: Scaling.AssetDecimals = Schema.decodeUnknownSync(Scaling.AssetDecimalsFromString)("18")
    const positionDecimals: Scaling.PositionDecimals = Schema.decodeUnknownSync(Scaling.PositionDecimalsFromString)(
      "-3"
    )
    expect(assetDecimals).toBe(18)
    expect(positionDecimals).toBe(-3)
    expect(Schema.encodeSync(Scaling.PriceDecimalsFromString)(Scaling.priceDecimals(5))).toBe("5")
    expect(() => Schema.decodeUnknownSync(Scaling.AssetDecimalsFromString)("-1")).toThrow()
  })

  it("does not let one kind of decimals stand in for another", () => {
    const price = Scaling.priceDecimals(5)
    // @ts-expect-error a market's price decimals are not an asset's decimals
    expect(Decimal.format(Scaling.fromAssetUnits(1n, price))).toBe("0.00001")
  })

  it("rejects impossible decimals", () => {
    expect(() => Scaling.assetDecimals(-1)).toThrow(RangeError)
    expect(() => Scaling.priceDecimals(1.5)).toThrow(RangeError)
  })
})
