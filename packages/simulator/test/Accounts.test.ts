import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { createHash } from "node:crypto"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const world = smallWorld()
world.advance(30)
const node = nodeOf(world)

type Query = Parameters<typeof call>[2]
const accounts = (query: Query = {}, n = node) =>
  decoded(DataNode.ListAccountsResponse, call(n, "/api/v2/accounts", query))
const changes = (query: Query = {}, n = node) =>
  decoded(DataNode.ListBalanceChangesResponse, call(n, "/api/v2/balance/changes", query))
const ledger = (query: Query = {}) =>
  decoded(DataNode.ListLedgerEntriesResponse, call(node, "/api/v2/ledgerentry/history", query))
const deposits = (query: Query = {}) => decoded(DataNode.ListDepositsResponse, call(node, "/api/v2/deposits", query))
const withdrawals = (query: Query = {}) =>
  decoded(DataNode.ListWithdrawalsResponse, call(node, "/api/v2/withdrawals", query))

const GENERAL = "ACCOUNT_TYPE_GENERAL" // as the gateway parses it
const MARGIN = "ACCOUNT_TYPE_MARGIN" // as the gateway parses it
/** The first block time of the world, in unix nanoseconds: a date range from it covers everything. */
const since = BigInt(world.chain.blockTime(1)) * 1000n - 86_400n * 1_000_000_000n

const idOf = (a: DataNode.AccountBalance) =>
  createHash("sha256").update(`${a.asset}${a.owner}${a.marketId}${a.type}`).digest("hex")
const accountIdOf = (edge: { cursor: string }) => JSON.parse(cursorJson(edge.cursor)).account_id as string

/** Every account of the world with a balance (all but the external ones). */
const listed = [...world.accounts.byKey.values()].filter((a) => a.type !== "ACCOUNT_TYPE_EXTERNAL")

const allAccounts = (query: Query = {}, n = node) =>
  walk((after) => {
    const page = accounts(
      { "pagination.first": 97, ...query, ...(after === undefined ? {} : { "pagination.after": after }) },
      n
    )
    return {
      nodes: page.accounts.edges,
      next: page.accounts.pageInfo.hasNextPage,
      end: page.accounts.pageInfo.endCursor
    }
  })

describe("GET /api/v2/accounts", () => {
  it("lists every account with a balance once, by account id, newest (highest) first", () => {
    const edges = allAccounts()
    expect(edges.length).toBe(listed.length)
    const ids = edges.map(accountIdOf)
    expect(new Set(ids).size).toBe(ids.length)
    for (let i = 1; i < ids.length; i++) expect(ids[i] < ids[i - 1]).toBe(true)
    // the cursor's id is the node's deterministic id of the account
    for (const edge of edges.slice(0, 20)) expect(accountIdOf(edge)).toBe(idOf(edge.node))
    expect(edges.some((e) => e.node.owner === "network" && e.node.type === "ACCOUNT_TYPE_INSURANCE")).toBe(true)
    expect(edges.some((e) => e.node.type === "ACCOUNT_TYPE_EXTERNAL")).toBe(false)
  })

  it("pages backwards and oldest first to the same accounts, without repeat or miss", () => {
    const forward = allAccounts().map(accountIdOf)
    const backward: Array<string> = []
    let before: string | undefined
    for (;;) {
      const page = accounts({ "pagination.last": 61, ...(before === undefined ? {} : { "pagination.before": before }) })
      backward.unshift(...page.accounts.edges.map(accountIdOf))
      if (!page.accounts.pageInfo.hasPreviousPage) break
      before = page.accounts.pageInfo.startCursor
    }
    expect(backward).toEqual(forward)
    const oldest = allAccounts({ "pagination.newestFirst": false }).map(accountIdOf)
    expect(oldest).toEqual([...forward].reverse())
    expect(cursorJson(accounts({ "pagination.first": 1 }).accounts.edges[0].cursor)).toMatch(
      /^\{"account_id":"[0-9a-f]{64}"\}$/
    )
  })

  it("filters by party, asset, market and type", () => {
    const party = world.catalog.parties[3].id
    const market = world.catalog.markets[0]
    const mine = allAccounts({ "filter.partyIds": [party.toUpperCase()] }).map((e) => e.node)
    expect(mine.length).toBe(listed.filter((a) => a.owner === party).length)
    expect(mine.every((a) => a.owner === party)).toBe(true)
    const margins = allAccounts({
      "filter.assetId": market.settlementAsset.id,
      "filter.marketIds": [market.id],
      "filter.accountTypes": [MARGIN]
    }).map((e) => e.node)
    expect(margins.length).toBe(listed.filter((a) => a.market === market && a.type === "ACCOUNT_TYPE_MARGIN").length)
    expect(margins.length).toBeGreaterThan(0)
    const network = allAccounts({ "filter.partyIds": ["network"], "filter.accountTypes": [GENERAL] })
    expect(network).toEqual([])
  })

  it("rejects invalid ids, markets first, and an asset id that is not hex", () => {
    const reply = call(node, "/api/v2/accounts", { "filter.partyIds": ["nope"], "filter.marketIds": ["bad"] })
    expect(reply.status).toBe(400)
    expect(reply.body).toBe(
      '{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10000,"message":"invalid party id","inner":"one or more market id is invalid"}]}'
    )
    const asset = call(node, "/api/v2/accounts", { "filter.assetId": "xyz" })
    expect(asset.status).toBe(400)
    expect(JSON.parse(asset.body).details[0]).toMatchObject({ code: 80006, message: "failed to get accounts" })
    const cursor = call(node, "/api/v2/accounts", { "pagination.after": Buffer.from("[1]").toString("base64") })
    expect(cursor.status).toBe(500)
    expect(JSON.parse(cursor.body).details[0].inner).toBe(
      "parsing cursor: parsing cursor: json: cannot unmarshal array into Go value of type entities.AccountCursor"
    )
  })

  it("shows a lagging node the balances as they were", () => {
    const fresh = smallWorld()
    const height = fresh.height
    const then = allAccounts({}, nodeOf(fresh)).map((e) => e.node)
    fresh.advance(8)
    const lagging = allAccounts({}, nodeOf(fresh, { height })).map((e) => e.node)
    expect(lagging).toEqual(then)
    expect(allAccounts({}, nodeOf(fresh)).map((e) => e.node)).not.toEqual(then)
  })
})

