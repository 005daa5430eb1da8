/**
 * Checkpoint and resume, offline: stream a paged list, store the cursor of each item once it is
 * processed, "crash" half-way, then restart from the stored cursor. Every item is processed exactly
 * once across the two runs.
 *
 * Run: npx tsx --conditions=@vega-effect/source examples/checkpoint.ts
 */
import { Data, Effect, Ref, Stream } from "effect"
import { Paginate } from "@vega-effect/pagination"

interface Transfer {
  readonly id: number
  readonly amount: string
}

const transfers: ReadonlyArray<Transfer> = Array.from({ length: 10 }, (_, i) => ({
  id: i + 1,
  amount: String((i + 1) * 100)
}))

// Like the node's cursors: base64 of a small JSON document.
const cursorOf = (transfer: Transfer) => Buffer.from(JSON.stringify({ id: String(transfer.id) })).toString("base64")

// An in-memory stand-in for a list endpoint, forward paging only. In an application this is the
// HTTP request (with its own retries), e.g. from @vega-effect/http.
const fetchTransfers = (params: Paginate.PageParams) =>
  Effect.sync((): Paginate.Page<Transfer> => {
    const ordered = params.newestFirst ? [...transfers].reverse() : transfers
    const start = params.after === undefined ? 0 : ordered.findIndex((t) => cursorOf(t) === params.after) + 1
    const page = ordered.slice(start, start + (params.first ?? 1000))
    const items = page.map((node) => ({ node, cursor: cursorOf(node) }))
    return {
      items,
      hasNextPage: start + page.length < ordered.length,
      hasPreviousPage: start > 0,
      startCursor: items[0]?.cursor ?? "",
      endCursor: items[items.length - 1]?.cursor ?? ""
    }
  })

class Crash extends Data.TaggedError("Crash")<{ readonly at: number }> {}

const program = Effect.gen(function* () {
  // The durable store for the checkpoint: a file or a table in real life.
  const checkpoint = yield* Ref.make<string | undefined>(undefined)
  const processed: Array<number> = []

  const run = (crashAt: number | undefined) =>
    Effect.gen(function* () {
      const from = yield* Ref.get(checkpoint)
      yield* Paginate.items(fetchTransfers, { pageSize: 3, newestFirst: false, from }).pipe(
        Stream.runForEach((item) =>
          Effect.gen(function* () {
            if (item.node.id === crashAt) return yield* new Crash({ at: item.node.id })
            console.log(`processed transfer ${item.node.id}: ${item.node.amount}`)
            processed.push(item.node.id)
            // Checkpoint after processing, never before: a crash in between repeats nothing and skips nothing.
            yield* Ref.set(checkpoint, Paginate.resumeCursor(item))
          })
        )
      )
    })

  console.log("run 1")
  yield* run(6).pipe(
    Effect.catchTag("Crash", (crash) =>
      Effect.flatMap(Ref.get(checkpoint), (saved) =>
        Effect.sync(() => console.log(`crashed at transfer ${crash.at}; checkpoint ${saved}`))
      )
    )
  )

  console.log("run 2, from the checkpoint")
  yield* run(undefined)

  const once = processed.length === transfers.length && new Set(processed).size === transfers.length
  console.log(`processed ${processed.length} of ${transfers.length} transfers, each once: ${once}`)
})

await Effect.runPromise(program)
