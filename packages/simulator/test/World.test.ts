import { describe, expect, it } from "@effect/vitest"
import { call, nodeOf } from "./harness.js"
import { chainIdOf, DEFAULT_SEED, World } from "../src/World.js"

const snapshot = (world: World) =>
  [
    call(nodeOf(world), "/api/v2/positions", { "pagination.first": 200 }).body,
    call(nodeOf(world), "/api/v2/parties/profiles", { "pagination.first": 200 }).body,
    call(nodeOf(world), "/api/v2/rewards/summaries").body,
    call(nodeOf(world), "/api/v2/referral-sets/stats").body,
    call(nodeOf(world), "/api/v2/erc20/multisigcontrol/signer/added/bundles").body,
    call(nodeOf(world), "/api/v2/liquidity/all-provisions", { marketId: world.catalog.markets[0].id }).body,
    call(nodeOf(world), "/blockchain/height").body
  ].join("\n")

describe("World", () => {
  it("is deterministic: same seed and blocks, same bytes, however the blocks are batched", () => {
    const a = new World({ seed: "alpha" })
    const b = new World({ seed: "alpha" })
    expect(snapshot(a)).toBe(snapshot(b))
    a.advance(75)
    for (let i = 0; i < 75; i++) b.advance(1)
    expect(snapshot(a)).toBe(snapshot(b))
    expect(snapshot(new World({ seed: "beta" }))).not.toBe(snapshot(a))
  })

  it("is a network of its own per seed: the default chain id follows the seed, an explicit one wins", () => {
    const chainOf = (world: World) =>
      (JSON.parse(call(nodeOf(world), "/blockchain/height").body) as { chainId: string }).chainId
    const ids = [1, 2, 3, 7, 42, 2 ** 32 - 1, "alpha", "beta"].map((seed) => chainOf(new World({ seed })))
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^vega-sim-[0-9a-f]{8}$/)
    // stable: the same seed gives the same chain id at every run (pinned, since states are kept by it)
    expect(chainOf(new World({ seed: 1 }))).toBe(chainOf(new World({ seed: 1 })))
    expect(chainIdOf(1)).toBe("vega-sim-96a0f96b")
    expect(new World().chain.chainId).toBe(chainIdOf(DEFAULT_SEED))
    expect(new World({ seed: "alpha" }).chain.chainId).toBe(chainIdOf("alpha"))
    expect(chainOf(new World({ seed: 2, chainId: "vega-testnet-0015" }))).toBe("vega-testnet-0015")
    // one to one over 32-bit seeds: neighbouring seeds never share one
    const neighbours = new Set(Array.from({ length: 10_000 }, (_, seed) => chainIdOf(seed)))
    expect(neighbours.size).toBe(10_000)
  })

  it("evolves: positions go through distressed and closed out, stake settles", () => {
    const world = new World({ seed: 3, activity: { positionTrades: 60, stakeEvents: 5 } })
    const seen = new Set<number>()
    const pendingBefore = [...world.stakeLinkings.byParty.values()]
      .flat()
      .filter((r) => r.status === 1 && r.to === Infinity)
    for (let i = 0; i < 60; i++) {
      world.advance(1)
      for (const row of world.positions.current.values()) if (row.from === world.height) seen.add(row.status)
    }
    expect(seen).toEqual(new Set([0, 1, 2, 4]))
    for (const row of pendingBefore) expect(row.to).not.toBe(Infinity)
    const network = [...world.positions.current.values()].filter((r) => r.party.id === "network")
    expect(network.some((r) => r.openVolume !== 0)).toBe(true)
  })

  it("keeps old versions for lagging views until they are pruned", () => {
    const world = new World({ seed: 5 })
    const start = world.height
    const before = call(nodeOf(world), "/api/v2/positions", { "pagination.first": 100 }).body
    world.advance(10)
    expect(call(nodeOf(world, { height: start }), "/api/v2/positions", { "pagination.first": 100 }).body).toBe(before)
    world.prune(world.height)
    expect(world.positions.log.length).toBeLessThanOrEqual(world.positions.current.size * 1.5)
  })

  it("reaches a million positions and stake linkings", { timeout: 120_000 }, () => {
    const world = new World({
      seed: 1,
      scale: { parties: 100_000, markets: 50, positions: 1_000_000, stakeLinkings: 1_000_000 }
    })
    expect(world.positions.current.size).toBeGreaterThanOrEqual(1_000_000)
    expect(world.stakeLinkings.size()).toBe(1_000_000)
    const page = JSON.parse(call(nodeOf(world), "/api/v2/positions", { "pagination.first": 5000 }).body)
    expect(page.positions.edges.length).toBe(5000)
  })
})
