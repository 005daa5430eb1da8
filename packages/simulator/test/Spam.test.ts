import { describe, expect, it, vi } from "@effect/vitest"
import { ProofOfWork } from "@vega-effect/crypto"
import { Simulator } from "@vega-effect/simulator"
import { ChainInfo, SpamStatistics } from "@vega-effect/schema"
import { Effect } from "effect"
import { routes } from "../src/internal/api/routes.js"
import { Core } from "../src/internal/core/core.js"
import { expectedTotalDifficulty, nextTransactionDifficulty } from "../src/internal/core/spam.js"
import { World } from "../src/World.js"
import { decoded, nodeOf } from "./harness.js"
import { request } from "./support/http.js"
import {
  base64,
  buildTransaction,
  bytesOf,
  type Chain,
  chainOf,
  hashOf,
  key,
  type Parts,
  post,
  profile,
  solveExactly,
  tid,
  transactionJson
} from "./support/tx.js"

const postE = (url: string, path: string, body: unknown) => Effect.promise(() => post(url, path, body))
const chainE = (url: string) => Effect.promise(() => chainOf(url))

const start = (spam: Simulator.Options["spam"] = {}) =>
  Effect.gen(function* () {
    const sim = yield* Simulator.make({ seed: 9, spam: { difficulty: 2, numberOfPastBlocks: 5, ...spam } })
    const chain = yield* chainE(sim.url)
    const submit = (parts: Parts, at: Chain = chain) =>
      Effect.gen(function* () {
        const tx = buildTransaction(at, parts)
        const res = yield* postE(sim.url, "/transaction", { tx: transactionJson(tx) })
        return { tx, hash: hashOf(bytesOf(tx)), code: res.json.code as number, data: res.json.data as string }
      })
    return { sim, chain, submit }
  })

/** The chain as a wallet would read it at another (earlier) height of the same simulator. */
const chainAt = (sim: Simulator.Service, chain: Chain, height: number): Chain => ({
  ...chain,
  height: BigInt(height),
  hash: sim.world.chain.blockHash(height)
})

const included = (blocks: ReadonlyArray<Simulator.BlockResults>): Array<string> =>
  blocks.flatMap((b) => b.results.map((r) => r.transaction.hash))

describe("difficulty arithmetic", () => {
  it("sums each further batch of transactions one bit harder", () => {
    expect(expectedTotalDifficulty(5, 10, 33)).toBe(10 * 5 + 10 * 6 + 10 * 7 + 3 * 8)
    expect(expectedTotalDifficulty(15, 2, 1)).toBe(15)
    expect(expectedTotalDifficulty(15, 2, 2)).toBe(30)
    expect(expectedTotalDifficulty(15, 2, 3)).toBe(46)
    expect(expectedTotalDifficulty(15, 2, 5)).toBe(15 + 15 + 16 + 16 + 17)
  })

  it("gives the next transaction's difficulty, or none when the height is full", () => {
    const off = { difficulty: 15, numberOfPastBlocks: 100, numberOfTxPerBlock: 2, increasingDifficulty: false }
    expect(nextTransactionDifficulty(off, 0, 0)).toBe(15)
    expect(nextTransactionDifficulty(off, 1, 15)).toBe(15)
    expect(nextTransactionDifficulty(off, 2, 30)).toBeUndefined()
    const on = { ...off, increasingDifficulty: true }
    expect(nextTransactionDifficulty(on, 2, 30)).toBe(16)
    expect(nextTransactionDifficulty(on, 3, 46)).toBe(16)
    expect(nextTransactionDifficulty(on, 4, 62)).toBe(17)
    // a proof that beat its target lowers what the next one needs, never below the base
    expect(nextTransactionDifficulty(on, 2, 40)).toBe(15)
  })

  it("refuses parameters outside the network's ranges", () => {
    const world = new World({ seed: 1 })
    expect(() => new Core(world, { spam: { numberOfPastBlocks: 4 } })).toThrow(RangeError)
    expect(() => new Core(world, { spam: { numberOfPastBlocks: 501 } })).toThrow(RangeError)
    expect(() => new Core(world, { spam: { difficulty: 257 } })).toThrow(RangeError)
    expect(() => new Core(world, { spam: { numberOfTxPerBlock: 0 } })).toThrow(RangeError)
    expect(() => new Core(world, { spam: { difficulty: 1.5 } })).toThrow(RangeError)
  })
})

