/**
 * A market as `/api/v2/markets` and `/api/v2/market/{marketId}` write it: every member of
 * `vega.Market`, as the gateway writes them all (unset messages as `null`, deprecated strings as
 * `""`). The configuration the simulator does not model (fees, auctions, price and liquidity
 * monitoring, risk model, oracles) is one plausible mainnet-like set, the same for every market.
 */
import { createHash } from "node:crypto"
import { Decimal, Market } from "@vega-effect/schema"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { MarketInfo } from "../world/catalog.js"
import { FeeFactors } from "../world/fees.js"
import type { FundingSchedule } from "../world/funding.js"
import { ScalingFactors, SlippageFactors } from "../world/margin.js"
import { DISPOSAL_TIME_STEP_SECONDS, PRICE_MONITORING_TRIGGERS, TARGET_STAKE_SCALING } from "../world/marketData.js"
import { type NodeVersion, since } from "./nodeVersion.js"

const encodeMarket = Schema.encodeSync(Market.Market)

const decimal = (text: string) => Option.getOrThrow(Decimal.parse(text))

/** A data source spec's id: deterministic per market and purpose. */
const specId = (market: MarketInfo, purpose: string): string =>
  createHash("sha256").update(`${market.id} ${purpose}`).digest("hex")

/** The key of the market's (simulated) data provider, which signs its oracle data. */
export const oracleSigner = (market: MarketInfo): string => specId(market, "signer")

/** The id of the spec of the oracle that settles a market (a perpetual's: its external price). */
export const settlementSpecId = (market: MarketInfo): string => specId(market, "settlement")

/** An oracle signed by the market's (simulated) data provider key, filtering one property. */
const oracleSpec = (market: MarketInfo, purpose: string, property: string, type: string, decimals?: string) => ({
  id: specId(market, purpose),
  createdAt: String(BigInt(market.proposedMicros) * 1000n),
  updatedAt: "0",
  data: {
    external: {
      oracle: {
        signers: [{ pubKey: { key: oracleSigner(market) } }],
        filters: [
          {
            key: { name: property, type, ...(decimals === undefined ? {} : { numberDecimalPlaces: decimals }) },
            conditions: []
          }
        ]
      }
    }
  },
  status: "STATUS_ACTIVE"
})

/** The perpetual's funding schedule (`world/funding.ts`), its times in whole seconds. */
const scheduleSpec = (market: MarketInfo, schedule: FundingSchedule) => ({
  id: specId(market, "schedule"),
  createdAt: String(BigInt(market.proposedMicros) * 1000n),
  updatedAt: "0",
  data: {
    internal: {
      timeTrigger: {
        conditions: [{ operator: "OPERATOR_GREATER_THAN_OR_EQUAL", value: "0" }],
        triggers: [
          {
            initial: String(Math.floor(schedule.initialMicros / 1_000_000)),
            every: String(Math.floor(schedule.everyMicros / 1_000_000))
          }
        ]
      }
    }
  },
  status: "STATUS_ACTIVE"
})

/** The property an oracle's price is published under. */
export const priceProperty = (market: MarketInfo): string => `prices.${market.code.split(".")[0]}.value`

/** The oracle that settles a market: its price, in the market's decimals. */
const settlementSpec = (market: MarketInfo) =>
  oracleSpec(market, "settlement", priceProperty(market), "TYPE_INTEGER", String(market.priceDecimals))

/** The oracle that ends a future's trading. */
const terminationSpec = (market: MarketInfo) => oracleSpec(market, "termination", "trading.terminated", "TYPE_BOOLEAN")

/**
 * The data source specs a market's product declares, as its JSON writes them: a future's
 * settlement and termination oracles, a perpetual's funding schedule and settlement oracle.
 */
export const dataSourceSpecs = (market: MarketInfo) =>
  market.funding !== undefined
    ? [scheduleSpec(market, market.funding), settlementSpec(market)]
    : [settlementSpec(market), terminationSpec(market)]

const futureProduct = (market: MarketInfo) => ({
  settlementAsset: market.settlementAsset.id,
  quoteName: market.settlementAsset.symbol,
  dataSourceSpecForSettlementData: settlementSpec(market),
  dataSourceSpecForTradingTermination: terminationSpec(market),
  dataSourceSpecBinding: {
    settlementDataProperty: priceProperty(market),
    tradingTerminationProperty: "trading.terminated"
  }
})

