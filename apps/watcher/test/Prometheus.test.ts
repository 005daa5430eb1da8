import { it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"
import * as MetricKey from "effect/MetricKey"
import * as MetricPair from "effect/MetricPair"
import * as MetricState from "effect/MetricState"
import * as Option from "effect/Option"
import { describe, expect } from "vitest"
import * as Prometheus from "../src/Prometheus.js"

/** The registry's metrics whose name starts with `prefix`, rendered. */
const renderPrefixed = (prefix: string) =>
  Effect.map(Metric.snapshot, (pairs) => Prometheus.render(pairs.filter((p) => p.metricKey.name.startsWith(prefix))))

describe("Prometheus.render", () => {
  it.effect("renders a tagged counter under one HELP and TYPE, series sorted by labels", () =>
    Effect.gen(function* () {
      const requests = Metric.counter("t1_requests_total", { description: "requests sent" })
      // tag order does not matter: labels are sorted by name
      yield* Metric.incrementBy(Metric.tagged(Metric.tagged(requests, "outcome", "ok"), "node", "b"), 3)
      yield* Metric.increment(Metric.tagged(Metric.tagged(requests, "node", "a"), "outcome", "ok"))
      yield* Metric.increment(Metric.tagged(Metric.tagged(requests, "outcome", "error"), "node", "a"))
      expect(yield* renderPrefixed("t1_")).toBe(
        [
          "# HELP t1_requests_total requests sent",
          "# TYPE t1_requests_total counter",
          't1_requests_total{node="a",outcome="error"} 1',
          't1_requests_total{node="a",outcome="ok"} 1',
          't1_requests_total{node="b",outcome="ok"} 3',
          ""
        ].join("\n")
      )
    })
  )

  it.effect("renders gauges and bigint counters exactly, families sorted by name", () =>
    Effect.gen(function* () {
      const big = Metric.counter("t2_b_big_total", { bigint: true })
      yield* Metric.incrementBy(big, 2n ** 70n + 1n)
      yield* Metric.set(Metric.gauge("t2_a_depth"), 42.5)
      yield* Metric.set(Metric.gauge("t2_c_negative"), -3)
      expect(yield* renderPrefixed("t2_")).toBe(
        [
          "# TYPE t2_a_depth gauge",
          "t2_a_depth 42.5",
          "# TYPE t2_b_big_total counter",
          "t2_b_big_total 1180591620717411303425",
          "# TYPE t2_c_negative gauge",
          "t2_c_negative -3",
          ""
        ].join("\n")
      )
    })
  )

  it.effect("renders a histogram with cumulative buckets, +Inf, sum and count", () =>
    Effect.gen(function* () {
      const latency = Metric.histogram("t3_latency_ms", MetricBoundaries.fromIterable([1, 5, 10]), "time taken")
      for (const value of [0.5, 3, 4, 7, 100]) yield* Metric.update(Metric.tagged(latency, "node", "n1"), value)
      expect(yield* renderPrefixed("t3_")).toBe(
        [
          "# HELP t3_latency_ms time taken",
          "# TYPE t3_latency_ms histogram",
          't3_latency_ms_bucket{node="n1",le="1"} 1',
          't3_latency_ms_bucket{node="n1",le="5"} 3',
          't3_latency_ms_bucket{node="n1",le="10"} 4',
          't3_latency_ms_bucket{node="n1",le="+Inf"} 5',
          't3_latency_ms_sum{node="n1"} 114.5',
          't3_latency_ms_count{node="n1"} 5',
          ""
        ].join("\n")
      )
    })
  )

  it.effect("renders a frequency as a counter per observed value", () =>
    Effect.gen(function* () {
      const kinds = Metric.frequency("t4_kinds", { description: "kinds seen" })
      for (const kind of ["b.changed", "a.opened", "b.changed"]) yield* Metric.update(kinds, kind)
      expect(yield* renderPrefixed("t4_")).toBe(
        [
          "# HELP t4_kinds kinds seen",
          "# TYPE t4_kinds counter",
          't4_kinds{key="a.opened"} 1',
          't4_kinds{key="b.changed"} 2',
          ""
        ].join("\n")
      )
    })
  )

  it.effect("escapes label values and HELP text, and sanitises names", () =>
    Effect.gen(function* () {
      const odd = Metric.gauge("t5.odd-name", { description: 'a \\ backslash\nand a "quote"' })
      yield* Metric.set(Metric.tagged(odd, "bad-key", 'a\\b"c\nd'), 1)
      yield* Metric.set(Metric.gauge("5t_digit"), 2)
      expect(yield* renderPrefixed("t5.")).toBe(
        [
          '# HELP t5_odd_name a \\\\ backslash\\nand a "quote"',
          "# TYPE t5_odd_name gauge",
          't5_odd_name{bad_key="a\\\\b\\"c\\nd"} 1',
          ""
        ].join("\n")
      )
      expect(yield* renderPrefixed("5t_")).toBe("# TYPE _5t_digit gauge\n_5t_digit 2\n")
    })
  )

  it("renders a summary with its quantiles, a missing quantile as NaN", () => {
    const key = MetricKey.summary({
      name: "t6_size",
      maxAge: Duration.minutes(1),
      maxSize: 100,
      error: 0.01,
      quantiles: [0.5, 0.99],
      description: "sizes"
    }).pipe(MetricKey.tagged("sink", "file"))
    const state = MetricState.summary({
      error: 0.01,
      quantiles: [
        [0.5, Option.some(12)],
        [0.99, Option.none()]
      ],
      count: 3,
      min: 1,
      max: 30,
      sum: 43
    })
    expect(Prometheus.render([MetricPair.unsafeMake(key, state)])).toBe(
      [
        "# HELP t6_size sizes",
        "# TYPE t6_size summary",
        't6_size{sink="file",quantile="0.5"} 12',
        't6_size{sink="file",quantile="0.99"} NaN',
        't6_size_sum{sink="file"} 43',
        't6_size_count{sink="file"} 3',
        ""
      ].join("\n")
    )
  })

  it("keeps one TYPE per name: a second type under the same name gets its own name", () => {
    const counter = MetricPair.unsafeMake(MetricKey.counter("t7_x"), MetricState.counter(1))
    const gauge = MetricPair.unsafeMake(MetricKey.gauge("t7_x"), MetricState.gauge(2))
    expect(Prometheus.render([counter, gauge])).toBe(
      ["# TYPE t7_x counter", "t7_x 1", "# TYPE t7_x_gauge gauge", "t7_x_gauge 2", ""].join("\n")
    )
  })

  it("is the same text whatever the order of the pairs", () => {
    const a = MetricPair.unsafeMake(MetricKey.counter("t8_a").pipe(MetricKey.tagged("k", "2")), MetricState.counter(1))
    const b = MetricPair.unsafeMake(MetricKey.counter("t8_a").pipe(MetricKey.tagged("k", "1")), MetricState.counter(2))
    const c = MetricPair.unsafeMake(MetricKey.gauge("t8_0"), MetricState.gauge(Number.POSITIVE_INFINITY))
    const text = Prometheus.render([a, b, c])
    expect(Prometheus.render([c, b, a])).toBe(text)
    expect(text).toBe(
      ["# TYPE t8_0 gauge", "t8_0 +Inf", "# TYPE t8_a counter", 't8_a{k="1"} 2', 't8_a{k="2"} 1', ""].join("\n")
    )
  })

  it("renders nothing for an empty registry", () => {
    expect(Prometheus.render([])).toBe("")
  })
})
