/**
 * The estimate said before a long read, the refusal beyond --max-requests, and notes on stderr
 * next to the progress bar.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Progress from "../src/Progress.js"
import { durationText, estimateText, guard, TooManyRequests } from "../src/RequestEstimate.js"

const recording = () => {
  const notes: Array<string> = []
  const service: Progress.Service = { ...Progress.silent, note: (line) => Effect.sync(() => notes.push(line)) }
  return { notes, service }
}

describe("RequestEstimate", () => {
  it("says requests and their time at the node's 20 requests a second", () => {
    assert.strictEqual(durationText(45), "45 s")
    assert.strictEqual(durationText(260), "4 min 20 s")
    assert.strictEqual(durationText(120), "2 min")
    assert.strictEqual(durationText(60_000), "16 h 40 min")
    assert.strictEqual(estimateText(20_000), "20,000 requests, about 16 min 40 s at the node's 20 requests/s")
  })

  it.effect("announces a read of more than a minute, keeps quiet below, refuses beyond the limit", () =>
    Effect.gen(function* () {
      const { notes, service } = recording()
      const run = (requests: number, max?: number) =>
        guard("reading epoch 7 party by party", requests, max).pipe(Effect.provideService(Progress.Progress, service))
      yield* run(1_200)
      assert.deepStrictEqual(notes, [], "exactly a minute is not announced")
      yield* run(1_201, 1_201)
      assert.deepStrictEqual(notes, [
        "vega-reward-report: reading epoch 7 party by party: 1,201 requests, about 1 min 1 s at the node's 20 requests/s"
      ])
      const refused = yield* Effect.flip(run(5_000, 4_999))
      assert.instanceOf(refused, TooManyRequests)
      assert.strictEqual(
        refused.message,
        "reading epoch 7 party by party needs 5,000 requests, about 4 min 10 s at the node's 20 requests/s, more than --max-requests 4999 (VEGA_REPORT_MAX_REQUESTS); nothing was written. Raise the limit, or narrow the read (--party, --asset, --from-epoch, --to-epoch)"
      )
      assert.strictEqual(notes.length, 1, "a refused read is not announced")
    })
  )

  it.effect("a note on a terminal clears the bar, is written on its own line, and the bar is drawn again", () =>
    Effect.gen(function* () {
      const written: Array<string> = []
      const stream = { columns: 80, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream
      const bar = Progress.terminal(stream)
      yield* bar.step("reading per-epoch rewards", 10)
      written.length = 0
      yield* bar.note("vega-reward-report: a long read")
      assert.strictEqual(written[0], "\r\u001b[2Kvega-reward-report: a long read\n")
      assert.strictEqual(written[1], `\r\u001b[2K${Progress.renderBar("reading per-epoch rewards", 0, 10)}`)
    })
  )
})
