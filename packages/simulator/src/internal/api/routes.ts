/**
 * Every route the simulated data node serves.
 */
import type { Route, StreamRoute } from "../route.js"
import * as bundles from "./bundles.js"
import * as candles from "./candles.js"
import * as depth from "./depth.js"
import * as liquidity from "./liquidity.js"
import * as marketData from "./marketData.js"
import { makeMarketStreamRoutes } from "./marketStreams.js"
import * as neighbours from "./neighbours.js"
import { makeObserverRoutes } from "./observers.js"
import type { NodeView } from "./node.js"
import * as positions from "./positions.js"
import * as profiles from "./profiles.js"
import * as referrals from "./referrals.js"
import * as rewards from "./rewards.js"
import * as stake from "./stake.js"
import * as streams from "./streams.js"
import * as transactions from "./transactions.js"

export const routes: ReadonlyArray<Route<NodeView>> = [
  stake.route,
  liquidity.route,
  positions.route,
  referrals.route,
  bundles.route,
  profiles.route,
  rewards.route,
  rewards.listRoute,
  ...neighbours.routes,
  ...marketData.routes,
  depth.route,
  ...candles.routes,
  ...transactions.routes
]

/** The streaming routes (chunked HTTP or WebSocket), registered after the others. */
export const streamRoutes: ReadonlyArray<StreamRoute<NodeView>> = [
  ...streams.routes,
  ...makeObserverRoutes(50),
  ...makeMarketStreamRoutes()
]
