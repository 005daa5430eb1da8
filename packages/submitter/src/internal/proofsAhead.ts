/**
 * Keeps proofs of work ready for the newest free base-difficulty slots of the key, following new
 * blocks, so that a burst of submissions does not wait for the solver.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import type { Builder } from "./build.js"
import type { Heads } from "./chainHead.js"
import type { SolvedPool } from "./solvedPool.js"

export interface ProofsAheadOptions {
  readonly heads: Heads
  readonly solved: SolvedPool
  readonly builder: Builder
  /** Offered whenever a head is read or a slot reserved: time to look for work. */
  readonly wake: Queue.Dequeue<void>
}

/** Solves for free slots until the pool is full or nothing is left to solve for. */
const fill = ({ builder, heads, solved }: ProofsAheadOptions) =>
  Effect.gen(function* () {
    for (;;) {
      const head = heads.last()
      const budget = heads.budget()
      if (head === undefined || budget === undefined) return
      const free = budget.freeBaseSlots(head)
      solved.retain(new Set(budget.usable(head)))
      const target = free.find((s) => solved.at(s.height) < s.free)
      if (target === undefined || solved.size >= solved.capacity) return
      const solution = yield* Effect.either(builder.solve(target.hash, head.difficulty))
      if (Either.isLeft(solution)) return
      solved.add(target.height, target.hash, solution.right)
    }
  })

/** Follows the chain (a head read every `ttl`) and refills the pool when woken. */
export const keepProofsAhead = (
  options: ProofsAheadOptions,
  ttl: Duration.Duration
): Effect.Effect<void, never, Scope.Scope> =>
  Effect.gen(function* () {
    if (options.solved.capacity === 0) return
    const every = Schedule.spaced(Duration.max(ttl, Duration.millis(100)))
    yield* Effect.forkScoped(Effect.repeat(Effect.ignore(options.heads.read), every))
    yield* Effect.forkScoped(Effect.forever(Effect.zipRight(options.wake.take, fill(options))))
  })
