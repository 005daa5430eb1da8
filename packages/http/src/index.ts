/**
 * @since 0.1.0
 */
export * as DataNodeClient from "./DataNodeClient.js"
export * as DataNodeError from "./DataNodeError.js"
export * as LiveStream from "./LiveStream.js"
export * as ReadTracking from "./ReadTracking.js"
export * as RequestBudget from "./RequestBudget.js"
export * as RetryPolicy from "./RetryPolicy.js"
export * as FailureText from "./FailureText.js"
