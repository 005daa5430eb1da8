import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import type { PositionRow } from "../src/internal/world/positions.js"
import { World } from "../src/World.js"
import { call, decoded, nodeOf, smallWorld } from "./harness.js"

const PATH = "/api/v2/time-weighted-notional-position"
type Query = Parameters<typeof call>[2]

const world = smallWorld({ scale: { referralSets: 10, refereesPerSet: 6 } })
const node = nodeOf(world)
const { catalog, chain, notionals, teams } = world
const solo = teams.games.find((g) => g.scope === "ENTITY_SCOPE_INDIVIDUALS")!
const teamGame = teams.games.find((g) => g.scope === "ENTITY_SCOPE_TEAMS" && notionals.requirements.has(g.id))!
const asset = solo.asset
const latest = world.epoch - 1

const get = (query: Query, at = node) => {
  const reply = call(at, PATH, query)
  expect(reply.status).toBe(200)
  return decoded(DataNode.GetTimeWeightedNotionalPositionResponse, reply).timeWeightedNotionalPosition!
}
const detail = (query: Query, at = node) => {
  const reply = call(at, PATH, query)
  return { status: reply.status, ...JSON.parse(reply.body).details[0] }
}
const noRows = { status: 500, message: "failed to get time weighted notional position", inner: "no rows in result set" }

const pow10 = (n: number) => 10n ** BigInt(n)
/** `|volume| × mark price in asset decimals / 10^positionDecimals`, as core computes it. */
const notionalOf = (row: PositionRow): bigint => {
  const { market } = row
  const volume = BigInt(row.openVolume) < 0n ? -BigInt(row.openVolume) : BigInt(row.openVolume)
  const price = world.exchange.markPrice(market, row.from) * pow10(asset.decimals - market.priceDecimals)
  const pd = market.positionDecimals
  return pd >= 0 ? (volume * price) / pow10(pd) : volume * price * pow10(-pd)
}
const versionsOf = (partyIndex: number) =>
  (world.positions.byParty[partyIndex] ?? []).filter((r) => r.market.settlementAsset.id === asset.id)

