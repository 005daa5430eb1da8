import { describe, expect, it } from "@effect/vitest"
import { Commands, TransactionResult } from "@vega-effect/schema"
import { Effect, Fiber, Option } from "effect"
import { advanceUntil, keyOf, setup, submitterOn } from "./support.js"

const profile = (alias: string) =>
  Commands.command("updatePartyProfile", Commands.updatePartyProfile({ alias, metadata: [{ key: "k", value: alias }] }))

describe("TransactionSubmitter against the simulator", () => {
  it.scopedLive("submits, and the result comes back matched by hash", () =>
    Effect.gen(function* () {
      const { sim, submitter } = yield* setup()
      expect(submitter.partyId).toBe(keyOf(1).publicKey)
      const result = yield* advanceUntil(sim, submitter.submitAndWait(profile("first-alias")))
      expect(result.status).toBe(true)
      // the simulator imitates a v0.75 node, whose results have no `statusDetail`
      expect(result.statusDetail).toBeUndefined()
      expect(result.partyId).toBe(submitter.partyId)
      expect(result.updatePartyProfile?.alias).toBe("first-alias")
      expect(Option.isNone(TransactionResult.failureMessage(result))).toBe(true)
    })
  )

  it.scopedLive("reports a failed result with the node's text", () =>
    Effect.gen(function* () {
      const { sim, submitter } = yield* setup()
      const market = sim.world.catalog.markets[0].id
      // cancelling an order that does not exist passes the mempool checks but fails in the block
      const command = Commands.command(
        "orderCancellation",
        Commands.orderCancellation({ marketId: market, orderId: "ab".repeat(32) })
      )
      const result = yield* advanceUntil(sim, submitter.submitAndWait(command))
      expect(result.status).toBe(false)
      expect(result.statusDetail).toBeUndefined()
      expect(result.orderCancellation?.orderId).toBe("ab".repeat(32))
      expect(Option.getOrThrow(TransactionResult.failureMessage(result))).toBe("OrderError: Not Found")
    })
  )

  it.scopedLive("validates the command before anything is sent", () =>
    Effect.gen(function* () {
      const { sim, submitter } = yield* setup()
      const before = yield* sim.mempoolSize
      const error = yield* Effect.flip(
        submitter.submit(Commands.command("orderSubmission", Commands.orderSubmission({ marketId: "", size: 0n })))
      )
      expect(error._tag).toBe("CommandValidationError")
      expect(error.message).toContain("order_submission.market_id (is required)")
      expect(yield* sim.mempoolSize).toBe(before)
    })
  )

  it.scopedLive("sends the same signed transaction twice: the second is already in the mempool", () =>
    Effect.gen(function* () {
      const { sim, submitter } = yield* setup()
      const signed = yield* submitter.sign(profile("twice"))
      const accepted = yield* submitter.send(signed)
      expect(accepted.txHash).toBe(signed.txHash)
      const again = yield* Effect.flip(submitter.send(signed))
      expect(again._tag).toBe("AlreadyInMempool")
      // once included, the same bytes are a replay of a used hash
      yield* sim.advance(1)
      const replay = yield* Effect.flip(submitter.send(signed))
      expect(replay._tag).toBe("TransactionRejected")
      if (replay._tag === "TransactionRejected") {
        expect([replay.code, replay.reason, replay.message]).toEqual([89, "Spam", "transaction hash already used"])
      }
    })
  )

  it.scopedLive("maps each rejection code to its reason", () =>
    Effect.gen(function* () {
      const { sim, submitter } = yield* setup()
      const unknownMarket = Commands.command(
        "liquidityProvisionAmendment",
        Commands.liquidityProvisionAmendment({ marketId: "cd".repeat(32), commitmentAmount: "1000", fee: "0.01" })
      )
      const commandCheck = yield* Effect.flip(submitter.submit(unknownMarket))
      expect(commandCheck._tag === "TransactionRejected" && [commandCheck.code, commandCheck.reason]).toEqual([
        70,
        "CommandCheck"
      ])

      // a signature for another chain
      const signed = yield* submitter.sign(profile("forged"))
      const forged = {
        ...signed,
        transaction: { ...signed.transaction, signature: { ...signed.transaction.signature!, value: "00".repeat(64) } }
      }
      const decoding = yield* Effect.flip(submitter.send(forged))
      expect(decoding._tag === "TransactionRejected" && [decoding.code, decoding.reason, decoding.message]).toEqual([
        60,
        "Decoding",
        "tx.signature.value (invalid signature)"
      ])

      // the two transactions above used the key's two slots at the only height it knows: a new block gives more
      yield* sim.advance(1)
      yield* sim.setTradingEnabled(false)
      const order = Commands.command(
        "orderSubmission",
        Commands.orderSubmission({
          marketId: sim.world.catalog.markets[0].id,
          size: 1n,
          side: "SIDE_BUY",
          timeInForce: "TIME_IN_FORCE_IOC",
          type: "TYPE_MARKET"
        })
      )
      const validation = yield* Effect.flip(submitter.submit(order))
      expect(validation._tag === "TransactionRejected" && [validation.code, validation.reason]).toEqual([
        51,
        "Validation"
      ])
    })
  )

  it.scopedLive("checks a command without sending it", () =>
    Effect.gen(function* () {
      const { sim, submitter } = yield* setup()
      const checked = yield* submitter.check(profile("checked"))
      expect(checked.node).toBe(sim.url)
      expect(yield* sim.mempoolSize).toBe(0)
    })
  )

  it.scopedLive(
    "two submitters on one key: without the node's counts, the second transaction at a height is never included and ends expired",
    () =>
      Effect.gen(function* () {
        const spam = { numberOfTxPerBlock: 1, numberOfPastBlocks: 5 }
        const { sim, submitter } = yield* setup({ spam }, { syncSpamStatistics: false, safetyBlocks: 0 })
        const other = yield* submitterOn(sim, { syncSpamStatistics: false, safetyBlocks: 0 })
        const first = yield* submitter.submit(profile("one"))
        const second = yield* Effect.fork(other.submitAndWait(profile("two"), { timeout: "20 seconds" }))
        const error = yield* advanceUntil(sim, Effect.flip(Fiber.join(second)))
        expect(first.powHeight).toBeGreaterThan(0n)
        expect(error._tag).toBe("TransactionExpired")
      })
  )

  it.scopedLive("applies liquidity provisions and orders, visible through the data node", () =>
    Effect.gen(function* () {
      const { sim, submitter } = yield* setup()
      const market = sim.world.catalog.markets[0].id
      const read = (path: string) => Effect.promise(() => fetch(`${sim.url}${path}`).then((r) => r.json() as any))
      const wait = (command: Commands.Command) =>
        advanceUntil(sim, submitter.submitAndWait(command)).pipe(
          Effect.tap((result) =>
            expect([result.status, TransactionResult.failureMessage(result)]).toEqual([true, Option.none()])
          )
        )

      yield* wait(
        Commands.command(
          "liquidityProvisionSubmission",
          Commands.liquidityProvisionSubmission({
            marketId: market,
            commitmentAmount: "5000000",
            fee: "0.01",
            reference: "lp"
          })
        )
      )
      const lpPath = `/api/v2/liquidity/all-provisions?partyId=${submitter.partyId}&marketId=${market}`
      const submitted = (yield* read(lpPath)).liquidityProvisions.edges[0].node
      expect(submitted.current.commitmentAmount).toBe("5000000")
      yield* wait(
        Commands.command(
          "liquidityProvisionAmendment",
          Commands.liquidityProvisionAmendment({ marketId: market, commitmentAmount: "7000000", fee: "0.02" })
        )
      )
      yield* wait(
        Commands.command(
          "liquidityProvisionCancellation",
          Commands.liquidityProvisionCancellation({ marketId: market })
        )
      )
      const cancelled = (yield* read(lpPath)).liquidityProvisions.edges[0].node
      expect(cancelled.current.status).toBe("STATUS_CANCELLED")

      const order = (fields: Partial<Commands.OrderSubmission>) =>
        Commands.command("orderSubmission", Commands.orderSubmission({ marketId: market, size: 5n, ...fields }))
      // a market order fills at the mark price and opens the position
      yield* wait(order({ side: "SIDE_BUY", type: "TYPE_MARKET", timeInForce: "TIME_IN_FORCE_IOC" }))
      const positionPath = `/api/v2/positions?filter.partyIds=${submitter.partyId}&filter.marketIds=${market}`
      expect((yield* read(positionPath)).positions.edges[0].node.openVolume).toBe("5")
      // a sell of 2 reduces it
      yield* wait(order({ side: "SIDE_SELL", size: 2n, type: "TYPE_MARKET", timeInForce: "TIME_IN_FORCE_IOC" }))
      expect((yield* read(positionPath)).positions.edges[0].node.openVolume).toBe("3")
      // a limit far below the mark rests, and is cancelled with the market's orders
      yield* wait(order({ side: "SIDE_BUY", price: "1", type: "TYPE_LIMIT", timeInForce: "TIME_IN_FORCE_GTC" }))
      yield* wait(Commands.command("orderCancellation", Commands.orderCancellation({ marketId: market })))
      expect((yield* read(positionPath)).positions.edges[0].node.openVolume).toBe("3")
    })
  )
})
