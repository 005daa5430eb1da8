import { describe, expect, it } from "@effect/vitest"
import { Position, PartyProfile } from "@vega-effect/schema"
import { HttpClient } from "@effect/platform"
import { Effect, Schema, TestClock } from "effect"
import { Simulator } from "@vega-effect/simulator"
import { request } from "./support/http.js"

const get = (url: string, path: string, headers: Record<string, string> = {}) =>
  Effect.promise(() => request(url, path, { headers }))

describe("Simulator over HTTP", () => {
  it.scoped("serves the seven endpoints with the block headers, camelCase or snake_case names", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 11 })
      const camel = yield* get(sim.url, "/api/v2/positions?pagination.first=3&pagination.newestFirst=false")
      const snake = yield* get(sim.url, "/api/v2/positions?pagination.first=3&pagination.newest_first=false")
      expect(camel.status).toBe(200)
      expect(camel.text).toBe(snake.text)
      expect(camel.headers["content-type"]).toBe("application/json")
      expect(camel.headers["x-block-height"]).toBe(String(sim.world.height))
      expect(camel.headers["x-block-timestamp"]).toBe(`${sim.world.chain.blockTime(sim.world.height)}000`)
      const page = Schema.decodeUnknownSync(Position.ListPositionsResponse)(JSON.parse(camel.text))
      expect(page.positions.edges).toHaveLength(3)
      const cursor = page.positions.pageInfo.endCursor
      const next = yield* get(
        sim.url,
        `/api/v2/positions?pagination.first=3&pagination.newestFirst=false&pagination.after=${encodeURIComponent(cursor)}`
      )
      expect(next.status).toBe(200)
      // Cursors are base64 of ASCII JSON (hex ids, digits, times): such text never yields "+" or
      // "/" (those need a byte of 0x3e/0x3f/0x7e/0x7f or above 0x7f at the right offset), so a
      // cursor works even unencoded in a query, where "+" would turn into a space.
      const many = yield* get(sim.url, "/api/v2/positions?pagination.first=500&pagination.newestFirst=false")
      const cursors = Schema.decodeUnknownSync(Position.ListPositionsResponse)(
        JSON.parse(many.text)
      ).positions.edges.map((e) => e.cursor)
      expect(cursors).toHaveLength(500)
      expect(cursors.filter((c) => /[+/]/.test(c))).toEqual([])
      const unencoded = yield* get(sim.url, `/api/v2/positions?pagination.first=3&pagination.after=${cursors[7]}`)
      const encoded = yield* get(
        sim.url,
        `/api/v2/positions?pagination.first=3&pagination.after=${encodeURIComponent(cursors[7])}`
      )
      expect(unencoded.status).toBe(200)
      expect(unencoded.text).toBe(encoded.text)
      for (const path of [
        `/api/v2/parties/${sim.world.catalog.parties[1].id}/stake`,
        `/api/v2/liquidity/all-provisions?marketId=${sim.world.catalog.markets[0].id}`,
        "/api/v2/referral-sets/stats",
        "/api/v2/erc20/multisigcontrol/signer/added/bundles",
        "/api/v2/parties/profiles?parties=network&parties=network",
        "/api/v2/rewards/summaries",
        "/api/v2/info",
        "/statistics",
        "/blockchain/height",
        "/api/v2/vega/time",
        "/api/v2/epoch",
        "/api/v2/assets",
        "/api/v2/markets"
      ]) {
        expect((yield* get(sim.url, path)).status, path).toBe(200)
      }
      expect((yield* get(sim.url, "/health")).text).toBe("ok")
    })
  )

  it.scoped("answers routing and query errors like the gateway", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 11 })
      const missing = yield* get(sim.url, "/api/v2/nothing")
      expect([missing.status, missing.text]).toEqual([404, '{"code":5,"message":"Not Found","details":[]}'])
      const wrongMethod = yield* Effect.promise(() => request(sim.url, "/api/v2/positions", { method: "DELETE" }))
      expect([wrongMethod.status, wrongMethod.text]).toEqual([
        501,
        '{"code":12,"message":"Method Not Allowed","details":[]}'
      ])
      const twice = yield* get(sim.url, "/api/v2/positions?pagination.first=1&pagination.first=2")
      expect([twice.status, twice.text]).toEqual([
        400,
        '{"code":3,"message":"too many values for field \\"first\\": 1, 2","details":[]}'
      ])
      const notBool = yield* get(sim.url, "/api/v2/positions?pagination.newestFirst=yes")
      expect(JSON.parse(notBool.text).message).toBe('strconv.ParseBool: parsing "yes": invalid syntax')
      const emptyAfter = yield* get(sim.url, "/api/v2/positions?pagination.after=")
      expect(JSON.parse(emptyAfter.text).details[0].inner).toBe("failed to decode after cursor: cursor is empty")
    })
  )

  it.scoped("gzips when asked", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 11 })
      const plain = yield* get(sim.url, "/api/v2/positions?pagination.first=50")
      const zipped = yield* get(sim.url, "/api/v2/positions?pagination.first=50", { "accept-encoding": "gzip" })
      expect(zipped.headers["content-encoding"]).toBe("gzip")
      expect(zipped.body.length).toBeLessThan(plain.body.length)
      expect(zipped.text).toBe(plain.text)
    })
  )

  it.scoped("runs several nodes over one world: lagging, frozen and faulty", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({
        seed: 11,
        nodes: [{ name: "leader" }, { name: "behind", lag: 3 }, { name: "stuck", frozen: true }]
      })
      const [leader, behind, stuck] = sim.nodes
      const start = sim.world.height
      yield* sim.advance(5)
      const heightOf = (node: Simulator.Node) =>
        get(node.url, "/blockchain/height").pipe(Effect.map((r) => r.headers["x-block-height"]))
      expect(yield* heightOf(leader)).toBe(String(start + 5))
      expect(yield* heightOf(behind)).toBe(String(start + 2))
      expect(yield* heightOf(stuck)).toBe(String(start))
      // the lagging node serves the data of its own height
      const old = yield* get(behind.url, "/api/v2/positions?pagination.first=20")
      yield* sim.advance(3)
      const leaderNow = yield* get(leader.url, "/api/v2/positions?pagination.first=20")
      expect(old.text).not.toBe(leaderNow.text)
      stuck.unfreeze()
      expect(yield* heightOf(stuck)).toBe(String(start + 8))
      behind.faults.configure({ errorRate: 1, errorStatuses: [503] })
      const failing = yield* get(behind.url, "/api/v2/positions")
      expect([failing.status, failing.text]).toEqual([503, '{"code":14,"message":"Unavailable error","details":[]}'])
    })
  )

  it.scoped("reproduces the v0.75 quirks on request", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 11, quirks: "v0.75" })
      const first = Schema.decodeUnknownSync(PartyProfile.ListPartiesProfilesResponse)(
        JSON.parse((yield* get(sim.url, "/api/v2/parties/profiles?pagination.first=1")).text)
      )
      const next = yield* get(
        sim.url,
        `/api/v2/parties/profiles?pagination.after=${encodeURIComponent(first.profiles.pageInfo.endCursor)}`
      )
      expect(next.status).toBe(500)
      expect((yield* get(sim.url, "/api/v2/liquidity/all-provisions")).status).toBe(500)
    })
  )

  it.scoped("rate-limits like the node when enabled", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 11, nodes: [{ rateLimit: { burst: 3, rate: 1 } }] })
      const statuses: Array<number> = []
      for (let i = 0; i < 5; i++) statuses.push((yield* get(sim.url, "/api/v2/info")).status)
      expect(statuses).toEqual([200, 200, 200, 429, 429])
      const limited = yield* get(sim.url, "/api/v2/info")
      expect(limited.headers["ratelimit-limit"]).toBe("1")
    })
  )

  it.scoped("advances blocks on its clock", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 11, blockInterval: "1 second" })
      const start = yield* sim.height
      yield* TestClock.adjust("10 seconds")
      expect(yield* sim.height).toBeGreaterThanOrEqual(start + 10)
    })
  )
})

describe("Simulator.layerTest", () => {
  it.layer(Simulator.layerTest({ seed: 3 }))("gives an HttpClient aimed at the first node", (it) => {
    it.effect("and manual blocks", () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.Simulator
        const client = yield* HttpClient.HttpClient
        const before = yield* client.get("/blockchain/height").pipe(Effect.flatMap((r) => r.json))
        yield* sim.advance(2)
        const after = yield* client.get("/blockchain/height").pipe(Effect.flatMap((r) => r.json))
        expect(BigInt((after as { height: string }).height) - BigInt((before as { height: string }).height)).toBe(2n)
      }).pipe(Effect.scoped)
    )
  })
})
