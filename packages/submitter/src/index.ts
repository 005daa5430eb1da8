/**
 * @since 0.1.0
 */
export * as SubmitError from "./SubmitError.js"
export * as TransactionSubmitter from "./TransactionSubmitter.js"
