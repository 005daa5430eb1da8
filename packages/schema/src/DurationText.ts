/**
 * Durations as people write them in command lines, environment variables and configuration
 * files: `500ms`, `1s`, `1.5s`, `2m`, `1h`, and Effect's own spelling, `500 millis`, `1 second`,
 * `2 minutes`. Every command and configuration of the toolkit reads durations through this one
 * syntax.
 *
 * A number and a unit, with or without a space between them; the number may have a fraction. The
 * result is exact to the nanosecond (no float rounding): `0.1s` is 100,000,000 ns.
 *
 * | unit         | spellings                                                  |
 * | ------------ | ---------------------------------------------------------- |
 * | nanoseconds  | `ns`, `nano`, `nanos`, `nanosecond(s)`                     |
 * | microseconds | `us`, `µs`, `micro`, `micros`, `microsecond(s)`            |
 * | milliseconds | `ms`, `milli`, `millis`, `millisecond(s)`                  |
 * | seconds      | `s`, `sec`, `secs`, `second(s)`                            |
 * | minutes      | `m`, `min`, `mins`, `minute(s)`                            |
 * | hours        | `h`, `hr`, `hrs`, `hour(s)`                                |
 * | days         | `d`, `day(s)`                                              |
 * | weeks        | `w`, `week(s)`                                             |
 *
 * @since 0.1.0
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

const NANOS_PER: ReadonlyArray<readonly [ReadonlyArray<string>, bigint]> = [
  [["ns", "nano", "nanos", "nanosecond", "nanoseconds"], 1n],
  [["us", "µs", "micro", "micros", "microsecond", "microseconds"], 1_000n],
  [["ms", "milli", "millis", "millisecond", "milliseconds"], 1_000_000n],
  [["s", "sec", "secs", "second", "seconds"], 1_000_000_000n],
  [["m", "min", "mins", "minute", "minutes"], 60_000_000_000n],
  [["h", "hr", "hrs", "hour", "hours"], 3_600_000_000_000n],
  [["d", "day", "days"], 86_400_000_000_000n],
  [["w", "week", "weeks"], 604_800_000_000_000n]
]

const unitNanos: ReadonlyMap<string, bigint> = new Map(
  NANOS_PER.flatMap(([names, nanos]) => names.map((name) => [name, nanos] as const))
)

const shape = /^(\d+)(?:\.(\d+))?\s*([a-zµ]+)$/i

/**
 * What a duration text looks like, for messages.
 *
 * @since 0.1.0
 * @category Constants
 */
export const EXPECTED = 'a duration such as "500ms", "2s", "1.5m", "1h" or "1 second"'

/**
 * Texts in every spelling of the syntax and the durations they name: what any reader of
 * durations in this toolkit accepts (handy to test a command that reads durations).
 *
 * @since 0.1.0
 * @category Constants
 */
export const EXAMPLES: ReadonlyArray<readonly [text: string, duration: Duration.Duration]> = [
  ["1s", Duration.seconds(1)],
  ["500ms", Duration.millis(500)],
  ["2m", Duration.minutes(2)],
  ["1.5s", Duration.millis(1500)],
  ["1 second", Duration.seconds(1)],
  ["500 millis", Duration.millis(500)],
  ["2 minutes", Duration.minutes(2)],
  ["250 ms", Duration.millis(250)],
  ["1h", Duration.hours(1)]
]

/**
 * The duration a text names, or none when it is not a duration (or not a string) or is not a
 * whole number of nanoseconds.
 *
 * @since 0.1.0
 * @category Parsing
 */
export const parse = (text: string): Option.Option<Duration.Duration> => {
  const match = typeof text === "string" ? shape.exec(text.trim()) : null
  if (match === null) return Option.none()
  const [, whole, fraction = "", unit] = match
  const per = unitNanos.get(unit!.toLowerCase()) ?? unitNanos.get(unit!)
  if (per === undefined) return Option.none()
  const scale = 10n ** BigInt(fraction.length)
  const scaled = (BigInt(whole!) * scale + BigInt(fraction === "" ? "0" : fraction)) * per
  if (scaled % scale !== 0n) return Option.none()
  return Option.some(Duration.nanos(scaled / scale))
}

/**
 * The shortest text {@link parse} reads back as the same duration, in the largest unit that
 * keeps it whole: `90 seconds` → `"90s"`, `2 minutes` → `"2m"`, 1.5 ms → `"1500us"`.
 *
 * @since 0.1.0
 * @category Formatting
 */
export const format = (duration: Duration.DurationInput): string => {
  const nanos = Option.getOrElse(Duration.toNanos(Duration.decode(duration)), () => -1n)
  if (nanos < 0n) return "infinity"
  if (nanos === 0n) return "0s"
  const short: ReadonlyArray<readonly [string, bigint]> = [
    ["w", 604_800_000_000_000n],
    ["d", 86_400_000_000_000n],
    ["h", 3_600_000_000_000n],
    ["m", 60_000_000_000n],
    ["s", 1_000_000_000n],
    ["ms", 1_000_000n],
    ["us", 1_000n],
    ["ns", 1n]
  ]
  const [unit, per] = short.find(([, per]) => nanos % per === 0n)!
  return `${nanos / per}${unit}`
}

/**
 * A duration written as text, decoded to a `Duration` (and encoded back with {@link format}).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const DurationFromText: Schema.Schema<Duration.Duration, string> = Schema.transformOrFail(
  Schema.String,
  Schema.DurationFromSelf,
  {
    strict: true,
    decode: (text, _, ast) =>
      Option.match(parse(text), {
        onNone: () => ParseResult.fail(new ParseResult.Type(ast, text, `Expected ${EXPECTED}, actual "${text}"`)),
        onSome: ParseResult.succeed
      }),
    encode: (duration) => ParseResult.succeed(format(duration))
  }
).annotations({ identifier: "DurationFromText" })

/**
 * A positive duration written as text.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const PositiveDurationFromText: Schema.Schema<Duration.Duration, string> = DurationFromText.pipe(
  Schema.filter((d) => Duration.greaterThan(d, Duration.zero) || "Expected a duration greater than zero")
)

/**
 * A duration read from configuration (an environment variable, say) in this syntax.
 *
 * @since 0.1.0
 * @category Config
 */
export const config = (name?: string): Config.Config<Duration.Duration> =>
  Config.mapOrFail(Config.string(name), (text) =>
    Either.fromOption(parse(text), () => ConfigError.InvalidData([], `Expected ${EXPECTED}, actual "${text}"`))
  )
