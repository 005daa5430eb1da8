/**
 * Offering a signed transaction to the nodes until its outcome is settled, never making a second
 * transaction of it.
 *
 * The first offer moves on to another node only while the request provably never reached one.
 * After an answer that does not settle the outcome (a timeout, a reset, a 5xx), the very same
 * bytes are offered again (probes): a node answers "in cache", "hash already used" or accepts the
 * one transaction, so a probe can never make a second one.
 */
import { type DataNodeClient, RetryPolicy } from "@vega-effect/http"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import * as Errors from "../SubmitError.js"
import type { Accepted } from "../TransactionSubmitter.js"
import { type Answer, type Mode, post, type Signed } from "./deliver.js"
import type { ResultWatcher } from "./resultWatcher.js"

/** Texts of the 89 rejections that prove a transaction is on the chain or in a node's mempool. */
export const HASH_USED = "transaction hash already used"
/** The tid was seen: the first offer reached the node, which rejected it (an accepted one would be in the cache). */
const TID_SEEN = "proof of work tid already seen by the node"
/** The proof of work's height is no longer usable: build again on a newer block. */
export const STALE_HEIGHT = ["unknown block height", "transaction too old"]

export const isStaleHeight = (error: {
  readonly _tag: string
  readonly code?: number | undefined
  readonly message: string
}) =>
  error._tag === "TransactionRejected" && error.code === 89 && STALE_HEIGHT.some((text) => error.message.includes(text))

/**
 * Probes come often, at most a second apart, so that an included transaction is still remembered
 * by the node ("hash already used") when a probe gets through.
 */
export const PROBE_BACKOFF = { base: Duration.millis(100), max: Duration.seconds(1), jitter: false } as const

export type Settled =
  | { readonly _tag: "Accepted"; readonly accepted: Accepted }
  | { readonly _tag: "Failed"; readonly error: Errors.SendError }

/** A probe's answer that settles nothing yet: ask again. */
interface Pending {
  readonly _tag: "Pending"
  readonly description: string
}

export interface Offering {
  readonly execute: DataNodeClient.Service["execute"]
  readonly watcher: ResultWatcher
  /** Offers of the same bytes after an ambiguous answer before giving up with `OutcomeUnknown`. */
  readonly probes: number
  /** Time limit of one POST. */
  readonly timeout: Duration.Duration
  /** Nodes the client knows: a first offer tries each at most once while nothing reached a node. */
  readonly nodes: number
}

export const accepted = (signed: Signed, node: string, height: bigint, alreadyKnown: boolean): Settled => ({
  _tag: "Accepted",
  accepted: {
    txHash: signed.txHash,
    powHeight: signed.powHeight,
    height,
    node,
    alreadyKnown,
    deterministicId: signed.deterministicId
  }
})

const failed = (error: Errors.SendError): Settled => ({ _tag: "Failed", error })

const rejected = (signed: Signed, code: number, message: string, node: string): Settled =>
  failed(new Errors.TransactionRejected({ code, reason: Errors.reasonOf(code), message, txHash: signed.txHash, node }))

/** What a probe's answer says; a probe always goes through `/transaction`, which waits for the node's check. */
const settleProbe = (signed: Signed, watcher: ResultWatcher, answer: Answer): Settled | Pending => {
  const known = (node: string) => accepted(signed, node, 0n, true)
  switch (answer._tag) {
    case "Accepted":
      return accepted(signed, answer.node, answer.height, false)
    case "InCache":
      return known(answer.node)
    case "Refused":
      return failed(new Errors.RequestRefused(answer))
    case "Rejected": {
      if (answer.code !== 89) return rejected(signed, answer.code, answer.message, answer.node)
      if (answer.message.includes(HASH_USED)) return known(answer.node)
      // cleared at the next block: ask again then
      if (answer.message.includes(TID_SEEN)) return { _tag: "Pending", description: answer.message }
      if (!STALE_HEIGHT.some((text) => answer.message.includes(text))) {
        return rejected(signed, answer.code, answer.message, answer.node)
      }
      // the node forgot; the key's results stream may have seen it included
      if (watcher.seen(signed.txHash)) return known(answer.node)
      const message = `the node no longer knows whether it included the transaction: ${answer.message}`
      return failed(new Errors.OutcomeUnknown({ txHash: signed.txHash, message }))
    }
    default:
      return { _tag: "Pending", description: answer.description }
  }
}

/**
 * Offers the same bytes again until an answer settles the outcome. Once the first offer may have
 * reached a node, no answer short of a final one proves that it did not land, so probing never
 * builds the transaction anew: it ends accepted, rejected for good, or `OutcomeUnknown`.
 */
export const probe = (offering: Offering, signed: Signed, last: string): Effect.Effect<Settled> => {
  const once = Effect.flatMap(post(offering.execute, signed, "sync", offering.timeout), (answer) => {
    const outcome = settleProbe(signed, offering.watcher, answer)
    return outcome._tag === "Pending" ? Effect.fail(outcome) : Effect.succeed(outcome)
  })
  // the n-th probe waits the n-th ceiling of the probe backoff: 100 ms, 200 ms, 400 ms, ... 1 s
  const later = RetryPolicy.backoff({ ...PROBE_BACKOFF, base: RetryPolicy.ceiling(1, PROBE_BACKOFF) })
  return Effect.retry(once, later.pipe(Schedule.intersect(Schedule.recurs(offering.probes - 1)))).pipe(
    Effect.delay(RetryPolicy.ceiling(0, PROBE_BACKOFF)),
    Effect.catchAll((pending: Pending) =>
      Effect.succeed(
        failed(
          new Errors.OutcomeUnknown({
            txHash: signed.txHash,
            message: `could not find out whether the transaction reached a node: ${pending.description || last}`
          })
        )
      )
    )
  )
}

/** The first offer, and probes when its answer settles nothing. */
export const deliver = (offering: Offering, signed: Signed, mode: Mode): Effect.Effect<Settled> =>
  Effect.gen(function* () {
    let answer: Answer | undefined
    // move on to another node only while the request provably never reached one (the client rests
    // a node that refused the connection, so the next offer goes elsewhere)
    for (let tries = 0; tries < offering.nodes; tries++) {
      answer = yield* post(offering.execute, signed, mode, offering.timeout)
      if (answer._tag !== "NotSent") break
    }
    if (answer === undefined || answer._tag === "NotSent") {
      // nothing was delivered anywhere: offering the same bytes later is still safe
      return yield* probe(offering, signed, answer?.description ?? "no node")
    }
    switch (answer._tag) {
      case "Accepted":
        return accepted(signed, answer.node, answer.height, false)
      case "InCache":
        return failed(new Errors.AlreadyInMempool({ txHash: signed.txHash, node: answer.node }))
      case "Rejected":
        return rejected(signed, answer.code, answer.message, answer.node)
      case "Refused":
        return failed(new Errors.RequestRefused(answer))
      case "Unknown":
        yield* Effect.logWarning("submission outcome unknown; offering the same transaction again").pipe(
          Effect.annotateLogs({ txHash: signed.txHash, node: answer.node, description: answer.description })
        )
        return yield* probe(offering, signed, answer.description)
    }
  })
