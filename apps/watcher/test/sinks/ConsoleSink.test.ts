import { FetchHttpClient } from "@effect/platform"
import { it } from "@effect/vitest"
import { DataNodeClient } from "@vega-effect/http"
import { Decimal, Market, Scaling } from "@vega-effect/schema"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import { describe, expect } from "vitest"
import * as Decimals from "../../src/Decimals.js"
import { makeEvent } from "../../src/Event.js"
import * as ConsoleSink from "../../src/sinks/ConsoleSink.js"
import type * as Units from "../../src/Units.js"
import { simulated } from "../resources/support.js"
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
  {
    kind: "reward.increased",
    details: {
      delta: "3499999999999000000000000000000",
      deltaHuman: "3499999999999",
      symbol: "VEGA",
      total: "3500000000000000000000000000000",
      totalHuman: "3500000000000"
    }
  },
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

  it("shows the details not said yet, the diff's amounts in the asset's units with the raw one in brackets", () => {
    // the diff's scaled copies go with their raw values: the total, raw on the line, in VEGA here
    expect(ConsoleSink.render(rewardReceived, plain)).toBe(
      "2024-04-01T00:10:00Z  #1234  reward.increased  a1b2c3d4…/0f1e2d3c…  amount 1000000000000000000 → 3500000000000000000000000000000  " +
        "[delta 3499999999999 VEGA (3499999999999000000000000000000), total 3500000000000 VEGA (3500000000000000000000000000000)]"
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

/** A market with prices at 5 decimals, volumes at 4, settled in USDC (6 decimals); VEGA at 18. */
const usdc = "c9fe6fc24fce121b2cc72680543a886055abb560043fda394ba5376203b7527d"
const vega = "d1984e3d365faa05bcafbe41f1c7d0c20ba3b1f1bd2fc4e5c5d0a9a2f1e43b50"
const scales: Units.Scales = {
  market: (id) =>
    id === market
      ? { price: Scaling.priceDecimals(5), position: Scaling.positionDecimals(4), settlementAsset: usdc }
      : undefined,
  asset: (id) =>
    id === usdc
      ? { symbol: "USDC", decimals: Scaling.assetDecimals(6) }
      : id === vega
        ? { symbol: "VEGA", decimals: Scaling.assetDecimals(18) }
        : undefined,
  stake: { symbol: "VEGA", decimals: Scaling.assetDecimals(18) }
}

const position = (openVolume: string, unrealisedPnl: string) => ({
  marketId: market,
  partyId: party,
  openVolume,
  realisedPnl: "-1500000",
  unrealisedPnl,
  averageEntryPrice: "3828052",
  lossSocialisationAmount: "0",
  positionStatus: "POSITION_STATUS_UNSPECIFIED",
  updatedAt: "1711930000000000000"
})

const traded = makeEvent(
  "positions",
  `${market}/${party}`,
  { kind: "position.volume_changed", details: { from: "-27975", to: "-27344", delta: "631" } },
  at,
  position("-27975", "252258407"),
  position("-27344", "-171255")
)

const linked = makeEvent(
  "stake",
  "link-1",
  {
    kind: "stake.linked",
    details: { party, amount: "446446000000000000000", amountVega: "446.446", status: "STATUS_PENDING" }
  },
  at,
  null,
  { id: "link-1", type: "TYPE_LINK", party, amount: "446446000000000000000", status: "STATUS_PENDING" }
)

describe("ConsoleSink.render in human units", () => {
  it("a position: volumes at the market's position decimals, PnL in the settlement asset, prices at its price decimals", () => {
    expect(ConsoleSink.render(traded, { colors: false, scales })).toBe(
      "2024-04-01T00:10:00Z  #1234  position.volume_changed  0f1e2d3c…/a1b2c3d4…  " +
        "openVolume -2.7975 (-27975) → -2.7344 (-27344), unrealisedPnl 252.258407 USDC (252258407) → -0.171255 USDC (-171255)  " +
        "[delta 0.0631 (631)]"
    )
    const opened = makeEvent("positions", `${market}/${party}`, { kind: "position.opened" }, at, null, {
      ...position("5", "0"),
      positionStatus: "POSITION_STATUS_UNSPECIFIED"
    })
    expect(ConsoleSink.render(opened, { colors: false, scales })).toContain(
      "openVolume 0.0005 (5), realisedPnl -1.5 USDC (-1500000), unrealisedPnl 0 USDC (0) +2 more"
    )
    const priced = makeEvent(
      "positions",
      `${market}/${party}`,
      { kind: "position.volume_changed" },
      at,
      { ...position("1", "0"), averageEntryPrice: "100" },
      position("1", "0")
    )
    expect(ConsoleSink.render(priced, { colors: false, scales })).toContain(
      "averageEntryPrice 0.001 (100) → 38.28052 (3828052)"
    )
  })

  it("stake: in VEGA from the asset's 18 decimals, the diff's own copy not repeated", () => {
    expect(ConsoleSink.render(linked, { colors: false, scales })).toBe(
      "2024-04-01T00:10:00Z  #1234  stake.linked  link-1  type TYPE_LINK, amount 446.446 VEGA (446446000000000000000), status STATUS_PENDING  " +
        "[party a1b2c3d4…]"
    )
  })

  it("a reward total in its asset's units", () => {
    const paid = makeEvent(
      "rewards",
      `${party}/${usdc}`,
      {
        kind: "reward.increased",
        details: { delta: "2500000", deltaHuman: "2.5", symbol: "USDC", total: "3500000", totalHuman: "3.5" }
      },
      at,
      { partyId: party, assetId: usdc, amount: "1000000" },
      { partyId: party, assetId: usdc, amount: "3500000" }
    )
    expect(ConsoleSink.render(paid, { colors: false, scales })).toBe(
      `2024-04-01T00:10:00Z  #1234  reward.increased  a1b2c3d4…/c9fe6fc2…  amount 1 USDC (1000000) → 3.5 USDC (3500000)  ` +
        "[delta 2.5 USDC (2500000)]"
    )
  })

  it("a liquidity commitment in the market's settlement asset", () => {
    const lp = {
      id: "lp-1",
      partyId: party,
      marketId: market,
      commitmentAmount: "5000000",
      fee: "0.01",
      // empty lists say nothing
      sells: [],
      buys: [],
      status: "STATUS_PENDING",
      version: "1"
    }
    const created = makeEvent(
      "liquidity",
      "lp-1",
      {
        kind: "liquidity.created",
        details: {
          partyId: party,
          marketId: market,
          status: "STATUS_PENDING",
          version: "1",
          commitmentAmount: "5000000",
          fee: "0.01"
        }
      },
      at,
      null,
      { current: lp, pending: null }
    )
    // the version in force by its fields, not as JSON; the details only what it does not say
    expect(ConsoleSink.render(created, { colors: false, scales })).toBe(
      "2024-04-01T00:10:00Z  #1234  liquidity.created  lp-1  " +
        "current {commitmentAmount 5 USDC (5000000), fee 0.01, status STATUS_PENDING}, pending –  " +
        "[partyId a1b2c3d4…, marketId 0f1e2d3c…, version 1]"
    )
    const amended = makeEvent(
      "liquidity",
      "lp-1",
      { kind: "liquidity.amended", details: { version: "2", commitmentAmount: "7000000", fee: "0.02" } },
      at,
      { current: { ...lp, status: "STATUS_ACTIVE" }, pending: null },
      {
        current: { ...lp, status: "STATUS_ACTIVE" },
        pending: { ...lp, commitmentAmount: "7000000", fee: "0.02", version: "2" }
      }
    )
    expect(ConsoleSink.render(amended, { colors: false, scales })).toBe(
      "2024-04-01T00:10:00Z  #1234  liquidity.amended  lp-1  " +
        "pending – → {commitmentAmount 7 USDC (7000000), fee 0.02, status STATUS_PENDING}  [version 2]"
    )
    const activated = makeEvent(
      "liquidity",
      "lp-1",
      { kind: "liquidity.status_changed", details: { from: "STATUS_PENDING", to: "STATUS_ACTIVE" } },
      at,
      { current: lp, pending: null },
      { current: { ...lp, status: "STATUS_ACTIVE", updatedAt: "2" }, pending: null }
    )
    expect(ConsoleSink.render(activated, { colors: false, scales })).toBe(
      "2024-04-01T00:10:00Z  #1234  liquidity.status_changed  lp-1  current.status STATUS_PENDING → STATUS_ACTIVE"
    )
  })

  it("raw where the decimals are not known: an unknown market, or nothing known", () => {
    const elsewhere = makeEvent(
      "positions",
      `${vega}/${party}`,
      { kind: "position.volume_changed", details: { from: "-27975", to: "-27344", delta: "631" } },
      at,
      { ...position("-27975", "0"), marketId: vega },
      { ...position("-27344", "0"), marketId: vega }
    )
    expect(ConsoleSink.render(elsewhere, { colors: false, scales })).toContain(
      "openVolume -27975 → -27344  [delta 631]"
    )
    expect(ConsoleSink.render(linked, plain)).toContain(
      "amount 446446000000000000000, status STATUS_PENDING  [party a1b2c3d4…, amount 446.446 VEGA (446446000000000000000)]"
    )
  })
})

describe("ConsoleSink with the node's decimals", () => {
  it.scoped(
    "learns markets and assets from the node; an unknown id is looked for again, at most every refreshEvery",
    () =>
      Effect.gen(function* () {
        const { client } = yield* simulated({
          seed: 3,
          scale: {
            parties: 4,
            markets: 2,
            positions: 4,
            stakeLinkings: 4,
            liquidityProvisions: 1,
            referralSets: 1,
            signerBundles: 1,
            epochs: 1
          }
        })
        const markets = yield* client.markets().pipe(Stream.runCollect)
        const assets = yield* client.assets().pipe(Stream.runCollect)
        const first = Chunk.unsafeHead(markets).node
        const settlement = [...assets].find(({ node }) => node.id === Market.settlementAsset(first))!.node
        let reads = 0
        const counted: typeof client = { ...client, markets: (...args) => (reads++, client.markets(...args)) }
        const decimals = yield* Decimals.make(counted, { refreshEvery: "1 minute" })
        const chunks: Array<string> = []
        const sink = ConsoleSink.make({ colors: false, decimals, write: (c) => Effect.sync(() => void chunks.push(c)) })
        const event = makeEvent("positions", `${first.id}/${party}`, { kind: "position.opened" }, at, null, {
          ...position("27975", "-171255"),
          marketId: first.id
        })
        yield* sink.deliver([{ seq: 1, event }])
        const volume = Decimal.format(Scaling.fromPositionUnits(27975n, first.positionDecimalPlaces))
        const pnl = Decimal.format(Scaling.fromAssetUnits(-171255n, settlement.details.decimals))
        expect(chunks[0]).toContain(`openVolume ${volume} (27975)`)
        expect(chunks[0]).toContain(`unrealisedPnl ${pnl} ${settlement.details.symbol} (-171255)`)
        expect(reads).toBe(1)
        // known: not read again
        yield* sink.deliver([{ seq: 2, event }])
        expect(reads).toBe(1)
        // a market the node does not list: raw, looked for again once refreshEvery has passed, not sooner
        const unknown = makeEvent("positions", `${vega}/${party}`, { kind: "position.opened" }, at, null, {
          ...position("27975", "0"),
          marketId: vega
        })
        yield* sink.deliver([{ seq: 3, event: unknown }])
        expect(reads).toBe(1)
        yield* TestClock.adjust("1 minute")
        yield* sink.deliver([{ seq: 4, event: unknown }])
        expect(reads).toBe(2)
        yield* sink.deliver([{ seq: 5, event: unknown }])
        expect(reads).toBe(2)
        expect(chunks[2]).toContain("openVolume 27975, ")
        expect(chunks[4]).toContain("openVolume 27975, ")
      })
  )

  it.scoped("a node that cannot be reached: every value raw, the delivery done", () =>
    Effect.gen(function* () {
      const client = yield* DataNodeClient.make({ urls: "http://127.0.0.1:1", rateLimit: false, retries: 0 }).pipe(
        Effect.provide(FetchHttpClient.layer)
      )
      const chunks: Array<string> = []
      const sink = ConsoleSink.make({
        colors: false,
        decimals: yield* Decimals.make(client),
        write: (c) => Effect.sync(() => void chunks.push(c))
      })
      yield* sink.deliver([
        { seq: 1, event: traded },
        { seq: 2, event: linked }
      ])
      expect(chunks).toEqual([ConsoleSink.render(traded, plain) + "\n" + ConsoleSink.render(linked, plain) + "\n"])
    })
  )
})
