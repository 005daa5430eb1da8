/**
 * The nodes a client talks to and what it knows of each: the height it last reported
 * (`X-Block-Height`), how fast it answers, and whether it is failing, rate limited or has banned
 * us. Requests go to a node near the best height; a paging run stays on its node while that node
 * stays healthy, and moves only to a node at least as far along.
 */
import * as DataNodeApi from "@vega-effect/schema/DataNodeApi"
import * as Duration from "effect/Duration"
import * as RetryPolicy from "../RetryPolicy.js"
import { DEFAULTS } from "./defaults.js"

/** Nodes slower than `slowFactor` times the fastest plus this many milliseconds are not used. */
export const SLOW_MARGIN_MILLIS = 100

const HEIGHT = DataNodeApi.BlockHeaders.height.toLowerCase()
const TIMESTAMP = DataNodeApi.BlockHeaders.timestamp.toLowerCase()

export interface PoolOptions {
  /** Nodes more than this many blocks behind the best are not used. */
  readonly maxLag: number
  /** Nodes slower than this many times the fastest (plus {@link SLOW_MARGIN_MILLIS}) are not used. */
  readonly slowFactor: number
}

/**
 * What the client knows of one node, readable for metrics.
 */
export interface NodeStatus {
  readonly url: string
  /** Last `X-Block-Height` seen, if any. */
  readonly height: number | undefined
  /** Last `X-Block-Timestamp` seen (unix nanoseconds), if any. */
  readonly blockTimestamp: string | undefined
  /** Smoothed answer time in milliseconds, if any. */
  readonly latencyMillis: number | undefined
  readonly requests: number
  readonly failures: number
  readonly consecutiveFailures: number
  /** Not used before this time (unix ms): failing, rate limited or banned. */
  readonly unavailableUntil: number
  readonly banned: boolean
}

interface NodeState {
  url: string
  height: number | undefined
  blockTimestamp: string | undefined
  latencyMillis: number | undefined
  requests: number
  failures: number
  consecutiveFailures: number
  unavailableUntil: number
  banned: boolean
}

export interface Choice {
  readonly node: string | undefined
  /** When no node can be used now: the first time one can (unix ms). */
  readonly waitUntil: number
}

/** What went wrong with a request to a node. */
export interface Failure {
  /** No answer came (the request was still sent, so it counts as one). */
  readonly unanswered?: boolean
  /** The node banned us. */
  readonly banned?: boolean
  /** How long the node asked us to wait, if it did. */
  readonly restMillis?: number | undefined
}

export class Pool {
  private readonly nodes: Array<NodeState>

  constructor(
    urls: ReadonlyArray<string>,
    private readonly options: PoolOptions
  ) {
    this.nodes = urls.map((url) => ({
      url,
      height: undefined,
      blockTimestamp: undefined,
      latencyMillis: undefined,
      requests: 0,
      failures: 0,
      consecutiveFailures: 0,
      unavailableUntil: 0,
      banned: false
    }))
  }

  get size(): number {
    return this.nodes.length
  }

  /**
   * Picks a node: `pinned` when it is still usable, otherwise the fastest of the nodes near the
   * best height that are at least at `minHeight`.
   */
  choose(now: number, pinned?: string, minHeight?: number): Choice {
    const available = this.nodes.filter((n) => n.unavailableUntil <= now)
    if (available.length === 0) {
      return { node: undefined, waitUntil: Math.min(...this.nodes.map((n) => n.unavailableUntil)) }
    }
    let best = -Infinity
    let fastest = Infinity
    for (const n of available) {
      if (n.height !== undefined) best = Math.max(best, n.height)
      if (n.latencyMillis !== undefined) fastest = Math.min(fastest, n.latencyMillis)
    }
    const eligible = available.filter(
      (n) =>
        (n.height === undefined || n.height >= best - this.options.maxLag) &&
        (n.latencyMillis === undefined || n.latencyMillis <= fastest * this.options.slowFactor + SLOW_MARGIN_MILLIS) &&
        (minHeight === undefined || n.height === undefined || n.height >= minHeight)
    )
    if (eligible.length === 0) {
      // nothing far enough along yet: the freshest available node, which may catch up
      const freshest = [...available].sort((a, b) => (b.height ?? -1) - (a.height ?? -1))[0]
      return { node: freshest.url, waitUntil: now }
    }
    const stay = eligible.find((n) => n.url === pinned)
    if (stay !== undefined) return { node: stay.url, waitUntil: now }
    const ranked = [...eligible].sort(
      (a, b) =>
        a.consecutiveFailures - b.consecutiveFailures ||
        (b.height ?? -1) - (a.height ?? -1) ||
        (a.latencyMillis ?? 0) - (b.latencyMillis ?? 0)
    )
    return { node: ranked[0].url, waitUntil: now }
  }

  private state(url: string): NodeState {
    return this.nodes.find((n) => n.url === url)!
  }

  /** An answer came back (any status): record its time and the node's height. */
  answered(url: string, millis: number, headers: Readonly<Record<string, string>>): void {
    const n = this.state(url)
    n.requests++
    n.latencyMillis = n.latencyMillis === undefined ? millis : n.latencyMillis * 0.8 + millis * 0.2
    const height = Number(headers[HEIGHT])
    if (Number.isFinite(height)) n.height = height
    const timestamp = headers[TIMESTAMP]
    if (timestamp !== undefined) n.blockTimestamp = timestamp
  }

  succeeded(url: string): void {
    const n = this.state(url)
    n.consecutiveFailures = 0
    n.banned = false
  }

  /**
   * A failure: the node rests for `restMillis` when the node said how long, otherwise (when there
   * are other nodes) for the backoff ceiling of its failures in a row.
   */
  failed(url: string, now: number, failure: Failure): void {
    const n = this.state(url)
    n.failures++
    n.consecutiveFailures++
    if (failure.unanswered === true) n.requests++
    const rest =
      failure.restMillis ??
      (this.nodes.length > 1 ? Duration.toMillis(RetryPolicy.ceiling(n.consecutiveFailures - 1, DEFAULTS.rest)) : 0)
    n.unavailableUntil = Math.max(n.unavailableUntil, now + rest)
    if (failure.banned === true) n.banned = true
  }

  height(url: string): number | undefined {
    return this.state(url).height
  }

  status(): ReadonlyArray<NodeStatus> {
    return this.nodes.map((n) => ({ ...n }))
  }
}