describe("the money invariants through the routes", () => {
  it("per asset, the balances sum to the deposits minus the withdrawals", () => {
    const everyDeposit = walk((after) => {
      const page = deposits({ "pagination.first": 500, ...(after === undefined ? {} : { "pagination.after": after }) })
      return {
        nodes: page.deposits.edges,
        next: page.deposits.pageInfo.hasNextPage,
        end: page.deposits.pageInfo.endCursor
      }
    }).map((e) => e.node)
    const everyWithdrawal = walk((after) => {
      const page = withdrawals({
        "pagination.first": 500,
        ...(after === undefined ? {} : { "pagination.after": after })
      })
      return {
        nodes: page.withdrawals.edges,
        next: page.withdrawals.pageInfo.hasNextPage,
        end: page.withdrawals.pageInfo.endCursor
      }
    }).map((e) => e.node)
    expect(everyWithdrawal.length).toBeGreaterThan(0)
    const net = new Map<string, bigint>()
    for (const d of everyDeposit) net.set(d.asset, (net.get(d.asset) ?? 0n) + d.amount)
    for (const w of everyWithdrawal) net.set(w.asset, (net.get(w.asset) ?? 0n) - w.amount)
    const held = new Map<string, bigint>()
    for (const { node: a } of allAccounts()) held.set(a.asset, (held.get(a.asset) ?? 0n) + a.balance)
    expect(held).toEqual(net)
  })

  it("a party's ledger entries replayed give the balances of its accounts", () => {
    for (const party of world.catalog.parties.slice(1, 6).map((p) => p.id)) {
      const entries = walk((after) => {
        const page = ledger({
          "filter.fromAccountFilter.partyIds": [party],
          "filter.toAccountFilter.partyIds": [party],
          "pagination.first": 200,
          "pagination.newestFirst": false,
          ...(after === undefined ? {} : { "pagination.after": after })
        })
        const edges = page.ledgerEntries.edges
        return {
          nodes: edges,
          next: page.ledgerEntries.pageInfo.hasNextPage,
          end: page.ledgerEntries.pageInfo.endCursor
        }
      }).map((e) => e.node)
      expect(entries.length).toBeGreaterThan(0)
      const balances = new Map<string, bigint>()
      const keyOf = (owner: string | undefined, asset: string | undefined, market: string | undefined, type: unknown) =>
        `${owner}/${asset}/${market ?? ""}/${String(type)}`
      for (const e of entries as ReadonlyArray<DataNode.AggregatedLedgerEntry>) {
        const from = keyOf(e.fromAccountPartyId, e.assetId, e.fromAccountMarketId, e.fromAccountType)
        const to = keyOf(e.toAccountPartyId, e.assetId, e.toAccountMarketId, e.toAccountType)
        if (e.fromAccountPartyId === party) {
          const after = (balances.get(from) ?? 0n) - e.quantity
          expect(after).toBe(e.fromAccountBalance)
          balances.set(from, after)
        }
        if (e.toAccountPartyId === party) {
          const after = (balances.get(to) ?? 0n) + e.quantity
          expect(after).toBe(e.toAccountBalance)
          balances.set(to, after)
        }
      }
      const answered = new Map(
        allAccounts({ "filter.partyIds": [party] }).map(({ node: a }) => [
          keyOf(a.owner, a.asset, a.marketId === "" ? undefined : a.marketId, a.type),
          a.balance
        ])
      )
      for (const [key, balance] of answered) expect([key, balances.get(key) ?? 0n]).toEqual([key, balance])
      for (const key of balances.keys()) expect(answered.has(key)).toBe(true)
    }
  })
})

