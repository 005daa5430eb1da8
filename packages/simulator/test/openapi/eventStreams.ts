/**
 * The frames of the positions and liquidity-provisions streams and of the event bus (the data
 * node's and the core's), over chunked HTTP, as the spec describes them: each line is
 * `{"result":…}` or `{"error":…}`. Over plain HTTP the bus reads its request messages (the
 * subscription, then each ack) from the request body, one after the other: the spec lists the
 * request's members as query parameters, which the generated bidirectional handler never reads
 * (v0.75.8, `protos/data-node/api/v2/trading_data.pb.gw.go`): a GET with only those is a 200 with
 * an empty body, nothing to check.
 */
import type { Simulator } from "@vega-effect/simulator"
import { Effect } from "effect"
import { openHttpStream, sleep } from "../support/streams.js"
import { buildTransaction, chainOf, key, order, post, profile, transactionJson } from "../support/tx.js"
import type { HttpStream } from "../support/streams.js"
import type { Recorder } from "./exchanges.js"

type RecordLine = (r: Recorder, template: string, stream: HttpStream, line: string, label: string) => Promise<void>

const BUS = "/api/v2/stream/event/bus"
const CORE_BUS = "/stream/event/bus"

export const eventStreams = async (
  r: Recorder,
  sim: Simulator.Service,
  market: string,
  party: string,
  recordLine: RecordLine
) => {
  const opened = [
    // a market's positions: snapshot pages, then each block's updates
    { template: "/api/v2/stream/positions", path: `/api/v2/stream/positions?marketId=${market}` },
    { template: "/api/v2/stream/positions", path: `/api/v2/stream/positions?partyId=${party}` },
    // no such party: one empty last page
    { template: "/api/v2/stream/positions", path: `/api/v2/stream/positions?partyId=${"ab".repeat(32)}` },
    { template: "/api/v2/stream/liquidity-provisions", path: "/api/v2/stream/liquidity-provisions" },
    { template: "/api/v2/stream/liquidity-provisions", path: `/api/v2/stream/liquidity-provisions?marketId=${market}` },
    // every type (orders, trades, the world's changes, results), pushed as blocks come
    { template: BUS, path: BUS, body: '{"type":["BUS_EVENT_TYPE_ALL"]}' },
    // failed transactions' legacy errors are sent only when asked for by name
    { template: BUS, path: BUS, body: '{"type":["BUS_EVENT_TYPE_TX_ERROR","BUS_EVENT_TYPE_TRANSACTION_RESULT"]}' },
    // batches of at most 4, the two acks sent ahead; the third wait reads the body's end
    {
      template: BUS,
      path: BUS,
      body: '{"type":["BUS_EVENT_TYPE_ORDER","BUS_EVENT_TYPE_TRADE","BUS_EVENT_TYPE_TIME_UPDATE"],"batchSize":4}{"batchSize":4}{"batchSize":4}'
    },
    // a type the handler refuses
    { template: BUS, path: BUS, body: '{"type":["BUS_EVENT_TYPE_UNSPECIFIED"]}' },
    { template: CORE_BUS, path: CORE_BUS, body: '{"type":["BUS_EVENT_TYPE_ALL"]}' },
    {
      template: CORE_BUS,
      path: CORE_BUS,
      body: `{"type":["BUS_EVENT_TYPE_PARTY","BUS_EVENT_TYPE_ORDER"],"partyId":"${party}"}`
    }
  ].map((s) => ({ ...s, stream: openHttpStream(r.url, s.path, s.body === undefined ? {} : { body: s.body }) }))
  // an order and a failing transaction, for the bus's orders, results and errors
  const chain = await chainOf(r.url)
  const signer = key(20)
  for (const command of [order(market), profile("network")]) {
    await post(r.url, "/transaction", {
      tx: transactionJson(buildTransaction(chain, { key: signer, command })),
      type: "TYPE_SYNC"
    })
  }
  // the snapshots are sent and the updates subscribed before the blocks come
  await sleep(150)
  await Effect.runPromise(sim.advance(2))
  await sleep(150)
  for (const { path, stream, template } of opened) {
    // what has arrived, and what follows within a moment of it (a busy machine)
    for (;;) {
      const line = await stream.lines.next(50).catch(() => undefined)
      if (line === undefined) break
      await recordLine(r, template, stream, line, `stream frame ${path.slice(0, 60)} ${line.slice(0, 80)}`)
    }
    stream.close()
  }
}
