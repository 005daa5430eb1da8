import { describe, expect, it } from "@effect/vitest"
import { call, cursorJson, nodeOf, smallWorld } from "./harness.js"

const world = smallWorld({ scale: { signerBundles: 15, liquidityProvisions: 80 } })
world.advance(30)
const node = nodeOf(world)
const stakeParty = [...world.stakeLinkings.byParty.entries()].sort((a, b) => b[1].length - a[1].length)[0][0]

// endpoint, extra query, connection field, cursor keys, and the ordering key of a node
const cases: ReadonlyArray<{
  readonly name: string
  readonly path: string
  readonly query: Record<string, string | boolean>
  readonly pathParams?: Record<string, string>
  readonly field: string
  readonly keys: ReadonlyArray<string>
}> = [
  {
    name: "stake",
    path: "/api/v2/parties/{partyId}/stake",
    query: {},
    pathParams: { partyId: stakeParty },
    field: "stakeLinkings",
    keys: ["vegaTime", "id"]
  },
  {
    name: "liquidity provisions",
    path: "/api/v2/liquidity/all-provisions",
    query: { marketId: world.catalog.markets[0].id },
    field: "liquidityProvisions",
    keys: ["vegaTime", "id"]
  },
  {
    name: "positions",
    path: "/api/v2/positions",
    query: {},
    field: "positions",
    keys: ["vega_time", "party_id", "market_id"]
  },
  {
    name: "referral set stats",
    path: "/api/v2/referral-sets/stats",
    query: {},
    field: "stats",
    keys: ["VegaTime", "AtEpoch", "SetID", "PartyID"]
  },
  {
    name: "signer bundles",
    path: "/api/v2/erc20/multisigcontrol/signer/added/bundles",
    query: {},
    field: "bundles",
    keys: ["vega_time", "id"]
  },
  {
    name: "profiles",
    path: "/api/v2/parties/profiles",
    query: {},
    field: "profiles",
    keys: ["PartyID", "Alias", "Metadata"]
  }
]

const page = (c: (typeof cases)[number], query: Record<string, string | number | boolean>) => {
  const reply = call(node, c.path, { ...c.query, ...query }, c.pathParams ?? {})
  expect(reply.status).toBe(200)
  return JSON.parse(reply.body)[c.field] as {
    edges: Array<{ cursor: string }>
    pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string }
  }
}

describe.each(cases)("$name: ordering and cursors", (c) => {
  it("newestFirst=false lists the same rows in reverse", () => {
    const newest = page(c, { "pagination.first": 5000 }).edges.map((e) => e.cursor)
    const oldest = page(c, { "pagination.first": 5000, "pagination.newestFirst": false }).edges.map((e) => e.cursor)
    expect(newest.length).toBeGreaterThan(3)
    expect(oldest).toEqual([...newest].reverse())
  })

  it("writes the endpoint's cursor struct", () => {
    const cursor = JSON.parse(cursorJson(page(c, { "pagination.first": 1 }).edges[0].cursor))
    expect(Object.keys(cursor)).toEqual(c.keys)
  })

  it("pages forwards and backwards over the same rows", () => {
    const all = page(c, { "pagination.first": 5000 }).edges.map((e) => e.cursor)
    const forward: Array<string> = []
    let after: string | undefined
    for (;;) {
      const p = page(c, { "pagination.first": 2, ...(after === undefined ? {} : { "pagination.after": after }) })
      forward.push(...p.edges.map((e) => e.cursor))
      if (!p.pageInfo.hasNextPage) break
      after = p.pageInfo.endCursor
    }
    expect(forward).toEqual(all)
    const backward: Array<string> = []
    let before: string | undefined
    for (;;) {
      const p = page(c, { "pagination.last": 2, ...(before === undefined ? {} : { "pagination.before": before }) })
      backward.unshift(...p.edges.map((e) => e.cursor))
      if (!p.pageInfo.hasPreviousPage) break
      before = p.edges[0].cursor
    }
    expect(backward).toEqual(all)
  })
})
