import { describe, expect, it } from "@effect/vitest"
import { DataNode, ReferralSetStats } from "@vega-effect/schema"
import { microsToRfc3339 } from "../src/internal/goTime.js"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const world = smallWorld({ scale: { referralSets: 4, refereesPerSet: 5 } })
const sets = (query: Parameters<typeof call>[2] = {}, quirks = false) =>
  decoded(DataNode.ListReferralSetsResponse, call(nodeOf(world, { quirks }), "/api/v2/referral-sets", query))
    .referralSets
const referees = (query: Parameters<typeof call>[2] = {}, height?: number) =>
  decoded(
    DataNode.ListReferralSetRefereesResponse,
    call(nodeOf(world, height === undefined ? {} : { height }), "/api/v2/referral-sets/referees", query)
  ).referralSetReferees
const stats = (query: Parameters<typeof call>[2]) =>
  decoded(ReferralSetStats.GetReferralSetStatsResponse, call(nodeOf(world), "/api/v2/referral-sets/stats", query)).stats
    .edges

describe("GET /api/v2/referral-sets", () => {
  it("lists every set by creation time, newest first, with the referrer and its members", () => {
    const edges = sets().edges
    expect(edges.map((e) => e.node.id).sort()).toEqual(world.referralSets.sets.map((s) => s.id).sort())
    // newest first unless told otherwise (the node's default)
    const times = edges.map((e) => e.node.createdAt)
    expect(times).toEqual([...times].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)))
    for (const { node } of edges) {
      const set = world.referralSets.sets.find((s) => s.id === node.id)!
      expect(node.referrer).toBe(set.referrer.id)
      expect(node.updatedAt).toBe(node.createdAt)
      const current = world.referralSets.currentReferees.filter((j) => j.set.id === node.id).length
      expect(node.totalMembers).toBe(BigInt(current + 1))
    }
    expect(sets({ "pagination.newestFirst": false }).edges.map((e) => e.node.id)).toEqual(
      edges.map((e) => e.node.id).reverse()
    )
  })

  it("pages both ways with the set's cursor", () => {
    const all = sets().edges.map((e) => e.node.id)
    const forward = walk((after) => {
      const page = sets({ "pagination.first": 1, ...(after === undefined ? {} : { "pagination.after": after }) })
      return {
        nodes: page.edges.map((e) => e.node.id),
        next: page.pageInfo!.hasNextPage,
        end: page.pageInfo!.endCursor
      }
    })
    expect(forward).toEqual(all)
    const last = sets({ "pagination.last": 2 })
    expect(last.edges.map((e) => e.node.id)).toEqual(all.slice(-2))
    expect(last.pageInfo!.hasPreviousPage).toBe(true)
    const before = sets({ "pagination.last": 2, "pagination.before": last.pageInfo!.startCursor })
    expect(before.edges.map((e) => e.node.id)).toEqual(all.slice(-4, -2))
    const cursor = JSON.parse(cursorJson(last.edges[0].cursor))
    expect(Object.keys(cursor)).toEqual(["CreatedAt", "ID"])
  })

  it("compares a cursor by creation time only on a v0.75 node", () => {
    const creation = world.referralSets.creations[1]
    const cursor = Buffer.from(
      JSON.stringify({ CreatedAt: microsToRfc3339(creation.vt), ID: "ff".repeat(32) })
    ).toString("base64")
    const after = (quirks: boolean) =>
      sets({ "pagination.newestFirst": false, "pagination.after": cursor }, quirks).edges.map((e) => e.node.id)
    const later = world.referralSets.creations.slice(2).map((c) => c.set.id)
    expect(after(false)).toEqual(later)
    expect(after(true)).toEqual([creation.set.id, ...later])
  })

  it("filters by set, else referrer, else referee, as bytes", () => {
    const set = world.referralSets.sets[1]
    expect(sets({ referralSetId: set.id.toUpperCase() }).edges.map((e) => e.node.id)).toEqual([set.id])
    const byReferrer = sets({ referrer: set.referrer.id }).edges
    expect(byReferrer.every((e) => e.node.referrer === set.referrer.id)).toBe(true)
    expect(byReferrer.length).toBeGreaterThan(0)
    const join = world.referralSets.currentReferees[0]
    expect(sets({ referee: join.referee.id }).edges.map((e) => e.node.id)).toEqual([join.set.id])
    // the set id wins over the others, which are then not even decoded
    expect(sets({ referralSetId: set.id, referrer: "xyz" }).edges.map((e) => e.node.id)).toEqual([set.id])
    expect(sets({ referralSetId: "ab".repeat(32) }).edges).toEqual([])
  })

  it("answers a filter that is not hex with the store's error", () => {
    const reply = call(nodeOf(world), "/api/v2/referral-sets", { referrer: "xyz" })
    expect(reply.status).toBe(400)
    expect(JSON.parse(reply.body)).toEqual({
      code: 3,
      message: "InvalidArgument error",
      details: [
        {
          "@type": "type.googleapis.com/vega.ErrorDetail",
          code: 10000,
          message: "scany: query multiple result rows: decoding 'xyz': not a valid hex id (or well known exception)",
          inner: ""
        }
      ]
    })
    expect(
      JSON.parse(call(nodeOf(world), "/api/v2/referral-sets", { "pagination.first": 0 }).body).details[0].code
    ).toBe(10028)
  })

  it("hides the sets a lagging node has not seen", () => {
    const first = world.referralSets.creations[0]
    const node = nodeOf(world, { height: first.height })
    const body = JSON.parse(call(node, "/api/v2/referral-sets").body)
    const visible = world.referralSets.creations.filter((c) => c.height <= first.height).length
    expect(body.referralSets.edges.length).toBe(visible)
  })
})

