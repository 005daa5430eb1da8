import { it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describe, expect } from "vitest"
import { makeEvent } from "../../src/Event.js"
import * as ConsoleSink from "../../src/sinks/ConsoleSink.js"
import { market, party } from "./events.js"

const at = { height: 1234, time: "2024-04-01T00:10:00.123456789Z", node: "http://127.0.0.1:3008" }
const plain = { colors: false }

const volumeChanged = makeEvent(
  "positions",
  `${market}/${party}`,
  { kind: "position.volume_changed" },
  at,
  { marketId: market, partyId: party, openVolume: "5", realisedPnl: "0", updatedAt: "1711930000000000000" },
  { marketId: market, partyId: party, openVolume: "3", realisedPnl: "0", updatedAt: "1711930200000000000" }
)

const rewardReceived = makeEvent(
  "rewards",
  `${party}/${market}`,
  { kind: "reward.received", details: { delta: "2.5", symbol: "VEGA", epoch: 12 } },
  at,
  { assetId: market, partyId: party, amount: "1000000000000000000" },
  { assetId: market, partyId: party, amount: "3500000000000000000000000000000" }
)

const positionOpened = makeEvent("positions", `${market}/${party}`, { kind: "position.opened" }, at, null, {
  marketId: market,
  partyId: party,
  openVolume: "-10",
  realisedPnl: "0",
  unrealisedPnl: "-120",
  averageEntryPrice: "1500",
  positionStatus: "POSITION_STATUS_UNSPECIFIED"
})

const stakeGone = makeEvent(
  "stake",
  `${party}/link-1`,
  { kind: "stake.removed" },
  at,
  {
    id: "link-1",
    type: "TYPE_LINK",
    party,
    amount: "100",
    status: "STATUS_ACCEPTED"
  },
  null
)

const bundleSigned = makeEvent(
  "signerBundles",
  "-/12/7",
  { kind: "signer_bundle.changed", details: { node: "", signatures: 3, signaturesBefore: 2, fields: ["signatures"] } },
  at,
  { nodeId: "", newSigner: "0x" + "ab".repeat(20), epochSeq: "12", nonce: "7", signatures: "0x" + "cd".repeat(130) },
  { nodeId: "", newSigner: "0x" + "ab".repeat(20), epochSeq: "12", nonce: "7", signatures: "0x" + "cd".repeat(195) }
)

const liquidityAmended = makeEvent(
  "liquidity",
  `${market}/${party}`,
  { kind: "liquidity.amended" },
  at,
  { commitmentAmount: "1000", fee: "0.001", status: "STATUS_ACTIVE", reference: "a", version: "1" },
  { commitmentAmount: "2000", fee: "0.002", status: "STATUS_PENDING", reference: "b", version: "2" }
)

describe("ConsoleSink.render", () => {
  it("shows the changed main field before → after, not the timestamps that moved with it", () => {
    expect(ConsoleSink.render(volumeChanged, plain)).toBe(
      "2024-04-01T00:10:00Z  #1234  position.volume_changed  0f1e2d3c…/a1b2c3d4…  openVolume 5 → 3"
    )
  })

  it("shows the details, an amount with its symbol", () => {
    expect(ConsoleSink.render(rewardReceived, plain)).toBe(
      "2024-04-01T00:10:00Z  #1234  reward.received  a1b2c3d4…/0f1e2d3c…  amount 1000000000000000000 → 3500000000000000000000000000000  [delta 2.5 VEGA, epoch 12]"
    )
  })

  it("shows a new row's main fields, at most three", () => {
    expect(ConsoleSink.render(positionOpened, plain)).toBe(
      "2024-04-01T00:10:00Z  #1234  position.opened  0f1e2d3c…/a1b2c3d4…  openVolume -10, realisedPnl 0, unrealisedPnl -120 +2 more"
    )
  })

  it("shows what a row was when it is gone", () => {
    expect(ConsoleSink.render(stakeGone, plain)).toBe(
      "2024-04-01T00:10:00Z  #1234  stake.removed  a1b2c3d4…/link-1  was type TYPE_LINK, amount 100, status STATUS_ACCEPTED"
    )
  })

  it("says a long value changed when its shown start is the same", () => {
    expect(ConsoleSink.render(bundleSigned, plain)).toBe(
      '2024-04-01T00:10:00Z  #1234  signer_bundle.changed  -/12/7  signatures changed  [node "", signatures 3, signaturesBefore 2]'
    )
  })

  it("puts the main fields first and counts the rest", () => {
    expect(ConsoleSink.render(liquidityAmended, plain)).toBe(
      "2024-04-01T00:10:00Z  #1234  liquidity.amended  0f1e2d3c…/a1b2c3d4…  commitmentAmount 1000 → 2000, fee 0.001 → 0.002, status STATUS_ACTIVE → STATUS_PENDING +1 more"
    )
  })

  it("colours only when asked", () => {
    const coloured = ConsoleSink.render(positionOpened, { colors: true })
    expect(coloured).toContain("\u001b[32mposition.opened\u001b[0m")
    expect(coloured.replace(new RegExp(String.fromCharCode(27) + "\\[\\d+m", "g"), "")).toBe(
      ConsoleSink.render(positionOpened, plain)
    )
    expect(ConsoleSink.render(positionOpened, plain)).not.toContain("\u001b")
    expect(ConsoleSink.colorsFor({ isTTY: false })).toBe(false)
    expect(ConsoleSink.colorsFor({})).toBe(false)
  })
})

describe("ConsoleSink", () => {
  it.effect("writes one line per event, in order", () =>
    Effect.gen(function* () {
      const chunks: Array<string> = []
      const sink = ConsoleSink.make({ colors: false, write: (chunk) => Effect.sync(() => void chunks.push(chunk)) })
      const events = [volumeChanged, stakeGone].map((event, index) => ({ seq: index + 1, event }))
      yield* sink.deliver(events)
      expect(chunks).toEqual([
        ConsoleSink.render(volumeChanged, plain) + "\n" + ConsoleSink.render(stakeGone, plain) + "\n"
      ])
      expect(sink.name).toBe("console")
      expect(yield* sink.recover(events)).toBe(0)
    })
  )
})
