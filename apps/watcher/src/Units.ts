/**
 * Amounts, prices and volumes in human units, for people: which decimals scale which field of a
 * resource's rows and details ({@link Units}, part of each definition), the decimals the node
 * gave for its markets and assets ({@link Scales}), and the text of one value scaled exactly
 * ({@link human}: `38.28052` for a price of `3828052` at 5 decimals, `446.446 VEGA` for a stake of
 * `446446000000000000000`). No JS float is involved; a value whose decimals are not known is not
 * scaled. Only the console uses it: events keep their raw wire values.
 */
import { Decimal, Scaling } from "@vega-effect/schema"
import type { Json, Row } from "./Event.js"

/**
 * What scales a value:
 * - `price`: the market's price decimals (`decimalPlaces`), e.g. `averageEntryPrice`;
 * - `volume`: the market's position decimals (`positionDecimalPlaces`), e.g. `openVolume`;
 * - `settlement`: the decimals of the market's settlement asset (PnL, margins, commitments);
 * - `asset`: the decimals of the asset the row names (reward totals);
 * - `stake`: the decimals of the staking asset, VEGA.
 */
export type Unit = "price" | "volume" | "settlement" | "asset" | "stake"

/** Which decimals scale which values of a resource's rows and events' details. */
export interface Units {
  /** The market and the asset a row is about (a market's settlement asset comes with the market). */
  readonly ids: (row: Row) => { readonly market?: string | undefined; readonly asset?: string | undefined }
  /** Row fields (top level) by what scales them. */
  readonly fields: Readonly<Record<string, Unit>>
  /** Details by what scales them (a detail that is not a number, such as a status, is left as it is). */
  readonly details: Readonly<Record<string, Unit>>
}

/** A resource whose values are all said as they are. */
export const none: Units = { ids: () => ({}), fields: {}, details: {} }

/** A string field of a row, or of an object in one of its fields (`current.marketId`). */
export const textAt = (row: Row, ...path: ReadonlyArray<string>): string | undefined => {
  let value: Json | undefined = row
  for (const name of path) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined
    value = (value as { readonly [key: string]: Json })[name]
  }
  return typeof value === "string" ? value : undefined
}

export interface AssetScale {
  readonly symbol: string
  readonly decimals: Scaling.AssetDecimals
}

export interface MarketScale {
  readonly price: Scaling.PriceDecimals
  readonly position: Scaling.PositionDecimals
  /** The settlement asset (the quote asset of a spot market), by id. */
  readonly settlementAsset: string | undefined
}

/** The decimals known: markets and assets by id (lowercase hex), and the staking asset. */
export interface Scales {
  readonly market: (id: string) => MarketScale | undefined
  readonly asset: (id: string) => AssetScale | undefined
  readonly stake: AssetScale | undefined
}

/** Nothing known: every value is said raw. */
export const unknown: Scales = { market: () => undefined, asset: () => undefined, stake: undefined }

const INTEGER = /^[+-]?\d+$/

const amount = (units: bigint, asset: AssetScale | undefined): string | undefined =>
  asset === undefined ? undefined : `${Decimal.format(Scaling.fromAssetUnits(units, asset.decimals))} ${asset.symbol}`

/**
 * `raw` (an integer in base units) in human units, or `undefined` when it is not an integer or
 * its decimals are not known. `ids` are those of the row the value belongs to.
 */
export const human = (
  unit: Unit,
  raw: Json | undefined,
  ids: ReturnType<Units["ids"]>,
  scales: Scales
): string | undefined => {
  if (typeof raw !== "string" || !INTEGER.test(raw)) return undefined
  const units = BigInt(raw)
  const market = ids.market === undefined ? undefined : scales.market(ids.market)
  switch (unit) {
    case "price":
      return market === undefined ? undefined : Decimal.format(Scaling.fromPriceUnits(units, market.price))
    case "volume":
      return market === undefined ? undefined : Decimal.format(Scaling.fromPositionUnits(units, market.position))
    case "settlement":
      return market?.settlementAsset === undefined ? undefined : amount(units, scales.asset(market.settlementAsset))
    case "asset":
      return ids.asset === undefined ? undefined : amount(units, scales.asset(ids.asset))
    case "stake":
      return amount(units, scales.stake)
  }
}
