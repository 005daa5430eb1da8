import { describe, expect, it } from "@effect/vitest"
import { type Commands, LiquidityProvision, PartyProfile, Position } from "@vega-effect/schema"
import { createHash } from "node:crypto"
import type { IncludedTransaction } from "../src/internal/core/contract.js"
import { applyTransaction } from "../src/internal/world/apply.js"
import type { MarketInfo } from "../src/internal/world/catalog.js"
import { afterFill } from "../src/internal/world/orders.js"
import { comparePositions, type PositionRow } from "../src/internal/world/positions.js"
import type { World } from "../src/World.js"
import { call, decoded, nodeOf, smallWorld } from "./harness.js"
import {
  amendment,
  cancellation,
  freshKey,
  limitOrder,
  marketOrder,
  orderIdOf as idOf,
  type Side,
  submission
} from "./support/apply.js"

const sha = (algorithm: string, text: string) => createHash(algorithm).update(text).digest("hex")

/** Includes transactions the way the core does: one block, then each transaction in order. */
const makeChainOf = (world: World) => {
  let sequence = 0
  const make = (partyId: string, command: Commands.Command, index = 0): IncludedTransaction => {
    const n = ++sequence
    return {
      hash: sha("sha256", `tx ${n}`),
      partyId,
      command,
      signature: sha("sha512", `signature ${n}`),
      height: world.height,
      index
    }
  }
  return {
    make,
    /** Advances one block and applies the transactions in it. */
    block: (...txs: ReadonlyArray<readonly [string, Commands.Command]>) => {
      world.advance(1)
      return txs.map(([party, command], index) => {
        const tx = make(party, command, index)
        return { tx, result: applyTransaction(world, tx) as unknown as Record<string, unknown> }
      })
    },
    /** Advances one block and applies one transaction; returns its result. */
    one: (party: string, command: Commands.Command) => {
      world.advance(1)
      const tx = make(party, command)
      return { tx, result: applyTransaction(world, tx) as unknown as Record<string, unknown> }
    }
  }
}

const errorOf = (result: Record<string, unknown>) => (result.failure as { error: string } | undefined)?.error

// -------------------------------------------------------------------------------------------------
// commands

const profile = (alias: string, metadata: Array<{ key: string; value: string }> = []): Commands.Command => ({
  _tag: "updatePartyProfile",
  value: { alias, metadata }
})
const lpSubmission = (marketId: string, commitmentAmount: string, fee: string, reference = ""): Commands.Command => ({
  _tag: "liquidityProvisionSubmission",
  value: { marketId, commitmentAmount, fee, reference }
})
const lpAmendment = (marketId: string, commitmentAmount: string, fee = "", reference = ""): Commands.Command => ({
  _tag: "liquidityProvisionAmendment",
  value: { marketId, commitmentAmount, fee, reference }
})
const lpCancellation = (marketId: string): Commands.Command => ({
  _tag: "liquidityProvisionCancellation",
  value: { marketId }
})

// -------------------------------------------------------------------------------------------------
// reading the world back through the routes

interface PositionJson {
  readonly partyId: string
  readonly marketId: string
  readonly openVolume: string
  readonly realisedPnl: string
  readonly unrealisedPnl: string
  readonly averageEntryPrice: string
  readonly updatedAt: string
  readonly positionStatus: string
}

const positionOf = (world: World, party: string, market: MarketInfo, height = world.height) => {
  const reply = call(nodeOf(world, { height }), "/api/v2/positions", {
    "filter.partyIds": [party],
    "filter.marketIds": [market.id]
  })
  decoded(Position.ListPositionsResponse, reply)
  const edges = JSON.parse(reply.body).positions.edges as Array<{ node: PositionJson }>
  expect(edges.length).toBeLessThanOrEqual(1)
  return edges[0]?.node
}

interface LpJson {
  readonly id: string
  readonly partyId: string
  readonly createdAt: string
  readonly updatedAt: string
  readonly commitmentAmount: string
  readonly fee: string
  readonly version: string
  readonly status: string
  readonly reference: string
}

const provisionsOf = (world: World, party: string, query: Record<string, boolean> = {}, height = world.height) => {
  const reply = call(nodeOf(world, { height }), "/api/v2/liquidity/all-provisions", { partyId: party, ...query })
  decoded(LiquidityProvision.ListLiquidityProvisionsResponse, reply)
  return (
    JSON.parse(reply.body).liquidityProvisions.edges as Array<{ node: { current: LpJson; pending?: LpJson } }>
  ).map((e) => e.node)
}

const profileOf = (world: World, party: string, height = world.height) => {
  const reply = call(nodeOf(world, { height }), "/api/v2/parties/profiles", { parties: [party] })
  return decoded(PartyProfile.ListPartiesProfilesResponse, reply).profiles.edges[0]?.node
}

/** `n / d` rounded half away from zero, written independently of the implementation. */
const rounded = (n: bigint, d: bigint) => (n >= 0n ? (2n * n + d) / (2n * d) : -((2n * -n + d) / (2n * d)))
const exponentOf = (market: MarketInfo) =>
  market.settlementAsset.decimals - market.priceDecimals - market.positionDecimals