describe("spam parameters on /blockchain/height", () => {
  it.scoped("reports the configured parameters and the core's height; changes apply from the next block", () =>
    Effect.gen(function* () {
      const spam = { difficulty: 3, numberOfPastBlocks: 7, numberOfTxPerBlock: 4, increasingDifficulty: true }
      const sim = yield* Simulator.make({ seed: 9, spam })
      const read = Effect.promise(() => request(sim.url, "/blockchain/height")).pipe(
        Effect.map((res) => decoded(ChainInfo.LastBlockHeightResponse, { status: res.status, body: res.text }))
      )
      const before = yield* read
      expect(before).toEqual({
        height: BigInt(sim.world.height),
        hash: sim.world.chain.blockHash(sim.world.height),
        spamPowHashFunction: "sha3_24_rounds",
        spamPowDifficulty: 3,
        spamPowNumberOfPastBlocks: 7,
        spamPowNumberOfTxPerBlock: 4,
        spamPowIncreasingDifficulty: true,
        chainId: sim.world.chain.chainId
      })
      expect(yield* sim.spamParameters).toEqual(spam)
      yield* sim.setSpamParameters({ difficulty: 5 })
      expect((yield* read).spamPowDifficulty).toBe(3)
      yield* sim.advance(1)
      const after = yield* read
      expect(after.height).toBe(before.height + 1n)
      expect(after.spamPowDifficulty).toBe(5)
      expect(after.spamPowNumberOfPastBlocks).toBe(7)
    })
  )

  it.scoped("at the default difficulty 15, a wallet's proof of work passes and an easier one does not", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 9 })
      const chain = yield* chainE(sim.url)
      expect(chain.difficulty).toBe(15)
      const transactionId = ProofOfWork.newTid()
      const solution = yield* ProofOfWork.solve(chain.hash, transactionId, 15).pipe(Effect.orDie)
      const good = buildTransaction(chain, {
        key: key(1),
        command: profile("quinn"),
        tid: transactionId,
        powNonce: solution.nonce
      })
      expect((yield* postE(sim.url, "/transaction", { tx: transactionJson(good) })).json.code).toBe(0)
      // a nonce solving difficulty 2 but not 15
      const weakTid = ProofOfWork.newTid()
      let nonce = 0n
      while (!ProofOfWork.verify(chain.hash, weakTid, nonce, 2) || ProofOfWork.verify(chain.hash, weakTid, nonce, 15)) {
        nonce++
      }
      const weak = buildTransaction(chain, { key: key(1), command: profile("quinn"), tid: weakTid, powNonce: nonce })
      const res = yield* postE(sim.url, "/transaction", { tx: transactionJson(weak) })
      expect(res.json).toMatchObject({ code: 89, data: "failed to verify proof of work" })
    })
  )
})

describe("proof of work and replay (code 89)", () => {
  it.scoped("a transaction id is refused while seen, then while a committed transaction holds it", () =>
    Effect.gen(function* () {
      const { chain, sim, submit } = yield* start()
      const shared = tid("shared")
      expect((yield* submit({ key: key(1), command: profile("a"), tid: shared })).code).toBe(0)
      // another transaction with the same id, same block interval
      const seen = yield* submit({ key: key(2), command: profile("b"), tid: shared })
      expect(seen).toMatchObject({ code: 89, data: "proof of work tid already seen by the node" })
      yield* sim.advance(1)
      const used = yield* submit({ key: key(2), command: profile("c"), tid: shared })
      expect(used).toMatchObject({ code: 89, data: "proof of work tid already used" })
      // once its height has left the window, the id is free again
      yield* sim.advance(5)
      const later = yield* chainE(sim.url)
      expect((yield* submit({ key: key(2), command: profile("d"), tid: shared }, later)).code).toBe(0)
      void chain
    })
  )

  it.scoped("a party's input nonce is refused while a committed transaction holds it", () =>
    Effect.gen(function* () {
      const { sim, submit } = yield* start()
      expect((yield* submit({ key: key(1), command: profile("a"), nonce: 42n })).code).toBe(0)
      yield* sim.advance(1)
      const again = yield* submit({ key: key(1), command: profile("b"), nonce: 42n })
      expect(again).toMatchObject({ code: 89, data: "nonce already used by party" })
      // another party may use the same nonce
      expect((yield* submit({ key: key(2), command: profile("c"), nonce: 42n })).code).toBe(0)
    })
  )

  it.scoped("a height outside the window, or not reached yet, is unknown", () =>
    Effect.gen(function* () {
      const { chain, sim, submit } = yield* start()
      const current = Number(chain.height)
      // the oldest usable height is current - 4 with 5 past blocks
      expect((yield* submit({ key: key(1), command: profile("a") }, chainAt(sim, chain, current - 4))).code).toBe(0)
      const old = yield* submit({ key: key(1), command: profile("b") }, chainAt(sim, chain, current - 5))
      expect(old.data).toBe(
        `unknown block height for tx:${old.hash}, command:Update Party Profile, party:${key(1).publicKey}`
      )
      expect(old.code).toBe(89)
      const future = yield* submit({ key: key(1), command: profile("c") }, { ...chain, height: chain.height + 1n })
      expect(future.data).toBe(
        `unknown block height for tx:${future.hash}, command:Update Party Profile, party:${key(1).publicKey}`
      )
    })
  )

  it.scoped("a height whose parameters were replaced and have expired is too old", () =>
    Effect.gen(function* () {
      const { chain, sim, submit } = yield* start()
      const h0 = Number(chain.height)
      yield* sim.setSpamParameters({ numberOfPastBlocks: 10 })
      yield* sim.advance(4)
      // still covered by the first parameters and in their window
      expect((yield* submit({ key: key(1), command: profile("a") }, chainAt(sim, chain, h0))).code).toBe(0)
      yield* sim.advance(1)
      const tooOld = yield* submit({ key: key(1), command: profile("b") }, chainAt(sim, chain, h0))
      expect(tooOld).toMatchObject({ code: 89, data: "transaction too old" })
      // the next height has the new parameters, with a 10-block window
      expect((yield* submit({ key: key(1), command: profile("c") }, chainAt(sim, chain, h0 + 1))).code).toBe(0)
    })
  )
})

