/**
 * Where answers came from: the node, and the block height and time it reported
 * (`X-Block-Height`, `X-Block-Timestamp`) with each successful answer.
 *
 * Wrap any reads (one query, a whole stream, several of them in parallel) in {@link track} and
 * get back, with their result, the lowest and highest height they were answered at and the nodes
 * that answered. A watcher stamps its findings with this, and refuses a snapshot older than one it
 * already holds.
 *
 * @since 0.1.0
 */
import * as DataNodeApi from "@vega-effect/schema/DataNodeApi"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"

const HEIGHT = DataNodeApi.BlockHeaders.height.toLowerCase()
const TIMESTAMP = DataNodeApi.BlockHeaders.timestamp.toLowerCase()

/**
 * One successful answer: the node it came from and the block it reported.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ReadAt {
  readonly node: string
  readonly height: number
  /** Unix nanoseconds, as the node sent it. */
  readonly blockTimestamp: string | undefined
}

/**
 * What a tracked piece of work read: `lowest` and `highest` are undefined when no answer carried
 * a height (nothing was read, or the node sent no headers).
 *
 * @since 0.1.0
 * @category Models
 */
export interface Reads {
  readonly answers: number
  readonly lowest: ReadAt | undefined
  readonly highest: ReadAt | undefined
  readonly nodes: ReadonlyArray<string>
}

class Log {
  answers = 0
  lowest: ReadAt | undefined
  highest: ReadAt | undefined
  readonly nodes = new Set<string>()

  record(read: ReadAt): void {
    this.answers++
    this.nodes.add(read.node)
    if (this.lowest === undefined || read.height < this.lowest.height) this.lowest = read
    if (this.highest === undefined || read.height > this.highest.height) this.highest = read
  }

  snapshot(): Reads {
    return { answers: this.answers, lowest: this.lowest, highest: this.highest, nodes: [...this.nodes] }
  }
}

// Forked fibers (prefetching streams, parallel reads) inherit the reference to the same logs.
const currentLogs = FiberRef.unsafeMake<ReadonlyArray<Log>>([])

/**
 * Records one successful answer in every enclosing {@link track}. Called by the client.
 *
 * @since 0.1.0
 * @category Internal
 */
export const record = (node: string, headers: Readonly<Record<string, string>>): Effect.Effect<void> =>
  Effect.map(FiberRef.get(currentLogs), (logs) => {
    if (logs.length === 0) return
    const height = Number(headers[HEIGHT])
    if (!Number.isSafeInteger(height)) return
    const read: ReadAt = { node, height, blockTimestamp: headers[TIMESTAMP] }
    for (const log of logs) log.record(read)
  })

/**
 * Runs `self` and returns its result with what it read. Tracks nest: an answer counts in every
 * enclosing track.
 *
 * @since 0.1.0
 * @category Combinators
 */
export const track = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<readonly [A, Reads], E, R> =>
  Effect.suspend(() => {
    const log = new Log()
    return Effect.locallyWith(self, currentLogs, (logs) => [...logs, log]).pipe(
      Effect.map((a) => [a, log.snapshot()] as const)
    )
  })

/**
 * The block time of a read as a `Date`, when the node sent one.
 *
 * @since 0.1.0
 * @category Accessors
 */
export const blockTime = (read: ReadAt): Option.Option<Date> =>
  read.blockTimestamp === undefined || !/^\d+$/.test(read.blockTimestamp)
    ? Option.none()
    : Option.some(new Date(Number(BigInt(read.blockTimestamp) / 1_000_000n)))
