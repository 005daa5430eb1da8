import { describe, expect, it } from "@effect/vitest"
import { StreamForm, Vega } from "@vega-effect/schema"
import { Simulator } from "@vega-effect/simulator"
import { Effect, Schema } from "effect"
import { request } from "./support/http.js"
import { connect, openHttpStream, type SocketClient, sleep } from "./support/streams.js"

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

/** A REST row written the way streams write it (enums as numbers, defaults left out). */
const streamed = <A, I>(schema: Schema.Schema<A, I>, rest: unknown): unknown =>
  JSON.parse(JSON.stringify(Schema.encodeSync(StreamForm.make(schema))(Schema.decodeUnknownSync(schema)(rest))))

const rest = async (url: string, path: string): Promise<any> => JSON.parse((await request(url, path)).text)

/** Every frame that arrives within `ms`. */
const drain = async (client: SocketClient, ms = 400): Promise<Array<any>> => {
  await sleep(ms)
  const out: Array<any> = []
  while (client.frames.pending.length > 0) out.push(JSON.parse(await client.frames.next()))
  return out
}

/** The snapshot's pages, up to the last. */
const snapshotOf = async (client: SocketClient): Promise<Array<any>> => {
  const pages: Array<any> = []
  for (;;) {
    const frame = JSON.parse(await client.frames.next(2_000))
    pages.push(frame.result.snapshot)
    if (frame.result.snapshot.lastPage === true) return pages
  }
}

// eight markets: more live quotes than one snapshot page holds
const world = { seed: 3, scale: { epochs: 2, markets: 8, positions: 300, stakeLinkings: 100 } }

describe("/api/v2/stream/orders", () => {
  it.scopedLive("sends the live orders in pages of 50, newest first, then each block's order changes", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      const client = yield* promise(() => connect(sim.url, "/api/v2/stream/orders"))
      const pages = yield* promise(() => snapshotOf(client))
      expect(pages.slice(0, -1).every((p) => p.orders.length === 50 && p.lastPage === undefined)).toBe(true)
      const live = yield* promise(() => rest(sim.url, "/api/v2/orders?filter.liveOnly=true&pagination.first=5000"))
      const expected = live.orders.edges.map((e: any) => streamed(Vega.Order, e.node))
      expect(expected.length).toBeGreaterThan(50)
      expect(pages.flatMap((p) => p.orders ?? [])).toEqual(expected)

      const start = sim.world.height
      yield* sim.advance(1)
      const updates = (yield* promise(() => drain(client))).map((f) => f.result.updates.orders)
      expect(updates.every((page) => page.length <= 50)).toBe(true)
      const orders = updates.flat()
      // one per order and version: the last change of each in the block
      const keys = orders.map((o: any) => `${o.id}/${o.version ?? "0"}`)
      expect(new Set(keys).size).toBe(keys.length)
      const changes = sim.world.exchange.orders.log.filter((row) => row.from === start + 1)
      expect(new Set(keys)).toEqual(new Set(changes.map((row) => `${row.id}/${row.version}`)))
      const last = orders[orders.length - 1]
      const now = yield* promise(() => rest(sim.url, `/api/v2/order/${last.id}`))
      expect(streamed(Vega.Order, now.order)).toEqual(last)
    })
  )

  it.scopedLive("filters by market and party as ids' text in updates, and checks the ids first", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      const market = sim.world.catalog.markets[2]
      const maker = sim.world.exchange.makerOf(market).id
      const byMarket = yield* promise(() => connect(sim.url, `/api/v2/stream/orders?marketIds=${market.id}`))
      const upper = yield* promise(() => connect(sim.url, `/api/v2/stream/orders?partyIds=${maker.toUpperCase()}`))
      const snapshot = (yield* promise(() => snapshotOf(byMarket))).flatMap((p) => p.orders ?? [])
      expect(snapshot.length).toBeGreaterThan(0)
      expect(snapshot.every((o: any) => o.marketId === market.id)).toBe(true)
      // the snapshot reads ids as bytes, any case
      const mine = (yield* promise(() => snapshotOf(upper))).flatMap((p) => p.orders ?? [])
      expect(mine.length).toBeGreaterThan(0)
      expect(mine.every((o: any) => o.partyId === maker)).toBe(true)
      yield* sim.advance(10)
      const updates = (yield* promise(() => drain(byMarket))).flatMap((f) => f.result.updates.orders)
      expect(updates.length).toBeGreaterThan(0)
      expect(updates.every((o: any) => o.marketId === market.id)).toBe(true)
      // the updates compare the text: an uppercase id matches nothing
      expect(yield* promise(() => drain(upper, 100))).toEqual([])

      const bad = openHttpStream(sim.url, `/api/v2/stream/orders?partyIds=nope&marketIds=${market.id},x`)
      const response = yield* promise(() => bad.response)
      expect(response.statusCode).toBe(400)
      yield* promise(() => bad.ended)
      expect(bad.body()).toBe(
        '{"error":{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10000,"message":"invalid party id","inner":"one or more market id is invalid"}]}}\n'
      )
      const joined = openHttpStream(sim.url, `/api/v2/stream/orders?partyIds=${maker},${maker}`)
      expect((yield* promise(() => joined.response)).statusCode).toBe(400)
      yield* promise(() => joined.ended)
      expect(JSON.parse(joined.body()).error.details[0].message).toBe(
        `fetching orders initial image: querying orders: scany: query multiple result rows: decoding '${maker},${maker}': not a valid hex id (or well known exception)`
      )
    })
  )
})

