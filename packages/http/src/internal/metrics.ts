/**
 * The client's metrics.
 */
import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"

export const requestsTotal = Metric.counter("vega_datanode_requests_total", {
  description: "requests sent to data nodes, by endpoint, node and outcome"
})

export const retriesTotal = Metric.counter("vega_datanode_retries_total", { description: "requests sent again" })

export const rateLimitedTotal = Metric.counter("vega_datanode_rate_limited_total", {
  description: "answers with status 429"
})

export const latency = Metric.histogram(
  "vega_datanode_request_duration_ms",
  MetricBoundaries.exponential({ start: 1, factor: 2, count: 16 }),
  "time to a complete answer"
)

export const streamConnectionsTotal = Metric.counter("vega_datanode_stream_connections_total", {
  description: "live-stream connections subscribed, by route and node"
})

export const streamDisconnectsTotal = Metric.counter("vega_datanode_stream_disconnects_total", {
  description: "live-stream connections ended, by route, node and reason"
})
