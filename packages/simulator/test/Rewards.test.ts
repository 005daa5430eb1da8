import { describe, expect, it } from "@effect/vitest"
import { BigDecimal } from "effect"
import { Reward, RewardSummary } from "@vega-effect/schema"
import { goFloat } from "../src/internal/world/rewards.js"
import { call, cursorJson, decoded, nodeOf, smallWorld } from "./harness.js"

const path = "/api/v2/rewards"
type Query = Parameters<typeof call>[2]

describe("GET /api/v2/rewards", () => {
  const world = smallWorld()
  const rewards = (query: Query = {}, node = nodeOf(world)) =>
    decoded(Reward.ListRewardsResponse, call(node, path, query)).rewards
  const nodes = (query: Query = {}, node = nodeOf(world)) => rewards(query, node).edges.map((e) => e.node)
  const all = () => nodes({ "pagination.first": 5000 })
  const key = (r: { partyId: string; assetId: string; epoch: bigint }) => `${r.partyId}/${r.assetId}/${r.epoch}`

  it("serves one row per payment, matching the world's ground truth", () => {
    const served = all()
    const truth = world.rewards.rows
    expect(served).toHaveLength(truth.length)
    expect(truth.length).toBeGreaterThan(100)
    const byKey = new Map(served.map((r) => [key(r), r]))
    for (const row of truth) {
      const r = byKey.get(`${row.party.id}/${row.asset.id}/${row.epoch}`)!
      expect(r.amount).toBe(row.amount)
      expect(r.rewardType).toBe(
        row.asset.id === world.catalog.vega.id ? "ACCOUNT_TYPE_GLOBAL_REWARD" : "ACCOUNT_TYPE_FEES_INFRASTRUCTURE"
      )
      expect(r.receivedAt).toBe(BigInt(world.chain.blockTime(world.chain.epochLastBlock(row.epoch))) * 1000n)
      expect(r.receivedAt % 1000n).toBe(0n)
      expect(r.lockedUntilEpoch).toBe(r.epoch)
      expect(r.marketId).toBe("")
      expect(r.quantumAmount).toBe(((r.amount * 1_000_000n) / BigInt(row.asset.quantum) + 500_000n) / 1_000_000n)
      expect("gameId" in r || "teamId" in r).toBe(false)
    }
  })

  it("gives each party its share of the epoch's total per asset and type, as Go prints a float64", () => {
    const byPayout = new Map<string, Array<Reward.Reward>>()
    for (const r of all()) {
      const k = `${r.epoch}/${r.assetId}/${String(r.rewardType)}`
      byPayout.set(k, [...(byPayout.get(k) ?? []), r])
    }
    for (const rows of byPayout.values()) {
      const total = rows.reduce((s, r) => s + r.amount, 0n)
      let sum = 0
      for (const r of rows) {
        // the shortest float64 text, within one rounding of the exact share
        expect(goFloat(Number(r.percentageOfTotal))).toBe(r.percentageOfTotal)
        const p = BigDecimal.normalize(Reward.percentageToBigDecimal(r.percentageOfTotal))
        const exact = r.amount * 100n * 10n ** BigInt(p.scale)
        const error = p.value * total - exact
        expect((error < 0n ? -error : error) * 10n ** 16n <= exact * 4n).toBe(true)
        sum += Number(r.percentageOfTotal)
      }
      expect(sum).toBeCloseTo(100, 6)
    }
  })

  it("prints percentages like Go's %v", () => {
    expect(goFloat(100)).toBe("100")
    expect(goFloat(25)).toBe("25")
    expect(goFloat(100 / 3)).toBe("33.333333333333336")
    expect(goFloat(0.00005)).toBe("5e-05")
    expect(goFloat(0.0001)).toBe("0.0001")
    expect(goFloat(1.2345e-7)).toBe("1.2345e-07")
    expect(goFloat(0.5)).toBe("0.5")
    expect(goFloat(1e6)).toBe("1e+06")
    expect(goFloat(123456)).toBe("123456")
    expect(goFloat(0)).toBe("0")
  })

  it("sums to the reward summaries, for every party and asset", () => {
    const summaries = decoded(
      RewardSummary.ListRewardSummariesResponse,
      call(nodeOf(world), "/api/v2/rewards/summaries")
    ).summaries
    const sums = new Map<string, bigint>()
    for (const r of all())
      sums.set(`${r.partyId}/${r.assetId}`, (sums.get(`${r.partyId}/${r.assetId}`) ?? 0n) + r.amount)
    expect(summaries).toHaveLength(sums.size)
    for (const s of summaries) expect(sums.get(`${s.partyId}/${s.assetId}`)).toBe(s.amount)
  })

  it("keeps summaries equal to the rows as the world advances, and at an older height", () => {
    const w = smallWorld({ seed: 11 })
    const before = w.height
    const epoch = w.epoch
    while (w.epoch < epoch + 2) w.advance(1)
    for (const node of [nodeOf(w), nodeOf(w, { height: before })]) {
      const rows = nodes({ "pagination.first": 5000 }, node)
      const total = rows.reduce((s, r) => s + r.amount, 0n)
      const summaries = decoded(RewardSummary.ListRewardSummariesResponse, call(node, "/api/v2/rewards/summaries"))
      expect(summaries.summaries.reduce((s, x) => s + x.amount, 0n)).toBe(total)
    }
    const earlier = nodes({ "pagination.first": 5000 }, nodeOf(w, { height: before }))
    expect(earlier.length).toBeGreaterThan(0)
    expect(earlier.filter((r) => r.epoch >= BigInt(epoch))).toEqual([])
  })

  it("lists newest epoch first by default, oldest first with newestFirst=false, 1000 rows by default", () => {
    const page = rewards()
    expect(page.edges.length).toBe(Math.min(1000, world.rewards.rows.length))
    const epochs = page.edges.map((e) => e.node.epoch)
    expect(epochs).toEqual([...epochs].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)))
    const asc = nodes({ "pagination.newestFirst": false }).map((r) => r.epoch)
    expect(asc).toEqual([...asc].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
    expect(asc[0]).toBe(1n)
  })

  it("filters by party, asset and an inclusive epoch range", () => {
    const one = all()[0]
    const byParty = nodes({ partyId: one.partyId })
    const byAsset = nodes({ assetId: one.assetId, "pagination.first": 5000 })
    // a filter that returned nothing would pass `every` without checking anything
    expect(byParty.length).toBeGreaterThan(0)
    expect(byAsset.length).toBeGreaterThan(1)
    expect(byParty.filter((r) => r.partyId !== one.partyId)).toEqual([])
    expect(nodes({ partyId: "" })).toEqual(nodes())
    expect(byAsset.filter((r) => r.assetId !== one.assetId)).toEqual([])
    const range = nodes({ fromEpoch: 3n, toEpoch: 4n, "pagination.first": 5000 })
    expect(new Set(range.map((r) => r.epoch))).toEqual(new Set([3n, 4n]))
    expect(range).toHaveLength(world.rewards.rows.filter((r) => r.epoch === 3 || r.epoch === 4).length)
    expect(nodes({ fromEpoch: 5n, toEpoch: 4n })).toEqual([])
    expect(nodes({ fromEpoch: 18446744073709551615n })).toEqual([])
    expect(nodes({ partyId: "ab".repeat(32) })).toEqual([])
    expect(nodes({ teamId: "ab".repeat(32) })).toEqual([])
    expect(nodes({ gameId: "ab".repeat(32) })).toEqual([])
  })

  it("pages exactly by (epoch, party, asset) without quirks", () => {
    const seen: Array<string> = []
    let after: string | undefined
    for (;;) {
      const page = rewards({ "pagination.first": 37, ...(after === undefined ? {} : { "pagination.after": after }) })
      seen.push(...page.edges.map((e) => key(e.node)))
      if (!page.pageInfo.hasNextPage) break
      after = page.pageInfo.endCursor
    }
    expect(seen).toEqual(all().map(key))
    const last = rewards({ "pagination.last": 10 })
    expect(last.edges.map((e) => key(e.node))).toEqual(all().slice(-10).map(key))
    expect(last.pageInfo.hasPreviousPage).toBe(true)
    expect(JSON.parse(cursorJson(last.edges[0].cursor))).toEqual({
      party_id: last.edges[0].node.partyId,
      asset_id: last.edges[0].node.assetId,
      epoch_id: Number(last.edges[0].node.epoch)
    })
    expect(cursorJson(last.edges[0].cursor)).toMatch(
      /^\{"party_id":"[0-9a-f]{64}","asset_id":"[0-9a-f]{64}","epoch_id":\d+\}$/
    )
  })

  it("with v0.75 quirks, a cursor restarts at the first row of its epoch", () => {
    const quirky = nodeOf(world, { quirks: true })
    const first = rewards({ "pagination.first": 5 }, quirky)
    const cursorEpoch = first.edges[4].node.epoch
    const rowsOfEpoch = all()
      .filter((r) => r.epoch === cursorEpoch)
      .map(key)
    const second = rewards({ "pagination.first": 5, "pagination.after": first.pageInfo.endCursor }, quirky)
    // the page restarts inside epoch E: it drops one row (taken to be the cursor) and returns rows of E again
    expect(second.edges[0].node.epoch).toBe(cursorEpoch)
    expect(rowsOfEpoch.indexOf(key(second.edges[0].node))).toBe(1)
    expect(second.edges.some((e) => first.edges.some((f) => key(f.node) === key(e.node)))).toBe(true)
    // with more rows in one epoch than the page size, cursor paging never leaves the epoch
    const third = rewards({ "pagination.first": 5, "pagination.after": second.pageInfo.endCursor }, quirky)
    expect(third.edges.map((e) => key(e.node))).toEqual(second.edges.map((e) => key(e.node)))
  })

  it("rejects invalid pagination with 10028", () => {
    for (const [query, inner] of [
      [{ "pagination.first": 0 }, "pagination limit must be in range 0-5000"],
      [{ "pagination.first": 5001 }, "pagination limit must be in range 0-5000"],
      [{ "pagination.after": "" }, "failed to decode after cursor: cursor is empty"],
      [{ "pagination.after": "a", "pagination.before": "b" }, "cannot set both a before and after cursor"]
    ] as const) {
      const reply = call(nodeOf(world), path, query)
      expect(reply.status).toBe(400)
      expect(JSON.parse(reply.body)).toEqual({
        code: 3,
        message: "InvalidArgument error",
        details: [
          { "@type": "type.googleapis.com/vega.ErrorDetail", code: 10028, message: "invalid pagination", inner }
        ]
      })
    }
  })

  it("answers Go's unmarshal error for a cursor whose integer field is not an integer", () => {
    const id = "ab".repeat(32)
    const cursor = (epoch: unknown) =>
      Buffer.from(JSON.stringify({ party_id: id, asset_id: id, epoch_id: epoch })).toString("base64")
    const innerOf = (epoch: unknown) =>
      JSON.parse(call(nodeOf(world), path, { "pagination.after": cursor(epoch) }).body).details[0].inner as string
    expect(innerOf(1.5)).toContain(
      "json: cannot unmarshal number 1.5 into Go struct field RewardCursor.epoch_id of type int64"
    )
    expect(innerOf("2")).toContain(
      "json: cannot unmarshal string into Go struct field RewardCursor.epoch_id of type int64"
    )
    expect(call(nodeOf(world), path, { "pagination.after": cursor(2) }).status).toBe(200)
  })

  it("rejects ids that are not hex with 230001", () => {
    for (const name of ["partyId", "assetId", "teamId", "gameId"]) {
      const reply = call(nodeOf(world), path, { [name]: "xyz" })
      expect(reply.status).toBe(400)
      const body = JSON.parse(reply.body)
      expect(body.code).toBe(3)
      expect(body.details[0]).toMatchObject({
        code: 230001,
        message: "failed to get rewards",
        inner:
          "querying rewards: scany: query multiple result rows: decoding 'xyz': not a valid hex id (or well known exception)"
      })
    }
  })

  it("answers a cursor that is not the cursor's JSON with a 500", () => {
    const reply = call(nodeOf(world), path, { "pagination.after": Buffer.from("nope").toString("base64") })
    expect(reply.status).toBe(500)
    const body = JSON.parse(reply.body)
    expect(body.code).toBe(13)
    expect(body.message).toBe("Internal error")
    expect(body.details[0].code).toBe(230001)
    expect(body.details[0].inner).toMatch(/^parsing cursor: parsing cursor: /)
  })
})
