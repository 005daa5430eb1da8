import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { EventBus, StreamForm } from "@vega-effect/schema"
import { expectByteIdentical, expectRoundTrips } from "./utils.js"

const PARTY = "b5fd9d3c4ad553cb3196303b6e6df7f484cf7f5331a572a45031239fd71ad8a0"
const HASH = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"

describe("EventBus", () => {
  it("writes the subscription request with enum names", () => {
    const request = expectByteIdentical(
      EventBus.ObserveEventBusRequest,
      `{"type":["BUS_EVENT_TYPE_TRANSACTION_RESULT"],"marketId":"","partyId":"${PARTY}","batchSize":"0"}`
    )
    expect(request.type).toEqual(["BUS_EVENT_TYPE_TRANSACTION_RESULT"])
  })

  it("reads an event bus frame in stream form", () => {
    const Frame = StreamForm.frame(EventBus.ObserveEventBusResponse)
    const line = `{"result":{"events":[{"id":"1234-7","block":"${HASH}","type":53,"transactionResult":{"partyId":"${PARTY}","status":true,"hash":"${HASH}","statusDetail":1,"joinTeam":{"id":"${HASH}"},"success":{}},"version":1,"chainId":"vega-mainnet-0011","txHash":"${HASH}"},{"id":"1235-0","block":"${HASH}","type":2,"timeUpdate":{"timestamp":"1711965012345678000"},"version":1,"chainId":"vega-mainnet-0011"}]}}`
    const frame = Schema.decodeUnknownSync(Frame)(JSON.parse(line))
    if (!("result" in frame)) throw new Error("expected a result")
    const [result, time] = frame.result.events
    expect(result.type).toBe("BUS_EVENT_TYPE_TRANSACTION_RESULT")
    expect(result.transactionResult?.joinTeam?.id).toBe(HASH)
    expect(time.timeUpdate?.timestamp).toBe(1711965012345678000n)
    expect(time.txHash).toBe("")
    expect(JSON.stringify(Schema.encodeSync(Frame)(frame))).toBe(line)
  })

  it("round-trips generated events", () => {
    expectRoundTrips(EventBus.BusEvent, 50)
  })
})
