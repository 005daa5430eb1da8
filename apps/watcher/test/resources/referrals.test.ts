import { it } from "@effect/vitest"
import { Encoder, ReferralSetStats } from "@vega-effect/schema"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import type { Row } from "../../src/Event.js"
import { canonical } from "../../src/Resource.js"
import { diff, epochRow, lastHeldEpoch, make, MAX_CATCH_UP, referralKey } from "../../src/resources/referrals.js"
import { applied, simulated, stored, contextOf } from "./support.js"

const set = "5e".repeat(32)
const [r1, r2, r3] = ["01", "02", "03"].map((b) => b.repeat(32))

const stats = (partyId: string, volume: string, eligible: boolean, running = "9000000") => ({
  atEpoch: "12",
  referralSetRunningNotionalTakerVolume: running,
  partyId,
  discountFactor: "0.01",
  rewardFactor: "0.05",
  epochNotionalTakerVolume: volume,
  rewardsMultiplier: "1",
  rewardsFactorMultiplier: "0.1",
  wasEligible: eligible,
  referrerTakerVolume: "0"
})

const row = (referees: ReadonlyArray<ReturnType<typeof stats>>, setId = set): Row =>
  epochRow(setId, "12", referees) as unknown as Row

describe("referral statistics changes", () => {
  const big = "123456789012345678901234567890"
  const cases: ReadonlyArray<readonly [string, Row | undefined, Row | undefined, ReadonlyArray<unknown>]> = [
    [
      "a new set and epoch, with exact totals",
      undefined,
      row([stats(r2, big, true), stats(r1, "10", false)]),
      [
        {
          kind: "referral.epoch_stats",
          details: {
            setId: set,
            epoch: "12",
            referees: 2,
            eligible: 1,
            epochNotionalTakerVolume: "123456789012345678901234567900",
            runningNotionalTakerVolume: "9000000"
          }
        }
      ]
    ],
    [
      "referees of several sets (set unknown) disagree on the running volume: none is given",
      undefined,
      row([stats(r1, "1", true, "5"), stats(r2, "2", true, "7")], ""),
      [
        {
          kind: "referral.epoch_stats",
          details: {
            setId: "",
            epoch: "12",
            referees: 2,
            eligible: 2,
            epochNotionalTakerVolume: "3",
            runningNotionalTakerVolume: null
          }
        }
      ]
    ],
    ["the same statistics read again are no event", row([stats(r1, "1", true)]), row([stats(r1, "1", true)]), []],
    [
      "revised statistics say which referees changed, joined and left",
      row([stats(r1, "1", true), stats(r2, "2", true)]),
      row([stats(r1, "1", true), stats(r2, "5", true), stats(r3, "1", false)]),
      [
        {
          kind: "referral.epoch_stats_changed",
          details: {
            setId: set,
            epoch: "12",
            referees: 3,
            eligible: 2,
            epochNotionalTakerVolume: "7",
            runningNotionalTakerVolume: "9000000",
            refereesAdded: [r3],
            refereesRemoved: [],
            refereesChanged: [r2]
          }
        }
      ]
    ]
  ]
  it.each(cases)("%s", (_, before, after, expected) => {
    expect(diff(before, after)).toEqual(expected)
  })

  it("rows list referees by id whatever the node's order, so the same statistics give the same JSON", () => {
    const a = row([stats(r3, "3", true), stats(r1, "1", true), stats(r2, "2", true)])
    const b = row([stats(r2, "2", true), stats(r3, "3", true), stats(r1, "1", true)])
    expect(canonical(a)).toBe(canonical(b))
    expect((a.referees as ReadonlyArray<{ partyId: string }>).map((r) => r.partyId)).toEqual([r1, r2, r3])
  })

  it("keys are set and epoch; the last held epoch of a set comes from the keys", () => {
    expect(referralKey(set, "12")).toBe(`${set}/12`)
    expect(referralKey("", "12")).toBe("-/12")
    const held = new Map([
      [`${set}/9`, ""],
      [`${set}/11`, ""],
      ["-/30", ""],
      [`${"77".repeat(32)}/40`, ""]
    ])
    expect(lastHeldEpoch([...held.keys()], set)).toBe(11n)
    expect(lastHeldEpoch([...held.keys()], "")).toBe(30n)
    expect(lastHeldEpoch([...held.keys()], "88".repeat(32))).toBeUndefined()
  })
})

const encodeStats = Encoder.encodeSync(ReferralSetStats.ReferralSetStats)

const setup = (options: { readonly epochs?: number; readonly quirks?: "none" | "v0.75" } = {}) =>
  Effect.gen(function* () {
    return yield* simulated({
      seed: 8,
      blocksPerEpoch: 5,
      quirks: options.quirks ?? "none",
      scale: {
        parties: 40,
        assets: 2,
        markets: 2,
        validators: 3,
        positions: 20,
        stakeLinkings: 10,
        liquidityProvisions: 2,
        referralSets: 3,
        refereesPerSet: 4,
        signerBundles: 1,
        epochs: options.epochs ?? 4
      }
    })
  })

