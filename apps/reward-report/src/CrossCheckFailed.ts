/**
 * The per-epoch rows did not add up to the totals: exit code 3, the report (listing the
 * differences) written all the same.
 */
import * as Data from "effect/Data"

/** The per-epoch rows did not add up to the summaries (the report, with the differences, was written). */
export class CrossCheckFailed extends Data.TaggedError("CrossCheckFailed")<{
  readonly mismatches: number
  readonly destination: string
}> {
  override get message(): string {
    return `cross-check failed: ${this.mismatches} party and asset totals differ from the sum of their per-epoch rows (listed in the report, ${this.destination})`
  }
}
