import { describe, expect, it } from "@effect/vitest"
import { BigDecimal, Option, Schema } from "effect"
import * as Enum from "@vega-effect/schema/Enum"
import * as Market from "@vega-effect/schema/Market"
import * as QueryString from "@vega-effect/schema/QueryString"
import * as Scaling from "@vega-effect/schema/Scaling"
import { decodeError, decodeText, encodeText, expectByteIdentical, expectRoundTrips, fixture } from "./utils.js"

const USDT = "bf1e88d19db4b3ca0d1d5bdb73718a01686b18cf731ca26adedf3c8b83802bba"
const BTC = "4e4e80abff30cab933b8c4ac6befc618372eb76b2cbddc337eff0b4a3a4d25b8"

/** The future market of the fixture as plain JSON, to derive bad inputs from. */
const futureJson = (): any => JSON.parse(fixture("market.json")).market

describe("Market", () => {
  it("decodes futures, perpetuals and spot markets and writes them back byte for byte", () => {
    const { markets } = expectByteIdentical(Market.ListMarketsResponse, fixture("markets.json"))
    const [future, perp, spot] = markets.edges.map((e) => e.node)

    expect(future.tradableInstrument.instrument.code).toBe("ETHUSDT.MF21")
    expect(future.tradableInstrument.instrument.metadata.tags).toContain("base:ETH")
    expect(future.tradableInstrument.instrument.future?.settlementAsset).toBe(USDT)
    expect(future.tradableInstrument.instrument.future?.quoteName).toBe("USDT")
    expect(future.tradableInstrument.instrument.perpetual).toBeUndefined()
    expect(future.state).toBe("STATE_ACTIVE")
    expect(future.tradingMode).toBe("TRADING_MODE_CONTINUOUS")
    expect(future.tickSize).toBe(1n)
    expect(future.marketTimestamps).toEqual({
      proposed: 1711965012345678000n,
      pending: 1711965312345678000n,
      open: 1711966812345678000n,
      close: 0n
    })
    expect(future.lpPriceRange).toEqual(Option.none())
    expect(future.linearSlippageFactor).toEqual(Option.some(BigDecimal.make(1n, 3)))

    const perpetual = perp.tradableInstrument.instrument.perpetual
    expect(perpetual?.marginFundingFactor).toEqual(BigDecimal.make(9n, 1))
    expect(perpetual?.clampLowerBound).toEqual(BigDecimal.make(-5n, 4))
    expect(perpetual?.fundingRateUpperBound).toEqual(BigDecimal.make(1n, 3))
    expect(perp.positionDecimalPlaces).toBe(-1)
    expect(perp.tradingMode).toBe("TRADING_MODE_MONITORING_AUCTION")
    expect(perp.parentMarketId).toBe("5b05109662e7434fea498c4a1c91d3179b80e9b8950d6106cec60e1f342fc604")
    expect(perp.insurancePoolFraction).toEqual(BigDecimal.make(5n, 1))
    expect(perp.tickSize).toBe(10n)

    expect(spot.tradableInstrument.instrument.spot).toEqual({ baseAsset: BTC, quoteAsset: USDT, name: "BTC/USDT" })
    expect(spot.tradableInstrument.marginCalculator).toBeNull()
    expect(spot.linearSlippageFactor).toEqual(Option.none())
    expect(markets.pageInfo.hasNextPage).toBe(true)
  })

  it("keeps the members it does not model, unchanged and in place", () => {
    const { market } = expectByteIdentical(Market.GetMarketResponse, fixture("market.json"))
    expect(market.fees).toEqual({
      factors: { makerFee: "0.0002", infrastructureFee: "0.0005", liquidityFee: "0.0001" },
      liquidityFeeSettings: { method: "METHOD_MARGINAL_COST" }
    })
    expect(market.tradableInstrument.logNormalRiskModel).toMatchObject({ params: { sigma: 1.25 } })
    expect(market.tradableInstrument.instrument.future?.dataSourceSpecBinding).toEqual({
      settlementDataProperty: "prices.ETH.value",
      tradingTerminationProperty: "trading.terminated"
    })
  })

  it("writes members in the node's order: tradingMode before state, tickSize after the configuration", () => {
    const text = encodeText(Market.Market, decodeText(Market.GetMarketResponse, fixture("market.json")).market)
    const keys = Object.keys(JSON.parse(text))
    expect(keys).toEqual([
      "id",
      "tradableInstrument",
      "decimalPlaces",
      "fees",
      "openingAuction",
      "priceMonitoringSettings",
      "liquidityMonitoringParameters",
      "tradingMode",
      "state",
      "marketTimestamps",
      "positionDecimalPlaces",
      "lpPriceRange",
      "linearSlippageFactor",
      "quadraticSlippageFactor",
      "liquiditySlaParams",
      "liquidationStrategy",
      "markPriceConfiguration",
      "tickSize"
    ])
  })

  it("types its decimals, so prices and volumes scale with the right ones", () => {
    const { market } = decodeText(Market.GetMarketResponse, fixture("market.json"))
    const price: Scaling.PriceDecimals = Market.priceDecimals(market)
    const position: Scaling.PositionDecimals = Market.positionDecimals(market)
    expect(Scaling.fromPriceUnits(345678n, price)).toEqual(BigDecimal.make(345678n, 2))
    expect(Scaling.fromPositionUnits(15n, position)).toEqual(BigDecimal.make(15n, 4))
    expect(Market.settlementAsset(market)).toBe(USDT)
  })

  it("decodes members and values from newer nodes", () => {
    const json = futureJson()
    json.tradingMode = "TRADING_MODE_LONG_BLOCK_AUCTION"
    json.state = "STATE_SOMETHING_NEW"
    json.enableTransactionReordering = true
    json.allowedEmptyAmmLevels = "5"
    json.allowedSellers = []
    json.aFieldFromTheFuture = { x: 1 }
    delete json.tradableInstrument.instrument.future
    json.tradableInstrument.instrument.option = { strike: "1" }
    const market = Schema.decodeUnknownSync(Market.Market)(json)
    expect(market.tradingMode).toBe("TRADING_MODE_LONG_BLOCK_AUCTION")
    expect(market.state).toEqual(Enum.unknownEnumValue("STATE_SOMETHING_NEW"))
    expect(market.allowedEmptyAmmLevels).toBe(5n)
    expect(Market.settlementAsset(market)).toBeUndefined()
    const again = JSON.parse(encodeText(Market.Market, market))
    expect(again.state).toBe("STATE_SOMETHING_NEW")
    expect(Object.keys(again).slice(-4)).toEqual([
      "tickSize",
      "enableTransactionReordering",
      "allowedEmptyAmmLevels",
      "allowedSellers"
    ])
    expect(again.aFieldFromTheFuture).toBeUndefined()
  })

  it("names the path and the expected type of a bad value", () => {
    const json = futureJson()
    json.positionDecimalPlaces = 4
    const message = decodeError(Market.Market, json)
    expect(message).toContain('["positionDecimalPlaces"]')
    expect(message).toContain("Expected string, actual 4")

    const price = futureJson()
    price.decimalPlaces = "-2"
    expect(decodeError(Market.Market, price)).toContain('["decimalPlaces"]')

    const asset = futureJson()
    asset.tradableInstrument.instrument.future.settlementAsset = "USDT"
    const assetMessage = decodeError(Market.Market, asset)
    expect(assetMessage).toContain('["tradableInstrument"]')
    expect(assetMessage).toContain('["instrument"]')
    expect(assetMessage).toContain('["future"]')
    expect(assetMessage).toContain('["settlementAsset"]')
    expect(assetMessage).toContain('Expected an asset id (64 hexadecimal characters), actual "USDT"')

    const ts = futureJson()
    ts.marketTimestamps.open = 1711966812345678000
    const tsMessage = decodeError(Market.Market, ts)
    expect(tsMessage).toContain('["marketTimestamps"]')
    expect(tsMessage).toContain('["open"]')

    const tick = futureJson()
    tick.tickSize = "0.5"
    expect(decodeError(Market.Market, tick)).toContain('["tickSize"]')

    const two = futureJson()
    two.tradableInstrument.instrument.spot = { baseAsset: BTC, quoteAsset: USDT }
    expect(decodeError(Market.Market, two)).toContain(
      "oneof product may hold only one of future, spot, perpetual, got future, spot"
    )
  })

  it("encodes list requests with the gateway's query names", () => {
    expect(QueryString.encode(Market.ListMarketsRequest)({ includeSettled: false, pagination: { last: 5 } })).toBe(
      "includeSettled=false&pagination.last=5"
    )
    expect(Schema.encodeSync(Market.ListMarketsRequest)({})).toEqual({})
  })

  it("round-trips generated values", () => {
    expectRoundTrips(Market.Market, 100)
    expectRoundTrips(Market.ListMarketsResponse, 20)
    expectRoundTrips(Market.ListMarketsRequest)
  })
})
