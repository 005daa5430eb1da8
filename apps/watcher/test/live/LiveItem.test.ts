import { describe, expect, it } from "@effect/vitest"
import { EventBus, Position } from "@vega-effect/schema"
import { Effect, Option, Schema } from "effect"
import * as BlockClock from "../../src/live/BlockClock.js"
import { busTypesFor, fromBusEvents, fromStream } from "../../src/live/LiveItem.js"

const PARTY = "b5fd9d3c4ad553cb3196303b6e6df7f484cf7f5331a572a45031239fd71ad8a0"
const OTHER = "c".repeat(64)
const MARKET = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
const NODE = "http://node"

const decodeEvents = (events: ReadonlyArray<unknown>) =>
  Schema.decodeUnknownSync(EventBus.ObserveEventBusResponse)({ events }).events

const base = (id: string, type: number) => ({ id, block: "ab", type, version: 1, chainId: "c" })
const stake = (id: string, party: string) => ({
  ...base(id, 33),
  stakeLinking: {
    id: "1".repeat(64),
    type: 1,
    ts: "1",
    party,
    amount: "5",
    status: 1,
    txHash: "0x" + "2".repeat(64),
    ethereumAddress: "0x" + "3".repeat(40)
  }
})

describe("live items from the event bus", () => {
  it("orders events by (height, sequence), maps ticks, and makes one hint per resource and block", () => {
    const events = decodeEvents([
      stake("10-3", OTHER),
      { ...base("10-1", 2), timeUpdate: { timestamp: "1000000" } },
      stake("9-7", PARTY),
      stake("10-2", PARTY),
      stake("10-4", PARTY),
      {
        ...base("10-5", 34),
        rewardPayout: {
          party: PARTY,
          epochSeq: "1",
          asset: MARKET,
          amount: "1",
          percentOfTotalReward: "1",
          timestamp: "1",
          rewardType: "ACCOUNT_TYPE_GLOBAL_REWARD",
          lockedUntilEpoch: "1",
          quantumAmount: "1"
        }
      },
      { ...base("10-6", 86), partyProfileUpdated: { updatedProfile: { partyId: PARTY, alias: "a", metadata: [] } } },
      { ...base("10-7", 7), party: { id: OTHER } }
    ])
    const items = fromBusEvents(events, NODE)
    expect(items[0]).toEqual({ _tag: "Tick", height: 10, timeNanos: 1000000n })
    const rows = items.filter((i) => i._tag === "Rows")
    expect(rows.map((r) => r._tag === "Rows" && r.rows[0][0])).toEqual([PARTY, OTHER])
    expect(rows[1]._tag === "Rows" && rows[1].rows[0][1]).toEqual({ partyId: OTHER, alias: "", metadata: [] })
    const hints = items.filter((i) => i._tag === "Hints")
    expect(hints).toEqual([
      { _tag: "Hints", resource: "stake", at: { height: 9 }, node: NODE, hints: [PARTY] },
      { _tag: "Hints", resource: "stake", at: { height: 10 }, node: NODE, hints: [PARTY, OTHER] },
      { _tag: "Hints", resource: "rewards", at: { height: 10 }, node: NODE, hints: [""] }
    ])
  })

  it("subscribes to the tick and to the types of the watched resources only", () => {
    expect(busTypesFor(["positions", "stake"])).toEqual(["BUS_EVENT_TYPE_TIME_UPDATE", "BUS_EVENT_TYPE_STAKE_LINKING"])
    expect(busTypesFor(["signerBundles"])).toContain("BUS_EVENT_TYPE_NODE_SIGNATURE")
  })
})

describe("live items from the positions and liquidity streams", () => {
  const position = (party: string, updatedAt: string) => ({
    marketId: MARKET,
    partyId: party,
    openVolume: "3",
    realisedPnl: "0",
    unrealisedPnl: "0",
    averageEntryPrice: "1",
    updatedAt,
    lossSocialisationAmount: "0"
  })

  it("turns updates into whole REST rows grouped by block time, and ignores snapshot pages", () => {
    const message = Schema.decodeUnknownSync(Position.ObservePositionsResponse)({
      updates: { positions: [position(PARTY, "2000"), position(OTHER, "3000")] }
    })
    const items = fromStream("positions", ["positions"], message, NODE)
    expect(items.map((i) => i._tag === "Rows" && i.at)).toEqual([{ timeNanos: 2000n }, { timeNanos: 3000n }])
    const first = items[0]
    if (first._tag !== "Rows") throw new Error("rows expected")
    expect(first.rows[0][0]).toBe(`${MARKET}/${PARTY}`)
    expect(first.rows[0][1]).toMatchObject({ openVolume: "3", positionStatus: "POSITION_STATUS_UNSPECIFIED" })
    const snapshot = Schema.decodeUnknownSync(Position.ObservePositionsResponse)({
      snapshot: { positions: [position(PARTY, "1")], lastPage: true }
    })
    expect(fromStream("positions", ["positions"], snapshot, NODE)).toEqual([])
  })

  it("turns provisions into hints of market, party and id", () => {
    const items = fromStream(
      "liquidity",
      ["liquidity"],
      [{ id: "9".repeat(64), partyId: PARTY, marketId: MARKET, updatedAt: 5n } as never],
      NODE
    )
    expect(items).toEqual([
      {
        _tag: "Hints",
        resource: "liquidity",
        at: { timeNanos: 5n },
        node: NODE,
        hints: [`${MARKET}/${PARTY}/${"9".repeat(64)}`]
      }
    ])
  })
})

describe("BlockClock", () => {
  it.live("maps block times (to the microsecond) to heights, and waits for a block or a quiet chain", () =>
    Effect.gen(function* () {
      const clock = yield* BlockClock.make(
        "150 millis",
        Effect.succeed(Option.some({ height: 9, timeNanos: 4_000_000_000n }))
      )
      yield* clock.tick(7, 1_000_123_456n)
      expect(yield* clock.heightAt(1_000_123_000n)).toEqual(Option.some(7))
      expect(clock.timeOf(7)).toBe(new Date(1000).toISOString())
      // a time update that comes a little after the stream's row
      const later = yield* Effect.fork(clock.heightAt(2_000_000_000n))
      yield* Effect.sleep("20 millis")
      yield* clock.tick(8, 2_000_000_000n)
      expect(yield* later.await.pipe(Effect.flatten)).toEqual(Option.some(8))
      // a block that never comes: quiet after 150 ms
      const started = Date.now()
      yield* clock.awaitBlock(9)
      expect(Date.now() - started).toBeGreaterThanOrEqual(100)
      expect(yield* clock.heightAt(3_000_000_000n)).toEqual(Option.none())
      // a block the bus never told of, shown by the node's answer
      expect(yield* clock.heightAt(4_000_000_000n)).toEqual(Option.some(9))
      // the bus is not up: once quiet, what the node showed is known
      expect(yield* clock.known).toBe(7)
      yield* Effect.sleep("160 millis")
      expect(yield* clock.known).toBe(9)
      expect(yield* clock.head).toBe(8)
    })
  )
})
