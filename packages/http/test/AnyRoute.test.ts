/**
 * The client's members for any route of the endpoint table: `query`, `paginate` (read as each
 * route's facts allow: by cursor, in one page, in time windows, or refused), `observe` and
 * `download`. Paging against the simulator for the routes it serves; the node's quirks against an
 * in-memory node that has them.
 */
import { HttpClient } from "@effect/platform"
import { NodeSocket } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { DataNodeClient } from "@vega-effect/http"
import * as DataNodeApi from "@vega-effect/schema/DataNodeApi"
import { Simulator } from "@vega-effect/simulator"
import { Chunk, Effect, Either, Layer, Stream } from "effect"
import { type Connection, playNode } from "./playNode.js"
import { fakeHttp, jsonAnswer, stack } from "./support.js"

const client = DataNodeClient.DataNodeClient
const all = <A, E, R>(stream: Stream.Stream<A, E, R>) =>
  Effect.map(Stream.runCollect(stream), (chunk) => Chunk.toReadonlyArray(chunk))

describe("paginate against the simulator: every row once across page boundaries", () => {
  it.layer(stack({ seed: 21, scale: { signerBundles: 12, liquidityProvisions: 80 } }))("routes it serves", (it) => {
    it.effect("positions, liquidity provisions, signer bundles, assets, markets, stake", () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.Simulator
        const dn = yield* client
        const partyId = [...sim.world.stakeLinkings.byParty.entries()].sort((a, b) => b[1].length - a[1].length)[0][0]
        const routes = [
          [DataNodeApi.ListAllPositions, {}],
          [DataNodeApi.ListAllLiquidityProvisions, {}],
          [DataNodeApi.ListERC20MultiSigSignerAddedBundles, {}],
          [DataNodeApi.ListAssets, {}],
          [DataNodeApi.ListMarkets, {}],
          [DataNodeApi.GetStake, { partyId }]
        ] as const
        for (const [endpoint, request] of routes) {
          const one = yield* dn.query(endpoint as any, { ...request, pagination: { first: 5000 } })
          const expected = (one as any)[endpoint.connection].edges.map((e: any) => e.cursor)
          expect(expected.length, endpoint.name).toBeGreaterThan(2)
          // about four pages, each boundary a place where a row could be lost or read twice
          const pageSize = Math.max(1, Math.ceil(expected.length / 4))
          const paged = yield* all(dn.paginate(endpoint as any, request, { pageSize }))
          expect(
            paged.map((item) => item.cursor),
            endpoint.name
          ).toEqual(expected)
        }
      })
    )

    it.effect("a route whose cursors fail on the node: one page, or refused when more match", () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.Simulator
        const dn = yield* client
        const profiles = yield* all(dn.paginate(DataNodeApi.ListPartiesProfiles, {}))
        expect(profiles.length).toBe(sim.world.catalog.parties.length)
        const refused = yield* Effect.either(all(dn.paginate(DataNodeApi.ListPartiesProfiles, {}, { pageSize: 10 })))
        expect(Either.isLeft(refused) && refused.left._tag).toBe("IncompleteReadError")
        if (Either.isLeft(refused) && refused.left._tag === "IncompleteReadError")
          expect(refused.left.delivered).toBe(10)
      })
    )

    it.effect("query is the route's one answer, as the named members give it", () =>
      Effect.gen(function* () {
        const dn = yield* client
        expect(yield* dn.query(DataNodeApi.ListAllPositions, { pagination: { first: 7 } })).toEqual(
          yield* dn.listPositions({ pagination: { first: 7 } })
        )
        expect(yield* DataNodeClient.query(DataNodeApi.Info)).toEqual(yield* dn.info)
        // a POST is never sent by query (it would be retried)
        const post = yield* Effect.either(dn.query(DataNodeApi.CheckRawTransaction, { tx: new Uint8Array([1]) } as any))
        expect(Either.isLeft(post) && post.left._tag).toBe("InvalidRequestError")
      })
    )
  })
})

/** A page of a connection as the node writes it, its cursors the rows' positions. */
const page = (member: string, nodes: ReadonlyArray<unknown>, hasNextPage: boolean, from = 0) => ({
  [member]: {
    edges: nodes.map((node, i) => ({ node, cursor: `c${from + i}` })),
    pageInfo: {
      hasNextPage,
      hasPreviousPage: from > 0,
      startCursor: nodes.length === 0 ? "" : `c${from}`,
      endCursor: nodes.length === 0 ? "" : `c${from + nodes.length - 1}`
    }
  }
})

const ledgerEntry = (timestamp: bigint) => ({
  timestamp: String(timestamp),
  quantity: "1",
  transferType: "TRANSFER_TYPE_UNSPECIFIED",
  fromAccountType: "ACCOUNT_TYPE_GENERAL",
  toAccountType: "ACCOUNT_TYPE_GENERAL",
  fromAccountBalance: "0",
  toAccountBalance: "0",
  transferId: ""
})

