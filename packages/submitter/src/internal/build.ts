/**
 * Building a transaction: the command checked with the node's own rules, a proof-of-work slot
 * reserved in the key's budget (waiting for a new block when the key has used them all), a proof
 * of work (solved ahead when one is ready, else now), and the signature.
 */
import { type Keys, ProofOfWork } from "@vega-effect/crypto"
import { CommandValidation, type Commands } from "@vega-effect/schema"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Errors from "../SubmitError.js"
import type { BuildError } from "../TransactionSubmitter.js"
import type { Heads } from "./chainHead.js"
import type { Signed } from "./deliver.js"
import { type Solution, signWith } from "./sign.js"
import type { SolvedPool } from "./solvedPool.js"
import type { ChainHead, Slot } from "./spamBudget.js"

export interface Builder {
  readonly validate: (command: Commands.Command) => Effect.Effect<void, CommandValidation.CommandValidationError>
  readonly solve: (hash: string, difficulty: number) => Effect.Effect<Solution, Errors.ProofOfWorkFailed>
  readonly build: (command: Commands.Command) => Effect.Effect<Signed, BuildError>
  /** Signs with a proof of work for `slot` (a check spends no slot: any recent block will do). */
  readonly sign: (command: Commands.Command, chainId: string, slot: Slot) => Effect.Effect<Signed, BuildError>
}

export interface BuilderOptions {
  readonly pair: Keys.KeyPair
  readonly heads: Heads
  readonly solved: SolvedPool
  readonly pow: ProofOfWork.Service
  readonly powTimeout: Duration.Duration
  /** Called when a slot was reserved (to refill the proofs solved ahead). */
  readonly onReserved: Effect.Effect<void>
}

export const makeBuilder = (options: BuilderOptions): Builder => {
  const { heads, pair, pow, solved } = options

  const validate = (command: Commands.Command) =>
    Either.match(CommandValidation.validate(command), { onLeft: Effect.fail, onRight: () => Effect.void })

  const solve = (hash: string, difficulty: number) =>
    Effect.suspend(() => pow.solve(hash, ProofOfWork.newTid(), difficulty, { timeout: options.powTimeout })).pipe(
      Effect.mapError((error) => new Errors.ProofOfWorkFailed({ message: error.message }))
    )

  /** A slot for the next transaction, waiting for a new block when the key has used them all. */
  const reserveSlot: Effect.Effect<{ head: ChainHead; slot: Slot }, BuildError> = Effect.gen(function* () {
    for (;;) {
      const head = yield* heads.current
      const slot = heads.budgetFor(head).reserve(head, (h) => solved.has(h))
      if (slot !== undefined) {
        yield* options.onReserved
        return { head, slot }
      }
      yield* Effect.logDebug("proof-of-work slots used up; waiting for a new block").pipe(
        Effect.annotateLogs({ partyId: pair.publicKey, height: String(head.height) })
      )
      yield* heads.after(head.height)
    }
  })

  const sign = (command: Commands.Command, chainId: string, slot: Slot) =>
    Effect.map(solve(slot.hash, slot.difficulty), (solution) => signWith(pair, command, chainId, slot, solution))

  const build = (command: Commands.Command): Effect.Effect<Signed, BuildError> =>
    Effect.gen(function* () {
      yield* validate(command)
      const { head, slot } = yield* reserveSlot
      const ready = slot.difficulty === head.difficulty ? solved.take(slot.height, slot.hash) : undefined
      const solution = ready ?? (yield* solve(slot.hash, slot.difficulty))
      return signWith(pair, command, head.chainId, slot, solution)
    }).pipe(Effect.withSpan("TransactionSubmitter.build"))

  return { validate, solve, build, sign }
}