describe("GET /api/v2/referral-sets/referees", () => {
  it("lists the current referees by joining time, newest first, with their statistics' volumes", () => {
    const edges = referees().edges
    expect(edges.length).toBe(world.referralSets.currentReferees.length)
    const latest = world.referralSets.latestEpoch(world.height)!
    for (const { node } of edges) {
      // the referees are those of the statistics, and their volumes sum their statistics' rows
      const history = stats({ referralSetId: node.referralSetId, referee: node.referee })
      expect(history.length).toBe(latest)
      const all = world.referralSets.sets
        .filter((s) => s.referees.some((r) => r.id === node.referee))
        .flatMap((s) => stats({ referralSetId: s.id, referee: node.referee }))
      const total = all.reduce((sum, e) => sum + e.node.epochNotionalTakerVolume, 0n)
      expect(node.totalRefereeNotionalTakerVolume).toBe(total)
      expect(node.atEpoch).toBe(1n)
    }
    const times = edges.map((e) => e.node.joinedAt)
    expect(times).toEqual([...times].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)))
  })

  it("sums only the last aggregationEpochs epochs", () => {
    const join = world.referralSets.currentReferees[0]
    const latest = world.referralSets.latestEpoch(world.height)!
    const lastTwo = world.referralSets.sets
      .filter((s) => s.referees.includes(join.referee))
      .flatMap((s) => stats({ referralSetId: s.id, referee: join.referee.id }))
      .filter((e) => e.node.atEpoch > BigInt(latest - 2))
      .reduce((sum, e) => sum + e.node.epochNotionalTakerVolume, 0n)
    const node = referees({ referee: join.referee.id, aggregationEpochs: 2 }).edges[0].node
    expect(node.totalRefereeNotionalTakerVolume).toBe(lastTwo)
    expect(
      referees({ referee: join.referee.id, aggregationEpochs: 0 }).edges[0].node.totalRefereeNotionalTakerVolume
    ).toBe(0n)
  })

  it("filters by set and referrer, and pages with the referee's cursor", () => {
    const set = world.referralSets.sets[0]
    const ofSet = referees({ referralSetId: set.id }).edges
    expect(ofSet.every((e) => e.node.referralSetId === set.id)).toBe(true)
    expect(referees({ referrer: set.referrer.id }).edges.length).toBeGreaterThanOrEqual(ofSet.length)
    const all = referees().edges.map((e) => e.node.referee)
    const paged = walk((after) => {
      const page = referees({ "pagination.first": 3, ...(after === undefined ? {} : { "pagination.after": after }) })
      return {
        nodes: page.edges.map((e) => e.node.referee),
        next: page.pageInfo!.hasNextPage,
        end: page.pageInfo!.endCursor
      }
    })
    expect(paged).toEqual(all)
    const back = referees({ "pagination.last": 3 })
    expect(back.edges.map((e) => e.node.referee)).toEqual(all.slice(-3))
    expect(Object.keys(JSON.parse(cursorJson(back.edges[0].cursor)))).toEqual(["JoinedAt", "Referee"])
  })

  it("sums the volumes a lagging node has seen", () => {
    const join = world.referralSets.currentReferees[0]
    const now = referees({ referee: join.referee.id }).edges[0].node.totalRefereeNotionalTakerVolume
    const epoch = world.referralSets.latestEpoch(world.height)!
    const before = referees({ referee: join.referee.id }, world.chain.epochLastBlock(epoch) - 1).edges[0].node
    expect(before.totalRefereeNotionalTakerVolume).toBeLessThan(now)
  })

  it("lists at a node's height the joins it has seen, each referee in the last set it joined", () => {
    const joins = world.referralSets.joins
    const height = joins[Math.floor(joins.length / 2)].height
    const expected = new Map<string, string>()
    for (const j of [...joins].sort((a, b) => a.vt - b.vt)) if (j.height <= height) expected.set(j.referee.id, j.set.id)
    const listed = referees({ "pagination.newestFirst": false }, height).edges
    expect(new Map(listed.map((e) => [e.node.referee, e.node.referralSetId]))).toEqual(expected)
    expect(listed.length).toBeLessThan(world.referralSets.currentReferees.length)
    // the sets count the members seen at that height too
    const counted = JSON.parse(call(nodeOf(world, { height }), "/api/v2/referral-sets").body).referralSets.edges
    const members = counted.reduce(
      (n: number, e: { node: { totalMembers: string } }) => n + Number(e.node.totalMembers) - 1,
      0
    )
    expect(members).toBe(expected.size)
  })
})
