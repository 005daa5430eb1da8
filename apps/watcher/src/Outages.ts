/**
 * A node that does not answer, said for the node as a whole: one line per step of a backoff of
 * its own, whatever its streams and reads do meanwhile. Each stream and read retries on its own
 * schedule (the streams on a jittered backoff each); told each failure, this says the first after
 * a moment (so that the streams ending together are one line), then at most one line 1 s, 2 s,
 * 4 s ... up to a minute apart, each with what was tried since the line before and when the next
 * try is; and, once something of the node answers again, that it is back. A failure lasting less
 * than the first moment is said in its one line all the same.
 *
 * The words of each failure are `FailureText`'s (`@vega-effect/http`), as the reward report says
 * the same failure.
 */
import { FailureText } from "@vega-effect/http"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberMap from "effect/FiberMap"
import * as Schedule from "effect/Schedule"
import * as ScheduleDecision from "effect/ScheduleDecision"
import * as ScheduleIntervals from "effect/ScheduleIntervals"
import type * as Scope from "effect/Scope"

/** A failure of something that asks the node: a stream of it, or a read. */
export interface Failure {
  readonly node: string
  /** A stream's name (`bus`, `positions`), or what a read was for (`reconciling stake:3`). */
  readonly what: string
  readonly kind: "stream" | "read"
  /** The failure in words, naming the node (`FailureText`). */
  readonly cause: string
  /** When it is tried again, if it is. */
  readonly retryIn?: Duration.DurationInput | undefined
}

/**
 * The node of a failure that says the node did not answer (no connection, no answer in time, the
 * node or its proxy unavailable); none for the others, which are the node's answers.
 */
export const unanswered = (error: unknown): string | undefined =>
  FailureText.isDataNodeError(error) &&
  (error._tag === "TransportError" || error._tag === "TimeoutError" || error._tag === "UnavailableError")
    ? error.node
    : undefined

export interface Outages {
  /** Something of the node failed. */
  readonly failed: (failure: Failure) => Effect.Effect<void>
  /**
   * A read failed (`what`: what it was for): said with the node's other failures when the node did
   * not answer (see {@link unanswered}), else in a line of its own, as `FailureText.logWarning`.
   */
  readonly readFailed: (what: string, error: unknown, retryIn?: Duration.DurationInput) => Effect.Effect<void>
  /** Something of the node answered (a stream connected): it is back, if it was out. */
  readonly answered: (node: string) => Effect.Effect<void>
}

/** How long the first line waits for the failures that come with the first. */
export const GATHER = Duration.millis(250)
/** The steps between lines: from 1 s, doubling, up to a minute. */
export const FIRST_STEP = Duration.seconds(1)
export const LAST_STEP = Duration.minutes(1)

/** An outage of one node: what failed since the last line, and when each is tried again. */
interface Outage {
  readonly since: number
  cause: string
  lines: number
  /** The streams that failed since the last line, in the order they first failed in this outage. */
  readonly streams: Set<string>
  readonly order: Array<string>
  readonly reads: Set<string>
  /** Per stream or read, when it is tried next (epoch millis). */
  readonly nextTries: Map<string, number>
}