describe("block building", () => {
  it.scoped("without increasing difficulty, a party's extra transactions at one height wait, then are dropped", () =>
    Effect.gen(function* () {
      const { chain, sim, submit } = yield* start()
      const blocks: Array<Simulator.BlockResults> = []
      sim.feed.subscribe((b) => blocks.push(b))
      const a = [
        yield* submit({ key: key(1), command: profile("a1") }),
        yield* submit({ key: key(1), command: profile("a2") }),
        yield* submit({ key: key(1), command: profile("a3") })
      ]
      const b = yield* submit({ key: key(2), command: profile("b1") })
      expect([...a, b].map((t) => t.code)).toEqual([0, 0, 0, 0])
      expect(yield* sim.mempoolSize).toBe(4)

      yield* sim.advance(1)
      expect(included(blocks)).toEqual([a[0].hash, a[1].hash, b.hash])
      expect(yield* sim.mempoolSize).toBe(1)
      // a transaction at the next height goes in while the extra one keeps waiting
      const next = yield* submit({ key: key(1), command: profile("a4") }, yield* chainE(sim.url))
      yield* sim.advance(1)
      expect(included(blocks.slice(1))).toEqual([next.hash])
      expect(yield* sim.mempoolSize).toBe(1)
      // its height leaves the 5-block window: dropped silently, never in a block
      yield* sim.advance(2)
      expect(yield* sim.mempoolSize).toBe(1)
      yield* sim.advance(1)
      expect(yield* sim.mempoolSize).toBe(0)
      expect(blocks.map((block) => block.height)).toEqual([1, 2, 3, 4, 5].map((i) => Number(chain.height) + i))
      expect(included(blocks)).not.toContain(a[2].hash)
    })
  )

  it.scoped("with increasing difficulty, further transactions need the extra difficulty in total", () =>
    Effect.gen(function* () {
      const { chain, sim, submit } = yield* start({ increasingDifficulty: true })
      const blocks: Array<Simulator.BlockResults> = []
      sim.feed.subscribe((b) => blocks.push(b))
      const exactly = (name: string, zeros: number) => {
        const id = tid(name)
        return submit({ key: key(1), command: profile(name), tid: id, powNonce: solveExactly(chain.hash, id, zeros) })
      }
      // base 2, two per height: the third and fourth need 3 bits each, 2 + 2 + 3 = 7 in total for three
      const t1 = yield* exactly("t1", 2)
      const t2 = yield* exactly("t2", 2)
      const t3 = yield* exactly("t3", 2)
      const t4 = yield* exactly("t4", 3)
      expect([t1, t2, t3, t4].map((t) => t.code)).toEqual([0, 0, 0, 0])
      yield* sim.advance(1)
      // t3 would bring the total to 6 < 7: skipped; t4 brings it to 7
      expect(included(blocks)).toEqual([t1.hash, t2.hash, t4.hash])
      expect(yield* sim.mempoolSize).toBe(1)
      // a fourth needs 2 + 2 + 3 + 3 = 10: t3's 2 bits are not enough, a 5-bit one is
      yield* sim.advance(1)
      expect(included(blocks)).toHaveLength(3)
      const t5 = yield* exactly("t5", 5)
      yield* sim.advance(1)
      expect(included(blocks.slice(2))).toEqual([t5.hash])
      expect(yield* sim.mempoolSize).toBe(1)
    })
  )

  it.scoped("two waiting transactions with the same id: the block takes the first and drops the other", () =>
    Effect.gen(function* () {
      const { sim, submit } = yield* start()
      const blocks: Array<Simulator.BlockResults> = []
      sim.feed.subscribe((b) => blocks.push(b))
      const first = yield* submit({ key: key(1), command: profile("x"), nonce: 5n })
      // the same party nonce in another transaction is accepted until one of them is committed
      const second = yield* submit({ key: key(1), command: profile("y"), nonce: 5n })
      expect([first.code, second.code]).toEqual([0, 0])
      yield* sim.advance(1)
      expect(included(blocks)).toEqual([first.hash])
      expect(yield* sim.mempoolSize).toBe(0)
    })
  )
})

