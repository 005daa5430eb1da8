import { describe, expect, it } from "@effect/vitest"
import { ReferralSetStats } from "@vega-effect/schema"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const path = "/api/v2/referral-sets/stats"
const world = smallWorld({ scale: { referralSets: 4, refereesPerSet: 5 } })
const stats = (query: Parameters<typeof call>[2], quirks = false) =>
  decoded(ReferralSetStats.GetReferralSetStatsResponse, call(nodeOf(world, { quirks }), path, query)).stats

describe("GET /api/v2/referral-sets/stats", () => {
  const set = world.referralSets.sets[0]
  const referee = set.referees[0].id

  it("selects the last epoch with statistics by default", () => {
    const latest = world.referralSets.latestEpoch(world.height)!
    const edges = stats({}).edges
    expect(edges.length).toBe(4 * 5)
    expect(edges.every((e) => e.node.atEpoch === BigInt(latest))).toBe(true)
  })

  it("selects one epoch with atEpoch, and the whole history with both set and referee", () => {
    const third = stats({ atEpoch: 3n }).edges
    expect(third.length).toBe(4 * 5)
    expect(third.filter((e) => e.node.atEpoch !== 3n)).toEqual([])
    const history = stats({ referralSetId: set.id, referee }).edges.map((e) => e.node.atEpoch)
    expect(history.length).toBe(world.referralSets.latestEpoch(world.height)!)
    // default order is at_epoch ascending (the base order is descending, flipped by newestFirst)
    expect(history).toEqual([...history].sort((a, b) => (a < b ? -1 : 1)))
    const ofSet = stats({ referralSetId: set.id }).edges
    expect(ofSet.length).toBeGreaterThan(0)
    expect(ofSet.filter((e) => !set.referees.some((r) => r.id === e.node.partyId))).toEqual([])
  })

  it("compares the referee as stored text: an uppercase id matches nothing", () => {
    expect(stats({ referee: referee.toUpperCase() }).edges).toEqual([])
    expect(stats({ referralSetId: "ab".repeat(32) }).edges).toEqual([])
  })

  it("writes the PascalCase cursor; the v0.75 node leaves SetID empty", () => {
    const correct = JSON.parse(cursorJson(stats({ "pagination.first": 1 }).edges[0].cursor))
    expect(Object.keys(correct)).toEqual(["VegaTime", "AtEpoch", "SetID", "PartyID"])
    expect(typeof correct.AtEpoch).toBe("number")
    expect(correct.SetID).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.parse(cursorJson(stats({ "pagination.first": 1 }, true).edges[0].cursor)).SetID).toBe("")
  })

  it("pages through one epoch correctly, and not at all on a v0.75 node", () => {
    const pageThrough = (quirks: boolean) =>
      walk((after) => {
        const page = stats(
          { "pagination.first": 3, ...(after === undefined ? {} : { "pagination.after": after }) },
          quirks
        )
        return { nodes: page.edges.map((e) => e.node), next: page.pageInfo.hasNextPage, end: page.pageInfo.endCursor }
      })
    expect(pageThrough(false).length).toBe(20)
    // the empty SetID compares below every set id, so the second page of the epoch is empty
    expect(pageThrough(true).length).toBe(3)
  })

  it("rejects a set id that is not hex and bad pagination", () => {
    expect(JSON.parse(call(nodeOf(world), path, { referralSetId: "xyz" }).body).details[0]).toMatchObject({
      code: 10000,
      message: "failed to get referral set stats"
    })
    expect(JSON.parse(call(nodeOf(world), path, { "pagination.first": 6000 }).body).details[0].code).toBe(10028)
  })

  it("adds statistics at the end of each epoch", () => {
    const w = smallWorld()
    const before = w.referralSets.latestEpoch(w.height)!
    const epoch = w.epoch
    while (w.epoch === epoch) w.advance(1)
    expect(w.referralSets.latestEpoch(w.height)).toBe(before + 1)
  })
})
