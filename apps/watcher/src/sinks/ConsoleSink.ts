/**
 * One readable line per event, for a person watching a terminal:
 *
 *     2024-04-01T00:10:00Z  #1234  position.volume_changed  0f1e2d3c…/a1b2c3d4…  openVolume 5 → 3
 *
 * time (whole seconds), block height, kind, key (long hex ids cut to 8 characters), then what
 * changed: for an update the most telling changed fields before → after, for a new row its main
 * fields, for a row that is gone its last ones, and last the event's details in brackets, but for
 * those the line already says (a volume's `from` and `to`, a linking's amount): each value once.
 * A field holding an object (a liquidity provision's `current` and `pending` versions) is said by
 * its own fields, its changed ones for an update (`current.status A → B`), not as JSON.
 * Amounts, prices and volumes are said in human units with the raw value in brackets, once, with
 * the decimals of their market or asset learned from the node (`averageEntryPrice 38.28052
 * (3828052)`, `amount 446.446 VEGA (446446000000000000000)`); which decimals scale which field is
 * each definition's `units`. A value whose decimals are not known is said raw. At-least-once, like
 * stdout.
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

type JsonObject = { readonly [key: string]: Json }

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * An object's fields worth a line, plain values first: not its ids (the key and the details say
 * them), nor incidental ones, nor empty lists.
 */
const innerFields = (object: JsonObject): ReadonlyArray<string> => {
  const names = Object.keys(object).filter(
    (name) =>
      !incidentalFields.has(name) &&
      !/^(id|reference)$|Id$/.test(name) &&
      !(Array.isArray(object[name]) && (object[name] as ReadonlyArray<Json>).length === 0)
  )
  const plain = (name: string) => typeof object[name] !== "object" || object[name] === null
  return [...names.filter(plain), ...names.filter((name) => !plain(name))]
}

const same = (a: Json | undefined, b: Json | undefined): boolean => JSON.stringify(a) === JSON.stringify(b)

const limited = (parts: ReadonlyArray<string>): string =>
  parts.length > MAX_FIELDS
    ? `${parts.slice(0, MAX_FIELDS).join(", ")} +${parts.length - MAX_FIELDS} more`
    : parts.join(", ")

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

/** A field's value: scaled where its unit is known, an object by its fields (`name.field` for their units). */
const showField = (said: Said, name: string, value: Json | undefined): string => {
  if (isObject(value)) {
    return `{${limited(innerFields(value).map((field) => `${field} ${showField(said, `${name}.${field}`, value[field])}`))}}`
  }
  return scaled(said, said.units.fields[name], value) ?? show(value)
}

/** Field names of a row, the main ones first, incidental ones only when nothing else is there. */
const ranked = (resource: ResourceName, names: ReadonlyArray<string>): ReadonlyArray<string> => {
  const main = mainFields(resource).filter((name) => names.includes(name))
  const rest = names.filter((name) => !main.includes(name) && !incidentalFields.has(name))
  const ordered = [...main, ...rest]
  return ordered.length > 0 ? ordered : names
}

/** The fields a new or gone row is said by: its main ones, else the others ranked. */
const shownOf = (resource: ResourceName, row: Row): ReadonlyArray<readonly [string, Json | undefined]> => {
  const main = mainFields(resource).filter((name) => name in row)
  return (main.length > 0 ? main : ranked(resource, Object.keys(row))).map((name) => [name, row[name]] as const)
}

/** A field's value as the line says it, or its object's fields' values (those it shows). */
const saidValues = (said: Said, name: string, value: Json | undefined): ReadonlyArray<string> =>
  isObject(value)
    ? innerFields(value)
        .slice(0, MAX_FIELDS)
        .map((field) => showField(said, `${name}.${field}`, value[field]))
    : [showField(said, name, value)]

const fieldsOf = (resource: ResourceName, row: Row, said: Said): ReadonlyArray<string> =>
  shownOf(resource, row).map(([name, value]) => `${name} ${showField(said, name, value)}`)