describe("/api/v2/stream/trades", () => {
  it.scopedLive("sends each block's trades in the order made as the REST rows, no snapshot", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      const client = yield* promise(() => connect(sim.url, "/api/v2/stream/trades"))
      const chunked = openHttpStream(sim.url, `/api/v2/stream/trades?marketIds=${sim.world.catalog.markets[1].id}`)
      expect(yield* promise(() => drain(client, 150))).toEqual([])
      const start = sim.world.height
      yield* sim.advance(2)
      const frames = yield* promise(() => drain(client))
      expect(frames.every((f) => f.result.trades.length <= 50)).toBe(true)
      const trades = frames.flatMap((f) => f.result.trades)
      const made = sim.world.exchange.trades.log.filter((t) => t.height > start)
      expect(trades.map((t: any) => t.id)).toEqual(made.map((t) => t.id))
      const page = yield* promise(() => rest(sim.url, `/api/v2/trades?pagination.first=${made.length}`))
      const restRows = page.trades.edges.map((e: any) => streamed(Vega.Trade, e.node)).reverse()
      expect(trades).toEqual(restRows)
      expect(trades[0].assetPrice).toBeUndefined()

      const market = sim.world.catalog.markets[1].id
      const lines: Array<any> = []
      while (chunked.lines.pending.length > 0) lines.push(JSON.parse(yield* promise(() => chunked.lines.next())))
      const inMarket = lines.flatMap((l) => l.result.trades)
      expect(inMarket.map((t: any) => t.id)).toEqual(made.filter((t) => t.market.id === market).map((t) => t.id))
      chunked.close()
    })
  )

  it.scopedLive("filters by party on either side, as the ids' text", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      const maker = sim.world.exchange.makerOf(sim.world.catalog.markets[0]).id
      const client = yield* promise(() => connect(sim.url, `/api/v2/stream/trades?partyIds=${maker}`))
      const start = sim.world.height
      yield* sim.advance(3)
      const trades = (yield* promise(() => drain(client))).flatMap((f) => f.result.trades)
      const made = sim.world.exchange.trades.log.filter(
        (t) => t.height > start && (t.buyer.id === maker || t.seller.id === maker)
      )
      expect(made.length).toBeGreaterThan(0)
      expect(trades.map((t: any) => t.id)).toEqual(made.map((t) => t.id))
    })
  )
})
