/**
 * Real answers of a running simulator, for the OpenAPI contract test: every route a client of the
 * toolkit uses, over several pages in both orders, with filters, with errors, and transactions
 * accepted, rejected and included, plus the frames of every stream the node serves.
 */
import { Commands } from "@vega-effect/schema"
import type { Simulator } from "@vega-effect/simulator"
import { Effect } from "effect"
import { request } from "../support/http.js"
import { type HttpStream, openHttpStream, sleep } from "../support/streams.js"
import { bridge } from "./bridge.js"
import { governance } from "./governance.js"
import { history } from "./history.js"
import { networkParameters } from "./networkParameters.js"
import { nodes } from "./nodes.js"
import { epochRewardSummaries } from "./epochRewardSummaries.js"
import { margin } from "./margin.js"
import { stopOrders } from "./stopOrders.js"
import { parties } from "./parties.js"
import { referrals } from "./referrals.js"
import { successorMarkets } from "./successorMarkets.js"
import { fundingDataPoints, fundingPayments } from "./funding.js"
import { assetLimits } from "./assetLimits.js"
import { deprecatedProvisions, feesStats, fundingPeriods, liquidityProviders, paidLiquidityFees } from "./feesStats.js"
import { transfers } from "./transfers.js"
import { oracles } from "./oracles.js"
import { teams } from "./teams.js"
import { games } from "./games.js"
import { eventStreams } from "./eventStreams.js"
import { timeWeightedNotionalPosition } from "./timeWeightedNotionalPosition.js"
import {
  base64,
  buildTransaction,
  bytesOf,
  chainOf,
  key,
  order,
  post,
  profile,
  transactionJson
} from "../support/tx.js"
import type { Form } from "./gatewaySchemas.js"

/** One answer: the spec's path template it belongs to, and what the simulator sent. */
export interface Exchange {
  readonly method: "get" | "post"
  /** The spec's path template, e.g. `/api/v2/market/{marketId}`; `undefined` for an unknown route. */
  readonly template: string | undefined
  /** What was asked, for the test's messages. */
  readonly label: string
  readonly status: number
  readonly body: unknown
  /**
   * How the body is written: REST or stream JSON, or `raw` for the bytes of a `google.api.HttpBody`
   * (an export), which the gateway writes as they are though the spec describes a JSON stream.
   */
  readonly form: Form | "raw"
}

type Query = Record<string, string | ReadonlyArray<string>>

const queryString = (query: Query): string => {
  const parts = Object.entries(query).flatMap(([k, v]) =>
    (typeof v === "string" ? [v] : v).map((x) => `${encodeURIComponent(k)}=${encodeURIComponent(x)}`)
  )
  return parts.length === 0 ? "" : `?${parts.join("&")}`
}

const fill = (template: string, path: Record<string, string>): string =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(path[name] ?? ""))

/** Collects the answers of one simulator. */
export class Recorder {
  readonly exchanges: Array<Exchange> = []
  constructor(readonly url: string) {}

  async get(template: string | undefined, path: string, label = path): Promise<any> {
    const response = await request(this.url, path)
    const body = JSON.parse(response.text)
    this.exchanges.push({ method: "get", template, label, status: response.status, body, form: "rest" })
    return body
  }

  /** A raw export: its text, and the content type the node gave it. */
  async raw(template: string, query: Query): Promise<{ readonly text: string; readonly contentType: string }> {
    const url = template + queryString(query)
    const response = await request(this.url, url)
    const contentType = String(response.headers["content-type"])
    this.exchanges.push({
      method: "get",
      template,
      label: url,
      status: response.status,
      // a refusal is one `{"error":…}` line, as a stream's (the check's known deviation)
      ...(response.status === 200
        ? { body: response.text, form: "raw" as const }
        : { body: JSON.parse(response.text), form: "stream" as const })
    })
    return { text: response.text, contentType }
  }

  async query(template: string, query: Query = {}, path: Record<string, string> = {}): Promise<any> {
    const url = fill(template, path) + queryString(query)
    return this.get(template, url)
  }

  async post(template: string, body: unknown): Promise<any> {
    const response = await post(this.url, template, body)
    this.exchanges.push({
      method: "post",
      template,
      label: `POST ${template} ${JSON.stringify(body).slice(0, 80)}`,
      status: response.status,
      body: response.json,
      form: "rest"
    })
    return response.json
  }

