import { describe, expect, it } from "@effect/vitest"
import { EventBus, LiquidityProvision, PartyProfile, Position, StakeLinking, StreamForm } from "@vega-effect/schema"
import { Effect, Schema } from "effect"
import { Simulator } from "@vega-effect/simulator"
import { request } from "./support/http.js"
import { connect, type SocketClient, sleep } from "./support/streams.js"

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

/** A REST row written the way streams write it (enums as numbers, defaults left out). */
const streamed = <A, I>(schema: Schema.Schema<A, I>, rest: unknown): unknown =>
  JSON.parse(JSON.stringify(Schema.encodeSync(StreamForm.make(schema))(Schema.decodeUnknownSync(schema)(rest))))

const rest = async (url: string, path: string): Promise<any> => JSON.parse((await request(url, path)).text)

type Event = { id: string; type: number; txHash?: string } & Record<string, any>
const eventsIn = (frame: string): Array<Event> => JSON.parse(frame).result.events

/** Every frame that arrives within `ms`. */
const drain = async (client: SocketClient, ms = 800): Promise<Array<string>> => {
  await sleep(ms)
  const out: Array<string> = []
  while (client.frames.pending.length > 0) out.push(await client.frames.next())
  return out
}

const world = {
  seed: 5,
  blocksPerEpoch: 5,
  scale: { epochs: 2, stakeLinkings: 50 },
  activity: { bundleEveryEpochs: 1, stakeEvents: 3, liquidityChanges: 3, profileChanges: 5, rewardShare: 0.05 }
}