/** The fields of an update that changed: an object's own changed fields (`current.status`) when both sides are objects. */
const changedFields = (resource: ResourceName, before: Row, after: Row) =>
  ranked(
    resource,
    Object.keys({ ...before, ...after }).filter((name) => !same(before[name], after[name]))
  ).flatMap((name) => {
    const [from, to] = [before[name], after[name]]
    if (!isObject(from) || !isObject(to)) return [{ name, from, to }]
    const fields = innerFields({ ...from, ...to }).filter((field) => !same(from[field], to[field]))
    return fields.map((field) => ({ name: `${name}.${field}`, from: from[field], to: to[field] }))
  })

/** What changed, and every value it says, as it says them (the details say no value twice). */
const changesOf = (event: WatchEvent, said: Said): { readonly text: string; readonly values: ReadonlySet<string> } => {
  const { before, after, resource } = event
  if (after === null || before === null) {
    const row = after ?? before
    if (row === null) return { text: "", values: new Set() }
    const values = new Set(shownOf(resource, row).flatMap(([name, value]) => saidValues(said, name, value)))
    const fields = limited(fieldsOf(resource, row, said))
    return { text: after === null ? `was ${fields}` : fields, values }
  }
  const changed = changedFields(resource, before, after)
  const parts = changed.map(({ from, name, to }) => {
    const [said1, said2] = [showField(said, name, from), showField(said, name, to)]
    // long values that differ only past the cut (signatures, say) would read as no change
    return said1 === said2 ? `${name} changed` : `${name} ${said1} → ${said2}`
  })
  const values = new Set(
    changed.flatMap(({ from, name, to }) => [...saidValues(said, name, from), ...saidValues(said, name, to)])
  )
  return { text: limited(parts), values }
}

/** Details the diff already scaled (`deltaHuman`, `amountVega`): the name of their raw sibling. */
const prescaled = (name: string): string | undefined => /^(.+)(Human|Vega)$/.exec(name)?.[1]

/**
 * The details the line does not say yet, each once: in human units with the raw value in brackets,
 * scaled here or by the diff (`deltaHuman` with the `symbol` beside it, `amountVega`), whose own
 * scaled copy is then not said again.
 */
const detailsOf = (details: WatchEvent["details"], said: Said, already: ReadonlySet<string>): string => {
  const symbol = typeof details.symbol === "string" ? details.symbol : undefined
  const copyOf = (name: string): string | undefined => {
    const human = details[`${name}Human`] ?? details[`${name}Vega`]
    if (typeof human !== "string") return undefined
    return `${human} ${details[`${name}Vega`] !== undefined ? "VEGA" : (symbol ?? "")}`.trimEnd()
  }
  const parts = Object.entries(details).flatMap(([name, value]) => {
    const raw = prescaled(name)
    // a scaled copy goes with its raw value, said once
    if (silentDetails.has(name) || (raw !== undefined && raw in details)) return []
    const human =
      scaled(said, said.units.details[name], value) ?? mapDefined(copyOf(name), (copy) => `${copy} (${show(value)})`)
    const text = human ?? show(value)
    // a value the line already says, as it says it (a volume's `from` and `to`); counts and lists are not compared
    return (typeof value === "string" || typeof value === "number") && already.has(text) ? [] : [`${name} ${text}`]
  })
  return parts.length === 0 ? "" : `[${parts.join(", ")}]`
}

const mapDefined = <A, B>(value: A | undefined, f: (a: A) => B): B | undefined =>
  value === undefined ? undefined : f(value)

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
  const changes = changesOf(event, said)
  const cells: ReadonlyArray<readonly [string, (text: string) => string]> = [
    [wholeSeconds(event.time), dim],
    [`#${event.height}`, dim],
    [event.kind, toneOf(event.kind)],
    [shortHex(event.key), plain],
    [changes.text, plain],
    [detailsOf(event.details, said, changes.values), dim]
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