const toAsset = (market: MarketInfo, x: bigint) => {
  const e = exponentOf(market)
  return e >= 0 ? x * 10n ** BigInt(e) : rounded(x, 10n ** BigInt(-e))
}

const sortedBy = <A>(rows: ReadonlyArray<A>, compare: (a: A, b: A) => number) =>
  rows.every((row, i) => i === 0 || compare(rows[i - 1], row) <= 0)

// -------------------------------------------------------------------------------------------------

describe("applyTransaction: results", () => {
  it("echoes the command with success, or fails with a text", () => {
    const world = smallWorld()
    const chain = makeChainOf(world)
    const party = freshKey("echo")
    const command = profile("echo")
    const { result, tx } = chain.one(party, command)
    expect(result).toEqual({
      partyId: party,
      status: true,
      hash: tx.hash,
      statusDetail: "STATUS_SUCCESS",
      updatePartyProfile: command.value,
      success: {}
    })
    const transfer = {
      _tag: "transfer",
      value: {
        fromAccountType: "ACCOUNT_TYPE_GENERAL",
        to: party,
        toAccountType: "ACCOUNT_TYPE_GENERAL",
        asset: world.catalog.assets[1].id,
        amount: "1",
        reference: "",
        oneOff: { deliverOn: 0n }
      }
    } as unknown as Commands.Command
    const failed = chain.one(party, transfer).result
    expect(failed.status).toBe(false)
    expect(failed.statusDetail).toBe("STATUS_FAILURE")
    expect(failed.failure).toEqual({ error: "transfer is not modelled by the simulator", errors: [] })
    expect(failed.success).toBeUndefined()
  })

  it("fails a command the node's validation rejects, with the validation text", () => {
    const world = smallWorld()
    const chain = makeChainOf(world)
    const market = world.catalog.markets[0].id
    expect(errorOf(chain.one(freshKey("v"), marketOrder(market, "SIDE_BUY", 0n)).result)).toBe(
      "order_submission.size (must be positive)"
    )
    expect(errorOf(chain.one(freshKey("v"), profile("x".repeat(33))).result)).toBe(
      "update_party_profile.alias (is limited to 32 characters)"
    )
    expect(world.catalog.joined).toEqual([])
  })
})

describe("applyTransaction: party profiles", () => {
  it("gives a new party a profile from the including height, not before", () => {
    const world = smallWorld()
    const chain = makeChainOf(world)
    const party = freshKey("alice")
    const count = world.catalog.parties.length
    chain.one(party, profile("alice", [{ key: "twitter", value: "@alice" }]))
    const height = world.height
    expect(profileOf(world, party)).toEqual({
      partyId: party,
      alias: "alice",
      metadata: [{ key: "twitter", value: "@alice" }]
    })
    expect(profileOf(world, party, height - 1)).toBeUndefined()
    const all = (h: number) =>
      decoded(
        PartyProfile.ListPartiesProfilesResponse,
        call(nodeOf(world, { height: h }), "/api/v2/parties/profiles", { "pagination.first": 5000 })
      ).profiles.edges.map((e) => e.node.partyId)
    expect(all(height).length).toBe(count + 1)
    expect(all(height - 1).length).toBe(count)
    const ids = all(height).map((id) => (id === "network" ? "03" : id))
    expect(ids).toEqual([...ids].sort().reverse())
    expect(world.catalog.partyById.get(party)?.index).toBe(count)
  })

  it("replaces an existing party's profile at the height; lagging nodes see the old one", () => {
    const world = smallWorld()
    const chain = makeChainOf(world)
    const party = world.catalog.parties[5].id
    const before = profileOf(world, party)!
    chain.one(party, profile("renamed", [{ key: "github", value: "renamed" }]))
    expect(profileOf(world, party)).toEqual({
      partyId: party,
      alias: "renamed",
      metadata: [{ key: "github", value: "renamed" }]
    })
    expect(profileOf(world, party, world.height - 1)).toEqual(before)
    // a second change in one block: the block shows the last one, one version at that height
    chain.block([party, profile("first")], [party, profile("second")])
    expect(profileOf(world, party)!.alias).toBe("second")
    expect(profileOf(world, party, world.height - 1)!.alias).toBe("renamed")
    expect(world.profiles.versions.get(party)!.filter((v) => v.from === world.height).length).toBe(1)
  })

  it("rejects an alias held by another party and the reserved alias", () => {
    const world = smallWorld()
    const chain = makeChainOf(world)
    const alice = freshKey("alice")
    const bob = freshKey("bob")
    chain.one(alice, profile("alice"))
    expect(errorOf(chain.one(bob, profile("alice")).result)).toBe('alias "alice" is already taken')
    expect(errorOf(chain.one(alice, profile("network")).result)).toBe("this alias is reserved")
    // a failed transaction does not make the party known
    expect(world.catalog.partyById.has(bob)).toBe(false)
    expect(profileOf(world, bob)).toBeUndefined()
    // the holder may set it again, and it is free once changed
    expect(chain.one(alice, profile("alice", [{ key: "k", value: "v" }])).result.status).toBe(true)
    chain.one(alice, profile("alice2"))
    expect(chain.one(bob, profile("alice")).result.status).toBe(true)
    expect(profileOf(world, bob)!.alias).toBe("alice")
  })

  it("is left alone by the world's own profile changes", () => {
    const world = smallWorld({ scale: { parties: 5 }, activity: { profileChanges: 20 } })
    const chain = makeChainOf(world)
    const party = world.catalog.parties[1].id
    chain.one(party, profile("mine"))
    world.advance(100)
    expect(world.profiles.versions.get(party)!.at(-1)!.alias).toBe("mine")
    expect(world.profiles.versions.get(world.catalog.parties[2].id)!.length).toBeGreaterThan(1)
  })
})