const SECOND = 1_000_000_000n
const DAY = 86_400n * SECOND
const party = "ab".repeat(32)

/**
 * A node holding ledger entries at `times`, that reads ledger entries as v0.75 does: bounds
 * truncated to whole seconds, at most 5 days from the start, oldest first when asked, `first` rows.
 */
const ledgerNode = (times: ReadonlyArray<bigint>) =>
  fakeHttp((request) => {
    const query = new URL(request.url).searchParams
    const seconds = (name: string) => (BigInt(query.get(name) ?? "0") / SECOND) * SECOND
    const start = seconds("dateRange.startTimestamp")
    const end = [seconds("dateRange.endTimestamp"), start + 5n * DAY].reduce((a, b) => (a < b ? a : b))
    const first = Number(query.get("pagination.first"))
    const rows = times.filter((t) => t >= start && t < end)
    const answer = page("ledgerEntries", rows.slice(0, first).map(ledgerEntry), rows.length > first)
    return Effect.succeed(jsonAnswer(200, answer))
  })

const withNode = (fake: ReturnType<typeof fakeHttp>) =>
  Layer.provide(
    DataNodeClient.layer({ urls: "http://node.test", rateLimit: false, retries: 0 }),
    Layer.succeed(HttpClient.HttpClient, fake.client)
  )

const ledgerRequest = (start: bigint, end: bigint) => ({
  filter: { fromAccountFilter: { partyIds: [party] } },
  dateRange: { startTimestamp: String(start), endTimestamp: String(end) }
})

