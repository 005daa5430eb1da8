/**
 * The watcher's own metrics, served on `/metrics` next to the data-node client's
 * (`vega_datanode_requests_total`, `vega_datanode_retries_total`, `vega_datanode_rate_limited_total`...).
 *
 * Tagged metrics are tagged where they are updated, with the tag named in their comment, e.g.
 * `Metric.increment(Metric.tagged(Metrics.cyclesTotal, "outcome", "ok"))`.
 */
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"

/** Time a poll cycle takes, read to commit, in milliseconds: 10 ms to about 20 s, then +Inf. */
export const cycleDuration = Metric.histogram(
  "vega_watcher_cycle_duration_ms",
  MetricBoundaries.exponential({ start: 10, factor: 2, count: 13 }),
  "time a poll cycle takes, from the first read to the commit, in milliseconds"
)

/** Poll cycles run; tag `outcome` (`ok`, `failed`...). */
export const cyclesTotal = Metric.counter("vega_watcher_cycles_total", {
  description: "poll cycles run, by outcome",
  incremental: true
})

/** Events found and stored in the outbox; tag `kind` (`position.opened`...). */
export const eventsTotal = Metric.counter("vega_watcher_events_total", {
  description: "events found and stored in the outbox, by kind",
  incremental: true
})

/** Events in the outbox a sink has not delivered yet; tag `sink`. */
export const outboxDepth = Metric.gauge("vega_watcher_outbox_depth", {
  description: "events waiting for delivery, by sink"
})

/** Block height each data node last reported; tag `node`. */
export const nodeHeight = Metric.gauge("vega_watcher_node_height", {
  description: "block height each data node last reported"
})

/** Blocks a node is behind the highest node; tag `node`. */
export const nodeLag = Metric.gauge("vega_watcher_node_lag_blocks", {
  description: "blocks each data node is behind the most advanced one"
})

/**
 * What a read or a live source showed of a block older than its slice's checkpoint, refused (a
 * node behind the state, or a live change that came after its slice moved past its block); tags
 * `resource`, `origin` (`read`, `live`).
 */
export const refusedTotal = Metric.counter("vega_watcher_refused_total", {
  description: "reads and live changes refused as older than their slice's checkpoint, by resource and origin",
  incremental: true
})

/** Block height the last committed cycle read at. */
export const lastCycleHeight = Metric.gauge("vega_watcher_last_cycle_height", {
  description: "block height the last committed cycle read at"
})

/** Cycles not run or not committed; tag `reason` (`stale-node`, `no-new-block`...). */
export const skippedCyclesTotal = Metric.counter("vega_watcher_skipped_cycles_total", {
  description: "poll cycles skipped, by reason",
  incremental: true
})

/** Delivery attempts (requests sent); tag `sink`. */
export const sinkAttemptsTotal = Metric.counter("vega_watcher_sink_attempts_total", {
  description: "delivery attempts, by sink",
  incremental: true
})

/** Attempts that failed and will be retried; tags `sink`, `reason` (`network`, `timeout`, `http_503`...). */
export const sinkFailuresTotal = Metric.counter("vega_watcher_sink_failures_total", {
  description: "failed delivery attempts that are retried, by sink and reason",
  incremental: true
})

/** Retries that waited what the receiver's `Retry-After` asked; tag `sink`. */
export const sinkRetryAfterTotal = Metric.counter("vega_watcher_sink_retry_after_total", {
  description: "retries timed by the receiver's Retry-After, by sink",
  incremental: true
})

/** Events the receiver refused for good and that were skipped; tags `sink`, `status`. */
export const sinkRejectedTotal = Metric.counter("vega_watcher_sink_rejected_total", {
  description: "events refused by the receiver (4xx) and skipped, by sink and status",
  incremental: true
})

/** Slices this watcher holds the lease of (resource shards and sink deliveries). */
export const slicesHeld = Metric.gauge("vega_watcher_slices_held", {
  description: "slices this watcher holds the lease of"
})

/** 1 for each slice this watcher holds, 0 for one it held before; tag `slice` (`positions:3`, `sink:file`...). */
export const sliceHeld = Metric.gauge("vega_watcher_slice_held", {
  description: "1 while this watcher holds the slice's lease"
})

/** Watchers sharing the state, this one included, as last seen. */
export const members = Metric.gauge("vega_watcher_members", {
  description: "watchers sharing the state, as last seen"
})

/** Slices taken over from a watcher whose lease expired (or whose process on this host is gone). */
export const leaseTakeoversTotal = Metric.counter("vega_watcher_lease_takeovers_total", {
  description: "slices taken over from a watcher that was gone",
  incremental: true
})

/** Slices this watcher lost to another (its lease expired before it renewed it). */
export const leaseLostTotal = Metric.counter("vega_watcher_lease_lost_total", {
  description: "slices whose lease this watcher lost to another",
  incremental: true
})

/** Slices this watcher gave up so that a watcher that joined gets its share. */
export const leaseReleasedTotal = Metric.counter("vega_watcher_lease_released_total", {
  description: "slices given up to rebalance",
  incremental: true
})

/** Changes found only by reading a resource again, not by its live source; tag `resource`. What the streams missed. */
export const reconciledTotal = Metric.counter("vega_watcher_reconciled_total", {
  description: "events found by reconciliation rather than by a live source",
  incremental: true
})

/** Events found from live sources (whole rows and the reads their hints asked for); tag `resource`. */
export const liveEventsTotal = Metric.counter("vega_watcher_live_events_total", {
  description: "events found from live sources",
  incremental: true
})

/** Live streams that ended; tags `source` (`bus`, `positions`, `liquidity`) and `reason`. */
export const streamDisconnectsTotal = Metric.counter("vega_watcher_stream_disconnects_total", {
  description: "live streams that ended, by source and reason",
  incremental: true
})

/** The process's resident memory in bytes, as of the last `/metrics` read (the usual exporters' name). */
export const residentMemory = Metric.gauge("process_resident_memory_bytes", {
  description: "resident memory of the process, in bytes"
})

/** V8 heap in use, in bytes, as of the last `/metrics` read. */
export const heapUsed = Metric.gauge("nodejs_heap_size_used_bytes", {
  description: "V8 heap in use, in bytes"
})

/** V8 heap reserved, in bytes, as of the last `/metrics` read. */
export const heapTotal = Metric.gauge("nodejs_heap_size_total_bytes", {
  description: "V8 heap reserved, in bytes"
})

/** Sets the memory gauges to what the process holds now. */
export const sampleMemory: Effect.Effect<void> = Effect.suspend(() => {
  const memory = process.memoryUsage()
  return Effect.all(
    [
      Metric.set(residentMemory, memory.rss),
      Metric.set(heapUsed, memory.heapUsed),
      Metric.set(heapTotal, memory.heapTotal)
    ],
    { discard: true }
  )
})