describe("applyTransaction: liquidity provisions", () => {
  it("submits PENDING, activates at the next epoch, amends with a pending version, cancels", () => {
    const world = smallWorld()
    const chain = makeChainOf(world)
    const party = freshKey("lp")
    const market = world.catalog.markets[1]
    const { tx } = chain.one(party, lpSubmission(market.id, "5000000000", "0.0100", "my-lp"))
    const submitted = world.height
    const id = idOf(tx)
    const time = String(BigInt(world.chain.blockTime(submitted)) * 1000n)
    expect(provisionsOf(world, party, { live: true })).toEqual([
      {
        current: {
          id,
          partyId: party,
          createdAt: time,
          updatedAt: time,
          marketId: market.id,
          commitmentAmount: "5000000000",
          fee: "0.01",
          sells: [],
          buys: [],
          version: "1",
          status: "STATUS_PENDING",
          reference: "my-lp"
        }
      }
    ])
    expect(provisionsOf(world, party, {}, submitted - 1)).toEqual([])
    expect(errorOf(chain.one(party, lpSubmission(market.id, "1", "0.1")).result)).toBe(
      "liquidity provision already exists"
    )

    // the next epoch activates it
    const epoch = world.epoch
    while (world.epoch === epoch) world.advance(1)
    const activated = world.height
    const [active] = provisionsOf(world, party, { live: true })
    expect(active.pending).toBeUndefined()
    expect(active.current).toMatchObject({ id, status: "STATUS_ACTIVE", version: "1", createdAt: time })
    expect(active.current.updatedAt).toBe(String(BigInt(world.chain.blockTime(activated)) * 1000n))

    // an amendment: current stays, a pending version appears
    chain.one(party, lpAmendment(market.id, "7000000000"))
    const amended = world.height
    const [pair] = provisionsOf(world, party, { live: true })
    expect(pair.current).toMatchObject({ status: "STATUS_ACTIVE", version: "1", commitmentAmount: "5000000000" })
    expect(pair.pending).toMatchObject({
      id,
      status: "STATUS_PENDING",
      version: "2",
      commitmentAmount: "7000000000",
      fee: "0.01",
      reference: "my-lp",
      createdAt: time
    })
    expect(provisionsOf(world, party, { live: true }, amended - 1)[0].pending).toBeUndefined()

    // a second amendment in the same epoch replaces the pending one, over the active version
    chain.one(party, lpAmendment(market.id, "", "0.02", "renamed"))
    expect(provisionsOf(world, party, { live: true })[0].pending).toMatchObject({
      version: "2",
      commitmentAmount: "5000000000",
      fee: "0.02",
      reference: "renamed"
    })

    const next = world.epoch
    while (world.epoch === next) world.advance(1)
    expect(provisionsOf(world, party, { live: true })).toMatchObject([
      { current: { status: "STATUS_ACTIVE", version: "2", fee: "0.02", reference: "renamed" } }
    ])

    chain.one(party, lpCancellation(market.id))
    expect(provisionsOf(world, party, { live: true })).toEqual([])
    const history = provisionsOf(world, party).map((n) => [n.current.status, n.current.version, n.pending?.version])
    expect(history).toEqual([
      ["STATUS_CANCELLED", "2", undefined],
      ["STATUS_ACTIVE", "2", undefined],
      ["STATUS_ACTIVE", "1", "2"],
      ["STATUS_ACTIVE", "1", "2"],
      ["STATUS_ACTIVE", "1", undefined],
      ["STATUS_PENDING", "1", undefined]
    ])
    // and a new provision may be submitted after the cancellation
    expect(chain.one(party, lpSubmission(market.id, "1000", "0.001")).result.status).toBe(true)
  })

  it("replaces a submission that is still pending when it is amended", () => {
    const world = smallWorld()
    const chain = makeChainOf(world)
    const party = freshKey("lp-early")
    const market = world.catalog.markets[3].id
    const epoch = world.epoch
    while (world.epoch === epoch) world.advance(1)
    chain.one(party, lpSubmission(market, "100", "0.001"))
    chain.one(party, lpAmendment(market, "300"))
    expect(world.epoch).toBe(epoch + 1)
    expect(provisionsOf(world, party, { live: true })).toMatchObject([
      { current: { status: "STATUS_PENDING", version: "1", commitmentAmount: "300", fee: "0.001" } }
    ])
    expect(provisionsOf(world, party, { live: true })[0].pending).toBeUndefined()
    expect(provisionsOf(world, party).map((n) => [n.current.version, n.current.commitmentAmount])).toEqual([
      ["1", "300"],
      ["1", "100"]
    ])
  })

  it("fails as the node does", () => {
    const world = smallWorld()
    const chain = makeChainOf(world)
    const party = freshKey("lp-fail")
    const market = world.catalog.markets[0].id
    const unknown = "ab".repeat(32)
    expect(errorOf(chain.one(party, lpSubmission(unknown, "1", "0.1")).result)).toBe("OrderError: Invalid Market ID")
    expect(errorOf(chain.one(party, lpAmendment(market, "5")).result)).toBe("party is not a liquidity provider")
    expect(errorOf(chain.one(party, lpCancellation(market)).result)).toBe("party is not a liquidity provider")
    expect(errorOf(chain.one(party, lpAmendment(market, "", "", "")).result)).toBe(
      "empty liquidity provision amendment content"
    )
    expect(world.catalog.partyById.has(party)).toBe(false)
  })

  it("keeps one row per provision and block; the world's own changes leave it alone", () => {
    const world = smallWorld({ activity: { liquidityChanges: 20 } })
    const chain = makeChainOf(world)
    const party = freshKey("lp-busy")
    const market = world.catalog.markets[2].id
    chain.block([party, lpSubmission(market, "100", "0.001")], [party, lpCancellation(market)])
    expect(provisionsOf(world, party).map((n) => n.current.status)).toEqual(["STATUS_CANCELLED"])
    chain.one(party, lpSubmission(market, "200", "1e-3"))
    expect(provisionsOf(world, party, { live: true })[0].current.fee).toBe("0.001")
    const rows = world.liquidityProvisions.history.length
    world.advance(120)
    expect(world.liquidityProvisions.history.length).toBeGreaterThan(rows)
    // only the activation at the next epoch: no generated amendment, stop or cancellation
    expect(provisionsOf(world, party).map((n) => n.current.status)).toEqual([
      "STATUS_ACTIVE",
      "STATUS_PENDING",
      "STATUS_CANCELLED"
    ])
    const history = world.liquidityProvisions.history
    expect(history.every((row, i) => i === 0 || history[i - 1].vt < row.vt || history[i - 1].id <= row.id)).toBe(true)
  })
})