  /**
   * A list route's pages: `pages` forwards from the start, then backwards from the end, in both
   * orders.
   */
  async pages(template: string, connection: string, query: Query = {}, path: Record<string, string> = {}, pages = 3) {
    for (const newestFirst of ["true", "false"]) {
      let after: string | undefined
      for (let i = 0; i < pages; i++) {
        const page = await this.query(
          template,
          {
            ...query,
            "pagination.first": "2",
            "pagination.newestFirst": newestFirst,
            ...(after === undefined ? {} : { "pagination.after": after })
          },
          path
        )
        const info = page?.[connection]?.pageInfo
        if (info?.hasNextPage !== true) break
        after = info.endCursor
      }
      let before: string | undefined
      for (let i = 0; i < 2; i++) {
        const page = await this.query(
          template,
          {
            ...query,
            "pagination.last": "2",
            "pagination.newestFirst": newestFirst,
            ...(before === undefined ? {} : { "pagination.before": before })
          },
          path
        )
        const info = page?.[connection]?.pageInfo
        if (info?.hasPreviousPage !== true) break
        before = info.startCursor
      }
    }
  }
}

const nodesOf = (body: any, connection: string): Array<any> =>
  (body?.[connection]?.edges ?? []).map((e: { node: unknown }) => e.node)

/** The seven queries and `/api/v2/rewards`, paged and filtered. */
const resources = async (r: Recorder) => {
  const positions = nodesOf(await r.query("/api/v2/positions", { "pagination.first": "20" }), "positions")
  const party = positions[0].partyId as string
  const market = positions[0].marketId as string
  await r.pages("/api/v2/positions", "positions")
  await r.pages("/api/v2/positions", "positions", { "filter.partyIds": party })
  await r.query("/api/v2/positions", { "filter.marketIds": market, "filter.partyIds": [party, positions[1].partyId] })

  for (const p of positions.slice(0, 10)) {
    const stake = await r.query("/api/v2/parties/{partyId}/stake", {}, { partyId: p.partyId })
    if (nodesOf(stake, "stakeLinkings").length > 2) {
      await r.pages("/api/v2/parties/{partyId}/stake", "stakeLinkings", {}, { partyId: p.partyId })
      break
    }
  }

  const provisions = nodesOf(
    await r.query("/api/v2/liquidity/all-provisions", { marketId: market }),
    "liquidityProvisions"
  )
  await r.pages("/api/v2/liquidity/all-provisions", "liquidityProvisions", { marketId: market })
  await r.query("/api/v2/liquidity/all-provisions", { marketId: market, live: "true" })
  if (provisions.length > 0) {
    await r.query("/api/v2/liquidity/all-provisions", { partyId: provisions[0].current.partyId })
  }
  // without a market or a party (a 500 with quirks)
  await r.query("/api/v2/liquidity/all-provisions", { "pagination.first": "2" })

  await r.pages("/api/v2/parties/profiles", "profiles")
  await r.query("/api/v2/parties/profiles", { parties: [party] })

  const stats = nodesOf(await r.query("/api/v2/referral-sets/stats"), "stats")
  await r.pages("/api/v2/referral-sets/stats", "stats")
  if (stats.length > 0) {
    await r.query("/api/v2/referral-sets/stats", { referralSetId: stats[0].referralSetId ?? "" })
    await r.query("/api/v2/referral-sets/stats", { referee: stats[0].partyId })
  }

  const bundles = nodesOf(await r.query("/api/v2/erc20/multisigcontrol/signer/added/bundles"), "bundles")
  await r.pages("/api/v2/erc20/multisigcontrol/signer/added/bundles", "bundles")
  if (bundles.length > 0) {
    await r.query("/api/v2/erc20/multisigcontrol/signer/added/bundles", { nodeId: bundles[0].newSigner })
  }

  await r.query("/api/v2/rewards/summaries")
  await r.query("/api/v2/rewards/summaries", { partyId: party })
  await r.pages("/api/v2/rewards", "rewards")
  await r.query("/api/v2/rewards", { partyId: party, fromEpoch: "1" })
  return { party, market }
}

