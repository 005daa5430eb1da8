/**
 * The market maker against real nodes: the key from `MNEMONIC` (never logged), the nodes from
 * `NODE_URLS` (comma separated), the market from `MARKET_ID`; `OFFSET` and `SIZE` in the market's
 * integer units, `CYCLES` to stop after that many (default: run until interrupted, then cancel its
 * orders).
 */
import { NodeHttpClient, NodeRuntime, NodeSocket } from "@effect/platform-node"
import { Keys, ProofOfWork } from "@vega-effect/crypto"
import { DataNodeClient } from "@vega-effect/http"
import { TransactionSubmitter } from "@vega-effect/submitter"
import { Config, Console, Effect, Layer, Option } from "effect"
import * as MarketMaker from "./MarketMaker.js"

/** A positive whole number of the market's units, read exactly (no float in between). */
const integer = (name: string) =>
  Config.string(name).pipe(
    Config.validate({ message: "a positive whole number", validation: (text) => /^[1-9][0-9]*$/.test(text) }),
    Config.map(BigInt)
  )

const settings = Config.all({
  mnemonic: Config.redacted("MNEMONIC"),
  urls: Config.array(Config.string(), "NODE_URLS"),
  marketId: Config.string("MARKET_ID"),
  offset: integer("OFFSET"),
  size: integer("SIZE"),
  cycles: Config.option(Config.integer("CYCLES")),
  pause: Config.duration("PAUSE").pipe(Config.withDefault("5 seconds"))
})

const program = Effect.gen(function* () {
  const { cycles, marketId, mnemonic, offset, pause, size, urls } = yield* settings
  const key = yield* Keys.fromMnemonic(mnemonic, { index: 1 }) // the Go wallet's first key
  const nodes = Layer.provideMerge(TransactionSubmitter.layer({ key }), DataNodeClient.layer({ urls })).pipe(
    Layer.provide(ProofOfWork.layer()),
    Layer.provide(NodeHttpClient.layerUndici)
  )
  yield* MarketMaker.run({
    marketId,
    offset,
    size,
    pause,
    print: Console.log,
    ...(Option.isSome(cycles) ? { cycles: cycles.value } : {})
  }).pipe(Effect.provide(nodes), Effect.provide(NodeSocket.layerWebSocketConstructor))
})

NodeRuntime.runMain(program)