describe("event bus: the world's changes", () => {
  it.scopedLive("numbers each block's events in core order and delivers them grouped by type", () =>
    Effect.gen(function* () {
      // few trades, so that no block's message reaches the WebSocket's 64 KiB line limit
      const sim = yield* Simulator.make({ ...world, activity: { ...world.activity, positionTrades: 3 } })
      const bus = yield* promise(() => connect(sim.url, "/api/v2/stream/event/bus"))
      bus.send(JSON.stringify({ type: ["BUS_EVENT_TYPE_ALL"] }))
      yield* promise(() => sleep(100))
      const start = sim.world.height
      yield* sim.advance(5)
      const events = (yield* promise(() => drain(bus))).flatMap(eventsIn)
      let reordered = false
      for (let height = start + 1; height <= start + 5; height++) {
        const block = events.filter((e) => EventBus.heightOf(e) === BigInt(height))
        const sorted = [...block].sort(EventBus.comparePosition)
        expect(sorted.map((e) => e.id)).toEqual(sorted.map((_, i) => `${height}-${i + 1}`))
        expect(sorted[0].type).toBe(49)
        expect(sorted[1].type).toBe(2)
        expect(sorted[sorted.length - 1].type).toBe(50)
        expect(sorted[sorted.length - 1].endBlock).toEqual({ height: String(height) })
        if (block.some((e, i) => e.id !== sorted[i].id)) reordered = true
      }
      expect(reordered).toBe(true)
    })
  )

  it.scopedLive("sends rows equal to the REST rows of the same state", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      const bus = yield* promise(() => connect(sim.url, "/api/v2/stream/event/bus"))
      bus.send(JSON.stringify({ type: [33, 25, 86, 34, 76, 44, 13, 31] }))
      yield* promise(() => sleep(100))
      // to the end of the epoch
      yield* sim.advance(sim.world.chain.epochLastBlock(sim.world.epoch) - sim.world.height)
      const epoch = sim.world.epoch
      const events = (yield* promise(() => drain(bus))).flatMap(eventsIn)
      const ofType = (type: number) => events.filter((e) => e.type === type)

      const stake = ofType(33)
      expect(stake.length).toBeGreaterThan(0)
      for (const { stakeLinking } of stake.slice(-3)) {
        const page = yield* promise(() => rest(sim.url, `/api/v2/parties/${stakeLinking.party}/stake`))
        const edges: Array<any> = page.stakeLinkings.edges
        const same = edges
          .map((e) => e.node)
          .filter((n) => n.id === stakeLinking.id)
          .pop()
        expect(streamed(StakeLinking.StakeLinking, same)).toEqual(stakeLinking)
      }

      const provisions = ofType(25)
      expect(provisions.length).toBeGreaterThan(0)
      const lp = provisions[provisions.length - 1].liquidityProvision
      const lps = yield* promise(() =>
        rest(sim.url, `/api/v2/liquidity/all-provisions?partyId=${lp.partyId}&marketId=${lp.marketId}`)
      )
      const nodes = lps.liquidityProvisions.edges.flatMap((e: any) => [e.node.current, e.node.pending].filter(Boolean))
      expect(nodes.map((n: unknown) => streamed(LiquidityProvision.LiquidityProvision, n))).toContainEqual(lp)

      for (const { partyProfileUpdated } of ofType(86)) {
        const profile = partyProfileUpdated.updatedProfile
        const page = yield* promise(() => rest(sim.url, `/api/v2/parties/profiles?parties=${profile.partyId}`))
        const latest = ofType(86)
          .filter((e) => e.partyProfileUpdated.updatedProfile.partyId === profile.partyId)
          .pop()
        if (latest?.partyProfileUpdated.updatedProfile !== profile) continue
        expect(streamed(PartyProfile.PartyProfile, page.profiles.edges[0].node)).toEqual(profile)
      }

      // epoch end: one stats event per set with every referee; the REST rows flatten it
      const stats = ofType(76)
      expect(stats.length).toBe(sim.world.referralSets.sets.length)
      for (const { referralSetStatsUpdated: s } of stats) {
        const page = yield* promise(() =>
          rest(sim.url, `/api/v2/referral-sets/stats?referralSetId=${s.setId}&atEpoch=${epoch}`)
        )
        const rows: Array<any> = page.stats.edges.map((e: any) => e.node)
        expect(rows.map((r) => r.partyId).sort()).toEqual(s.refereesStats.map((r: any) => r.partyId))
        for (const r of rows) {
          const i = s.refereesStats.findIndex((x: any) => x.partyId === r.partyId)
          expect(r.atEpoch).toBe(s.atEpoch)
          expect(r.referralSetRunningNotionalTakerVolume).toBe(s.referralSetRunningNotionalTakerVolume)
          expect(r.discountFactor).toBe(s.refereesStats[i].discountFactor ?? "0")
          expect(r.epochNotionalTakerVolume).toBe(s.refereesStats[i].epochNotionalTakerVolume ?? "0")
          expect(r.rewardsMultiplier).toBe(s.rewardsMultiplier)
          expect(r.wasEligible).toBe(s.wasEligible ?? false)
          expect(r.referrerTakerVolume).toBe(s.referrerTakerVolume ?? "0")
        }
      }

      // payouts: one per party and asset, each equal to its REST row
      const payouts = ofType(34).map((e) => e.rewardPayout)
      expect(payouts.length).toBeGreaterThan(0)
      for (const p of payouts.slice(0, 5)) {
        const page = yield* promise(() =>
          rest(sim.url, `/api/v2/rewards?partyId=${p.party}&assetId=${p.asset}&epochFrom=${epoch}&epochTo=${epoch}`)
        )
        const row = page.rewards.edges.map((e: any) => e.node).find((n: any) => n.epoch === String(epoch))
        expect([row.amount, row.percentageOfTotal, row.receivedAt, row.rewardType, row.quantumAmount]).toEqual([
          p.amount,
          p.percentOfTotalReward,
          p.timestamp,
          p.rewardType,
          p.quantumAmount
        ])
      }

      // the bundle issued at the epoch end, and its signatures
      const [added] = ofType(44).map((e) => e.erc20MultisigSignerAdded)
      const page = yield* promise(() =>
        rest(sim.url, `/api/v2/erc20/multisigcontrol/signer/added/bundles?nodeId=${added.validatorId}`)
      )
      const bundle = page.bundles.edges.map((e: any) => e.node).find((n: any) => n.nonce === added.nonce)
      expect([bundle.newSigner, bundle.submitter, bundle.timestamp, bundle.epochSeq]).toEqual([
        added.newSigner,
        added.submitter,
        added.timestamp,
        added.epochSeq
      ])
      const sigs = ofType(13).map((e) => e.nodeSignature)
      expect(sigs.every((s) => s.id === added.signatureId && s.kind === 3)).toBe(true)
      expect(`0x${sigs.map((s) => Buffer.from(s.sig, "base64").toString("hex")).join("")}`).toBe(bundle.signatures)

      const epochs = ofType(31).map((e) => [e.epochEvent.seq, e.epochEvent.action])
      expect(epochs).toEqual([
        [String(epoch), 2],
        [String(epoch + 1), 1]
      ])
    })
  )

  it.scopedLive("drops the events without a party or market method when a filter is set", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      const party = yield* promise(() => connect(sim.url, "/api/v2/stream/event/bus"))
      const lp = [...sim.world.liquidityProvisions.history].pop()!
      party.send(JSON.stringify({ partyId: lp.party.id }))
      const market = yield* promise(() => connect(sim.url, "/api/v2/stream/event/bus"))
      market.send(JSON.stringify({ marketId: lp.market.id }))
      yield* promise(() => sleep(100))
      yield* sim.advance(10)
      for (const client of [party, market]) {
        const types = new Set((yield* promise(() => drain(client))).flatMap(eventsIn).map((e) => e.type))
        // provisions, orders and trades (IsParty: buyer or seller) carry both methods; results IsParty only
        for (const type of types) expect([5, 8, 25, 53, 201]).toContain(type)
      }
    })
  )
})

