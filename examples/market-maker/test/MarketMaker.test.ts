/**
 * The market maker run against a simulated network for a bounded number of cycles: what it prints
 * must be what its trades say, and what the node's positions and accounts say.
 */
import { describe, expect, it } from "@effect/vitest"
import { FetchHttpClient } from "@effect/platform"
import { NodeSocket } from "@effect/platform-node"
import { Keys, ProofOfWork } from "@vega-effect/crypto"
import { DataNodeClient } from "@vega-effect/http"
import * as DataNodeApi from "@vega-effect/schema/DataNodeApi"
import { Simulator } from "@vega-effect/simulator"
import { TransactionSubmitter } from "@vega-effect/submitter"
import { Effect, Layer, Redacted, Stream } from "effect"
import * as Book from "../src/Book.js"
import * as MarketMaker from "../src/MarketMaker.js"

const MNEMONIC = Redacted.make(
  "swing ceiling chaos green put insane ripple desk match tip melt usual shrug turkey renew icon parade veteran lens govern path rough page render"
)

const field = (line: string, name: string) =>
  line
    .split(" | ")
    .find((part) => part.startsWith(`${name} `))!
    .slice(name.length + 1)

describe("the market maker on a simulated network", () => {
  it.scopedLive(
    "quotes both sides, trades, and prints the PnL its trades, positions and accounts agree on",
    () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.make({
          seed: "market maker",
          blockInterval: "150 millis",
          spam: { difficulty: 2 },
          activity: { positionTrades: 60 }
        })
        const market = sim.world.catalog.markets[0]
        const key = yield* Keys.fromMnemonic(MNEMONIC, { index: 1 })
        const nodes = Layer.provideMerge(
          TransactionSubmitter.layer({ key }),
          DataNodeClient.layer({ urls: sim.urls })
        ).pipe(Layer.provide(ProofOfWork.layer()), Layer.provide(FetchHttpClient.layer))
        const lines: Array<string> = []
        const book = yield* MarketMaker.run({
          marketId: market.id,
          offset: 1n,
          size: 40n,
          cycles: 6,
          pause: "400 millis",
          print: (line) => Effect.sync(() => lines.push(line))
        }).pipe(Effect.provide(nodes), Effect.provide(NodeSocket.layerWebSocketConstructor))
        expect(book.trades).toBeGreaterThan(0)
        expect(lines.filter((l) => l.startsWith("trade ")).length).toBe(book.trades)

        const client = yield* DataNodeClient.make({ urls: sim.url })
        const party = sim.world.catalog.joined[0].id
        const decimals = {
          price: market.priceDecimals,
          position: market.positionDecimals,
          asset: market.settlementAsset.decimals
        }
        const final = lines.at(-1)!
        expect(final.startsWith("final")).toBe(true)

        // the node's position: the same inventory and realised PnL
        const { positions } = yield* client.query(DataNodeApi.ListAllPositions, {
          filter: { partyIds: [party], marketIds: [market.id] }
        })
        const position = positions.edges[0].node
        expect(position.openVolume).toBe(book.inventory)
        expect(position.realisedPnl).toBe(book.realised)
        expect(field(final, "inventory")).toBe(Book.human(position.openVolume, decimals.position))
        expect(field(final, "realised")).toBe(Book.human(position.realisedPnl, decimals.asset))

        // the accounts: what it holds over what it deposited is its realised PnL less fees, plus maker fees
        const held = yield* client.paginate(DataNodeApi.ListAccounts, { filter: { partyIds: [party] } }).pipe(
          Stream.map((item) => item.node),
          Stream.filter((account) => account.asset === market.settlementAsset.id),
          Stream.runFold(0n, (sum, account) => sum + account.balance)
        )
        const deposited = yield* client.paginate(DataNodeApi.ListDeposits, { partyId: party }).pipe(
          Stream.map((item) => item.node),
          Stream.filter((deposit) => deposit.asset === market.settlementAsset.id),
          Stream.runFold(0n, (sum, deposit) => sum + deposit.amount)
        )
        expect(held - deposited).toBe(book.realised - book.feesPaid + book.makerFeesReceived)
        expect(field(final, "fees paid")).toBe(Book.human(book.feesPaid, decimals.asset))
      }).pipe(Effect.provide(FetchHttpClient.layer)),
    60_000
  )
})
