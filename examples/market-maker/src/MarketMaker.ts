/**
 * A simple market maker: every cycle it reads the market's mark price, cancels its orders in the
 * market and quotes both sides around the mark; it follows its own trades over the node's trade
 * stream (catching up over REST whenever the stream reconnects, so no trade is missed or counted
 * twice) and prints its inventory and PnL in human units.
 */
import { DataNodeClient, LiveStream } from "@vega-effect/http"
import { Commands, Market, type Vega } from "@vega-effect/schema"
import * as DataNodeApi from "@vega-effect/schema/DataNodeApi"
import { TransactionSubmitter } from "@vega-effect/submitter"
import { type Duration, Effect, Ref, Stream } from "effect"
import * as Book from "./Book.js"

export interface Config {
  readonly marketId: string
  /** Distance of each quote from the mark, in the market's price units (integer). */
  readonly offset: bigint
  /** Size of each quote, in the market's position units (integer). */
  readonly size: bigint
  /** Cycles to run; unbounded when absent. */
  readonly cycles?: number
  /** Pause between cycles. */
  readonly pause: Duration.DurationInput
  /** Where the bot's lines go. */
  readonly print: (line: string) => Effect.Effect<void>
}

/** What the bot knows of its market. */
interface Traded {
  readonly id: string
  readonly code: string
  readonly decimals: Book.MarketDecimals
}

const marketOf = (id: string) =>
  Effect.gen(function* () {
    const { market } = yield* DataNodeClient.query(DataNodeApi.GetMarket, { marketId: id })
    const { asset } = yield* DataNodeClient.query(DataNodeApi.GetAsset, {
      assetId: Market.settlementAsset(market) ?? ""
    })
    return {
      id,
      code: market.tradableInstrument.instrument.code,
      decimals: {
        price: Number(market.decimalPlaces),
        position: Number(market.positionDecimalPlaces),
        asset: Number(asset.details.decimals)
      }
    } satisfies Traded
  })

const limit = (marketId: string, side: "SIDE_BUY" | "SIDE_SELL", price: bigint, size: bigint) =>
  Commands.command(
    "orderSubmission",
    Commands.orderSubmission({
      marketId,
      price: String(price),
      size,
      side,
      timeInForce: "TIME_IN_FORCE_GTC",
      type: "TYPE_LIMIT",
      reference: "market-maker"
    })
  )

/** The trade's effect on the bot's book: its side, and the fees it paid or received. */
const applyTrade = (market: Traded, party: string, book: Book.Book, trade: Vega.Trade): Book.Book => {
  const bought = trade.buyer === party
  const ownFee = bought ? trade.buyerFee : trade.sellerFee
  const otherFee = bought ? trade.sellerFee : trade.buyerFee
  const aggressor = (trade.aggressor === "SIDE_BUY") === bought
  const after = Book.fill(market.decimals, book, bought ? trade.size : -trade.size, trade.price)
  return {
    ...after,
    feesPaid:
      book.feesPaid +
      (aggressor && ownFee !== undefined ? ownFee.makerFee + ownFee.infrastructureFee + ownFee.liquidityFee : 0n),
    makerFeesReceived: book.makerFeesReceived + (!aggressor && otherFee !== undefined ? otherFee.makerFee : 0n),
    trades: book.trades + 1
  }
}

/** One line of the bot's state, in human units. */
export const statusLine = (market: Traded, book: Book.Book, mark: bigint, label = "status"): string => {
  const { asset, position } = market.decimals
  return [
    label,
    `inventory ${Book.human(book.inventory, position)}`,
    `realised ${Book.human(book.realised, asset)}`,
    `unrealised ${Book.human(Book.unrealised(market.decimals, book, mark), asset)}`,
    `fees paid ${Book.human(book.feesPaid, asset)}`,
    `maker fees received ${Book.human(book.makerFeesReceived, asset)}`,
    `trades ${book.trades}`
  ].join(" | ")
}

/**
 * Runs the market maker; returns its book when its cycles are done (never, when unbounded). Its
 * orders are cancelled when it stops, however it stops.
 */
export const run = (config: Config) =>
  Effect.scoped(
    Effect.gen(function* () {
      const submitter = yield* TransactionSubmitter.TransactionSubmitter
      const party = submitter.partyId
      const market = yield* marketOf(config.marketId)
      yield* config.print(`market maker ${party.slice(0, 8)}… on ${market.code}`)

      const book = yield* Ref.make(Book.empty)
      const seen = new Set<string>()
      const take = (trade: Vega.Trade) =>
        seen.has(trade.id)
          ? Effect.void
          : Effect.gen(function* () {
              seen.add(trade.id)
              const { position, price } = market.decimals
              yield* Ref.update(book, (b) => applyTrade(market, party, b, trade))
              const side = trade.buyer === party ? "bought" : "sold"
              yield* config.print(
                `trade ${side} ${Book.human(trade.size, position)} at ${Book.human(trade.price, price)}`
              )
            })
      const filter = { partyIds: [party], marketIds: [market.id] }
      // every trade the node has for the bot, oldest first: after each (re)connection, what the stream missed
      const catchUp = DataNodeClient.paginate(DataNodeApi.ListTrades, filter, {}).pipe(
        Stream.runCollect,
        Effect.flatMap((items) =>
          Effect.forEach(
            [...items]
              .map((item) => item.node)
              .sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0)),
            take,
            { discard: true }
          )
        ),
        Effect.orDie
      )
      yield* DataNodeClient.observe(DataNodeApi.ObserveTrades, filter).pipe(
        Stream.runForEach((observation) =>
          LiveStream.isConnected(observation)
            ? catchUp
            : LiveStream.isMessage(observation)
              ? Effect.forEach(observation.message.trades, take, { discard: true })
              : Effect.void
        ),
        Effect.forkScoped
      )

      const cancelAll = Commands.command("orderCancellation", { orderId: "", marketId: market.id })
      const cycle = Effect.gen(function* () {
        const { marketData } = yield* DataNodeClient.query(DataNodeApi.GetLatestMarketData, { marketId: market.id })
        const mark = marketData?.markPrice ?? 0n
        if (mark <= config.offset) return yield* config.print("no usable mark price yet")
        yield* submitter.submitAndWait(cancelAll)
        yield* submitter.submitAndWait(limit(market.id, "SIDE_BUY", mark - config.offset, config.size))
        yield* submitter.submitAndWait(limit(market.id, "SIDE_SELL", mark + config.offset, config.size))
        yield* Effect.sleep(config.pause)
        yield* config.print(statusLine(market, yield* Ref.get(book), mark))
      })
      yield* Effect.addFinalizer(() => submitter.submitAndWait(cancelAll).pipe(Effect.ignore))
      if (config.cycles === undefined) return yield* Effect.forever(cycle)
      yield* Effect.repeatN(cycle, Math.max(0, config.cycles - 1))
      // nothing resting any more, every trade taken: the final state
      yield* submitter.submitAndWait(cancelAll)
      yield* catchUp
      const final = yield* Ref.get(book)
      const { marketData } = yield* DataNodeClient.query(DataNodeApi.GetLatestMarketData, { marketId: market.id })
      yield* config.print(statusLine(market, final, marketData?.markPrice ?? 0n, "final"))
      return final
    })
  )
