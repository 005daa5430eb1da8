/**
 * The decimals of the node's markets and assets, learned from it for the console's human units
 * (see `Units.ts`): read once when first needed, and again when a market or asset id appears that
 * is not known yet (at most every `refreshEvery`, so an id the node does not list costs no more).
 * Reading them never fails the caller: what could not be learned is simply not known, and the
 * values it would scale are said raw.
 */
import { type DataNodeClient, FailureText } from "@vega-effect/http"
import { Market, Pagination, Scaling } from "@vega-effect/schema"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { loadAssets } from "./resources/assets.js"
import type { AssetScale, MarketScale, Scales } from "./Units.js"

/** The symbol of the staking asset, whose decimals scale stake. */
export const STAKE_SYMBOL = "VEGA"

/** The ids a batch of values needs the decimals of. */
export interface Needed {
  readonly markets: ReadonlySet<string>
  readonly assets: ReadonlySet<string>
  readonly stake: boolean
}

export interface Decimals {
  /** What is known, learned again first if something needed is not (and the last read is old enough). */
  readonly scalesFor: (needed: Needed) => Effect.Effect<Scales>
}

export interface Options {
  /** The least time between two reads of the node's markets and assets. Default 30 s. */
  readonly refreshEvery?: Duration.DurationInput
}

interface Known {
  readonly markets: ReadonlyMap<string, MarketScale>
  readonly assets: ReadonlyMap<string, AssetScale>
}

const readMarkets = (client: DataNodeClient.Service) =>
  client.markets({}, { pageSize: Pagination.MAX_PAGE_SIZE }).pipe(
    Stream.runFold(new Map<string, MarketScale>(), (markets, { node }) =>
      markets.set(node.id, {
        price: Market.priceDecimals(node),
        position: Market.positionDecimals(node),
        settlementAsset: Market.settlementAsset(node)
      })
    )
  )

/** Decimals as `Scaling` takes them, or none for a value it refuses (that asset's amounts stay raw). */
const assetDecimals = (decimals: number): Scaling.AssetDecimals | undefined => {
  try {
    return Scaling.assetDecimals(decimals)
  } catch {
    return undefined
  }
}

/** The assets as the diffs read them (`resources/assets.ts`), with decimals `Scaling` takes. */
const readAssets = (client: DataNodeClient.Service) =>
  Effect.map(loadAssets(client), (assets) => {
    const scales = new Map<string, AssetScale>()
    for (const [id, { decimals, symbol }] of assets) {
      const checked = assetDecimals(decimals)
      if (checked !== undefined) scales.set(id, { symbol, decimals: checked })
    }
    return scales
  })

const stakeOf = (known: Known): AssetScale | undefined => {
  const vega = [...known.assets.values()].filter((asset) => asset.symbol === STAKE_SYMBOL)
  // two assets named VEGA would leave the staking one unknown: raw rather than wrong
  return vega.length === 1 ? vega[0] : undefined
}

const scalesOf = (known: Known): Scales => ({
  market: (id) => known.markets.get(id),
  asset: (id) => known.assets.get(id),
  stake: stakeOf(known)
})

const missing = (known: Known, needed: Needed): boolean => {
  for (const id of needed.markets) {
    const market = known.markets.get(id)
    if (market === undefined) return true
    if (market.settlementAsset !== undefined && !known.assets.has(market.settlementAsset)) return true
  }
  for (const id of needed.assets) if (!known.assets.has(id)) return true
  return needed.stake && stakeOf(known) === undefined
}

/** Decimals learned from `client`'s node. */
export const make = (client: DataNodeClient.Service, options: Options = {}): Effect.Effect<Decimals> =>
  Effect.gen(function* () {
    const refreshEvery = Duration.toMillis(Duration.decode(options.refreshEvery ?? "30 seconds"))
    let known: Known = { markets: new Map(), assets: new Map() }
    let readAt: number | undefined
    const lock = yield* Effect.makeSemaphore(1)

    const refresh = Effect.gen(function* () {
      readAt = yield* Clock.currentTimeMillis
      const [markets, assets] = yield* Effect.all([readMarkets(client), readAssets(client)], { concurrency: 2 })
      known = { markets, assets }
    }).pipe(
      Effect.catchAll((error) =>
        FailureText.logWarning("could not learn the decimals of markets and assets (amounts shown raw)", error)
      )
    )

    const scalesFor = (needed: Needed) =>
      lock.withPermits(1)(
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          if (missing(known, needed) && (readAt === undefined || now - readAt >= refreshEvery)) yield* refresh
          return scalesOf(known)
        })
      )
    return { scalesFor }
  })
