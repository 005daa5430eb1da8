/**
 * Submitting signed Vega transactions: proof of work within the spam rules, typed outcomes, no
 * blind resends, and the result observed once a block includes it. Each module is a namespace of
 * the package (`import { TransactionSubmitter } from "@vega-effect/submitter"`) and a subpath of
 * its own (`@vega-effect/submitter/TransactionSubmitter`).
 *
 * @since 0.1.0
 */

/**
 * What can go wrong when submitting a transaction, as values.
 *
 * @since 0.1.0
 */
export * as SubmitError from "./SubmitError.js"

/**
 * The transaction submitter: builds, proves, signs and sends a key's transactions, and tells what
 * became of them.
 *
 * @since 0.1.0
 */
export * as TransactionSubmitter from "./TransactionSubmitter.js"
