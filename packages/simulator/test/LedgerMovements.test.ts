import { describe, expect, it } from "@effect/vitest"
import { Commands, DataNodeApi, StreamForm, Vega } from "@vega-effect/schema"
import { Simulator } from "@vega-effect/simulator"
import { Effect, Schema } from "effect"
import { openHttpStream, sleep } from "./support/streams.js"

const decodeFrame = Schema.decodeUnknownSync(StreamForm.frame(DataNodeApi.ObserveLedgerMovements.message))
const ACCOUNT_TYPE_NUMBERS = Commands.AccountType.values

describe("/api/v2/stream/ledger/movements", () => {
  it.scopedLive("sends every ledger entry of each block after the subscription, one movement each", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 5 })
      const stream = openHttpStream(sim.url, "/api/v2/stream/ledger/movements")
      yield* Effect.addFinalizer(() => Effect.sync(() => stream.close()))
      // a block for the headers, then (the subscription surely made by now) the blocks compared
      yield* Effect.promise(() => sleep(100))
      yield* sim.advance(1)
      const response = yield* Effect.promise(() => stream.response)
      expect(response.headers["content-type"]).toBe("application/json")
      const from = sim.world.height + 1
      const fromNanos = BigInt(sim.world.chain.blockTime(from)) * 1000n
      yield* sim.advance(3)
      yield* Effect.promise(() => sleep(300))
      const all: Array<string> = []
      while (stream.lines.pending.length > 0) all.push(yield* Effect.promise(() => stream.lines.next()))
      const lines = all.filter(
        (line) => BigInt(JSON.parse(line).result.ledgerMovement.entries[0].timestamp) >= fromNanos
      )

      const rows = sim.world.accounts.ledger.filter((row) => row.height >= from)
      expect(rows.length).toBeGreaterThan(10)
      expect(lines.length).toBe(rows.length)
      const movements = lines.map((line) => {
        const frame = decodeFrame(JSON.parse(line))
        if (!("result" in frame)) throw new Error(line)
        return frame.result.ledgerMovement!
      })
      movements.forEach((movement, i) => {
        const row = rows[i]
        expect(movement.entries).toHaveLength(1)
        const [entry] = movement.entries
        expect([entry.amount, entry.type, entry.fromAccountBalance, entry.toAccountBalance]).toEqual([
          row.amount,
          row.type,
          row.fromBalance,
          row.toBalance
        ])
        expect(entry.fromAccount?.assetId).toBe(row.from.asset.id)
        expect(entry.toAccount?.type).toBe(row.to.type)
        expect(movement.balances.map((b) => b.balance)).toEqual(
          [row.from, row.to].flatMap((a, j) =>
            a.type === "ACCOUNT_TYPE_EXTERNAL" ? [] : [j === 0 ? row.fromBalance : row.toBalance]
          )
        )
      })

      // stream form: the network's accounts have no owner, accounts of no market no market id
      const raw = lines.map((line) => JSON.parse(line).result.ledgerMovement.entries[0])
      const fee = raw.find((e) => e.type === Vega.TransferType.values.TRANSFER_TYPE_MAKER_FEE_PAY)
      expect(fee).toBeDefined()
      expect(fee.fromAccount.type).toBe(ACCOUNT_TYPE_NUMBERS.ACCOUNT_TYPE_GENERAL)
      expect(fee.fromAccount.marketId).toBeUndefined()
      expect(typeof fee.fromAccount.owner).toBe("string")
      expect(fee.toAccount.type).toBe(ACCOUNT_TYPE_NUMBERS.ACCOUNT_TYPE_FEES_MAKER)
      expect(fee.toAccount.owner).toBeUndefined()
      expect(typeof fee.toAccount.marketId).toBe("string")
    })
  )
})
