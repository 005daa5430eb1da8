import { makeEvent, type Row } from "../../src/Event.js"
import type { PendingEvent } from "../../src/Sink.js"

export const market = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"
export const party = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"

/** `count` distinct position events with seq from `firstSeq`, as the outbox would hand them out. */
export const pendingEvents = (count: number, firstSeq = 1): ReadonlyArray<PendingEvent> =>
  Array.from({ length: count }, (_, index) => {
    const seq = firstSeq + index
    const before: Row = { marketId: market, partyId: party, openVolume: String(seq) }
    const after: Row = { marketId: market, partyId: party, openVolume: String(seq + 1) }
    const event = makeEvent(
      "positions",
      `${market}/${party}`,
      { kind: "position.volume_changed" },
      { height: 1000 + seq, time: "2024-04-01T00:10:00.123456Z", node: "http://127.0.0.1:3008" },
      before,
      after
    )
    return { seq, event }
  })
