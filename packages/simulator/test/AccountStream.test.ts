import { describe, expect, it } from "@effect/vitest"
import { Commands, DataNode, StreamForm } from "@vega-effect/schema"
import { Effect, Schema } from "effect"
import { Simulator } from "@vega-effect/simulator"
import { request } from "./support/http.js"
import { connect, type SocketClient, sleep } from "./support/streams.js"

const GENERAL = Commands.AccountType.values.ACCOUNT_TYPE_GENERAL

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

/** A REST row written the way streams write it (enums as numbers, defaults left out). */
const streamed = (rest: unknown): unknown =>
  JSON.parse(
    JSON.stringify(
      Schema.encodeSync(StreamForm.make(DataNode.AccountBalance))(
        Schema.decodeUnknownSync(DataNode.AccountBalance)(rest)
      )
    )
  )

const rest = async (url: string, path: string): Promise<any> => JSON.parse((await request(url, path)).text)

const drain = async (client: SocketClient, ms = 800): Promise<Array<string>> => {
  await sleep(ms)
  const out: Array<string> = []
  while (client.frames.pending.length > 0) out.push(await client.frames.next())
  return out
}

const snapshotOf = async (client: SocketClient): Promise<Array<any>> => {
  const pages: Array<any> = []
  for (;;) {
    const frame = JSON.parse(await client.frames.next())
    pages.push(frame.result.snapshot)
    if (frame.result.snapshot.lastPage === true) return pages
  }
}

describe("/api/v2/stream/accounts", () => {
  it.scopedLive("sends the accounts in pages of 50 by account id, then each block's balances", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 3 })
      const client = yield* promise(() => connect(sim.url, "/api/v2/stream/accounts"))
      const pages = yield* promise(() => snapshotOf(client))
      expect(pages.slice(0, -1).every((p) => p.accounts.length === 50 && p.lastPage === undefined)).toBe(true)
      const snapshot = pages.flatMap((p) => p.accounts)
      const listed = yield* promise(() =>
        rest(sim.url, "/api/v2/accounts?pagination.newestFirst=false&pagination.first=5000")
      )
      expect(snapshot).toEqual(listed.accounts.edges.map((e: any) => streamed(e.node)))

      yield* sim.advance(2)
      const frames = (yield* promise(() => drain(client))).map((f) => JSON.parse(f).result.updates.accounts)
      expect(frames.length).toBeGreaterThan(0)
      expect(frames.every((f) => f.length > 0 && f.length <= 50)).toBe(true)
      const updates = frames.flat()
      const last = updates[updates.length - 1]
      const now = yield* promise(() =>
        rest(sim.url, `/api/v2/accounts?filter.partyIds=${last.owner}&filter.assetId=${last.asset}`)
      )
      const same = now.accounts.edges
        .map((e: any) => streamed(e.node))
        .find((a: any) => a.type === last.type && (a.marketId ?? "") === (last.marketId ?? ""))
      expect(same).toEqual(last)
    })
  )

  it.scopedLive("filters by party and type, and fails on an id that does not decode", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 3 })
      const party = sim.world.catalog.parties[2].id
      const client = yield* promise(() =>
        connect(sim.url, `/api/v2/stream/accounts?partyId=${party}&type=ACCOUNT_TYPE_GENERAL`)
      )
      const snapshot = (yield* promise(() => snapshotOf(client))).flatMap((p) => p.accounts)
      expect(snapshot.length).toBeGreaterThan(0)
      expect(snapshot.every((a) => a.owner === party && a.type === GENERAL)).toBe(true)
      yield* sim.advance(3)
      const updates = (yield* promise(() => drain(client))).flatMap((f) => JSON.parse(f).result.updates.accounts)
      expect(updates.every((a) => a.owner === party && a.type === GENERAL)).toBe(true)

      const none = yield* promise(() => connect(sim.url, `/api/v2/stream/accounts?partyId=${"ab".repeat(32)}`))
      expect(yield* promise(() => none.frames.next())).toBe('{"result":{"snapshot":{"lastPage":true}}}')

      const bad = yield* promise(() => connect(sim.url, "/api/v2/stream/accounts?partyId=xyz"))
      const error = JSON.parse(yield* promise(() => bad.frames.next()))
      expect(error.error.details[0]).toMatchObject({
        code: 80008,
        message: "failed to send accounts snapshot",
        inner:
          "fetching account balance initial image: querying account balances: could not decode party ID: decoding 'xyz': not a valid hex id (or well known exception)"
      })
    })
  )
})
