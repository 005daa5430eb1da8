/**
 * Arguments that cannot make a report: exit code 2, every problem on its own line.
 */
import * as Data from "effect/Data"

export class UsageProblem extends Data.TaggedError("UsageProblem")<{ readonly problems: ReadonlyArray<string> }> {
  override get message(): string {
    return this.problems.join("\n")
  }
}
