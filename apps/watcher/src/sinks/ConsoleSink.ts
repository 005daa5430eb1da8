/**
 * One readable line per event, for a person watching a terminal:
 *
 *     2024-04-01T00:10:00Z  #1234  position.volume_changed  0f1e2d3c…/a1b2c3d4…  openVolume 5 → 3
 *
 * time (whole seconds), block height, kind, key (long hex ids cut to 8 characters), then what
 * changed: for an update the most telling changed fields before → after, for a new row its main
 * fields, for a row that is gone its last ones, and last the event's details in brackets (an
 * amount in the details is followed by the `symbol` they carry). At-least-once, like stdout.
 */
import * as Effect from "effect/Effect"
import type { Json, Row, WatchEvent } from "../Event.js"
import { definitionOf, type ResourceName } from "../Resources.js"
import type { Sink } from "../Sink.js"
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

const fieldsOf = (resource: ResourceName, row: Row): ReadonlyArray<string> => {
  const main = mainFields(resource).filter((name) => name in row)
  return (main.length > 0 ? main : ranked(resource, Object.keys(row))).map((name) => `${name} ${show(row[name])}`)
}

const changesOf = (event: WatchEvent): string => {
  const { before, after, resource } = event
  if (after === null) return before === null ? "" : `was ${limited(fieldsOf(resource, before))}`
  if (before === null) return limited(fieldsOf(resource, after))
  const changed = Object.keys({ ...before, ...after }).filter((name) => !same(before[name], after[name]))
  return limited(
    ranked(resource, changed).map((name) => {
      const [from, to] = [show(before[name]), show(after[name])]
      // long values that differ only past the cut (signatures, say) would read as no change
      return from === to ? `${name} changed` : `${name} ${from} → ${to}`
    })
  )
}

const isAmount = (value: Json): value is string | number =>
  (typeof value === "string" && isNumber(value)) || typeof value === "number"

const detailsOf = (details: WatchEvent["details"]): string => {
  const symbol = typeof details.symbol === "string" ? details.symbol : undefined
  const parts = Object.entries(details)
    .filter(([name]) => !silentDetails.has(name))
    .map(([name, value]) =>
      symbol !== undefined && isAmount(value) && /amount|delta|reward|total|balance|pnl|commitment|stake/i.test(name)
        ? `${name} ${value} ${symbol}`
        : `${name} ${show(value)}`
    )
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
}

/** Colours when `stream` is a terminal and `NO_COLOR` is not set. */
export const colorsFor = (stream: { readonly isTTY?: boolean }): boolean =>
  stream.isTTY === true && (process.env.NO_COLOR ?? "") === ""

/** The line for one event, without the newline. */
export const render = (event: WatchEvent, options: Options): string => {
  const plain = (text: string) => text
  const cells: ReadonlyArray<readonly [string, (text: string) => string]> = [
    [wholeSeconds(event.time), dim],
    [`#${event.height}`, dim],
    [event.kind, toneOf(event.kind)],
    [shortHex(event.key), plain],
    [changesOf(event), plain],
    [detailsOf(event.details), dim]
  ]
  return cells
    .filter(([text]) => text !== "")
    .map(([text, paint]) => (options.colors ? paint(text) : text))
    .join("  ")
}

/** Lines written with `write`; on standard output by default. */
export const make = (options: Options & { readonly write?: Write }): Sink => {
  const write = options.write ?? writeStream(process.stdout, "console")
  return {
    name: "console",
    recover: () => Effect.succeed(0),
    deliver: (events) =>
      events.length === 0 ? Effect.void : write(events.map(({ event }) => render(event, options) + "\n").join(""))
  }
}