describe("/statistics/spam/{partyId}", () => {
  it.scoped("reports the party's proof-of-work state per height, byte for byte in the node's form", () =>
    Effect.gen(function* () {
      const { chain, sim, submit } = yield* start()
      const party = key(1).publicKey
      const read = Effect.promise(() => request(sim.url, `/statistics/spam/${party}`)).pipe(
        Effect.map((res) => ({
          text: res.text,
          value: decoded(SpamStatistics.GetSpamStatisticsResponse, { status: res.status, body: res.text })
        }))
      )
      const state = (height: number, seen: number, expected: number | undefined) => ({
        blockHeight: BigInt(height),
        blockHash: sim.world.chain.blockHash(height),
        transactionsSeen: BigInt(seen),
        ...(expected === undefined ? {} : { expectedDifficulty: BigInt(expected) }),
        hashFunction: "sha3_24_rounds",
        difficulty: 2n,
        txPerBlock: 2n,
        increasingDifficulty: false
      })
      const fresh = yield* read
      expect(fresh.value).toEqual({
        chainId: sim.world.chain.chainId,
        statistics: {
          pow: { blockStates: [state(Number(chain.height), 0, 2)], numberOfPastBlocks: 5n },
          epochSeq: BigInt(sim.world.epoch)
        }
      })
      // the policies the simulator does not model are null, as from a core without a spam engine
      expect(fresh.text).toContain('"proposals":null')
      expect(fresh.text).toContain('"votes":null')

      yield* submit({ key: key(1), command: profile("s1") })
      yield* submit({ key: key(1), command: profile("s2") })
      yield* submit({ key: key(1), command: profile("s3") })
      // what the mempool holds does not count: only what blocks included
      expect((yield* read).value.statistics?.pow?.blockStates).toEqual([state(Number(chain.height), 0, 2)])
      yield* sim.advance(1)
      const after = yield* read
      // the height is full: no expected difficulty, and the key is absent from the JSON
      expect(after.value.statistics?.pow?.blockStates).toEqual([
        state(Number(chain.height), 2, undefined),
        state(Number(chain.height) + 1, 0, 2)
      ])
      expect(after.text.match(/expectedDifficulty/g)).toHaveLength(1)
    })
  )

  it.scoped("with increasing difficulty, gives what the next transaction at a height needs", () =>
    Effect.gen(function* () {
      const { chain, sim, submit } = yield* start({ increasingDifficulty: true })
      const id = (name: string) => tid(name)
      for (const name of ["i1", "i2"]) {
        yield* submit({
          key: key(1),
          command: profile(name),
          tid: id(name),
          powNonce: solveExactly(chain.hash, id(name), 2)
        })
      }
      yield* sim.advance(1)
      const res = yield* Effect.promise(() => request(sim.url, `/statistics/spam/${key(1).publicKey}`))
      const body = decoded(SpamStatistics.GetSpamStatisticsResponse, { status: res.status, body: res.text })
      expect(body.statistics?.pow?.blockStates[0]).toMatchObject({
        blockHeight: chain.height,
        transactionsSeen: 2n,
        expectedDifficulty: 3n,
        increasingDifficulty: true
      })
    })
  )
})

describe("COMMIT", () => {
  it("gives up at the data node's 5 s deadline when no block includes the transaction", async () => {
    vi.useFakeTimers()
    try {
      const world = new World({ seed: 4 })
      const node = nodeOf(world)
      const chain: Chain = {
        chainId: world.chain.chainId,
        height: BigInt(world.height),
        hash: world.chain.blockHash(world.height),
        difficulty: node.core.spamParameters.difficulty
      }
      const tx = buildTransaction(chain, { key: key(1), command: profile("zoe") })
      const route = routes.find((r) => r.path === "/transaction/raw")!
      const reply = route.handle({ query: new Map(), path: new Map() }, node, {
        tx: base64(bytesOf(tx)),
        type: "TYPE_COMMIT"
      })
      expect(reply).toBeInstanceOf(Promise)
      let settled = false
      void Promise.resolve(reply).then(() => (settled = true))
      await vi.advanceTimersByTimeAsync(4_999)
      expect(settled).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      expect(await reply).toEqual({
        status: 504,
        body: '{"code":4,"message":"context deadline exceeded","details":[]}'
      })
    } finally {
      vi.useRealTimers()
    }
  })
})