const allChanges = (query: Query, quirks = false) =>
  walk((after) => {
    const page = changes(
      { "dateRange.startTimestamp": since, ...query, ...(after === undefined ? {} : { "pagination.after": after }) },
      nodeOf(world, { quirks })
    )
    return {
      nodes: page.balances.edges,
      next: page.balances.pageInfo.hasNextPage,
      end: page.balances.pageInfo.endCursor
    }
  })

describe("GET /api/v2/balance/changes", () => {
  const party = world.catalog.parties[2].id
  const versions = [...world.accounts.byKey.values()].filter((a) => a.owner === party).flatMap((a) => a.versions)

  it("lists every balance a party's accounts had, newest first, over pages", () => {
    const edges = allChanges({ "filter.partyIds": [party], "pagination.first": 7 })
    expect(edges.length).toBe(versions.length)
    const nodes = edges.map((e) => e.node)
    for (let i = 1; i < nodes.length; i++) expect(nodes[i].timestamp <= nodes[i - 1].timestamp).toBe(true)
    expect(new Set(edges.map((e) => e.cursor)).size).toBe(edges.length)
    expect(cursorJson(edges[0].cursor)).toMatch(
      /^\{"vega_time":"[^"]+","AccountID":null,"PartyID":"[0-9a-f]{64}","AssetID":"[0-9a-f]{64}","MarketID":"([0-9a-f]{64})?","Type":\d+\}$/
    )
    const latest = new Map<string, bigint>()
    for (const n of [...nodes].reverse()) latest.set(`${n.assetId}/${n.marketId}/${String(n.accountType)}`, n.balance)
    for (const { node: a } of allAccounts({ "filter.partyIds": [party] })) {
      expect(latest.get(`${a.asset}/${a.marketId}/${a.type}`)).toBe(a.balance)
    }
  })

  it("with quirks, a cursor skips the rows at its own time, as the node's does", () => {
    // the opening block credits many accounts at one time: the second page starts inside it,
    // unless the cursor (which holds no account id) skips the rest of that block
    const query = { "dateRange.startTimestamp": since, "pagination.first": 5, "pagination.newestFirst": false }
    const second = (quirks: boolean) => {
      const n = nodeOf(world, { quirks })
      const first = changes(query, n).balances
      const next = changes({ ...query, "pagination.after": first.pageInfo.endCursor }, n).balances
      return [first.edges[4].node.timestamp, next.edges[0].node.timestamp]
    }
    const [opening, exact] = second(false)
    expect(exact).toBe(opening)
    const [, skipped] = second(true)
    expect(skipped > opening).toBe(true)
  })

  it("requires a date range without a cursor, answered as an unmapped 500", () => {
    const reply = call(node, "/api/v2/balance/changes", {})
    expect(reply.status).toBe(500)
    expect(reply.body).toBe(
      '{"code":13,"message":"Internal error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10000,"message":"invalid date range","inner":"invalid date range, date range is required"}]}'
    )
    const long = call(node, "/api/v2/balance/changes", { "dateRange.endTimestamp": since })
    expect(JSON.parse(long.body).details[0].inner).toBe("date range is too long")
    const first = changes({ "dateRange.startTimestamp": since, "pagination.first": 1 }).balances.pageInfo.endCursor
    expect(call(node, "/api/v2/balance/changes", { "pagination.after": first }).status).toBe(200)
  })

  it("keeps the range's end exclusive", () => {
    const edges = allChanges({ "filter.partyIds": [party] })
    const t = edges[Math.floor(edges.length / 2)].node.timestamp
    const before = allChanges({ "filter.partyIds": [party], "dateRange.endTimestamp": t })
    expect(before.length).toBe(edges.filter((e) => e.node.timestamp < t).length)
    expect(before.length).toBeGreaterThan(0)
  })
})