describe("paginate by the node's route facts", () => {
  it.effect("ledger entries: a range longer than 5 days read in windows of 5 days, every entry once", () => {
    const times = Array.from({ length: 24 }, (_, i) => BigInt(i) * (DAY / 2n) + 7n)
    const node = ledgerNode(times)
    return Effect.gen(function* () {
      const rows = yield* all(DataNodeClient.paginate(DataNodeApi.ListLedgerEntries, ledgerRequest(0n, 12n * DAY)))
      expect(rows.map((r) => r.node.timestamp)).toEqual(times.map(BigInt))
      const windows = node.sent.map((s) => {
        const q = new URL(s.url).searchParams
        return [q.get("dateRange.startTimestamp"), q.get("dateRange.endTimestamp"), q.get("pagination.first")]
      })
      expect(windows).toEqual([
        ["0", String(5n * DAY), "5000"],
        [String(5n * DAY), String(10n * DAY), "5000"],
        [String(10n * DAY), String(12n * DAY), "5000"]
      ])
      // no cursor is ever sent: the node fails every cursor request on this route
      expect(node.sent.some((s) => s.url.includes("pagination.after"))).toBe(false)
    }).pipe(Effect.provide(withNode(node)))
  })

  it.effect("ledger entries: a window holding more than one answer is read again from its last second", () => {
    // 7,000 entries over 7 seconds: the first answer ends in second 4, the next starts there
    const times = Array.from(
      { length: 7000 },
      (_, i) => BigInt(Math.floor(i / 1000)) * SECOND + BigInt(i % 1000) * 1000n
    )
    const node = ledgerNode(times)
    return Effect.gen(function* () {
      const rows = yield* all(DataNodeClient.paginate(DataNodeApi.ListLedgerEntries, ledgerRequest(0n, 10n * SECOND)))
      expect(rows.length).toBe(7000)
      expect(new Set(rows.map((r) => r.node.timestamp)).size).toBe(7000)
      expect(node.sent.length).toBe(2)
    }).pipe(Effect.provide(withNode(node)))
  })

  it.effect("ledger entries: the range asked is kept though the node reads whole seconds", () => {
    const times = [SECOND + 100n, SECOND + 500n, 2n * SECOND + 100n, 2n * SECOND + 900n]
    const node = ledgerNode(times)
    return Effect.gen(function* () {
      const rows = yield* all(
        DataNodeClient.paginate(DataNodeApi.ListLedgerEntries, ledgerRequest(SECOND + 200n, 2n * SECOND + 500n))
      )
      expect(rows.map((r) => r.node.timestamp)).toEqual([SECOND + 500n, 2n * SECOND + 100n])
    }).pipe(Effect.provide(withNode(node)))
  })

  it.effect("ledger entries: one second holding more entries than one answer is refused", () => {
    const times = Array.from({ length: 6000 }, (_, i) => BigInt(i))
    const node = ledgerNode(times)
    return Effect.gen(function* () {
      const result = yield* Effect.either(
        all(DataNodeClient.paginate(DataNodeApi.ListLedgerEntries, ledgerRequest(0n, SECOND)))
      )
      expect(Either.isLeft(result) && result.left._tag).toBe("IncompleteReadError")
    }).pipe(Effect.provide(withNode(node)))
  })

  it.effect("ledger entries without a start are refused before anything is sent", () => {
    const node = ledgerNode([])
    return Effect.gen(function* () {
      const result = yield* Effect.either(
        all(
          DataNodeClient.paginate(DataNodeApi.ListLedgerEntries, {
            filter: { fromAccountFilter: { partyIds: [party] } }
          })
        )
      )
      expect(Either.isLeft(result) && result.left._tag).toBe("InvalidRequestError")
      expect(node.sent.length).toBe(0)
    }).pipe(Effect.provide(withNode(node)))
  })

  it.effect("routes the node pages one way only refuse the other before anything is sent", () => {
    const node = fakeHttp(() => Effect.succeed(jsonAnswer(200, page("orders", [], false))))
    return Effect.gen(function* () {
      const backward = yield* Effect.either(
        all(DataNodeClient.paginate(DataNodeApi.ListOrders, {}, { direction: "backward" }))
      )
      const oldest = yield* Effect.either(
        all(DataNodeClient.paginate(DataNodeApi.ListOrders, {}, { newestFirst: false }))
      )
      const games = yield* Effect.either(
        all(DataNodeClient.paginate(DataNodeApi.ListGames, { epochFrom: "1", epochTo: "40" }))
      )
      const half = yield* Effect.either(all(DataNodeClient.paginate(DataNodeApi.ListGames, { epochFrom: "10" })))
      // a route whose cursors fail on the node cannot be resumed from one
      const resumed = yield* Effect.either(
        all(DataNodeClient.paginate(DataNodeApi.ListLedgerEntries, ledgerRequest(0n, DAY), { from: "c0" }))
      )
      for (const result of [backward, oldest, games, half, resumed] as ReadonlyArray<
        Either.Either<unknown, { readonly _tag: string }>
      >)
        expect(Either.isLeft(result) && result.left._tag).toBe("InvalidRequestError")
      expect(node.sent.length).toBe(0)
      expect(yield* all(DataNodeClient.paginate(DataNodeApi.ListOrders, {}))).toEqual([])
      expect(node.sent.length).toBe(1)
    }).pipe(Effect.provide(withNode(node)))
  })

  it.effect("a short last page where the node merges rows after its limit: asked once more", () => {
    const proposal = () => ({
      proposal: null,
      yes: [],
      no: [],
      yesParty: {},
      noParty: {},
      proposalType: "TYPE_SINGLE_OR_UNSPECIFIED",
      proposals: []
    })
    const answers = [
      page("connection", [proposal()], false),
      page("connection", [proposal()], false, 1),
      page("connection", [], false, 2)
    ]
    const node = fakeHttp((_, n) => Effect.succeed(jsonAnswer(200, answers[n - 1])))
    return Effect.gen(function* () {
      const rows = yield* all(DataNodeClient.paginate(DataNodeApi.ListGovernanceData, {}, { pageSize: 5 }))
      expect(rows.map((r) => r.cursor)).toEqual(["c0", "c1"])
      expect(node.sent.map((s) => new URL(s.url).searchParams.get("pagination.after"))).toEqual([null, "c0", "c1"])
    }).pipe(Effect.provide(withNode(node)))
  })

  it.effect("votes, ordered by time alone: each vote once, and a page of nothing new refused", () => {
    const vote = (p: number) => ({
      partyId: String(p).padStart(64, "0"),
      value: "VALUE_YES",
      proposalId: "cd".repeat(32),
      timestamp: "1",
      totalGovernanceTokenBalance: "0",
      totalGovernanceTokenWeight: "0",
      totalEquityLikeShareWeight: "0",
      elsPerMarket: []
    })
    const answers = [
      page("votes", [vote(1), vote(2)], true),
      page("votes", [vote(2), vote(3)], true, 2),
      page("votes", [vote(3)], true, 4)
    ]
    const node = fakeHttp((_, n) => Effect.succeed(jsonAnswer(200, answers[n - 1])))
    return Effect.gen(function* () {
      const result = yield* Effect.either(
        all(DataNodeClient.paginate(DataNodeApi.ListVotes, { partyId: party }, { pageSize: 2 }))
      )
      expect(Either.isLeft(result) && result.left._tag).toBe("IncompleteReadError")
      if (Either.isLeft(result) && result.left._tag === "IncompleteReadError") expect(result.left.delivered).toBe(3)
    }).pipe(Effect.provide(withNode(node)))
  })
})