/** Orders and trades: pages, filters, lookups and their error bodies. */
const trading = async (r: Recorder, market: string) => {
  const orders = nodesOf(await r.query("/api/v2/orders", { "pagination.first": "20" }), "orders")
  // newest first only, forward only: the other pages answer the node's errors
  await r.pages("/api/v2/orders", "orders")
  await r.pages("/api/v2/orders", "orders", { "filter.partyIds": orders[0].partyId })
  await r.query("/api/v2/orders", {
    "filter.marketIds": market,
    "filter.liveOnly": "true",
    "filter.statuses": ["STATUS_ACTIVE", "STATUS_PARKED"],
    "filter.types": "TYPE_LIMIT",
    "filter.timeInForces": "2"
  })
  await r.query("/api/v2/orders", {
    "filter.reference": "",
    "filter.excludeLiquidity": "true",
    "filter.dateRange.startTimestamp": orders[5].createdAt,
    "pagination.first": "3"
  })
  await r.query("/api/v2/orders", { "filter.statuses": "STATUS_NOPE" })
  await r.query("/api/v2/orders", { "filter.partyIds": "nope" })
  const order = orders.find((o: { version: string }) => o.version !== "1") ?? orders[0]
  await r.query("/api/v2/order/{orderId}", {}, { orderId: order.id })
  await r.query("/api/v2/order/{orderId}", { version: "1" }, { orderId: order.id })
  await r.query("/api/v2/order/{orderId}", {}, { orderId: "ab".repeat(32) })
  await r.query("/api/v2/order/{orderId}", { version: "0" }, { orderId: order.id })
  await r.query("/api/v2/order/{orderId}", {}, { orderId: "not-an-id" })
  await r.pages("/api/v2/order/versions/{orderId}", "orders", {}, { orderId: order.id })
  await r.query("/api/v2/order/versions/{orderId}", {}, { orderId: "ab".repeat(32) })

  const trades = nodesOf(await r.query("/api/v2/trades", { "pagination.first": "5" }), "trades")
  await r.pages("/api/v2/trades", "trades")
  await r.pages("/api/v2/trades", "trades", { marketIds: market })
  await r.query("/api/v2/trades", { partyIds: trades[0].buyer, orderIds: trades[0].buyOrder })
  await r.query("/api/v2/trades", { "dateRange.startTimestamp": trades[3].timestamp, partyIds: "network" })
  await r.query("/api/v2/trades", { marketIds: "xyz" })
  await r.query("/api/v2/trades", { "pagination.after": Buffer.from("[1]").toString("base64") })
  await r.query("/api/v2/market/{marketId}/trade/latest", {}, { marketId: market })
  await r.query("/api/v2/market/{marketId}/trade/latest", {}, { marketId: "ab".repeat(32) })
  await r.query("/api/v2/market/{marketId}/trade/latest", {}, { marketId: "xyz" })
}

/**
 * One line of a stream, under its template, with the HTTP status the stream was answered with: a
 * stream refused before its first message answers the status of the error's code with one
 * `{"error":…}` line (the check's known deviation from the spec).
 */
export const recordLine = async (r: Recorder, template: string, stream: HttpStream, line: string, label: string) => {
  const status = (await stream.response).statusCode ?? 0
  r.exchanges.push({ method: "get", template, label, status, body: JSON.parse(line), form: "stream" })
}

/** Every frame (up to `max`) of a stream that arrives within a second of the last, under its template. */
export const recordFrames = async (r: Recorder, template: string, stream: HttpStream, max = Infinity) => {
  for (let n = 0; n < max; n++) {
    const line = await stream.lines.next(1_000).catch(() => undefined)
    if (line === undefined) break
    await recordLine(r, template, stream, line, `stream frame ${line.slice(0, 120)}`)
  }
  stream.close()
}

/** Markets, assets, epochs, time and info, and their error bodies. */
const neighbours = async (r: Recorder, market: string) => {
  await r.query("/api/v2/info")
  await r.query("/api/v2/vega/time")
  await r.query("/time")
  await r.query("/api/v2/epoch")
  await r.query("/api/v2/epoch", { id: "1" })
  await r.query("/api/v2/epoch", { id: "100000" })
  const assets = nodesOf(await r.query("/api/v2/assets"), "assets")
  await r.pages("/api/v2/assets", "assets")
  await r.query("/api/v2/asset/{assetId}", {}, { assetId: assets[0].id })
  await r.query("/api/v2/asset/{assetId}", {}, { assetId: "ab".repeat(32) })
  await r.query("/api/v2/asset/{assetId}", {}, { assetId: "not-an-id" })
  await r.pages("/api/v2/markets", "markets")
  await r.query("/api/v2/markets", { includeSettled: "false" })
  await r.query("/api/v2/market/{marketId}", {}, { marketId: market })
  await r.query("/api/v2/market/{marketId}", {}, { marketId: "ab".repeat(32) })
  await r.query("/api/v2/market/{marketId}", {}, { marketId: "xyz" })
  // gateway errors: bad pagination, a query that does not parse, an unknown route
  await r.query("/api/v2/positions", { "pagination.first": "2", "pagination.last": "2" })
  await r.query("/api/v2/positions", { "pagination.first": "100000" })
  await r.query("/api/v2/positions", { "pagination.first": "x" })
  await r.query("/api/v2/positions", { "pagination.after": "not a cursor" })
  await r.get(undefined, "/api/v2/no/such/route")
}

