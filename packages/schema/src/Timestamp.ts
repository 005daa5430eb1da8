/**
 * The two clocks in Vega data, kept apart by type:
 *
 * - {@link VegaTimestamp}: unix **nanoseconds** (block times, `updatedAt`, `finalizedAt`, ...).
 * - {@link EthereumTimestamp}: unix **seconds** of an Ethereum block (stake linking `ts`, `blockTime`).
 *
 * Both travel as int64 decimal strings and decode to branded `bigint`s. `DateTime` has millisecond
 * precision, so conversions to it truncate; {@link vegaTimeToIsoString} keeps every digit.
 *
 * @since 0.1.0
 */
import * as DateTime from "effect/DateTime"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { Int64 } from "./Integer.js"
import { matching } from "./internal/text.js"

/**
 * Unix time in nanoseconds. `0` means "not set".
 *
 * @since 0.1.0
 * @category Schemas
 */
export const VegaTimestamp = Int64.pipe(Schema.brand("VegaTimestamp")).annotations({
  identifier: "VegaTimestamp",
  description: "unix time in nanoseconds as a decimal string"
})
/**
 * The decoded form of the `VegaTimestamp` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type VegaTimestamp = typeof VegaTimestamp.Type

/**
 * Unix time in seconds of an Ethereum block.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const EthereumTimestamp = Int64.pipe(Schema.brand("EthereumTimestamp")).annotations({
  identifier: "EthereumTimestamp",
  description: "unix time in seconds as a decimal string"
})
/**
 * The decoded form of the `EthereumTimestamp` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type EthereumTimestamp = typeof EthereumTimestamp.Type

/**
 * Brands a number of unix nanoseconds as a `VegaTimestamp`, unchecked.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const vegaTimestamp = (nanos: bigint): VegaTimestamp => nanos as VegaTimestamp

/**
 * Brands a number of unix seconds as an `EthereumTimestamp`, unchecked.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const ethereumTimestamp = (seconds: bigint): EthereumTimestamp => seconds as EthereumTimestamp

const floorDiv = (a: bigint, b: bigint): bigint => {
  const q = a / b
  return a % b !== 0n && a < 0n ? q - 1n : q
}

/**
 * Converts to a `DateTime`, truncating to the millisecond.
 *
 * @since 0.1.0
 * @category Conversions
 */
export const vegaTimeToDateTime = (ts: VegaTimestamp): DateTime.Utc =>
  DateTime.unsafeMake(Number(floorDiv(ts, 1_000_000n)))

/**
 * `None` for the unset value `0`, otherwise the time as a `DateTime`.
 *
 * @since 0.1.0
 * @category Conversions
 */
export const vegaTimeToOption = (ts: VegaTimestamp): Option.Option<DateTime.Utc> =>
  ts === 0n ? Option.none() : Option.some(vegaTimeToDateTime(ts))

/**
 * The `VegaTimestamp` of a `DateTime` (which holds milliseconds, so the last six digits are zero).
 *
 * @since 0.1.0
 * @category Conversions
 */
export const vegaTimeFromDateTime = (dt: DateTime.DateTime): VegaTimestamp =>
  vegaTimestamp(BigInt(DateTime.toEpochMillis(dt)) * 1_000_000n)

/**
 * An RFC 3339 UTC string with all nine fractional digits: `2024-03-01T12:00:00.123456789Z`.
 *
 * @since 0.1.0
 * @category Conversions
 */
export const vegaTimeToIsoString = (ts: VegaTimestamp): string => {
  const millis = floorDiv(ts, 1_000_000n)
  const nanosOfSecond = ts - floorDiv(ts, 1_000_000_000n) * 1_000_000_000n
  const iso = new Date(Number(millis)).toISOString()
  return `${iso.slice(0, 19)}.${nanosOfSecond.toString().padStart(9, "0")}Z`
}

/**
 * Converts Ethereum unix seconds to a `DateTime`.
 *
 * @since 0.1.0
 * @category Conversions
 */
export const ethereumTimeToDateTime = (ts: EthereumTimestamp): DateTime.Utc => DateTime.unsafeMake(Number(ts) * 1000)

/**
 * The `EthereumTimestamp` of a `DateTime`, rounded down to the second.
 *
 * @since 0.1.0
 * @category Conversions
 */
export const ethereumTimeFromDateTime = (dt: DateTime.DateTime): EthereumTimestamp =>
  ethereumTimestamp(floorDiv(BigInt(DateTime.toEpochMillis(dt)), 1000n))

/**
 * An RFC 3339 time as core writes it in `/statistics` (`2024-03-01T12:00:00.123456789Z`); kept
 * as the exact string, with {@link rfc3339ToDateTime} to read it.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Rfc3339 = matching(
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/,
  "an RFC 3339 time"
)
  .pipe(Schema.brand("Rfc3339"))
  .annotations({
    identifier: "Rfc3339",
    arbitrary: () => (fc) =>
      fc
        .date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2030-01-01T00:00:00Z"), noInvalidDate: true })
        .map((d) => d.toISOString() as Rfc3339)
  })
/**
 * The decoded form of the `Rfc3339` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Rfc3339 = typeof Rfc3339.Type

/**
 * Reads an {@link Rfc3339} time as a `DateTime` (to the millisecond).
 *
 * @since 0.1.0
 * @category Conversions
 */
export const rfc3339ToDateTime = (s: Rfc3339): DateTime.Utc => DateTime.unsafeMake(s)