const perpetualProduct = (market: MarketInfo, schedule: FundingSchedule) => ({
  settlementAsset: market.settlementAsset.id,
  quoteName: market.settlementAsset.symbol,
  marginFundingFactor: decimal("0.1"),
  interestRate: decimal("0"),
  clampLowerBound: decimal("-0.0005"),
  clampUpperBound: decimal("0.0005"),
  dataSourceSpecForSettlementSchedule: scheduleSpec(market, schedule),
  dataSourceSpecForSettlementData: settlementSpec(market),
  dataSourceSpecBinding: {
    settlementDataProperty: priceProperty(market),
    settlementScheduleProperty: "vegaprotocol.builtin.timetrigger"
  }
})

/** Members that only v0.76+ nodes write (`vega.Market` at v0.79.0). */
const laterMembers = (version: NodeVersion) =>
  since(version, "v0.79") ? { enableTransactionReordering: true, allowedEmptyAmmLevels: 0n, allowedSellers: [] } : {}

const fees = (version: NodeVersion) => ({
  factors: {
    makerFee: FeeFactors.makerFee.text,
    infrastructureFee: FeeFactors.infrastructureFee.text,
    liquidityFee: FeeFactors.liquidityFee.text,
    ...(since(version, "v0.79") ? { treasuryFee: "0", buyBackFee: "0" } : {})
  },
  liquidityFeeSettings: { method: "METHOD_MARGINAL_COST" }
})

const liquidationStrategy = (version: NodeVersion) => ({
  disposalTimeStep: String(DISPOSAL_TIME_STEP_SECONDS),
  disposalFraction: "0.1",
  fullDisposalSize: "10000",
  maxFractionConsumed: "0.1",
  ...(since(version, "v0.79") ? { disposalSlippageRange: "0.1" } : {})
})

/** The instrument with its product, margin calculator and risk model. */
const tradableInstrument = (market: MarketInfo) => ({
  instrument: {
    id: "",
    code: market.code,
    name: market.name,
    metadata: {
      tags: [`base:${market.code.split(/USD|DAI|WETH/)[0]}`, `quote:${market.settlementAsset.symbol}`]
    },
    [market.product]: market.funding !== undefined ? perpetualProduct(market, market.funding) : futureProduct(market)
  },
  marginCalculator: {
    scalingFactors: {
      searchLevel: ScalingFactors.searchLevel.json,
      initialMargin: ScalingFactors.initialMargin.json,
      collateralRelease: ScalingFactors.collateralRelease.json
    }
  },
  logNormalRiskModel: {
    riskAversionParameter: 0.000001,
    tau: 0.0000071,
    params: { mu: 0, r: 0, sigma: 0.75 }
  }
})

/** The market's JSON for a node of `version`. */
export const marketJson = (market: MarketInfo, version: NodeVersion): string =>
  JSON.stringify(
    encodeMarket({
      id: market.id,
      tradableInstrument: tradableInstrument(market),
      decimalPlaces: market.priceDecimals,
      fees: fees(version),
      openingAuction: { duration: "3600", volume: "0" },
      priceMonitoringSettings: {
        parameters: {
          triggers: PRICE_MONITORING_TRIGGERS.map((t) => ({
            horizon: String(t.horizon),
            probability: t.probability,
            auctionExtension: String(t.auctionExtension)
          }))
        }
      },
      liquidityMonitoringParameters: {
        targetStakeParameters: { timeWindow: "3600", scalingFactor: TARGET_STAKE_SCALING.json },
        triggeringRatio: "0",
        auctionExtension: "0"
      },
      tradingMode: "TRADING_MODE_CONTINUOUS",
      state: "STATE_ACTIVE",
      marketTimestamps: {
        proposed: BigInt(market.proposedMicros) * 1000n,
        pending: BigInt(market.proposedMicros + 86_400_000_000) * 1000n,
        open: BigInt(market.openMicros) * 1000n,
        close: 0n
      },
      positionDecimalPlaces: market.positionDecimals,
      // replaced by liquiditySlaParams.priceRange; written empty
      lpPriceRange: Option.none(),
      linearSlippageFactor: Option.some(decimal(SlippageFactors.linear.text)),
      quadraticSlippageFactor: Option.some(decimal(SlippageFactors.quadratic.text)),
      liquiditySlaParams: {
        priceRange: "0.05",
        commitmentMinTimeFraction: "0.95",
        performanceHysteresisEpochs: "1",
        slaCompetitionFactor: "0.8"
      },
      liquidationStrategy: liquidationStrategy(version),
      markPriceConfiguration: {
        decayWeight: "0",
        decayPower: "0",
        cashAmount: "0",
        sourceWeights: [],
        sourceStalenessTolerance: [],
        compositePriceType: "COMPOSITE_PRICE_TYPE_LAST_TRADE",
        dataSourcesSpec: [],
        dataSourcesSpecBinding: []
      },
      tickSize: market.tickSize,
      ...laterMembers(version)
    } as unknown as Market.Market)
  )