/** Accounts, balance changes, the ledger, deposits and withdrawals, and their error bodies. */
const money = async (r: Recorder, sim: Simulator.Service, party: string, market: string) => {
  // the accounts stream: a party's snapshot, then the balances of the next blocks
  const stream = openHttpStream(r.url, `/api/v2/stream/accounts?partyId=${party}`)
  const everyone = openHttpStream(r.url, "/api/v2/stream/accounts?type=ACCOUNT_TYPE_GENERAL")
  const movements = openHttpStream(r.url, "/api/v2/stream/ledger/movements")
  // a stream with no snapshot follows the blocks after it is subscribed
  await sleep(100)
  await Effect.runPromise(sim.advance(2))
  await recordFrames(r, "/api/v2/stream/accounts", stream)
  await recordFrames(r, "/api/v2/stream/accounts", everyone)
  // and one more block, in case the movements stream subscribed after those (a busy machine)
  await Effect.runPromise(sim.advance(1))
  await recordFrames(r, "/api/v2/stream/ledger/movements", movements, 40)

  await r.pages("/api/v2/accounts", "accounts")
  const mine = nodesOf(await r.query("/api/v2/accounts", { "filter.partyIds": party }), "accounts")
  const asset = mine[0]?.asset as string
  await r.query("/api/v2/accounts", {
    "filter.assetId": asset,
    "filter.marketIds": market,
    "filter.accountTypes": ["ACCOUNT_TYPE_MARGIN", "4"]
  })
  await r.query("/api/v2/accounts", { "filter.partyIds": "nope" })
  await r.query("/api/v2/accounts", { "filter.accountTypes": "ACCOUNT_TYPE_NOPE" })

  // a date range is required, within a year of now: from the world's first deposit
  const first = nodesOf(await r.query("/api/v2/deposits", { "pagination.last": "1" }), "deposits")[0]
  const since = { "dateRange.startTimestamp": String(first.createdTimestamp) }
  await r.pages("/api/v2/balance/changes", "balances", { ...since, "filter.partyIds": party })
  await r.query("/api/v2/balance/changes", { "filter.assetId": asset })
  await r.query("/api/v2/balance/changes", { "dateRange.startTimestamp": "1577836800000000000" })

  await r.pages("/api/v2/ledgerentry/history", "ledgerEntries", { "filter.fromAccountFilter.partyIds": party })
  await r.query("/api/v2/ledgerentry/history", {
    "filter.toAccountFilter.partyIds": party,
    "filter.fromAccountFilter.accountTypes": "ACCOUNT_TYPE_GENERAL",
    "filter.closeOnAccountFilters": "true",
    "filter.transferTypes": ["TRANSFER_TYPE_MARGIN_LOW", "TRANSFER_TYPE_MAKER_FEE_RECEIVE"]
  })
  await r.query("/api/v2/ledgerentry/history", { "filter.fromAccountFilter.assetId": asset })
  await r.query("/api/v2/ledgerentry/history", { "filter.fromAccountFilter.partyIds": "xyz" })
  const csv = await r.raw("/api/v2/ledgerentry/export", { partyId: party, assetId: asset })
  if (csv.contentType !== "text/csv" || !csv.text.startsWith("vega_time,")) throw new Error("not the export's CSV")
  await r.raw("/api/v2/ledgerentry/export", { partyId: "xyz" })

  const deposits = nodesOf(await r.query("/api/v2/deposits", { partyId: party }), "deposits")
  await r.pages("/api/v2/deposits", "deposits")
  await r.query("/api/v2/deposit/{id}", {}, { id: deposits[0].id })
  await r.query("/api/v2/deposit/{id}", {}, { id: "ab".repeat(32) })
  await r.query("/api/v2/deposit/{id}", {}, { id: "xyz" })
  await r.query("/api/v2/deposits", { partyId: "xyz" })
  const withdrawals = nodesOf(await r.query("/api/v2/withdrawals"), "withdrawals")
  await r.pages("/api/v2/withdrawals", "withdrawals")
  if (withdrawals.length > 0) await r.query("/api/v2/withdrawal/{id}", {}, { id: withdrawals[0].id })
  await r.query("/api/v2/withdrawal/{id}", {}, { id: "ab".repeat(32) })
  await r.query("/api/v2/withdrawal/{id}", {}, { id: "xyz" })
}

