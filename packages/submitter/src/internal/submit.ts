/**
 * Submissions: build, offer and settle a command, build it anew only when the node answered the
 * first and only offer that its block is too old, and wait for its result in a block.
 */
import type { DataNodeClient } from "@vega-effect/http"
import type { Commands, TransactionResult } from "@vega-effect/schema"
import * as Deferred from "effect/Deferred"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as ScheduleDecision from "effect/ScheduleDecision"
import * as Errors from "../SubmitError.js"
import type { Accepted, BuildError, Checked } from "../TransactionSubmitter.js"
import type { Builder } from "./build.js"
import type { Heads } from "./chainHead.js"
import { type Mode, post, type Signed } from "./deliver.js"
import { deliver, HASH_USED, isStaleHeight, type Offering } from "./offer.js"
import type { Slot } from "./spamBudget.js"

export interface SubmissionOptions {
  readonly client: DataNodeClient.Service
  readonly heads: Heads
  readonly builder: Builder
  readonly offering: Offering
  /** Learns the key's counts from the node again (after a spam rejection), when enabled. */
  readonly resync: Effect.Effect<void>
  /** How often a wait checks whether the transaction's block left the window. */
  readonly expiryPoll: Duration.Duration
}

export interface Submissions {
  readonly submit: (command: Commands.Command, mode: Mode) => Effect.Effect<Accepted, BuildError | Errors.SendError>
  readonly submitAndWait: (
    command: Commands.Command,
    mode: Mode,
    timeout: Duration.Duration
  ) => Effect.Effect<TransactionResult.TransactionResult, BuildError | Errors.SendError | Errors.WaitError>
  readonly send: (signed: Signed, mode: Mode) => Effect.Effect<Accepted, Errors.SendError>
  readonly check: (command: Commands.Command) => Effect.Effect<Checked, BuildError | Errors.SendError>
}

/** A transaction is built anew at most this many times after its block turned out too old. */
const REBUILDS = 2

const send = (offering: Offering, signed: Signed, mode: Mode) =>
  Effect.flatMap(deliver(offering, signed, mode), (settled) =>
    settled._tag === "Accepted" ? Effect.succeed(settled.accepted) : Effect.fail(settled.error)
  )

/** Builds and delivers; `onSigned` sees every transaction built, before it is sent. */
const submitWith = (
  options: SubmissionOptions,
  command: Commands.Command,
  mode: Mode,
  onSigned: (signed: Signed) => Effect.Effect<void>
) => {
  const attempt = Effect.gen(function* () {
    const signed = yield* options.builder.build(command)
    yield* onSigned(signed)
    return { accepted: yield* send(options.offering, signed, mode), signed }
  })
  return attempt.pipe(
    Effect.tapError((error) =>
      error._tag === "TransactionRejected" && error.code === 89
        ? Effect.zipRight(options.heads.invalidate, options.resync)
        : Effect.void
    ),
    Effect.retry({
      schedule: Schedule.recurs(REBUILDS).pipe(
        Schedule.onDecision((_, decision) =>
          ScheduleDecision.isContinue(decision)
            ? Effect.logInfo("building the transaction again with a fresh proof of work")
            : Effect.void
        )
      ),
      while: isStaleHeight
    })
  )
}

/** Fails once the transaction can never be included any more: its block left the window with no result seen. */
const expiry = (
  options: SubmissionOptions,
  signed: Signed
): Effect.Effect<never, Errors.TransactionExpired | Errors.ResultMissed> =>
  Effect.gen(function* () {
    const gone = (head: Option.Option<{ readonly height: bigint; readonly pastBlocks: number }>) =>
      Option.isSome(head) && signed.powHeight + BigInt(head.value.pastBlocks) <= head.value.height
    // a failed read of the chain only delays the check
    yield* Effect.repeat(Effect.option(options.heads.current), {
      until: gone,
      schedule: Schedule.spaced(options.expiryPoll)
    })
    // included while the stream was down? the node still remembers its hash for a while
    const answer = yield* post(options.offering.execute, signed, "check", options.offering.timeout)
    if (answer._tag === "Rejected" && answer.message.includes(HASH_USED)) {
      return yield* new Errors.ResultMissed({ txHash: signed.txHash })
    }
    return yield* new Errors.TransactionExpired({ txHash: signed.txHash, blockHeight: signed.powHeight })
  })

const submitAndWait = (
  options: SubmissionOptions,
  command: Commands.Command,
  mode: Mode,
  timeout: Duration.Duration
): Effect.Effect<TransactionResult.TransactionResult, BuildError | Errors.SendError | Errors.WaitError> =>
  Effect.gen(function* () {
    const { watcher } = options.offering
    let waiting: { signed: Signed; deferred: Deferred.Deferred<TransactionResult.TransactionResult> } | undefined
    // the result is expected before the transaction is sent, so that it cannot slip by
    const { signed } = yield* submitWith(options, command, mode, (signed) =>
      Effect.gen(function* () {
        if (waiting !== undefined) yield* watcher.forget(waiting.signed.txHash)
        waiting = { signed, deferred: yield* watcher.expect(signed.txHash) }
      })
    )
    return yield* Deferred.await(waiting!.deferred).pipe(
      Effect.raceFirst(expiry(options, signed)),
      Effect.timeoutFail({
        duration: timeout,
        onTimeout: () => new Errors.ResultTimeout({ txHash: signed.txHash, timeout })
      }),
      Effect.ensuring(watcher.forget(signed.txHash))
    )
  }).pipe(Effect.withSpan("TransactionSubmitter.submitAndWait"))

const check = (
  options: SubmissionOptions,
  command: Commands.Command
): Effect.Effect<Checked, BuildError | Errors.SendError> =>
  Effect.gen(function* () {
    const { builder, heads, offering } = options
    yield* builder.validate(command)
    // a check is not included anywhere, so it spends no slot: the newest block at base difficulty
    const head = yield* heads.current
    const slot: Slot = { height: head.height, hash: head.hash, difficulty: head.difficulty }
    const signed = yield* builder.sign(command, head.chainId, slot)
    const answer = yield* post(offering.execute, signed, "check", offering.timeout)
    switch (answer._tag) {
      case "Accepted":
        return { gasWanted: answer.gasWanted, node: answer.node }
      case "Rejected": {
        const { code, message, node } = answer
        const reason = Errors.reasonOf(code)
        return yield* new Errors.TransactionRejected({ code, reason, message, txHash: signed.txHash, node })
      }
      case "Refused":
        return yield* new Errors.RequestRefused(answer)
      case "InCache":
        return yield* new Errors.AlreadyInMempool({ txHash: signed.txHash, node: answer.node })
      default:
        return yield* new Errors.OutcomeUnknown({ txHash: signed.txHash, message: answer.description })
    }
  }).pipe(Effect.withSpan("TransactionSubmitter.check"))

export const makeSubmissions = (options: SubmissionOptions): Submissions => ({
  submit: (command, mode) =>
    Effect.map(
      submitWith(options, command, mode, () => Effect.void),
      ({ accepted }) => accepted
    ).pipe(Effect.withSpan("TransactionSubmitter.submit")),
  submitAndWait: (command, mode, timeout) => submitAndWait(options, command, mode, timeout),
  send: (signed, mode) => send(options.offering, signed, mode),
  check: (command) => check(options, command)
})