describe("reading referral statistics from a simulator", () => {
  it.scopedLive("without sets: the latest epoch of all sets in one row", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* setup()
      const latest = sim.world.referralSets.latestEpoch(sim.world.height)!
      const snapshot = yield* make(client, { enabled: true }).read(contextOf(new Map()))
      const served = (yield* client.getReferralSetStats({ pagination: { first: 5000 } })).stats.edges
      expect(snapshot.complete).toBe(false)
      expect([...snapshot.rows.keys()]).toEqual([`-/${latest}`])
      const only = snapshot.rows.get(`-/${latest}`)!
      expect(only.setId).toBe("")
      expect(only.referees).toHaveLength(served.length)
      expect(served.length).toBe(sim.world.referralSets.sets.reduce((n, s) => n + s.referees.length, 0))
      expect(new Set((only.referees as ReadonlyArray<Row>).map((r) => canonical(r)))).toEqual(
        new Set(served.map(({ node }) => canonical(encodeStats(node))))
      )
    })
  )

  it.scopedLive("with sets: one row per set, holding exactly that set's referees", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* setup()
      const latest = sim.world.referralSets.latestEpoch(sim.world.height)!
      const sets = sim.world.referralSets.sets
      const snapshot = yield* make(client, { enabled: true, sets: sets.map((s) => s.id) }).read(contextOf(new Map()))
      expect([...snapshot.rows.keys()].sort()).toEqual(sets.map((s) => `${s.id}/${latest}`).sort())
      for (const s of sets) {
        const r = snapshot.rows.get(`${s.id}/${latest}`)!
        expect(r).toMatchObject({ setId: s.id, epoch: String(latest) })
        const ids = (r.referees as ReadonlyArray<Row>).map((x) => x.partyId)
        expect(ids).toEqual(s.referees.map((p) => p.id).sort())
      }
    })
  )

  it.scopedLive("an incremental read after several epochs holds every new epoch, as the node serves it", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* setup()
      const sets = sim.world.referralSets.sets.map((s) => s.id)
      const resource = make(client, { enabled: true, sets })
      const first = yield* resource.read(contextOf(new Map()))
      const previous = stored(first.rows)
      const before = sim.world.referralSets.latestEpoch(sim.world.height)!
      yield* sim.advance(5 * 3)
      const after = sim.world.referralSets.latestEpoch(sim.world.height)!
      expect(after).toBe(before + 3)
      const next = yield* resource.read(contextOf(previous))
      const expectedKeys = sets.flatMap((s) => [before, before + 1, before + 2, before + 3].map((e) => `${s}/${e}`))
      const merged = applied(previous, next)
      expect([...merged.keys()].sort()).toEqual(expectedKeys.sort())
      // each epoch caught up equals what the node serves for it
      for (const s of sets) {
        for (const epoch of [before + 1, before + 2, before + 3]) {
          const served = (yield* client.getReferralSetStats({
            referralSetId: s,
            atEpoch: String(epoch),
            pagination: { first: 5000 }
          })).stats.edges
          const r = next.rows.get(`${s}/${epoch}`)!
          expect(r.referees).toEqual(
            served.map(({ node }) => encodeStats(node)).sort((a, b) => (a.partyId < b.partyId ? -1 : 1))
          )
        }
      }
      // the epoch already held reads the same: only new epochs make events
      const events = [...next.rows].flatMap(([key, r]) =>
        resource.diff(first.rows.get(key), r, { asset: () => undefined })
      )
      expect(events.map((e) => e.kind)).toEqual(
        expectedKeys.filter((k) => !previous.has(k)).map(() => "referral.epoch_stats")
      )
    })
  )

  it.scopedLive("catching up reads at most the most recent missing epochs", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* setup({ epochs: MAX_CATCH_UP + 10 })
      const latest = sim.world.referralSets.latestEpoch(sim.world.height)!
      const snapshot = yield* make(client, { enabled: true }).read(contextOf(new Map([["-/1", "{}"]])))
      const epochs = [...snapshot.rows.values()].map((r) => Number(r.epoch))
      expect(epochs).toEqual(Array.from({ length: MAX_CATCH_UP + 1 }, (_, i) => latest - MAX_CATCH_UP + i))
    })
  )

  it.scopedLive("a v0.75 node, which cannot page these statistics by cursor, is read in one page", () =>
    Effect.gen(function* () {
      const { client } = yield* setup({ quirks: "v0.75" })
      const snapshot = yield* make(client, { enabled: true }).read(contextOf(new Map()))
      const only = [...snapshot.rows.values()][0]
      expect(only.referees).toHaveLength(12)
    })
  )
})
