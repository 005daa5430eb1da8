/**
 * The one error of reading: a request that failed, or data that would make a partial report.
 */
import * as Data from "effect/Data"

export class ReadError extends Data.TaggedError("ReadError")<{
  /** One line for a person: what failed, naming the node and the cause in words. */
  readonly reason: string
  /** The error behind it, with its stack, for the debug log. */
  readonly cause?: unknown
}> {
  override get message(): string {
    return this.reason
  }
}