/** Market data, depth and candles, their errors, and the frames of their streams. */
const markets = async (r: Recorder, sim: Simulator.Service, market: string) => {
  const streams = [
    `/api/v2/stream/markets/data?marketIds=${market}`,
    `/api/v2/stream/markets/depth?marketIds=${market}`,
    `/api/v2/stream/markets/depth/updates?marketIds=${market}`,
    `/api/v2/stream/candle/data?candleId=trades_candle_1_minute_${market}`,
    `/api/v2/stream/candle/data?candleId=trades_candle_block_${market}`,
    "/api/v2/stream/markets/depth?marketIds=" + "ab".repeat(32),
    "/api/v2/stream/candle/data?candleId=nonsense"
  ].map((path) => ({ path, stream: openHttpStream(r.url, path) }))
  await r.query("/api/v2/markets/data")
  await r.query("/api/v2/market/data/{marketId}/latest", {}, { marketId: market })
  await r.query("/api/v2/market/data/{marketId}/latest", {}, { marketId: market.toUpperCase() })
  await r.query("/api/v2/market/data/{marketId}", {}, { marketId: market })
  await r.pages("/api/v2/market/data/{marketId}", "marketData", { startTimestamp: "0" }, { marketId: market })
  await r.query("/api/v2/market/data/{marketId}", { startTimestamp: "2", endTimestamp: "1" }, { marketId: market })
  await r.query("/api/v2/market/data/{marketId}", { startTimestamp: "0" }, { marketId: "xyz" })
  await r.query("/api/v2/market/depth/{marketId}/latest", {}, { marketId: market })
  await r.query("/api/v2/market/depth/{marketId}/latest", { maxDepth: "2" }, { marketId: market })
  await r.query("/api/v2/market/depth/{marketId}/latest", {}, { marketId: "ab".repeat(32) })
  await r.query("/api/v2/market/depth/{marketId}/latest", {}, { marketId: "xyz" })
  const intervals = await r.query("/api/v2/candle/intervals", { marketId: market })
  await r.query("/api/v2/candle/intervals", { marketId: "" })
  await r.query("/api/v2/candle/intervals", { marketId: "xyz" })
  for (const { candleId } of intervals.intervalToCandleId.slice(0, 3)) {
    await r.pages("/api/v2/candle", "candles", { candleId })
  }
  const minute = `trades_candle_1_minute_${market}`
  const first = await r.query("/api/v2/candle", {
    candleId: minute,
    "pagination.first": "1",
    "pagination.newestFirst": "false"
  })
  const start = BigInt(first.candles.edges[0].node.start)
  await r.query("/api/v2/candle", { candleId: minute, fromTimestamp: String(start - 180_000_000_000n) })
  await r.query("/api/v2/candle", { candleId: minute, fromTimestamp: String(start), toTimestamp: String(start + 1n) })
  await r.query("/api/v2/candle", { candleId: `trades_candle_60_minutes_${market}` })
  await r.query("/api/v2/candle", {})
  await r.query("/api/v2/candle", { candleId: minute, fromTimestamp: "2", toTimestamp: "1" })
  // the streams' frames of two blocks (the candle poller reads the store every second)
  await Effect.runPromise(sim.advance(2))
  await new Promise((resolve) => setTimeout(resolve, 1_300))
  for (const { path, stream } of streams) {
    for (;;) {
      const line = await stream.lines.next(200).catch(() => undefined)
      if (line === undefined) break
      const template = path.slice(0, path.indexOf("?"))
      await recordLine(r, template, stream, line, `stream frame ${path.slice(0, 60)} ${line.slice(0, 80)}`)
    }
    stream.close()
  }
}