describe("download", () => {
  it.effect("a file whole, with its type and name; a failure appended after part of it fails", () => {
    const csv = "vega_time,quantity\n2024-01-01 00:00:00+00,5\n"
    const answers = [
      new Response(csv, {
        status: 200,
        headers: { "content-type": "text/csv", "content-disposition": "attachment;filename=ledger_entries_ab.csv" }
      }),
      new Response(`${csv}{"error":{"code":13,"message":"Internal error","details":[]}}`, {
        status: 200,
        headers: { "content-type": "text/csv" }
      })
    ]
    const node = fakeHttp((_, n) => Effect.succeed(answers[n - 1]))
    return Effect.gen(function* () {
      const file = yield* DataNodeClient.download(DataNodeApi.ExportLedgerEntries, { partyId: party })
      expect(new TextDecoder().decode(file.bytes)).toBe(csv)
      expect(file.contentType).toBe("text/csv")
      expect(file.fileName).toBe("ledger_entries_ab.csv")
      expect(new URL(node.sent[0].url).pathname + new URL(node.sent[0].url).search).toBe(
        `/api/v2/ledgerentry/export?partyId=${party}`
      )
      const failed = yield* Effect.either(DataNodeClient.download(DataNodeApi.ExportLedgerEntries, { partyId: party }))
      expect(Either.isLeft(failed) && failed.left._tag).toBe("InternalError")
    }).pipe(Effect.provide(withNode(node)))
  })
})

describe("observe", () => {
  const trade = {
    id: "01".repeat(32),
    marketId: "02".repeat(32),
    price: "1500",
    size: "3",
    buyer: "03".repeat(32),
    seller: "04".repeat(32),
    aggressor: 1,
    buyOrder: "05".repeat(32),
    sellOrder: "06".repeat(32),
    timestamp: "1712000000000000000",
    type: 1,
    buyerFee: null,
    sellerFee: null,
    buyerAuctionBatch: "0",
    sellerAuctionBatch: "0",
    assetPrice: "1500"
  }

  it.scoped("any stream route: its query from the request, its messages decoded, reconnecting", () =>
    Effect.gen(function* () {
      const { buyerFee: _b, sellerFee: _s, ...wire } = trade
      const connections: Array<Connection> = []
      const node = yield* playNode((connection) => {
        connections.push(connection)
        connection.send(JSON.stringify({ result: { trades: [wire] } }))
      })
      const dn = yield* DataNodeClient.make({ urls: node.url, rateLimit: false })
      const first = yield* dn
        .observe(DataNodeApi.ObserveTrades, { marketIds: ["02".repeat(32).toUpperCase()] })
        .pipe(Stream.take(2), Stream.runCollect)
      const [connected, message] = Chunk.toReadonlyArray(first)
      expect(connected._tag).toBe("Connected")
      expect(message._tag === "Message" && message.message.trades[0].price).toBe(1500n)
      expect(message._tag === "Message" && message.message.trades[0].buyerFee).toBeUndefined()
      expect(connections[0].path).toBe(`/api/v2/stream/trades?marketIds=${"02".repeat(32)}`)
    }).pipe(Effect.provide(NodeSocket.layerWebSocketConstructor), Effect.provide(fetchLayer))
  )

  it.scoped("the event bus: its request sent as the first frame", () =>
    Effect.gen(function* () {
      const connections: Array<Connection> = []
      const node = yield* playNode((connection) => {
        connections.push(connection)
        connection.socket.once("message", () => connection.send(JSON.stringify({ result: { events: [] } })))
      })
      const dn = yield* DataNodeClient.make({ urls: node.url, rateLimit: false })
      yield* dn
        .observe(DataNodeApi.ObserveEventBus, {
          type: ["BUS_EVENT_TYPE_TIME_UPDATE"],
          marketId: "",
          partyId: "",
          batchSize: "0"
        })
        .pipe(Stream.take(2), Stream.runDrain)
      expect(connections[0].path).toBe("/api/v2/stream/event/bus")
      expect(JSON.parse(connections[0].received[0])).toMatchObject({ type: ["BUS_EVENT_TYPE_TIME_UPDATE"] })
    }).pipe(Effect.provide(NodeSocket.layerWebSocketConstructor), Effect.provide(fetchLayer))
  )

  it.effect("a request its schema refuses fails the stream before any connection", () =>
    Effect.gen(function* () {
      const dn = yield* DataNodeClient.make({ urls: "http://node.test", rateLimit: false })
      const result = yield* Effect.either(
        dn.observe(DataNodeApi.ObserveTrades, { marketIds: ["not an id"] }).pipe(Stream.runDrain)
      )
      expect(Either.isLeft(result) && result.left._tag).toBe("InvalidRequestError")
    }).pipe(Effect.scoped, Effect.provide(NodeSocket.layerWebSocketConstructor), Effect.provide(fetchLayer))
  )
})

const fetchLayer = Layer.succeed(HttpClient.HttpClient, fakeHttp(() => Effect.succeed(jsonAnswer(200, {}))).client)
