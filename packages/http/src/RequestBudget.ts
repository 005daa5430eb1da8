/**
 * A share of the node's request rate for a piece of work: requests made within a budget wait for
 * its token bucket as well as for the node's, so background work (a reconciliation that reads a
 * whole resource, say) never takes more than its share and leaves the rest of the node's limit to
 * urgent reads. At the node's pacer they also give way: a request made outside every budget goes
 * before those of budgeted work already waiting there.
 *
 * Like {@link ReadTracking}, a budget travels with the fibers of the work it wraps (parallel reads
 * and prefetching streams included), and the wait happens before a request's time limit starts.
 *
 * @since 0.1.0
 */
import * as Input from "@vega-effect/schema/Input"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Stream from "effect/Stream"
import { makeTokenBucket } from "./internal/pacer.js"

/**
 * A token bucket that requests made within it wait for (see {@link within} and {@link
 * withinStream}).
 *
 * @since 0.1.0
 * @category Models
 */
export interface RequestBudget {
  /** Requests per second, on average. */
  readonly perSecond: number
  /** Requests that may go at once after a quiet spell. */
  readonly burst: number
  /** Waits for (and reserves) one request of the budget. */
  readonly take: Effect.Effect<void>
}

/**
 * A budget of `perSecond` requests a second, `burst` at once (by default one second's worth).
 *
 * @throws RangeError when `perSecond` is not a number above 0 or `burst` is not a number.
 * @since 0.1.0
 * @category Constructors
 */
export const make = (options: { readonly perSecond: number; readonly burst?: number }): RequestBudget => {
  const perSecond: unknown = options?.perSecond
  if (typeof perSecond !== "number" || !(perSecond > 0)) {
    throw new RangeError(`a request budget needs a rate above 0, got ${Input.show(perSecond)}`)
  }
  const given: unknown = options.burst ?? Math.ceil(perSecond)
  if (typeof given !== "number" || Number.isNaN(given)) {
    throw new RangeError(`a request budget's burst is a number of requests, got ${Input.show(given)}`)
  }
  const burst = Math.max(1, given)
  return { perSecond, burst, take: makeTokenBucket({ rate: perSecond, burst }) }
}

const currentBudgets = FiberRef.unsafeMake<ReadonlyArray<RequestBudget>>([])

/**
 * Waits for a request of every budget the current work runs within. Called by the client before
 * each request.
 *
 * @since 0.1.0
 * @category Internal
 */
export const take: Effect.Effect<void> = Effect.flatMap(FiberRef.get(currentBudgets), (budgets) =>
  budgets.length === 0 ? Effect.void : Effect.forEach(budgets, (budget) => budget.take, { discard: true })
)

/**
 * Whether the current work runs within a budget: it is then background work, and the client
 * sends its requests after every other request waiting for the node's pacer, so that it gets
 * what the urgent reads leave of the node's limit, never more than its budget.
 *
 * @since 0.2.0
 * @category Internal
 */
export const inBackground: Effect.Effect<boolean> = Effect.map(
  FiberRef.get(currentBudgets),
  (budgets) => budgets.length > 0
)

/**
 * Runs `self` with its requests within `budget` (and within any enclosing budget).
 *
 * @since 0.1.0
 * @category Combinators
 */
export const within =
  (budget: RequestBudget) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.locallyWith(self, currentBudgets, (budgets) => [...budgets, budget])

/**
 * {@link within} for a stream: every request made to produce it counts against `budget`.
 *
 * @since 0.1.0
 * @category Combinators
 */
export const withinStream =
  (budget: RequestBudget) =>
  <A, E, R>(self: Stream.Stream<A, E, R>): Stream.Stream<A, E, R> =>
    Stream.unwrapScoped(
      Effect.as(
        Effect.locallyScopedWith(currentBudgets, (budgets) => [...budgets, budget]),
        self
      )
    )
