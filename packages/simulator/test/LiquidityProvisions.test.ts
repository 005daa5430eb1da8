import { describe, expect, it } from "@effect/vitest"
import { DataNode, LiquidityProvision } from "@vega-effect/schema"
import { call, decoded, nodeOf, smallWorld } from "./harness.js"

const path = "/api/v2/liquidity/all-provisions"
const world = smallWorld({ scale: { liquidityProvisions: 120 }, activity: { liquidityChanges: 3 } })
world.advance(70)
const node = nodeOf(world)
const market = world.catalog.markets[0].id
const provisions = (query: Parameters<typeof call>[2], n = node) =>
  decoded(LiquidityProvision.ListLiquidityProvisionsResponse, call(n, path, query)).liquidityProvisions.edges.map(
    (e) => e.node
  )

describe("GET /api/v2/liquidity/all-provisions", () => {
  it("lists the history by default and only live provisions with live=true", () => {
    const history = provisions({ marketId: market })
    const live = provisions({ marketId: market, live: true })
    expect(history.length).toBeGreaterThan(live.length)
    const liveStatuses = new Set(["STATUS_ACTIVE", "STATUS_UNDEPLOYED", "STATUS_PENDING"])
    for (const n of live) expect(liveStatuses.has((n.pending ?? n.current).status as string)).toBe(true)
    expect(new Set(live.map((n) => n.current.id)).size).toBe(live.length)
    expect(history.some((n) => ["STATUS_STOPPED", "STATUS_CANCELLED"].includes(n.current.status as string))).toBe(true)
  })

  it("pairs a pending amendment with the active version it will replace", () => {
    const all = [...world.catalog.markets].flatMap((m) => provisions({ marketId: m.id, live: true }))
    const amended = all.filter((n) => n.pending !== undefined)
    expect(amended.length).toBeGreaterThan(0)
    for (const n of amended) {
      expect(n.pending!.status).toBe("STATUS_PENDING")
      expect(n.current.status).toBe("STATUS_ACTIVE")
      expect(n.current.version).toBe(n.pending!.version - 1n)
      expect(n.current.id).toBe(n.pending!.id)
    }
    expect(all.some((n) => n.pending === undefined)).toBe(true)
  })

  it("activates pending amendments at the next epoch", () => {
    const w = smallWorld({ scale: { liquidityProvisions: 120 }, activity: { liquidityChanges: 3 } })
    w.advance(70)
    const pendingIds = w.catalog.markets
      .flatMap((m) => provisions({ marketId: m.id, live: true }, nodeOf(w)))
      .filter((n) => n.pending !== undefined)
      .map((n) => n.current.id)
    const epoch = w.epoch
    while (w.epoch === epoch) w.advance(1)
    const after = w.catalog.markets.flatMap((m) => provisions({ marketId: m.id, live: true }, nodeOf(w)))
    for (const id of pendingIds) {
      const n = after.find((x) => x.current.id === id)
      if (n !== undefined && n.pending === undefined) expect(n.current.status).not.toBe("STATUS_PENDING")
    }
    expect(after.filter((n) => pendingIds.includes(n.current.id) && n.pending === undefined).length).toBeGreaterThan(0)
  })

  it("filters by party and reference", () => {
    // a provision with a reference, so that the reference filter is always exercised
    const some = provisions({ marketId: market }).find((n) => n.current.reference !== "")!.current
    const byParty = provisions({ partyId: some.partyId })
    const byReference = provisions({ marketId: market, reference: some.reference })
    expect(byParty.length).toBeGreaterThan(0)
    expect(byReference.length).toBeGreaterThan(0)
    expect(byParty.filter((n) => n.current.partyId !== some.partyId)).toEqual([])
    expect(byReference.filter((n) => n.current.reference !== some.reference)).toEqual([])
  })

  it("needs a market or a party on a v0.75 node (HTTP 500), lists everything otherwise", () => {
    const quirky = call(nodeOf(world, { quirks: true }), path, {})
    expect(quirky.status).toBe(500)
    expect(quirky.body).toBe(
      '{"code":13,"message":"Internal error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":280001,"message":"failed to get liquidity provision","inner":"partyID: , marketID: , reference: : market or party filters are required"}]}'
    )
    expect(provisions({ "pagination.first": 5000 }).length).toBe(world.liquidityProvisions.size())
  })

  it("validates pagination before the filters, and rejects ids that are not hex", () => {
    expect(
      JSON.parse(call(nodeOf(world, { quirks: true }), path, { "pagination.last": 9999 }).body).details[0].code
    ).toBe(10028)
    const bad = call(node, path, { marketId: "zz" })
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body).details[0]).toMatchObject({
      code: 280001,
      message: "failed to get liquidity provision"
    })
    expect(call(node, path, { partyId: "", marketId: market }).status).toBe(200)
  })
})

describe("GET /api/v2/liquidity/provisions (deprecated)", () => {
  const deprecated = "/api/v2/liquidity/provisions"
  const rows = (query: Parameters<typeof call>[2]) =>
    decoded(DataNode.ListLiquidityProvisionsResponse, call(node, deprecated, query)).liquidityProvisions

  it("lists the same rows as all-provisions, each as itself", () => {
    for (const live of [false, true]) {
      const page = rows({ marketId: market, live })
      const all = decoded(
        LiquidityProvision.ListLiquidityProvisionsResponse,
        call(node, path, { marketId: market, live })
      ).liquidityProvisions
      expect(page.edges.map((e) => e.cursor)).toEqual(all.edges.map((e) => e.cursor))
      // a pending amendment is listed as the pending row, not as the version it replaces
      expect(page.edges.map((e) => e.node)).toEqual(all.edges.map((e) => e.node.pending ?? e.node.current))
    }
  })

  it("pages with the cursors, and needs a market or party filter", () => {
    const first = rows({ marketId: market, "pagination.first": 3 })
    const next = rows({ marketId: market, "pagination.first": 3, "pagination.after": first.pageInfo.endCursor })
    const six = rows({ marketId: market, "pagination.first": 6 })
    expect([...first.edges, ...next.edges].map((e) => e.node.id)).toEqual(six.edges.map((e) => e.node.id))
    expect(call(nodeOf(world, { quirks: true }), deprecated, {}).status).toBe(500)
  })
})