/** The book's levels on a side now: price and the volume resting there. */
const levelsOf = (world: World, market: MarketInfo, side: Side) =>
  world.exchange.books[market.index].side(side).map((l) => ({
    price: l.price,
    volume: l.orders.reduce((n, o) => n + o.remaining, 0n)
  }))

/** The trades of the last block. */
const lastTrades = (world: World) => world.exchange.trades.log.filter((t) => t.height === world.height)

/** What an order of `size` taking the book's `side` levels trades, level by level, written independently. */
const walk = (levels: ReadonlyArray<{ price: bigint; volume: bigint }>, size: bigint) => {
  const fills: Array<{ price: bigint; size: bigint }> = []
  for (const level of levels) {
    if (size === 0n) break
    const take = level.volume < size ? level.volume : size
    fills.push({ price: level.price, size: take })
    size -= take
  }
  return fills
}

describe("applyTransaction: orders and positions", () => {
  it("fills a market order against the best levels at their prices and moves both positions exactly", () => {
    const world = smallWorld({ activity: { positionTrades: 0 } })
    const chain = makeChainOf(world)
    const party = freshKey("trader")
    const market = world.catalog.markets[0]
    expect(exponentOf(market)).toBe(7)
    const maker = world.exchange.makerOf(market)
    const makerBefore = world.exchange.openVolume(maker, market)
    const mark = (h: number) => world.exchange.markPrice(market, h)
    const expectPosition = (volume: bigint, entry: bigint, realised: bigint, height = world.height) => {
      const unrealised = volume === 0n ? 0n : toAsset(market, (mark(height) - entry) * volume)
      expect(positionOf(world, party, market, height)).toEqual({
        marketId: market.id,
        partyId: party,
        openVolume: String(volume),
        realisedPnl: String(realised),
        unrealisedPnl: String(unrealised),
        averageEntryPrice: String(entry),
        updatedAt: String(BigInt(world.chain.blockTime(height)) * 1000n),
        lossSocialisationAmount: "0",
        positionStatus: "POSITION_STATUS_UNSPECIFIED"
      })
    }
    // no requote between the blocks below: the book moves only with these orders
    while ((world.height + 1) % 10 !== 1) world.advance(1)

    const asks = levelsOf(world, market, "SIDE_SELL")
    expect(asks.length).toBe(5)
    expect(asks[0].price).toBeGreaterThan(mark(world.height + 1))
    expect(chain.one(party, marketOrder(market.id, "SIDE_BUY", 10n)).result.status).toBe(true)
    const h1 = world.height
    expect(positionOf(world, party, market, h1 - 1)).toBeUndefined()
    expect(lastTrades(world).map((t) => [t.price, t.size, t.buyer.id, t.seller, t.aggressor])).toEqual([
      [asks[0].price, 10n, party, maker, "SIDE_BUY"]
    ])
    expectPosition(10n, asks[0].price, 0n)
    expect(world.exchange.openVolume(maker, market)).toBe(makerBefore - 10n)

    // a limit priced through two levels takes the first in full, then part of the second, at their prices
    const size = asks[0].volume - 10n + 30n
    const through = walk(levelsOf(world, market, "SIDE_SELL"), size)
    expect(through.length).toBe(2)
    const { tx } = chain.one(party, limitOrder(market.id, "SIDE_BUY", size, asks[1].price, "TIME_IN_FORCE_GTC"))
    expect(lastTrades(world).map((t) => [t.price, t.size])).toEqual(through.map((f) => [f.price, f.size]))
    const entry = rounded(asks[0].price * 10n + through[0].price * through[0].size + through[1].price * 30n, 10n + size)
    expectPosition(10n + size, entry, 0n)
    expect(world.exchange.orders.current(idOf(tx))).toMatchObject({ status: "STATUS_FILLED", remaining: 0n })

    // partial close into the bids: realised PnL on what closed, entry unchanged
    const bids = levelsOf(world, market, "SIDE_BUY")
    chain.one(party, limitOrder(market.id, "SIDE_SELL", 15n, 1n, "TIME_IN_FORCE_IOC"))
    const realised = (bids[0].price - entry) * 15n * 10n ** 7n
    expectPosition(10n + size - 15n, entry, realised)
    // every earlier state stays readable at its height
    expectPosition(10n, asks[0].price, 0n, h1)
  })

  it("rounds half away from zero when the asset has fewer decimals than price and volume", () => {
    const world = smallWorld({ activity: { positionTrades: 0 } })
    const chain = makeChainOf(world)
    const party = freshKey("rounding")
    const market = world.catalog.markets[4]
    expect(exponentOf(market)).toBe(-1)
    while ((world.height + 3) % 10 > 5) world.advance(1)
    const ask = levelsOf(world, market, "SIDE_SELL")[0].price
    chain.one(party, marketOrder(market.id, "SIDE_BUY", 3n))
    chain.one(party, marketOrder(market.id, "SIDE_BUY", 4n))
    const bid = levelsOf(world, market, "SIDE_BUY")[0].price
    chain.one(party, marketOrder(market.id, "SIDE_SELL", 5n))
    const mark = world.exchange.markPrice(market, world.height)
    const position = positionOf(world, party, market)!
    expect(position.openVolume).toBe("2")
    expect(position.averageEntryPrice).toBe(String(ask))
    expect(position.realisedPnl).toBe(String(rounded((bid - ask) * 5n, 10n)))
    expect(position.unrealisedPnl).toBe(String(rounded((mark - ask) * 2n, 10n)))
  })

  it("follows the fill rules on literal numbers, halves rounded away from zero", () => {
    const base = smallWorld().catalog.markets[0]
    // 6 asset decimals − 2 price decimals − 5 position decimals: PnL is price × volume / 10
    const market: MarketInfo = { ...base, priceDecimals: 2, positionDecimals: 5 }
    const open = (openVolume: bigint, averageEntryPrice: bigint, realisedPnl = 0n) => ({
      openVolume,
      averageEntryPrice,
      realisedPnl
    })
    expect(afterFill(market, open(0n, 0n), 1n, 10n)).toEqual(open(1n, 10n))
    expect(afterFill(market, open(1n, 10n), 1n, 11n)).toEqual(open(2n, 11n)) // 10.5
    expect(afterFill(market, open(3n, 10n), 1n, 11n)).toEqual(open(4n, 10n)) // 10.25
    expect(afterFill(market, open(-1n, 10n), -1n, 11n)).toEqual(open(-2n, 11n))
    expect(afterFill(market, open(10n, 100n, 7n), -5n, 103n)).toEqual(open(5n, 100n, 9n)) // 7 + 1.5
    expect(afterFill(market, open(10n, 100n, 7n), -5n, 97n)).toEqual(open(5n, 100n, 5n)) // 7 − 1.5
    expect(afterFill(market, open(10n, 100n), -7n, 102n)).toEqual(open(3n, 100n, 1n)) // 1.4
    expect(afterFill(market, open(-10n, 100n), 10n, 90n)).toEqual(open(0n, 0n, 10n))
    expect(afterFill(market, open(-10n, 100n), 25n, 90n)).toEqual(open(15n, 90n, 10n))
    expect(afterFill({ ...market, positionDecimals: -3 }, open(2n, 100n), -2n, 99n)).toEqual(
      open(0n, 0n, -2n * 10n ** 7n)
    )
  })

  it("moves a generated party's existing position from its own entry price", () => {
    const world = smallWorld({ activity: { positionTrades: 0 } })
    const chain = makeChainOf(world)
    const row = [...world.positions.current.values()].find(
      (r) =>
        r.party.id !== "network" &&
        r.party !== world.exchange.makerOf(r.market) &&
        exponentOf(r.market) >= 0 &&
        typeof r.openVolume === "number" &&
        r.openVolume > 10 &&
        r.status === 0
    )!
    const before = {
      volume: BigInt(row.openVolume),
      entry: BigInt(row.averageEntryPrice),
      pnl: BigInt(row.realisedPnl)
    }
    while ((world.height + 1) % 10 === 0) world.advance(1)
    const bid = levelsOf(world, row.market, "SIDE_BUY")[0].price
    chain.one(row.party.id, marketOrder(row.market.id, "SIDE_SELL", 4n))
    expect(positionOf(world, row.party.id, row.market)).toMatchObject({
      openVolume: String(before.volume - 4n),
      averageEntryPrice: String(before.entry),
      realisedPnl: String(before.pnl + toAsset(row.market, (bid - before.entry) * 4n))
    })
  })

  it("rests limits that do not cross and cancels them by id, by market or all", () => {
    const world = smallWorld()
    const chain = makeChainOf(world)
    const party = freshKey("maker")
    const other = freshKey("other")
    const [m0, m1] = world.catalog.markets
    const live = (id: string) => world.exchange.liveOrdersOf(id)
    const { tx } = chain.one(party, limitOrder(m0.id, "SIDE_BUY", 5n, 1n))
    const orderId = idOf(tx)
    expect(live(party).map((o) => [o.id, o.price, o.size, o.remaining, o.side, o.status])).toEqual([
      [orderId, 1n, 5n, 5n, "SIDE_BUY", "STATUS_ACTIVE"]
    ])
    expect(levelsOf(world, m0, "SIDE_BUY").at(-1)).toEqual({ price: 1n, volume: 5n })
    expect(positionOf(world, party, m0)).toBeUndefined()
    // the party is known from its first successful transaction, with an empty profile
    expect(profileOf(world, party)).toEqual({ partyId: party, alias: "", metadata: [] })

    expect(errorOf(chain.one(other, cancellation(m0.id, orderId)).result)).toBe("OrderError: Invalid Party ID")
    expect(errorOf(chain.one(party, cancellation("", orderId)).result)).toBe("invalid order cancellation")
    expect(errorOf(chain.one(party, cancellation(m1.id, orderId)).result)).toBe("OrderError: Not Found")
    expect(errorOf(chain.one(party, cancellation("cd".repeat(32))).result)).toBe("OrderError: Invalid Market ID")
    expect(live(party).length).toBe(1)
    expect(chain.one(party, cancellation(m0.id, orderId)).result.status).toBe(true)
    expect(live(party)).toEqual([])
    expect(world.exchange.orders.current(orderId)).toMatchObject({ status: "STATUS_CANCELLED", remaining: 5n })
    expect(errorOf(chain.one(party, cancellation(m0.id, orderId)).result)).toBe("OrderError: Not Found")

    chain.block(
      [party, limitOrder(m0.id, "SIDE_BUY", 1n, 1n)],
      [party, limitOrder(m0.id, "SIDE_SELL", 1n, 10n ** 15n)],
      [party, limitOrder(m1.id, "SIDE_BUY", 1n, 2n, "TIME_IN_FORCE_GFN")],
      [other, limitOrder(m0.id, "SIDE_BUY", 1n, 3n)]
    )
    expect(live(party).length).toBe(3)
    expect(chain.one(party, cancellation(m0.id)).result.status).toBe(true)
    expect(live(party).map((o) => o.market)).toEqual([m1])
    expect(chain.one(party, cancellation("")).result.status).toBe(true)
    expect(live(party)).toEqual([])
    expect(live(other).length).toBe(1)
    // nothing left to cancel still succeeds
    expect(chain.one(party, cancellation("")).result.status).toBe(true)
  })

  it("stops IOC and FOK orders that cannot trade, and FOK orders that cannot trade in full", () => {
    const world = smallWorld({ activity: { positionTrades: 0 } })
    const chain = makeChainOf(world)
    const party = freshKey("ioc")
    const market = world.catalog.markets[0]
    const status = (tx: IncludedTransaction) => world.exchange.orders.current(idOf(tx))!.status
    const ioc = chain.one(party, limitOrder(market.id, "SIDE_BUY", 5n, 1n, "TIME_IN_FORCE_IOC"))
    expect(ioc.result.status).toBe(true)
    expect(status(ioc.tx)).toBe("STATUS_STOPPED")
    const fok = chain.one(party, limitOrder(market.id, "SIDE_SELL", 5n, 10n ** 15n, "TIME_IN_FORCE_FOK"))
    expect(status(fok.tx)).toBe("STATUS_STOPPED")
    const depth = levelsOf(world, market, "SIDE_SELL").reduce((n, l) => n + l.volume, 0n)
    const tooBig = chain.one(party, marketOrder(market.id, "SIDE_BUY", depth + 1n, "TIME_IN_FORCE_FOK"))
    expect(status(tooBig.tx)).toBe("STATUS_STOPPED")
    expect(lastTrades(world)).toEqual([])
    expect(positionOf(world, party, market)).toBeUndefined()
    // an IOC larger than the book takes it all and stops the rest
    const all = chain.one(party, marketOrder(market.id, "SIDE_BUY", depth + 1n))
    expect(world.exchange.orders.current(idOf(all.tx))).toMatchObject({
      status: "STATUS_PARTIALLY_FILLED",
      remaining: 1n
    })
    expect(positionOf(world, party, market)!.openVolume).toBe(String(depth))
  })

  it("fills a resting order at its own price when a taker reaches it; GTT orders expire", () => {
    const world = smallWorld({ activity: { positionTrades: 40 } })
    const chain = makeChainOf(world)
    const party = freshKey("patient")
    const market = world.catalog.markets[2]
    // the best bid of the book, improved by one tick: a seller hits it first
    const price = levelsOf(world, market, "SIDE_BUY")[0].price + 1n
    const { tx } = chain.one(party, limitOrder(market.id, "SIDE_BUY", 7n, price))
    const placed = world.height
    let fills = world.exchange.trades.log.filter((t) => t.buyOrder === idOf(tx))
    while (fills.length === 0 && world.height < placed + 200) {
      world.advance(1)
      fills = world.exchange.trades.log.filter((t) => t.buyOrder === idOf(tx))
    }
    expect(fills.length).toBeGreaterThan(0)
    expect(fills.every((t) => t.price === price && t.aggressor === "SIDE_SELL")).toBe(true)
    const first = fills[0].height
    expect(positionOf(world, party, market, first)).toMatchObject({
      openVolume: String(fills.filter((t) => t.height === first).reduce((n, t) => n + t.size, 0n)),
      averageEntryPrice: String(price)
    })
    expect(positionOf(world, party, market, first - 1)).toBeUndefined()

    const expiresAt = BigInt(world.chain.blockTime(world.height + 3)) * 1000n
    const gtt = chain.one(party, limitOrder(market.id, "SIDE_BUY", 1n, 1n, "TIME_IN_FORCE_GTT", { expiresAt }))
    world.advance(1)
    expect(world.exchange.orders.current(idOf(gtt.tx))!.status).toBe("STATUS_ACTIVE")
    world.advance(1)
    expect(world.exchange.orders.current(idOf(gtt.tx))).toMatchObject({
      status: "STATUS_EXPIRED",
      updatedAt: world.chain.blockTime(world.height)
    })
    const late = BigInt(world.chain.blockTime(world.height)) * 1000n
    expect(
      errorOf(
        chain.one(party, limitOrder(market.id, "SIDE_BUY", 1n, 1n, "TIME_IN_FORCE_GTT", { expiresAt: late })).result
      )
    ).toBe("OrderError: ExpiryAt Before CreatedAt")
  })

  it("amends resting orders: a new version each time, a crossing price trades, a size of zero cancels", () => {
    const world = smallWorld({ activity: { positionTrades: 0 } })
    const chain = makeChainOf(world)
    const party = freshKey("amender")
    const market = world.catalog.markets[1]
    while ((world.height + 1) % 10 > 5) world.advance(1)
    const { tx } = chain.one(party, limitOrder(market.id, "SIDE_SELL", 4n, 10n ** 15n))
    const id = idOf(tx)
    expect(chain.one(party, amendment(market.id, id, { sizeDelta: 2n })).result.status).toBe(true)
    expect(world.exchange.orders.current(id)).toMatchObject({ size: 6n, remaining: 6n, version: 2 })
    expect(errorOf(chain.one(party, amendment(market.id, "ef".repeat(32), { size: 1n })).result)).toBe(
      "OrderError: Not Found"
    )
    const bid = levelsOf(world, market, "SIDE_BUY")[0].price
    expect(chain.one(party, amendment(market.id, id, { price: "1" })).result.status).toBe(true)
    expect(world.exchange.orders.current(id)).toMatchObject({ status: "STATUS_FILLED", version: 3, remaining: 0n })
    expect(lastTrades(world).map((t) => [t.price, t.size, t.sellOrder, t.aggressor])).toEqual([
      [bid, 6n, id, "SIDE_SELL"]
    ])
    expect(positionOf(world, party, market)).toMatchObject({ openVolume: "-6", averageEntryPrice: String(bid) })
    expect(world.exchange.orders.byId.get(id)!.map((o) => o.version)).toEqual([1, 2, 3])

    const second = chain.one(party, limitOrder(market.id, "SIDE_BUY", 3n, 1n)).tx
    const secondId = idOf(second)
    expect(chain.one(party, amendment(market.id, secondId, { sizeDelta: -3n })).result.status).toBe(true)
    expect(world.exchange.orders.current(secondId)!.status).toBe("STATUS_CANCELLED")
    expect(world.exchange.liveOrdersOf(party)).toEqual([])
    expect(positionOf(world, party, market)!.openVolume).toBe("-6")
  })

  it("rejects post-only orders that would trade, reduce-only orders that would not reduce, pegged orders", () => {
    const world = smallWorld()
    const chain = makeChainOf(world)
    const party = freshKey("flags")
    const market = world.catalog.markets[0]
    const huge = 10n ** 15n
    expect(
      errorOf(
        chain.one(party, limitOrder(market.id, "SIDE_BUY", 1n, huge, "TIME_IN_FORCE_GTC", { postOnly: true })).result
      )
    ).toBe("OrderError: Post Only Order Would Trade")
    expect(
      errorOf(chain.one(party, submission(market.id, { side: "SIDE_SELL", size: 2n, reduceOnly: true })).result)
    ).toBe("OrderError: Reduce Only Order Would Not Reduce Position")
    expect(errorOf(chain.one(freshKey("x"), marketOrder("00".repeat(32), "SIDE_BUY", 1n)).result)).toBe(
      "OrderError: Invalid Market ID"
    )
    expect(
      errorOf(
        chain.one(
          party,
          submission(market.id, {
            type: "TYPE_LIMIT",
            timeInForce: "TIME_IN_FORCE_GTC",
            peggedOrder: { reference: "PEGGED_REFERENCE_MID", offset: "10" }
          })
        ).result
      )
    ).toBe("pegged orders are not modelled by the simulator")
    expect(errorOf(chain.one(party, limitOrder(market.id, "SIDE_BUY", 1n, 1n, "TIME_IN_FORCE_GFA")).result)).toBe(
      "OrderError: Cannot Send GFA Order During Continuous Trading"
    )
    expect(world.catalog.partyById.has(party)).toBe(false)

    // a reduce-only order trades at most the open volume
    chain.one(party, marketOrder(market.id, "SIDE_BUY", 3n))
    expect(
      chain.one(party, submission(market.id, { side: "SIDE_SELL", size: 10n, reduceOnly: true })).result.status
    ).toBe(true)
    expect(positionOf(world, party, market)!.openVolume).toBe("0")
  })

  it("stops an order that would trade with its own party's order", () => {
    const world = smallWorld({ activity: { positionTrades: 0 } })
    const chain = makeChainOf(world)
    const party = freshKey("washer")
    const market = world.catalog.markets[0]
    while ((world.height + 1) % 10 > 5) world.advance(1)
    const ask = levelsOf(world, market, "SIDE_SELL")[0].price
    // its own sell rests inside the spread, below the maker's best ask
    const own = chain.one(party, limitOrder(market.id, "SIDE_SELL", 2n, ask - 1n)).tx
    const buy = chain.one(party, marketOrder(market.id, "SIDE_BUY", 5n)).tx
    expect(world.exchange.orders.current(idOf(buy))).toMatchObject({
      status: "STATUS_STOPPED",
      reason: "ORDER_ERROR_SELF_TRADING",
      remaining: 5n
    })
    expect(world.exchange.orders.current(idOf(own))!.remaining).toBe(2n)
    expect(lastTrades(world)).toEqual([])
  })

  it("keeps one version per position and block, and the positions indexes in base order", () => {
    const world = smallWorld({ activity: { positionTrades: 100 } })
    const chain = makeChainOf(world)
    const party = freshKey("busy")
    const market = world.catalog.markets[3]
    chain.block(
      [party, marketOrder(market.id, "SIDE_BUY", 2n)],
      [party, marketOrder(market.id, "SIDE_BUY", 3n)],
      [freshKey("another"), marketOrder(market.id, "SIDE_SELL", 1n)]
    )
    expect(positionOf(world, party, market)!.openVolume).toBe("5")
    const mine = world.positions.byParty[world.catalog.partyById.get(party)!.index]!
    expect(mine.length).toBe(1)
    world.advance(5)
    chain.one(party, marketOrder(market.id, "SIDE_SELL", 1n))
    expect(mine.map((r) => r.openVolume)).toEqual([5n, 4n])
    expect(mine[0].to).toBe(world.height)
    const { positions } = world
    expect(sortedBy(positions.log, comparePositions)).toBe(true)
    for (const rows of [...positions.byParty, ...positions.byMarket]) {
      if (rows !== undefined) expect(sortedBy(rows, comparePositions)).toBe(true)
    }
    const logged = new Set<PositionRow>(positions.log)
    for (const row of positions.current.values()) {
      expect(logged.has(row)).toBe(true)
      expect(row.to).toBe(Infinity)
    }
    expect(positions.log.filter((r) => r.to === Infinity).length).toBe(positions.current.size)
  })
})

