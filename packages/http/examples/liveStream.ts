/**
 * The README's live-stream example: watch blocks go by on the event bus, and backfill over REST
 * whenever a connection (re)subscribes. Type-checked with the tests; it runs until interrupted.
 *
 * Run: npx tsx --conditions=@vega-effect/source examples/liveStream.ts [node url]
 */
import { NodeHttpClient, NodeRuntime, NodeSocket } from "@effect/platform-node"
import { DataNodeClient, LiveStream } from "@vega-effect/http"
import { Duration, Effect, Layer, Option, Stream } from "effect"

const program = Effect.gen(function* () {
  const client = yield* DataNodeClient.DataNodeClient
  yield* client
    .observeEventBus(
      { types: ["BUS_EVENT_TYPE_TIME_UPDATE", "BUS_EVENT_TYPE_STAKE_LINKING"] },
      { idleTimeout: "30 seconds" }
    )
    .pipe(
      Stream.runForEach(
        LiveStream.Observation.$match({
          // subscribed: whatever happened before is read over REST now
          Connected: ({ attempt, node }) =>
            Effect.flatMap(client.lastBlockHeight, ({ height }) =>
              Effect.log(`connected to ${node} (attempt ${attempt}), backfilling up to block ${height}`)
            ),
          Message: ({ message }) => Effect.forEach(message, (event) => Effect.log(event.id, event.type)),
          Disconnected: ({ reason, retryIn }) =>
            Effect.log(`disconnected: ${reason._tag}`, Option.map(retryIn, Duration.format))
        })
      )
    )
})

const urls = process.argv[2] ?? "http://localhost:3008"
program.pipe(
  Effect.provide(
    Layer.mergeAll(
      DataNodeClient.layer({ urls }).pipe(Layer.provide(NodeHttpClient.layerUndici)),
      NodeSocket.layerWebSocketConstructor
    )
  ),
  NodeRuntime.runMain
)