/** "a, b and c". */
const listed = (names: ReadonlyArray<string>): string =>
  names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`

/** What was tried since the last line: "the bus and positions streams and 2 reads". */
const triedOf = (outage: Outage): string => {
  const streams = outage.order.filter((name) => outage.streams.has(name))
  const parts = [
    ...(streams.length === 0 ? [] : [`the ${listed(streams)} stream${streams.length === 1 ? "" : "s"}`]),
    ...(outage.reads.size === 0 ? [] : [outage.reads.size === 1 ? [...outage.reads][0] : `${outage.reads.size} reads`])
  ]
  return listed(parts)
}

/** `; next try in 2s` for the soonest try still to come; `; trying again` while the last ones are under way. */
const nextOf = (outage: Outage, now: number): string => {
  const soonest = Math.min(...[...outage.nextTries.values()].filter((at) => at >= now))
  if (Number.isFinite(soonest)) return FailureText.nextTry(Duration.millis(soonest - now))
  return outage.nextTries.size > 0 ? "; trying again" : ""
}

/** How long the node has been out, in whole seconds. */
const elapsed = (outage: Outage, now: number): string =>
  FailureText.formatWait(Duration.seconds(Math.round((now - outage.since) / 1000)))

/** The line of a step, and what it covered forgotten; nothing when nothing was tried since the last. */
const line = (outage: Outage, now: number): Effect.Effect<void> => {
  if (outage.streams.size === 0 && outage.reads.size === 0) return Effect.void
  const tried = triedOf(outage)
  const text =
    outage.lines === 0
      ? `${outage.cause}: ${tried} failed${nextOf(outage, now)}` +
        (outage.streams.size > 0 ? "; what the streams carry is read again once it is back" : "")
      : `${outage.cause}, for ${elapsed(outage, now)}: ${tried} tried again${nextOf(outage, now)}`
  outage.lines++
  outage.streams.clear()
  outage.reads.clear()
  return Effect.logWarning(text)
}

/** The lines of an outage: after the first moment, then a step apart, each step twice the last. */
const report = (outage: Outage) =>
  Effect.gen(function* () {
    yield* Effect.sleep(GATHER)
    yield* line(outage, yield* Clock.currentTimeMillis)
    let step = FIRST_STEP
    for (;;) {
      yield* Effect.sleep(step)
      yield* line(outage, yield* Clock.currentTimeMillis)
      step = Duration.min(Duration.times(step, 2), LAST_STEP)
    }
  })

/**
 * The retry `schedule`, each failure it is given told to `outages` as a read of `what`, with the
 * wait the schedule chose (as `FailureText.logRetries` logs it, but for the node as a whole).
 */
export const retrying = <Out, E, R>(
  outages: Outages,
  what: string,
  schedule: Schedule.Schedule<Out, E, R>
): Schedule.Schedule<Out, E, R> =>
  Schedule.makeWithState(schedule.initial, (now, input: E, state) =>
    Effect.tap(schedule.step(now, input, state), ([, , decision]) =>
      outages.readFailed(
        what,
        input,
        ScheduleDecision.isContinue(decision)
          ? Duration.millis(Math.max(0, ScheduleIntervals.start(decision.intervals) - now))
          : undefined
      )
    )
  )

/** The outages of the nodes, said as above; their reporters end with the scope. */
export const make: Effect.Effect<Outages, never, Scope.Scope> = Effect.gen(function* () {
  const outages = new Map<string, Outage>()
  const reporters = yield* FiberMap.make<string>()

  const failed = (failure: Failure) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      let outage = outages.get(failure.node)
      const opened = outage === undefined
      if (outage === undefined) {
        outage = {
          since: now,
          cause: "",
          lines: 0,
          streams: new Set(),
          order: [],
          reads: new Set(),
          nextTries: new Map()
        }
        outages.set(failure.node, outage)
      }
      outage.cause = failure.cause
      if (failure.kind === "read") outage.reads.add(failure.what)
      else {
        outage.streams.add(failure.what)
        if (!outage.order.includes(failure.what)) outage.order.push(failure.what)
      }
      if (failure.retryIn !== undefined) {
        outage.nextTries.set(failure.what, now + Duration.toMillis(Duration.decode(failure.retryIn)))
      }
      if (opened) yield* FiberMap.run(reporters, failure.node, report(outage))
    })

  const answered = (node: string) =>
    Effect.gen(function* () {
      const outage = outages.get(node)
      if (outage === undefined) return
      outages.delete(node)
      yield* FiberMap.remove(reporters, node)
      const now = yield* Clock.currentTimeMillis
      // out for less than the first moment: its one line all the same
      if (outage.lines === 0) return yield* line(outage, now)
      yield* Effect.logInfo(`${node} answers again, after ${elapsed(outage, now)}`)
    })

  const readFailed = (what: string, error: unknown, retryIn?: Duration.DurationInput) => {
    const node = unanswered(error)
    if (node === undefined) return FailureText.logWarning(`${what} failed`, error, retryIn)
    return Effect.zipRight(
      failed({ node, what, kind: "read", cause: FailureText.ofUnknown(error), retryIn }),
      Effect.logDebug(`${what} failed: the whole cause`, error)
    )
  }

  return { failed, answered, readFailed } satisfies Outages
})