describe("/api/v2/stream/positions", () => {
  it.scopedLive("sends a snapshot in pages of 50, then each block's changes as the REST rows", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 3 })
      const client = yield* promise(() => connect(sim.url, "/api/v2/stream/positions"))
      const snapshot: Array<any> = []
      for (;;) {
        const frame = JSON.parse(yield* promise(() => client.frames.next()))
        snapshot.push(frame.result.snapshot)
        if (frame.result.snapshot.lastPage === true) break
      }
      expect(snapshot.slice(0, -1).every((p) => p.positions.length === 50 && p.lastPage === undefined)).toBe(true)
      expect(snapshot.flatMap((p) => p.positions).length).toBe(sim.world.positions.current.size)
      yield* sim.advance(1)
      const frames = yield* promise(() => drain(client))
      const updates = frames.flatMap((f) => JSON.parse(f).result.updates.positions)
      expect(updates.length).toBeGreaterThan(0)
      const keys = updates.map((p: any) => `${p.partyId}/${p.marketId}`)
      expect(new Set(keys).size).toBe(keys.length)
      const all = yield* promise(() => rest(sim.url, `/api/v2/positions?filter.partyIds=${updates[0].partyId}`))
      const row = all.positions.edges.map((e: any) => e.node).find((n: any) => n.marketId === updates[0].marketId)
      expect(streamed(Position.Position, row)).toEqual(updates[0])
    })
  )

  it.scopedLive("sends one empty last page for no match, and nothing for both filters with no position", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 3 })
      const nobody = "ab".repeat(32)
      const party = yield* promise(() => connect(sim.url, `/api/v2/stream/positions?partyId=${nobody}`))
      expect(yield* promise(() => party.frames.next())).toBe('{"result":{"snapshot":{"lastPage":true}}}')
      const market = sim.world.catalog.markets[0].id
      const both = yield* promise(() =>
        connect(sim.url, `/api/v2/stream/positions?partyId=${nobody}&marketId=${market}`)
      )
      expect(yield* promise(() => drain(both, 200))).toEqual([])
    })
  )
})

describe("/api/v2/stream/liquidity-provisions", () => {
  it.scopedLive("sends each block's changed provisions as plain records, no snapshot", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ ...world, activity: { liquidityChanges: 5 } })
      const client = yield* promise(() => connect(sim.url, "/api/v2/stream/liquidity-provisions"))
      expect(yield* promise(() => drain(client, 150))).toEqual([])
      yield* sim.advance(2)
      const lps = (yield* promise(() => drain(client))).flatMap((f) => JSON.parse(f).result.liquidityProvisions)
      expect(lps.length).toBeGreaterThan(0)
      expect(typeof lps[0].status).toBe("number")
      expect(typeof lps[0].version).toBe("string")
      expect(lps[0].sells).toBeUndefined()
    })
  )
})

describe("limits", () => {
  it.scopedLive(
    "closes a WebSocket without a frame on a line of 64 KiB or more (a payout burst), not a chunked stream",
    () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.make({
          ...world,
          scale: { parties: 1_000, epochs: 2 },
          activity: { rewardShare: 1 }
        })
        const bus = yield* promise(() => connect(sim.url, "/api/v2/stream/event/bus"))
        bus.send(JSON.stringify({ type: [34, 2] }))
        yield* promise(() => sleep(100))
        yield* sim.advance(1)
        const small = yield* promise(() => bus.frames.next())
        expect(Buffer.byteLength(small)).toBeLessThan(65_536)
        yield* sim.advance(sim.world.chain.epochLastBlock(sim.world.epoch) - sim.world.height)
        expect(yield* promise(() => bus.closed)).toBe(1006)
        // the earlier blocks' time updates came; the block with the payouts never did
        const types = bus.frames.pending.flatMap(eventsIn).map((e) => e.type)
        expect(types.every((t) => t === 2)).toBe(true)
      })
  )
})
