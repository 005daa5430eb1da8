import { HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { type DataNodeClient } from "@vega-effect/http"
import { Commands } from "@vega-effect/schema"
import { Effect } from "effect"
import { advanceUntil, setup } from "./support.js"

const profile = (alias: string) => Commands.command("updatePartyProfile", Commands.updatePartyProfile({ alias }))

/** A client option that records the status of every answer the client gets. */
const recording = (statuses: Array<number>): Partial<DataNodeClient.Options> => ({
  transformClient: (client) =>
    HttpClient.tap(client, (response) => Effect.sync(() => void statuses.push(response.status)))
})

describe("submitting under the node's real rate limit", () => {
  it.scopedLive(
    "150 submissions from one key: every request paced, none answered 429, no ban",
    () =>
      Effect.gen(function* () {
        const statuses: Array<number> = []
        const { sim, submitter } = yield* setup(
          { nodes: [{ rateLimit: true }] },
          { poolSize: 2 },
          // the client's default pacing: the node's own limit
          { rateLimit: {}, ...recording(statuses) }
        )
        const accepted = yield* advanceUntil(
          sim,
          Effect.forEach(
            Array.from({ length: 150 }, (_, i) => i),
            (i) => submitter.submit(profile(`paced-${i}`)),
            { concurrency: "unbounded" }
          ),
          "100 millis"
        )
        expect(new Set(accepted.map((a) => a.txHash)).size).toBe(150)
        // the POSTs and every read of the chain head, spam statistics and results went through the pacer
        expect(statuses.length).toBeGreaterThan(150)
        expect(statuses.filter((s) => s === 429)).toEqual([])
        expect(statuses.filter((s) => s === 403)).toEqual([])
        const limiter = sim.nodes[0].rateLimiter!
        expect(limiter.size()).toBe(1)
      }),
    { timeout: 120_000 }
  )
})
