import { describe, expect, it } from "@effect/vitest"
import { DataNode, ReferralSetStats } from "@vega-effect/schema"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

const world = smallWorld({ scale: { referralSets: 3, refereesPerSet: 4 } })
const node = nodeOf(world)

const vdStats = (query: Parameters<typeof call>[2], height?: number) =>
  decoded(
    DataNode.GetVolumeDiscountStatsResponse,
    call(height === undefined ? node : nodeOf(world, { height }), "/api/v2/volume-discount-programs/stats", query)
  ).stats
const streak = (party: string, query: Parameters<typeof call>[2] = {}) =>
  call(node, "/api/v2/party/activity/streak/{partyId}", query, { partyId: party })

describe("the current programs", () => {
  it("answers the referral program, its tiers carrying the factors the statistics show", () => {
    const program = decoded(
      DataNode.GetCurrentReferralProgramResponse,
      call(node, "/api/v2/referral-programs/current")
    ).currentReferralProgram!
    expect(program.id).toBe(world.programs.referralProgram!.id)
    expect(program.version).toBe(1n)
    expect(program.endedAt).toBeUndefined()
    expect(program.endOfProgramTimestamp % 1_000_000_000n).toBe(0n)
    const raw = JSON.parse(call(node, "/api/v2/referral-programs/current").body).currentReferralProgram
    const discounts = new Set(raw.benefitTiers.map((t: { referralDiscountFactor: string }) => t.referralDiscountFactor))
    const shown = JSON.parse(call(node, "/api/v2/referral-sets/stats").body).stats.edges.map(
      (e: { node: { discountFactor: string } }) => e.node.discountFactor
    )
    for (const factor of shown) if (factor !== "0") expect(discounts.has(factor)).toBe(true)
    expect(program.stakingTiers.length).toBe(2)
  })

  it("answers the volume discount program", () => {
    const body = call(node, "/api/v2/volume-discount-programs/current").body
    const program = decoded(
      DataNode.GetCurrentVolumeDiscountProgramResponse,
      call(node, "/api/v2/volume-discount-programs/current")
    ).currentVolumeDiscountProgram!
    expect(program.windowLength).toBe(7n)
    expect(body).toContain('"volumeDiscountFactor":"0.01"')
  })
})

describe("GET /api/v2/volume-discount-programs/stats", () => {
  const latest = world.programs.latestDiscountEpoch(world.height)!

  it("answers the last epoch by default, every party ever seen, and the running volume over the window", () => {
    expect(latest).toBe(world.referralSets.latestEpoch(world.height))
    const edges = vdStats({}).edges
    expect(edges.length).toBeGreaterThan(0)
    expect(edges.every((e) => e.node.atEpoch === BigInt(latest))).toBe(true)
    // a referee's running volume is the sum of its epoch volumes of the window
    const join = world.referralSets.currentReferees.find(
      (j) => world.referralSets.sets.filter((s) => s.referees.includes(j.referee)).length === 1
    )!
    const history = decoded(
      ReferralSetStats.GetReferralSetStatsResponse,
      call(node, "/api/v2/referral-sets/stats", { referralSetId: join.set.id, referee: join.referee.id })
    ).stats.edges.filter((e) => e.node.atEpoch > BigInt(latest - 7))
    const running = history.reduce((sum, e) => sum + e.node.epochNotionalTakerVolume, 0n)
    const own = edges.find((e) => e.node.partyId === join.referee.id)!.node
    expect(own.runningVolume).toBe(running)
    const factor =
      running >= 20_000_000_000_000n
        ? "0.05"
        : running >= 5_000_000_000_000n
          ? "0.025"
          : running >= 1_000_000_000_000n
            ? "0.01"
            : "0"
    const rawStats = JSON.parse(call(node, "/api/v2/volume-discount-programs/stats").body).stats.edges
    const rawOwn = rawStats.find((e: { node: { partyId: string } }) => e.node.partyId === join.referee.id).node
    expect(rawOwn.discountFactor).toBe(factor)
  })

  it("filters by epoch and by party (as text), and pages with the cursor", () => {
    expect(vdStats({ atEpoch: 3n }).edges.every((e) => e.node.atEpoch === 3n)).toBe(true)
    const party = vdStats({}).edges[0].node.partyId
    const own = vdStats({ partyId: party }).edges
    expect(own.length).toBeGreaterThan(1)
    expect(own.every((e) => e.node.partyId === party)).toBe(true)
    expect(vdStats({ partyId: party.toUpperCase() }).edges).toEqual([])
    const all = vdStats({ atEpoch: BigInt(latest) }).edges.map((e) => e.node.partyId)
    const paged = walk((after) => {
      const page = vdStats({ "pagination.first": 2, ...(after === undefined ? {} : { "pagination.after": after }) })
      return {
        nodes: page.edges.map((e) => e.node.partyId),
        next: page.pageInfo!.hasNextPage,
        end: page.pageInfo!.endCursor
      }
    })
    expect(paged).toEqual(all)
    const back = vdStats({ "pagination.last": 2 })
    expect(back.edges.map((e) => e.node.partyId)).toEqual(all.slice(-2))
    expect(Object.keys(JSON.parse(cursorJson(back.edges[0].cursor)))).toEqual(["VegaTime", "AtEpoch", "PartyID"])
  })

  it("reads the epochs a lagging node has seen, and rejects a bad cursor", () => {
    const before = vdStats({}, world.chain.epochLastBlock(latest) - 1).edges
    expect(before.every((e) => e.node.atEpoch === BigInt(latest - 1))).toBe(true)
    const reply = call(node, "/api/v2/volume-discount-programs/stats", { "pagination.after": "e30K" })
    expect(reply.status).toBe(200)
    const bad = call(node, "/api/v2/volume-discount-programs/stats", {
      "pagination.after": Buffer.from("[1]").toString("base64")
    })
    expect(bad.status).toBe(500)
    expect(JSON.parse(bad.body).details[0].message).toBe("failed to get volume discount stats")
  })
})

