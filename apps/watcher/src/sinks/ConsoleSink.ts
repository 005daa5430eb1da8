/**
 * One readable line per event, for a person watching a terminal:
 *
 *     2024-04-01T00:10:00Z  #1234  position.volume_changed  0f1e2d3c…/a1b2c3d4…  openVolume 5 → 3
 *
 * time (whole seconds), block height, kind, key (long hex ids cut to 8 characters), then what
 * changed: for an update the most telling changed fields before → after, for a new row its main
 * fields, for a row that is gone its last ones, and last the event's details in brackets.
 * Amounts, prices and volumes are said in human units next to the raw value, with the decimals of
 * their market or asset learned from the node (`averageEntryPrice 38.28052 (3828052)`, `amount
 * 446.446 VEGA (446446000000000000000)`); which decimals scale which field is each definition's
 * `units`. A value whose decimals are not known is said raw. At-least-once, like stdout.
 */
import * as Effect from "effect/Effect"
import type { Decimals, Needed } from "../Decimals.js"
import type { Json, Row, WatchEvent } from "../Event.js"
import { definitionOf, type ResourceName } from "../Resources.js"
import type { Sink } from "../Sink.js"
import * as Units from "../Units.js"
import { type Write, writeStream } from "./JsonLinesSink.js"

/** The fields that say the most about a row, best first: each definition's `mainFields`. */
const mainFields = (resource: ResourceName): ReadonlyArray<string> => definitionOf[resource].mainFields

/** Fields that change along with others and tell little by themselves. */
const incidentalFields = new Set([
  "updatedAt",
  "createdAt",
  "finalizedAt",
  "timestamp",
  "ts",
  "blockTime",
  "blockHeight",
  "logIndex",
  "version",
  "atEpoch"
])

/** Details already said elsewhere on the line. */
const silentDetails = new Set(["symbol", "fields"])

const MAX_FIELDS = 3
const MAX_VALUE = 28

/** Long hex ids cut to their first 8 characters; long decimal numbers (raw amounts) are left whole. */
export const shortHex = (text: string): string =>
  text.replace(/[0-9a-fA-F]{16,}/g, (hex) => (/^\d+$/.test(hex) ? hex : `${hex.slice(0, 8)}…`))

const isNumber = (text: string): boolean => /^[+-]?\d+(\.\d+)?$/.test(text)

const clip = (text: string): string => (text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text)

const show = (value: Json | undefined): string => {
  if (value === undefined || value === null) return "–"
  if (typeof value === "string") return value === "" ? '""' : isNumber(value) ? value : clip(shortHex(value))
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  if (Array.isArray(value)) return `[${value.length}]`
  return clip(shortHex(JSON.stringify(value)))
}

const same = (a: Json | undefined, b: Json | undefined): boolean => JSON.stringify(a) === JSON.stringify(b)

/** How a row's values are said: raw, or in human units next to the raw value where the decimals are known. */
interface Said {
  readonly units: Units.Units
  readonly ids: ReturnType<Units.Units["ids"]>
  readonly scales: Units.Scales
}

const saidFor = (event: WatchEvent, scales: Units.Scales): Said => {
  const units = definitionOf[event.resource].units
  const row = event.after ?? event.before
  return { units, ids: row === null ? {} : units.ids(row), scales }
}

/** A value in human units with the raw one after it, when `unit` and its decimals are known. */
const scaled = (said: Said, unit: Units.Unit | undefined, value: Json | undefined): string | undefined => {
  if (unit === undefined) return undefined
  const human = Units.human(unit, value, said.ids, said.scales)
  return human === undefined ? undefined : `${human} (${String(value)})`
}

const showField = (said: Said, name: string, value: Json | undefined): string =>
  scaled(said, said.units.fields[name], value) ?? show(value)

/** Field names of a row, the main ones first, incidental ones only when nothing else is there. */
const ranked = (resource: ResourceName, names: ReadonlyArray<string>): ReadonlyArray<string> => {
  const main = mainFields(resource).filter((name) => names.includes(name))
  const rest = names.filter((name) => !main.includes(name) && !incidentalFields.has(name))
  const ordered = [...main, ...rest]
  return ordered.length > 0 ? ordered : names
}

const limited = (parts: ReadonlyArray<string>): string =>
  parts.length > MAX_FIELDS
    ? `${parts.slice(0, MAX_FIELDS).join(", ")} +${parts.length - MAX_FIELDS} more`
    : parts.join(", ")

const fieldsOf = (resource: ResourceName, row: Row, said: Said): ReadonlyArray<string> => {
  const main = mainFields(resource).filter((name) => name in row)
  return (main.length > 0 ? main : ranked(resource, Object.keys(row))).map(
    (name) => `${name} ${showField(said, name, row[name])}`
  )
}