describe("GET /api/v2/time-weighted-notional-position", () => {
  it("answers the row of the latest ended epoch, in the node's JSON", () => {
    const party = catalog.parties.find((p) => versionsOf(p.index).length > 0 && p !== catalog.network)!
    const reply = call(node, PATH, { partyId: party.id, assetId: asset.id, gameId: solo.id })
    const row = notionals.rowAt(party, solo, undefined, world.height, teams)!
    expect(row.epoch).toBe(latest)
    expect(reply).toEqual({
      status: 200,
      body:
        `{"timeWeightedNotionalPosition":{"assetId":"${asset.id}","partyId":"${party.id}","gameId":"${solo.id}",` +
        `"atEpoch":"${latest}","timeWeightedNotionalPosition":"${row.notional}",` +
        `"lastUpdated":"${BigInt(chain.blockTime(chain.epochLastBlock(latest))) * 1000n}"}}`
    })
  })

  it("weighs a position held all epoch at its full notional, one opened mid-epoch by its time", () => {
    // parties whose only version in the asset's markets up to the end of the epoch after their
    // first one is that first one (a snapshot position)
    let held = 0
    let opened = 0
    for (const party of catalog.parties.slice(1)) {
      const rows = versionsOf(party.index)
      if (rows.length === 0) continue
      const row = rows[0]
      const epoch = chain.epochOf(row.from)
      if (row.from === chain.epochLastBlock(epoch) || epoch >= latest) continue
      if (rows.some((r) => r !== row && r.from <= chain.epochLastBlock(epoch + 1))) continue
      const notional = notionalOf(row)
      // the epoch after: held from start to end, weight exactly one
      expect(get({ partyId: party.id, assetId: asset.id, gameId: solo.id, atEpoch: BigInt(epoch + 1) })).toMatchObject({
        atEpoch: BigInt(epoch + 1),
        timeWeightedNotionalPosition: notional
      })
      held++
      // its own epoch: weighted by the whole seconds it was held over the epoch's whole seconds
      const start = chain.blockTime(epoch === 1 ? 1 : chain.epochLastBlock(epoch - 1))
      const end = chain.blockTime(chain.epochLastBlock(epoch))
      const secs = (us: number) => BigInt(Math.trunc(us / 1_000_000))
      const w = (secs(end - row.vt) * 10_000_000n) / secs(end - start)
      const expected = (notional * w) / 10_000_000n
      expect(
        get({ partyId: party.id, assetId: asset.id, gameId: solo.id, atEpoch: BigInt(epoch) })
          .timeWeightedNotionalPosition
      ).toBe(expected)
      if (expected !== 0n && expected !== notional) opened++
    }
    expect(held).toBeGreaterThan(2)
    expect(opened).toBeGreaterThan(0)
  })

  it("has no row before the party's first position, nor for an epoch not ended", () => {
    const party = catalog.parties.slice(1).find((p) => {
      const rows = versionsOf(p.index)
      return rows.length > 0 && chain.epochOf(rows[0].from) > 1
    })!
    const first = chain.epochOf(versionsOf(party.index)[0].from)
    const query = { partyId: party.id, assetId: asset.id, gameId: solo.id }
    expect(get({ ...query, atEpoch: BigInt(first) }).atEpoch).toBe(BigInt(first))
    expect(detail({ ...query, atEpoch: BigInt(first - 1) })).toMatchObject(noRows)
    expect(detail({ ...query, atEpoch: BigInt(world.epoch) })).toMatchObject(noRows)
    expect(detail({ ...query, atEpoch: 0n })).toMatchObject(noRows)
    expect(detail({ ...query, atEpoch: 18446744073709551615n })).toMatchObject(noRows)
  })

  it("finds the row only under the game's asset and for a game with a notional requirement", () => {
    const party = catalog.parties.find((p) => versionsOf(p.index).length > 0)!
    const other = catalog.assets.find((a) => a.id !== asset.id)!
    expect(detail({ partyId: party.id, assetId: other.id, gameId: solo.id })).toMatchObject(noRows)
    expect(detail({ partyId: party.id, assetId: asset.id, gameId: "ab".repeat(32) })).toMatchObject(noRows)
    expect(detail({ partyId: "cd".repeat(32), assetId: asset.id, gameId: solo.id })).toMatchObject(noRows)
    const plain = teams.games.find((g) => !notionals.requirements.has(g.id))
    if (plain !== undefined) {
      expect(detail({ partyId: party.id, assetId: plain.asset.id, gameId: plain.id })).toMatchObject(noRows)
    }
  })

  it("compares ids as the store's bytes: uppercase finds the row, answered in lowercase", () => {
    const party = catalog.parties.find((p) => versionsOf(p.index).length > 0 && p !== catalog.network)!
    const upper = get({
      partyId: party.id.toUpperCase(),
      assetId: asset.id.toUpperCase(),
      gameId: solo.id.toUpperCase()
    })
    expect(upper).toEqual(get({ partyId: party.id, assetId: asset.id, gameId: solo.id }))
    expect(upper.partyId).toBe(party.id)
  })

  it("answers a team game for the epoch's team members only, zero without a position", () => {
    const epoch = latest
    const members = teams.currentMembers(chain.epochLastBlock(epoch))
    expect(members.length).toBeGreaterThan(0)
    for (const member of members) {
      const query = { partyId: member.party.id, assetId: teamGame.asset.id, gameId: teamGame.id }
      const row = get(query)
      expect(row.atEpoch).toBe(BigInt(epoch))
      if (versionsOf(member.party.index).length === 0) expect(row.timeWeightedNotionalPosition).toBe(0n)
      else if (teamGame.asset === solo.asset) {
        // the same sum over the asset's markets as the individual game's
        const alone = get({ ...query, gameId: solo.id, atEpoch: BigInt(epoch) })
        expect(row.timeWeightedNotionalPosition).toBe(alone.timeWeightedNotionalPosition)
      }
    }
    const outsider = catalog.parties.slice(1).find((p) => teams.byParty.get(p.id) === undefined)!
    expect(detail({ partyId: outsider.id, assetId: teamGame.asset.id, gameId: teamGame.id })).toMatchObject(noRows)
    // a member who joined later has no row for the epochs before
    const late = teams.members.find((m) => chain.epochOf(m.from) > 1 && teams.byParty.get(m.party.id)![0] === m)!
    const before = chain.epochOf(late.from) - 1
    if (chain.epochLastBlock(before) < late.from) {
      expect(
        detail({ partyId: late.party.id, assetId: teamGame.asset.id, gameId: teamGame.id, atEpoch: BigInt(before) })
      ).toMatchObject(noRows)
    }
  })

  it("a lagging node reads only the epochs ended at its height", () => {
    const party = catalog.parties.find((p) => versionsOf(p.index).length > 0 && p !== catalog.network)!
    const query = { partyId: party.id, assetId: asset.id, gameId: solo.id }
    const lastBlock = chain.epochLastBlock(latest)
    expect(get(query, nodeOf(world, { height: lastBlock - 1 })).atEpoch).toBe(BigInt(latest - 1))
    expect(get(query, nodeOf(world, { height: lastBlock })).atEpoch).toBe(BigInt(latest))
    expect(detail({ ...query, atEpoch: BigInt(latest) }, nodeOf(world, { height: lastBlock - 1 }))).toMatchObject(
      noRows
    )
  })

  it("a new epoch's row follows the positions the blocks trade", () => {
    const live = new World({ seed: 11, scale: { referralSets: 10, refereesPerSet: 6 } })
    const game = live.teams.games.find((g) => g.scope === "ENTITY_SCOPE_INDIVIDUALS")!
    const before = live.epoch
    const versionsAt = (index: number) => (live.positions.byParty[index] ?? []).length
    const counts = live.catalog.parties.map((p) => versionsAt(p.index))
    live.advance(live.chain.epochLastBlock(before) - live.height)
    const traded = live.catalog.parties.find(
      (p) =>
        p !== live.catalog.network &&
        versionsAt(p.index) > counts[p.index] &&
        (live.positions.byParty[p.index] ?? []).some((r) => r.market.settlementAsset.id === game.asset.id)
    )
    const liveNode = nodeOf(live)
    for (const p of live.catalog.parties.slice(0, 20)) {
      const reply = call(liveNode, PATH, { partyId: p.id, assetId: game.asset.id, gameId: game.id })
      if (reply.status === 200) expect(JSON.parse(reply.body).timeWeightedNotionalPosition.atEpoch).toBe(`${before}`)
    }
    expect(traded).toBeDefined()
    const query = { partyId: traded!.id, assetId: game.asset.id, gameId: game.id }
    expect(get(query, liveNode).atEpoch).toBe(BigInt(before))
    expect(get({ ...query, atEpoch: BigInt(before - 1) }, liveNode).atEpoch).toBe(BigInt(before - 1))
    // the same blocks in other batches answer the same
    const again = new World({ seed: 11, scale: { referralSets: 10, refereesPerSet: 6 } })
    again.advance(3)
    again.advance(again.chain.epochLastBlock(before) - again.height)
    expect(call(nodeOf(again), PATH, query)).toEqual(call(liveNode, PATH, query))
  })

  it("needs the party, the asset and the game, in that order", () => {
    expect(detail({})).toMatchObject({ status: 400, message: "invalid party id", code: 10000 })
    expect(detail({ partyId: "xyz" })).toMatchObject({ status: 400, message: "invalid asset ID", code: 10038 })
    expect(detail({ partyId: "xyz", assetId: asset.id })).toMatchObject({
      status: 400,
      message: "invalid game ID",
      code: 10000
    })
  })

  it("rejects ids that are not hex, the asset first, then the party, then the game", () => {
    expect(call(node, PATH, { partyId: "xyz", assetId: "uvw", gameId: "rst" })).toEqual({
      status: 400,
      body: '{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10000,"message":"failed to get time weighted notional position","inner":"decoding \'uvw\': not a valid hex id (or well known exception)"}]}'
    })
    expect(detail({ partyId: "xyz", assetId: asset.id, gameId: "rst" }).inner).toContain("'xyz'")
    expect(detail({ partyId: catalog.parties[1].id, assetId: asset.id, gameId: "rst" }).inner).toContain("'rst'")
  })
})
