/**
 * Exact conversions between base units and human decimals, explicit about which decimals apply:
 *
 * - **asset** decimals (`asset.details.decimals`) scale amounts: stake, commitments, rewards,
 *   transfers, and in practice position PnL;
 * - **market price** decimals (`market.decimalPlaces`) scale prices such as `averageEntryPrice`;
 * - **position** decimals (`market.positionDecimalPlaces`, may be negative) scale volumes such as
 *   `openVolume`.
 *
 * Each kind of decimals is its own branded number, so passing a market's price decimals where an
 * asset's are expected does not compile. No JS float is ever involved.
 *
 * @since 0.1.0
 */
import * as BigDecimal from "effect/BigDecimal"
import type * as Brand from "effect/Brand"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Decimal from "./Decimal.js"
import { Int64, Uint64 } from "./Integer.js"

/**
 * The decimals of an asset: they scale its amounts.
 *
 * @since 0.1.0
 * @category Models
 */
export type AssetDecimals = number & Brand.Brand<"AssetDecimals">
/**
 * A market's price decimals (`decimalPlaces`): they scale its prices.
 *
 * @since 0.1.0
 * @category Models
 */
export type PriceDecimals = number & Brand.Brand<"PriceDecimals">
/**
 * A market's position decimals (`positionDecimalPlaces`): they scale its volumes, and may be
 * negative.
 *
 * @since 0.1.0
 * @category Models
 */
export type PositionDecimals = number & Brand.Brand<"PositionDecimals">

const MAX_DECIMALS = 1000

const decimalsSchema = <B extends string>(brand: B, from: typeof Uint64 | typeof Int64, min: number) =>
  Schema.transformOrFail(
    from,
    Schema.Int.pipe(Schema.between(min, MAX_DECIMALS), Schema.brand(brand)).annotations({
      arbitrary: () => (fc) => fc.integer({ min: Math.max(min, -6), max: 30 }) as any
    }),
    {
      strict: true,
      decode: (n, _, ast) =>
        n >= BigInt(min) && n <= BigInt(MAX_DECIMALS)
          ? ParseResult.succeed(Number(n) as number & Brand.Brand<B>)
          : ParseResult.fail(new ParseResult.Type(ast, n, `Expected a number of decimals in ${min}..${MAX_DECIMALS}`)),
      encode: (n) => ParseResult.succeed(BigInt(n))
    }
  ).annotations({ identifier: brand })

/**
 * `asset.details.decimals` (uint64 string) decoded to {@link AssetDecimals}.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const AssetDecimalsFromString = decimalsSchema("AssetDecimals", Uint64, 0)

/**
 * `market.decimalPlaces` (uint64 string) decoded to {@link PriceDecimals}.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const PriceDecimalsFromString = decimalsSchema("PriceDecimals", Uint64, 0)

/**
 * `market.positionDecimalPlaces` (int64 string, may be negative) decoded to {@link PositionDecimals}.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const PositionDecimalsFromString = decimalsSchema("PositionDecimals", Int64, -MAX_DECIMALS)

const checkDecimals = (n: number, min: number): void => {
  if (!Number.isInteger(n) || n < min || n > MAX_DECIMALS) throw new RangeError(`invalid number of decimals: ${n}`)
}

/**
 * Brands a number of asset decimals; throws a `RangeError` unless it is an integer from 0 to 1000.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const assetDecimals = (n: number): AssetDecimals => (checkDecimals(n, 0), n as AssetDecimals)
/**
 * Brands a number of price decimals; throws a `RangeError` unless it is an integer from 0 to 1000.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const priceDecimals = (n: number): PriceDecimals => (checkDecimals(n, 0), n as PriceDecimals)
/**
 * Brands a number of position decimals; throws a `RangeError` unless it is an integer from -1000 to
 * 1000 (negative values are allowed).
 *
 * @since 0.1.0
 * @category Constructors
 */
export const positionDecimals = (n: number): PositionDecimals => (
  checkDecimals(n, -MAX_DECIMALS),
  n as PositionDecimals
)

/**
 * A human value that cannot be written in base units without losing digits.
 *
 * @since 0.1.0
 * @category Errors
 */
export class PrecisionLossError extends Schema.TaggedError<PrecisionLossError>(
  "@vega-effect/schema/Scaling/PrecisionLossError"
)("PrecisionLossError", {
  value: Schema.String,
  decimals: Schema.Number
}) {
  override get message(): string {
    return `${this.value} has more than ${this.decimals} decimal places and cannot be expressed in base units exactly`
  }
}

const fromUnits = (units: bigint, decimals: number): BigDecimal.BigDecimal => BigDecimal.make(units, decimals)

const toUnits = (value: BigDecimal.BigDecimal, decimals: number): Either.Either<bigint, PrecisionLossError> => {
  const n = BigDecimal.normalize(value)
  if (n.scale > decimals) {
    return Either.left(new PrecisionLossError({ value: Decimal.format(value), decimals }))
  }
  return Either.right(n.value * 10n ** BigInt(decimals - n.scale))
}

/**
 * Base units of an asset → exact decimal, e.g. `5000000000000000000n` at 18 decimals → `5`.
 *
 * @since 0.1.0
 * @category Conversions
 */
export const fromAssetUnits = (amount: bigint, decimals: AssetDecimals): BigDecimal.BigDecimal =>
  fromUnits(amount, decimals)

/**
 * Exact decimal → base units of an asset; fails instead of rounding.
 *
 * @since 0.1.0
 * @category Conversions
 */
export const toAssetUnits = (
  value: BigDecimal.BigDecimal,
  decimals: AssetDecimals
): Either.Either<bigint, PrecisionLossError> => toUnits(value, decimals)

/**
 * A price in market units → exact decimal, e.g. `123456n` at 5 decimals → `1.23456`.
 *
 * @since 0.1.0
 * @category Conversions
 */
export const fromPriceUnits = (price: bigint, decimals: PriceDecimals): BigDecimal.BigDecimal =>
  fromUnits(price, decimals)

/**
 * Exact decimal → a price in market units; fails instead of rounding.
 *
 * @since 0.1.0
 * @category Conversions
 */
export const toPriceUnits = (
  value: BigDecimal.BigDecimal,
  decimals: PriceDecimals
): Either.Either<bigint, PrecisionLossError> => toUnits(value, decimals)

/**
 * A volume in position units → exact decimal. Negative position decimals mean each unit is
 * worth `10^-decimals` (e.g. `-2`: `5n` → `500`).
 *
 * @since 0.1.0
 * @category Conversions
 */
export const fromPositionUnits = (volume: bigint, decimals: PositionDecimals): BigDecimal.BigDecimal =>
  fromUnits(volume, decimals)

/**
 * Exact decimal → a volume in position units; fails instead of rounding.
 *
 * @since 0.1.0
 * @category Conversions
 */
export const toPositionUnits = (
  value: BigDecimal.BigDecimal,
  decimals: PositionDecimals
): Either.Either<bigint, PrecisionLossError> => toUnits(value, decimals)
