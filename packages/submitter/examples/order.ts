/**
 * Import a key from a mnemonic, submit an order and wait for its result, then read the position
 * it moved, all against an in-process simulator (replace the simulator's URLs with real nodes).
 *
 * Run: npx tsx --conditions=@vega-effect/source examples/order.ts
 */
import { FetchHttpClient } from "@effect/platform"
import { Keys, ProofOfWork } from "@vega-effect/crypto"
import { DataNodeClient } from "@vega-effect/http"
import { Commands } from "@vega-effect/schema"
import { Simulator } from "@vega-effect/simulator"
import { TransactionSubmitter } from "@vega-effect/submitter"
import { Effect, Layer, Redacted } from "effect"

const MNEMONIC = Redacted.make(
  "swing ceiling chaos green put insane ripple desk match tip melt usual shrug turkey renew icon parade veteran lens govern path rough page render"
)

const program = Effect.gen(function* () {
  const submitter = yield* TransactionSubmitter.TransactionSubmitter
  const client = yield* DataNodeClient.DataNodeClient
  console.log("party", submitter.partyId)

  const market = (yield* client.listMarkets({ pagination: { first: 1 } })).markets.edges[0].node
  const order = Commands.command(
    "orderSubmission",
    Commands.orderSubmission({
      marketId: market.id,
      size: 5n,
      side: "SIDE_BUY",
      timeInForce: "TIME_IN_FORCE_IOC",
      type: "TYPE_MARKET",
      reference: "example"
    })
  )
  const result = yield* submitter.submitAndWait(order)
  console.log("result", result.status ? "success" : "failure", result.hash)

  const positions = yield* client.listPositions({ filter: { partyIds: [submitter.partyId], marketIds: [market.id] } })
  console.log("open volume", positions.positions.edges[0]?.node.openVolume)
})

const live = Effect.gen(function* () {
  // blocks every 200 ms, and an easy proof of work so the example runs in a moment
  const sim = yield* Simulator.make({ blockInterval: "200 millis", spam: { difficulty: 8 } })
  const key = yield* Keys.fromMnemonic(MNEMONIC, { index: 1 }) // the Go wallet's first key
  const nodes = Layer.provideMerge(TransactionSubmitter.layer({ key }), DataNodeClient.layer({ urls: sim.urls })).pipe(
    Layer.provide(ProofOfWork.layer()),
    Layer.provide(FetchHttpClient.layer)
  )
  yield* Effect.provide(program, nodes)
})

Effect.runPromise(Effect.scoped(live)).catch((error) => {
  console.error(error)
  process.exitCode = 1
})