const changesOf = (event: WatchEvent, said: Said): string => {
  const { before, after, resource } = event
  if (after === null) return before === null ? "" : `was ${limited(fieldsOf(resource, before, said))}`
  if (before === null) return limited(fieldsOf(resource, after, said))
  const changed = Object.keys({ ...before, ...after }).filter((name) => !same(before[name], after[name]))
  return limited(
    ranked(resource, changed).map((name) => {
      const [from, to] = [showField(said, name, before[name]), showField(said, name, after[name])]
      // long values that differ only past the cut (signatures, say) would read as no change
      return from === to ? `${name} changed` : `${name} ${from} → ${to}`
    })
  )
}

/** Details the diff already scaled (`deltaHuman`, `amountVega`): the name of their raw sibling. */
const prescaled = (name: string): string | undefined => /^(.+)(Human|Vega)$/.exec(name)?.[1]

const detailsOf = (details: WatchEvent["details"], said: Said): string => {
  const symbol = typeof details.symbol === "string" ? details.symbol : undefined
  const items = Object.entries(details).map(([name, value]) => {
    const human = scaled(said, said.units.details[name], value)
    return { name, value, human }
  })
  const scaledNames = new Set(items.filter((d) => d.human !== undefined).map((d) => d.name))
  const parts = items
    // said once: a value scaled here makes the diff's own scaled copy of it redundant
    .filter(({ name }) => !silentDetails.has(name) && !scaledNames.has(prescaled(name) ?? ""))
    .map(({ human, name, value }) => {
      if (human !== undefined) return `${name} ${human}`
      // the diff's scaled copy of an amount is in the units of the `symbol` beside it
      if (symbol !== undefined && /Human$/.test(name) && typeof value === "string") return `${name} ${value} ${symbol}`
      return `${name} ${show(value)}`
    })
  return parts.length === 0 ? "" : `[${parts.join(", ")}]`
}

/** RFC 3339 without the fraction of a second. */
const wholeSeconds = (time: string): string => time.replace(/\.\d+(?=Z$|[+-]\d\d:\d\d$)/, "")

const ansi = (code: string) => (text: string) => `\u001b[${code}m${text}\u001b[0m`
const dim = ansi("2")
const green = ansi("32")
const red = ansi("31")
const yellow = ansi("33")

const toneOf = (kind: string): ((text: string) => string) => {
  const what = kind.slice(kind.indexOf(".") + 1)
  if (/^(opened|added|created|linked|new|joined|received)/.test(what)) return green
  if (/^(closed|removed|gone|deleted|unlinked|left|cancelled|rejected)/.test(what)) return red
  return yellow
}

export interface Options {
  /** ANSI colours; for a terminal only (see `colorsFor`). */
  readonly colors: boolean
  /** The decimals known, to say values in human units; none: every value raw. */
  readonly scales?: Units.Scales | undefined
}

/** Colours when `stream` is a terminal and `NO_COLOR` is not set. */
export const colorsFor = (stream: { readonly isTTY?: boolean }): boolean =>
  stream.isTTY === true && (process.env.NO_COLOR ?? "") === ""

/** The line for one event, without the newline. */
export const render = (event: WatchEvent, options: Options): string => {
  const plain = (text: string) => text
  const said = saidFor(event, options.scales ?? Units.unknown)
  const cells: ReadonlyArray<readonly [string, (text: string) => string]> = [
    [wholeSeconds(event.time), dim],
    [`#${event.height}`, dim],
    [event.kind, toneOf(event.kind)],
    [shortHex(event.key), plain],
    [changesOf(event, said), plain],
    [detailsOf(event.details, said), dim]
  ]
  return cells
    .filter(([text]) => text !== "")
    .map(([text, paint]) => (options.colors ? paint(text) : text))
    .join("  ")
}

/** The markets and assets whose decimals `events` need, and whether stake's. */
export const neededBy = (events: ReadonlyArray<WatchEvent>): Needed => {
  const markets = new Set<string>()
  const assets = new Set<string>()
  let stake = false
  for (const event of events) {
    const { units } = definitionOf[event.resource]
    const used = [...Object.values(units.fields), ...Object.values(units.details)]
    if (used.length === 0) continue
    if (used.includes("stake")) stake = true
    for (const row of [event.before, event.after]) {
      if (row === null) continue
      const { asset, market } = units.ids(row)
      if (market !== undefined) markets.add(market)
      if (asset !== undefined) assets.add(asset)
    }
  }
  return { markets, assets, stake }
}

/**
 * Lines written with `write`; on standard output by default. With `decimals`, values are said in
 * human units as far as the node's markets and assets are known (learning them never fails a delivery).
 */
export const make = (options: Options & { readonly write?: Write; readonly decimals?: Decimals }): Sink => {
  const write = options.write ?? writeStream(process.stdout, "console")
  const { decimals } = options
  return {
    name: "console",
    recover: () => Effect.succeed(0),
    deliver: (pending) =>
      Effect.gen(function* () {
        if (pending.length === 0) return
        const events = pending.map(({ event }) => event)
        const scales = decimals === undefined ? options.scales : yield* decimals.scalesFor(neededBy(events))
        yield* write(events.map((event) => render(event, { ...options, scales }) + "\n").join(""))
      })
  }
}
