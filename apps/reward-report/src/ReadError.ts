/**
 * The one error of reading: a request that failed, or data that would make a partial report.
 */
import * as Data from "effect/Data"

export class ReadError extends Data.TaggedError("ReadError")<{ readonly reason: string }> {
  override get message(): string {
    return this.reason
  }
}