describe("applyTransaction: determinism", () => {
  const script = (world: World) => {
    const chain = makeChainOf(world)
    const [m0, m1] = world.catalog.markets
    const a = freshKey("det-a")
    const b = freshKey("det-b")
    chain.block([a, profile("det")], [b, lpSubmission(m0.id, "123456", "0.005", "ref")])
    chain.block([a, marketOrder(m0.id, "SIDE_BUY", 9n)], [b, limitOrder(m1.id, "SIDE_SELL", 2n, 10n ** 15n)])
    world.advance(3)
    chain.block([a, marketOrder(m0.id, "SIDE_SELL", 20n)], [b, lpAmendment(m0.id, "999")])
    chain.block([b, cancellation("")], [a, limitOrder(m1.id, "SIDE_BUY", 4n, 1n)])
    world.advance(60)
    const json = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === "bigint" ? String(v) : v))
    return [
      call(nodeOf(world), "/api/v2/positions", { "filter.partyIds": [a, b] }).body,
      call(nodeOf(world), "/api/v2/positions", { "pagination.first": 300 }).body,
      call(nodeOf(world), "/api/v2/liquidity/all-provisions", { marketId: m0.id }).body,
      call(nodeOf(world), "/api/v2/parties/profiles", { "pagination.first": 5000 }).body,
      json(world.exchange.orders.log.map((o) => ({ ...o, party: o.party.id, market: o.market.id }))),
      json(
        world.exchange.trades.log.map((t) => ({ ...t, market: t.market.id, buyer: t.buyer.id, seller: t.seller.id }))
      )
    ].join("\n")
  }

  it("gives the same bytes for the same transactions", () => {
    const first = script(smallWorld())
    expect(script(smallWorld())).toBe(first)
    expect(first).toContain('"alias":"det"')
    expect(first).toContain('"commitmentAmount":"999"')
  })
})