/** A stop order: a command the simulator does not model, so its result fails and echoes it. */
const stopOrder = (market: string): Commands.Command =>
  Commands.command(
    "stopOrdersSubmission",
    Commands.stopOrdersSubmission({
      risesAbove: Commands.stopOrderSetup({
        orderSubmission: Commands.orderSubmission({
          marketId: market,
          size: 1n,
          side: "SIDE_SELL",
          timeInForce: "TIME_IN_FORCE_IOC",
          type: "TYPE_MARKET",
          reduceOnly: true
        }),
        price: "150000"
      })
    })
  )

/** Transactions accepted, rejected and checked, the core's routes, and the results stream's frames. */
const transactions = async (r: Recorder, sim: Simulator.Service, market: string) => {
  const stream = openHttpStream(r.url, "/api/v2/stream/transaction-results")
  const orderStream = openHttpStream(r.url, `/api/v2/stream/orders?marketIds=${market}`)
  const tradeStream = openHttpStream(r.url, "/api/v2/stream/trades")
  const chain = await chainOf(r.url)
  const signer = key(18)
  const tx = (command: Commands.Command, extra: object = {}) =>
    buildTransaction(chain, { key: signer, command, ...extra })
  await r.query("/blockchain/height")
  await r.query("/statistics")
  await r.post("/transaction", { tx: transactionJson(tx(profile("contract"))), type: "TYPE_SYNC" })
  await r.post("/transaction/raw", { tx: base64(bytesOf(tx(order(market)))), type: "TYPE_SYNC" })
  await r.post("/transaction/raw", { tx: base64(bytesOf(tx(stopOrder(market)))), type: "TYPE_ASYNC" })
  // fails in its block: the alias is reserved
  await r.post("/transaction", { tx: transactionJson(tx(profile("network"))), type: "TYPE_SYNC" })
  // rejected by the checks: proof of work, unknown market
  await r.post("/transaction/raw", { tx: base64(bytesOf(tx(profile("x"), { invalidPow: true }))), type: "TYPE_SYNC" })
  await r.post("/transaction", { tx: transactionJson(tx(order("ab".repeat(32)))), type: "TYPE_SYNC" })
  await r.post("/transaction/check", { tx: transactionJson(tx(profile("checked"))) })
  await r.post("/transaction/raw/check", { tx: base64(bytesOf(tx(profile("checked raw")))) })
  await r.post("/transaction/raw", { tx: "AAAA", type: "TYPE_SYNC" })
  await r.post("/transaction", { tx: {}, type: "TYPE_SYNC" })
  await r.query("/statistics/spam/{partyId}", {}, { partyId: signer.publicKey })
  await Effect.runPromise(sim.advance(2))
  await r.query("/statistics/spam/{partyId}", {}, { partyId: signer.publicKey })
  await r.query("/blockchain/height")
  await r.query("/statistics")
  await recordFrames(r, "/api/v2/stream/transaction-results", stream)
  await recordFrames(r, "/api/v2/stream/orders", orderStream)
  await recordFrames(r, "/api/v2/stream/trades", tradeStream)
}

/** Every answer the contract test checks, from a simulator that has run a few epochs. */
export const record = async (sim: Simulator.Service): Promise<ReadonlyArray<Exchange>> => {
  const r = new Recorder(sim.url)
  const { market, party } = await resources(r)
  await trading(r, market)
  await neighbours(r, market)
  await money(r, sim, party, market)
  await markets(r, sim, market)
  await transactions(r, sim, market)
  await stopOrders(r, market)
  await networkParameters(r)
  await governance(r, sim)
  await margin(r, sim, market, recordFrames)
  await parties(r, party)
  await successorMarkets(r, market)
  await referrals(r)
  await oracles(r)
  await nodes(r)
  await epochRewardSummaries(r)
  await feesStats(r, market)
  await paidLiquidityFees(r)
  await liquidityProviders(r, market)
  await deprecatedProvisions(r, market)
  await fundingPeriods(r)
  await fundingDataPoints(r)
  await fundingPayments(r)
  await transfers(r, market)
  await bridge(r)
  await teams(r)
  await games(r)
  await timeWeightedNotionalPosition(r)
  await eventStreams(r, sim, market, party, recordLine)
  // it runs the world on until an asset update is enacted
  await assetLimits(r, sim)
  // last: it runs the chain on past a core snapshot
  await history(r, sim)
  return r.exchanges
}
