/**
 * Effect's metric registry in the Prometheus text exposition format (version 0.0.4), as served on
 * `/metrics`.
 *
 * Metric names become valid Prometheus names, tags become labels, and series of one name are
 * grouped under a single `# HELP` / `# TYPE` header. The output is sorted (by name, then labels)
 * so two renderings of the same registry are byte-identical.
 */
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import type * as MetricKey from "effect/MetricKey"
import type * as MetricPair from "effect/MetricPair"
import * as MetricState from "effect/MetricState"
import * as Option from "effect/Option"

/** The `Content-Type` of the rendering. */
export const contentType = "text/plain; version=0.0.4; charset=utf-8"

type MetricType = "counter" | "gauge" | "histogram" | "summary"

type Label = readonly [name: string, value: string]

/** One line of a family: `<name><suffix>{<labels>} <value>`. */
interface Sample {
  readonly suffix: string
  readonly labels: ReadonlyArray<Label>
  readonly value: string
}

/** The samples of one metric key (one set of tags), sorted among its family by `order`. */
interface Series {
  readonly order: string
  readonly samples: ReadonlyArray<Sample>
}

interface Family {
  readonly name: string
  readonly type: MetricType
  help: string | undefined
  readonly series: Array<Series>
}

/** A valid metric name: `[a-zA-Z_:][a-zA-Z0-9_:]*`, anything else replaced by `_`. */
export const sanitizeName = (name: string): string => {
  const replaced = name.replace(/[^a-zA-Z0-9_:]/g, "_")
  return replaced === "" || /^[0-9]/.test(replaced) ? `_${replaced}` : replaced
}

/** A valid label name: `[a-zA-Z_][a-zA-Z0-9_]*` (no colons, unlike metric names). */
export const sanitizeLabelName = (name: string): string => {
  const replaced = name.replace(/[^a-zA-Z0-9_]/g, "_")
  return replaced === "" || /^[0-9]/.test(replaced) ? `_${replaced}` : replaced
}

/** Label values escape backslash, double quote and line feed. */
export const escapeLabelValue = (value: string): string =>
  value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")

/** HELP text escapes backslash and line feed (quotes stay as they are). */
const escapeHelp = (text: string): string => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")

/** A sample value: bigints exactly, floats in Go's spelling of the special values. */
export const formatValue = (value: number | bigint): string => {
  if (typeof value === "bigint") return value.toString()
  if (Number.isNaN(value)) return "NaN"
  if (value === Number.POSITIVE_INFINITY) return "+Inf"
  if (value === Number.NEGATIVE_INFINITY) return "-Inf"
  return String(value)
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** The key's tags as labels: names sanitised, the last of a repeated name wins, sorted by name. */
const tagLabels = (key: MetricKey.MetricKey.Untyped, reserved: ReadonlyArray<string>): Array<Label> => {
  const byName = new Map<string, string>()
  for (const tag of key.tags) {
    const name = sanitizeLabelName(tag.key)
    if (!reserved.includes(name)) byName.set(name, tag.value)
  }
  return Array.from(byName.entries()).sort(([a], [b]) => compareText(a, b))
}

const renderLabels = (labels: ReadonlyArray<Label>): string =>
  labels.length === 0 ? "" : `{${labels.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(",")}}`

const single = (labels: ReadonlyArray<Label>, value: number | bigint): Series => ({
  order: renderLabels(labels),
  samples: [{ suffix: "", labels, value: formatValue(value) }]
})

/** The series a metric contributes to its family, and the family's type. */
const seriesOf = (pair: MetricPair.MetricPair.Untyped): { type: MetricType; series: ReadonlyArray<Series> } => {
  const state = pair.metricState
  if (MetricState.isCounterState(state)) {
    return { type: "counter", series: [single(tagLabels(pair.metricKey, []), state.count)] }
  }
  if (MetricState.isGaugeState(state)) {
    return { type: "gauge", series: [single(tagLabels(pair.metricKey, []), state.value)] }
  }
  if (MetricState.isFrequencyState(state)) {
    // one counter series per observed value, the value in a `key` label
    const labels = tagLabels(pair.metricKey, ["key"])
    const series = Array.from(state.occurrences.entries()).map(([value, count]) =>
      single(
        [...labels, ["key", value] as const].sort(([a], [b]) => compareText(a, b)),
        count
      )
    )
    return { type: "counter", series }
  }
  if (MetricState.isHistogramState(state)) {
    const labels = tagLabels(pair.metricKey, ["le"])
    const buckets: Array<Sample> = state.buckets
      .filter(([boundary]) => Number.isFinite(boundary))
      .map(([boundary, cumulative]) => ({
        suffix: "_bucket",
        labels: [...labels, ["le", formatValue(boundary)]],
        value: formatValue(cumulative)
      }))
    const samples: Array<Sample> = [
      ...buckets,
      { suffix: "_bucket", labels: [...labels, ["le", "+Inf"]], value: formatValue(state.count) },
      { suffix: "_sum", labels, value: formatValue(state.sum) },
      { suffix: "_count", labels, value: formatValue(state.count) }
    ]
    return { type: "histogram", series: [{ order: renderLabels(labels), samples }] }
  }
  if (MetricState.isSummaryState(state)) {
    const labels = tagLabels(pair.metricKey, ["quantile"])
    const samples: Array<Sample> = [
      ...state.quantiles.map(([quantile, value]): Sample => ({
        suffix: "",
        labels: [...labels, ["quantile", formatValue(quantile)]],
        value: formatValue(Option.getOrElse(value, () => Number.NaN))
      })),
      { suffix: "_sum", labels, value: formatValue(state.sum) },
      { suffix: "_count", labels, value: formatValue(state.count) }
    ]
    return { type: "summary", series: [{ order: renderLabels(labels), samples }] }
  }
  return { type: "gauge", series: [] }
}

/** Renders metric pairs (a `Metric.snapshot`) as Prometheus text; empty input renders as "". */
export const render = (pairs: ReadonlyArray<MetricPair.MetricPair.Untyped>): string => {
  const families = new Map<string, Family>()
  for (const pair of pairs) {
    const { series, type } = seriesOf(pair)
    const base = sanitizeName(pair.metricKey.name)
    // two metric types cannot share a name in one exposition: the later type gets its own name
    const existing = families.get(base)
    const name = existing === undefined || existing.type === type ? base : `${base}_${type}`
    const family = families.get(name) ?? { name, type, help: undefined, series: [] }
    families.set(name, family)
    if (family.help === undefined && Option.isSome(pair.metricKey.description)) {
      family.help = pair.metricKey.description.value
    }
    family.series.push(...series)
  }
  const lines: Array<string> = []
  for (const family of Array.from(families.values()).sort((a, b) => compareText(a.name, b.name))) {
    if (family.help !== undefined) lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`)
    lines.push(`# TYPE ${family.name} ${family.type}`)
    for (const series of [...family.series].sort((a, b) => compareText(a.order, b.order))) {
      for (const sample of series.samples) {
        lines.push(`${family.name}${sample.suffix}${renderLabels(sample.labels)} ${sample.value}`)
      }
    }
  }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`
}

/** The whole registry, rendered now. */
export const scrape: Effect.Effect<string> = Effect.map(Metric.snapshot, render)
