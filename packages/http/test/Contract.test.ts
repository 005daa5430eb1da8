import { describe, expect, it } from "@effect/vitest"
import { DataNodeClient } from "@vega-effect/http"
import {
  type Asset,
  type ChainInfo,
  type Epoch,
  LiquidityProvision,
  type Market,
  PartyProfile,
  Position,
  ReferralSetStats,
  RewardSummary,
  SignerBundle,
  StakeLinking
} from "@vega-effect/schema"
import { Simulator } from "@vega-effect/simulator"
import { Chunk, Effect, Schema, Stream } from "effect"
import { raw, stack } from "./support.js"

const client = DataNodeClient.DataNodeClient

describe("DataNodeClient against the simulator", () => {
  it.layer(stack({ seed: 21, scale: { signerBundles: 12, liquidityProvisions: 80 } }))("every endpoint", (it) => {
    it.effect("stake: one page with currentStakeAvailable, and every linking as a stream", () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.Simulator
        const dn = yield* client
        const [partyId, rows] = [...sim.world.stakeLinkings.byParty.entries()].sort(
          (a, b) => b[1].length - a[1].length
        )[0]
        const page = yield* dn.getStake({ partyId: partyId.toUpperCase(), pagination: { first: 3 } })
        expect(page).toEqual(
          Schema.decodeUnknownSync(StakeLinking.GetStakeResponse)(
            yield* raw(`/api/v2/parties/${partyId}/stake?pagination.first=3`)
          )
        )
        const all = Chunk.toReadonlyArray(yield* Stream.runCollect(dn.stakeLinkings({ partyId }, { pageSize: 7 })))
        expect(all.length).toBe(rows.filter((r) => r.to === Infinity).length)
        expect(all.map((i) => i.node.id)).toEqual(
          (yield* Stream.runCollect(dn.stakeLinkings({ partyId }, { pageSize: 5000 })))
            .pipe(Chunk.toReadonlyArray)
            .map((i) => i.node.id)
        )
      })
    )

    it.effect("liquidity provisions with market, party, reference and live", () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.Simulator
        const dn = yield* client
        const marketId = sim.world.catalog.markets[0].id
        const live = yield* dn.listLiquidityProvisions({ marketId, live: true })
        expect(live).toEqual(
          Schema.decodeUnknownSync(LiquidityProvision.ListLiquidityProvisionsResponse)(
            yield* raw(`/api/v2/liquidity/all-provisions?marketId=${marketId}&live=true`)
          )
        )
        const partyId = live.liquidityProvisions.edges[0].node.current.partyId
        const byParty = yield* Stream.runCollect(dn.liquidityProvisions({ partyId }, { pageSize: 2 }))
        expect(Chunk.size(byParty)).toBeGreaterThan(0)
        expect(Chunk.toReadonlyArray(byParty).filter((i) => i.node.current.partyId !== partyId)).toEqual([])
      })
    )

    it.effect("positions with party and market filters, newest or oldest first", () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.Simulator
        const dn = yield* client
        const partyIds = [sim.world.catalog.parties[2].id, sim.world.catalog.parties[3].id]
        const marketIds = [sim.world.catalog.markets[1].id]
        const page = yield* dn.listPositions({
          filter: { partyIds, marketIds },
          pagination: { first: 10, newestFirst: false }
        })
        expect(page).toEqual(
          Schema.decodeUnknownSync(Position.ListPositionsResponse)(
            yield* raw(
              `/api/v2/positions?filter.partyIds=${partyIds[0]}&filter.partyIds=${partyIds[1]}&filter.marketIds=${marketIds[0]}&pagination.first=10&pagination.newestFirst=false`
            )
          )
        )
        const all = yield* Stream.runCollect(dn.positions({}, { pageSize: 333 }))
        expect(Chunk.size(all)).toBe(sim.world.positions.current.size)
        const oldest = yield* Stream.runCollect(dn.positions({}, { pageSize: 5000, newestFirst: false }))
        expect(Chunk.toReadonlyArray(oldest).map((i) => i.cursor)).toEqual(
          Chunk.toReadonlyArray(all)
            .map((i) => i.cursor)
            .reverse()
        )
      })
    )

    it.effect("referral set stats with set, referee and epoch", () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.Simulator
        const dn = yield* client
        const set = sim.world.referralSets.sets[0]
        const history = yield* dn.getReferralSetStats({ referralSetId: set.id, referee: set.referees[0].id })
        expect(history).toEqual(
          Schema.decodeUnknownSync(ReferralSetStats.GetReferralSetStatsResponse)(
            yield* raw(`/api/v2/referral-sets/stats?referralSetId=${set.id}&referee=${set.referees[0].id}`)
          )
        )
        const epoch = yield* dn.getReferralSetStats({ atEpoch: "3" })
        expect(epoch.stats.edges.length).toBe(sim.world.scale.referralSets * sim.world.scale.refereesPerSet)
        expect(epoch.stats.edges.filter((e) => e.node.atEpoch !== 3n)).toEqual([])
        const all = yield* Stream.runCollect(dn.referralSetStats({}, { pageSize: 4 }))
        expect(Chunk.size(all)).toBe(sim.world.scale.referralSets * sim.world.scale.refereesPerSet)
      })
    )

    it.effect("signer bundles with node, submitter and epoch", () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.Simulator
        const dn = yield* client
        const bundle = sim.world.signerBundles.rows[0]
        const page = yield* dn.listSignerAddedBundles({
          nodeId: bundle.validator.nodeId,
          submitter: bundle.submitter.ethereumAddress,
          epochSeq: String(bundle.epoch)
        })
        expect(page).toEqual(
          Schema.decodeUnknownSync(SignerBundle.ListSignerAddedBundlesResponse)(
            yield* raw(
              `/api/v2/erc20/multisigcontrol/signer/added/bundles?nodeId=${bundle.validator.nodeId}&submitter=${bundle.submitter.ethereumAddress}&epochSeq=${bundle.epoch}`
            )
          )
        )
        expect(Chunk.size(yield* Stream.runCollect(dn.signerAddedBundles({}, { pageSize: 5 })))).toBe(12)
      })
    )

    it.effect("profiles with parties, and reward summaries with party and asset", () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.Simulator
        const dn = yield* client
        const parties = ["network", sim.world.catalog.parties[5].id]
        expect(yield* dn.listPartiesProfiles({ parties })).toEqual(
          Schema.decodeUnknownSync(PartyProfile.ListPartiesProfilesResponse)(
            yield* raw(`/api/v2/parties/profiles?parties=network&parties=${parties[1]}`)
          )
        )
        expect(Chunk.size(yield* Stream.runCollect(dn.partiesProfiles({}, { pageSize: 50 })))).toBe(
          sim.world.catalog.parties.length
        )
        const summaries = yield* dn.listRewardSummaries({ assetId: sim.world.catalog.vega.id })
        expect(summaries).toEqual(
          Schema.decodeUnknownSync(RewardSummary.ListRewardSummariesResponse)(
            yield* raw(`/api/v2/rewards/summaries?assetId=${sim.world.catalog.vega.id}`)
          )
        )
      })
    )

    it.effect("neighbours: info, statistics, height, time, epoch, assets, markets", () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.Simulator
        const dn = yield* client
        expect((yield* dn.info).version).toBe("v0.75.8")
        expect((yield* dn.statistics).statistics.blockHeight).toBe(BigInt(sim.world.height))
        const height: ChainInfo.LastBlockHeightResponse = yield* dn.lastBlockHeight
        expect(height.chainId).toBe(sim.world.chain.chainId)
        expect((yield* dn.vegaTime).timestamp > 0n).toBe(true)
        const epoch: Epoch.GetEpochResponse = yield* dn.getEpoch({ id: "2" })
        expect(epoch.epoch.seq).toBe(2n)
        const assets = yield* Stream.runCollect(dn.assets({}, { pageSize: 2 }))
        expect(Chunk.size(assets)).toBe(sim.world.catalog.assets.length)
        const one: Asset.GetAssetResponse = yield* dn.getAsset({ assetId: sim.world.catalog.vega.id })
        expect(one.asset.details.decimals).toBe(18)
        const markets = yield* dn.listMarkets({})
        const market: Market.GetMarketResponse = yield* dn.getMarket({ marketId: markets.markets.edges[0].node.id })
        expect(market.market.id).toBe(markets.markets.edges[0].node.id)
      })
    )

    it.effect("refuses bad input before any request, saying what is wrong", () =>
      Effect.gen(function* () {
        const dn = yield* client
        const before = (yield* dn.nodes)[0].requests
        const badId = yield* Effect.flip(dn.listPositions({ filter: { partyIds: ["not-a-party"] } }))
        expect(badId._tag).toBe("InvalidRequestError")
        expect(badId.message).toContain("filter.partyIds.0")
        expect(badId.message).toContain(
          'Expected a party id (64 hexadecimal characters or "network"), actual "not-a-party"'
        )
        const tooBig = yield* Effect.flip(dn.listPositions({ pagination: { first: 5001 } }))
        expect(tooBig.message).toContain("Expected a page size between 1 and 5000, actual 5001")
        const both = yield* Effect.flip(dn.listPositions({ pagination: { after: "a", before: "b" } }))
        expect(both.message).toContain("cannot set both a before and after cursor")
        const streamSize = yield* Effect.flip(Stream.runCollect(dn.positions({}, { pageSize: 0 })))
        expect(streamSize._tag).toBe("InvalidRequestError")
        expect((yield* dn.nodes)[0].requests).toBe(before)
      })
    )

    it.effect("maps the node's errors to typed errors with the node's words", () =>
      Effect.gen(function* () {
        const dn = yield* client
        const missing = yield* Effect.flip(dn.getMarket({ marketId: "ab".repeat(32) }))
        expect(missing._tag).toBe("NotFoundError")
        if (missing._tag === "NotFoundError") {
          expect(missing.status).toBe(404)
          expect(missing.detail).toEqual({
            code: 30002,
            message: "failed to get market for ID",
            inner: "no resource corresponding to this id"
          })
        }
        const badCursor = yield* Effect.flip(
          dn.listPositions({ pagination: { first: 1, after: Buffer.from("{").toString("base64") } })
        )
        expect(badCursor._tag).toBe("InternalError")
        expect(badCursor.message).toContain("160001 failed to get positions for party: parsing cursor")
      })
    )
  })
})