describe("GET /api/v2/party/activity/streak/{partyId}", () => {
  const referee = world.referralSets.currentReferees[0].referee

  it("answers the party's latest epoch, or the epoch asked", () => {
    const latest = decoded(DataNode.GetPartyActivityStreakResponse, streak(referee.id.toUpperCase())).activityStreak!
    expect(latest.party).toBe(referee.id)
    expect(latest.epoch).toBe(BigInt(world.referralSets.latestEpoch(world.height)!))
    const first = decoded(DataNode.GetPartyActivityStreakResponse, streak(referee.id, { epoch: 1n })).activityStreak!
    expect(first.epoch).toBe(1n)
    // referees trade every epoch in the statistics with volume: the streak grows, the tiers apply
    if (first.isActive) {
      expect(first.activeFor).toBe(1n)
      const raw = JSON.parse(streak(referee.id, { epoch: 1n }).body).activityStreak
      expect(raw.rewardDistributionActivityMultiplier).toBe("1.05")
    }
    expect(latest.activeFor + latest.inactiveFor).toBeGreaterThan(0n)
  })

  it("answers 404 for a party without a streak and 400 for an id that is not one", () => {
    const unknown = streak("ab".repeat(32))
    expect(unknown.status).toBe(404)
    expect(JSON.parse(unknown.body)).toEqual({
      code: 5,
      message: "NotFound error",
      details: [
        {
          "@type": "type.googleapis.com/vega.ErrorDetail",
          code: 10000,
          message: "no resource corresponding to this id",
          inner: ""
        }
      ]
    })
    expect(streak(referee.id, { epoch: 999n }).status).toBe(404)
    const bad = streak("xyz")
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body).details[0]).toMatchObject({ code: 10000, message: "invalid party id" })
  })

  it("adds a row per party at each epoch end", () => {
    const w = smallWorld()
    const party = w.referralSets.currentReferees[0].referee.id
    const before = w.programs.streaks.get(party)!.length
    const epoch = w.epoch
    while (w.epoch === epoch) w.advance(1)
    expect(w.programs.streaks.get(party)!.length).toBe(before + 1)
  })
})

describe("a v0.79 node", () => {
  const v79 = nodeOf(world, { nodeVersion: "v0.79" })

  it("writes the factors per fee kind and the tier numbers, the single factors empty", () => {
    const program = JSON.parse(call(v79, "/api/v2/referral-programs/current").body).currentReferralProgram
    expect(program.benefitTiers[1]).toEqual({
      minimumRunningNotionalTakerVolume: "10000000000000",
      minimumEpochs: "2",
      referralRewardFactor: "",
      referralDiscountFactor: "",
      referralRewardFactors: {
        infrastructureRewardFactor: "0.05",
        liquidityRewardFactor: "0.05",
        makerRewardFactor: "0.05"
      },
      referralDiscountFactors: {
        infrastructureDiscountFactor: "0.01",
        liquidityDiscountFactor: "0.01",
        makerDiscountFactor: "0.01"
      },
      tierNumber: "2"
    })
    expect(Object.keys(program)).toEqual([
      "version",
      "id",
      "benefitTiers",
      "endOfProgramTimestamp",
      "windowLength",
      "stakingTiers"
    ])
    const volume = JSON.parse(call(v79, "/api/v2/volume-discount-programs/current").body).currentVolumeDiscountProgram
    expect(volume.benefitTiers[0].tierNumber).toBe("1")
    expect(volume.benefitTiers[0].volumeDiscountFactor).toBe("")
    const stats = JSON.parse(call(v79, "/api/v2/volume-discount-programs/stats").body).stats.edges
    expect(Object.keys(stats[0].node)).toEqual([
      "atEpoch",
      "partyId",
      "discountFactor",
      "runningVolume",
      "discountFactors"
    ])
    expect(stats[0].node.discountFactor).toBe("")
  })
})
