/**
 * Every route the simulated data node serves.
 */
import type { Route, StreamRoute } from "../route.js"
import * as accounts from "./accounts.js"
import { makeAccountStreamRoutes } from "./accountStream.js"
import * as bundles from "./bundles.js"
import * as candles from "./candles.js"
import * as deposits from "./deposits.js"
import * as depth from "./depth.js"
import * as governance from "./governance.js"
import * as history from "./history.js"
import * as historyExport from "./historyExport.js"
import { makeGovernanceStreamRoutes } from "./governanceStreams.js"
import * as estimatePosition from "./estimatePosition.js"
import * as feesStats from "./feesStats.js"
import * as funding from "./funding.js"
import * as fundingPayments from "./fundingPayments.js"
import * as keyRotations from "./keyRotations.js"
import * as games from "./games.js"
import * as ledger from "./ledger.js"
import * as ledgerExport from "./ledgerExport.js"
import { makeLedgerMovementsRoute } from "./ledgerMovements.js"
import * as liquidity from "./liquidity.js"
import * as liquidityProviders from "./liquidityProviders.js"
import * as margin from "./margin.js"
import { makeMarginStreamRoutes } from "./marginStream.js"
import * as marketData from "./marketData.js"
import { makeMarketStreamRoutes } from "./marketStreams.js"
import * as neighbours from "./neighbours.js"
import * as nodes from "./nodes.js"
import * as networkParameters from "./networkParameters.js"
import * as notary from "./notary.js"
import { makeObserverRoutes } from "./observers.js"
import type { NodeView } from "./node.js"
import * as oracles from "./oracles.js"
import * as orders from "./orders.js"
import * as paidLiquidityFees from "./paidLiquidityFees.js"
import * as parties from "./parties.js"
import * as positions from "./positions.js"
import * as profiles from "./profiles.js"
import * as programs from "./programs.js"
import * as referralSets from "./referralSets.js"
import * as referrals from "./referrals.js"
import * as rewards from "./rewards.js"
import * as stake from "./stake.js"
import * as stopOrders from "./stopOrders.js"
import * as streams from "./streams.js"
import * as successorMarkets from "./successorMarkets.js"
import * as teams from "./teams.js"
import * as timeWeightedNotionalPosition from "./timeWeightedNotionalPosition.js"
import * as trades from "./trades.js"
import * as transactions from "./transactions.js"
import * as transfers from "./transfers.js"

export const routes: ReadonlyArray<Route<NodeView>> = [
  stake.route,
  liquidity.route,
  liquidity.deprecatedRoute,
  positions.route,
  referrals.route,
  referralSets.setsRoute,
  referralSets.refereesRoute,
  programs.referralProgramRoute,
  programs.volumeProgramRoute,
  programs.volumeStatsRoute,
  programs.streakRoute,
  bundles.route,
  profiles.route,
  rewards.route,
  rewards.listRoute,
  ...neighbours.routes,
  ...orders.routes,
  ...trades.routes,
  ...marketData.routes,
  depth.route,
  ...candles.routes,
  ...transactions.routes,
  ...accounts.routes,
  ledger.route,
  ...deposits.routes,
  ...stopOrders.routes,
  ...networkParameters.routes,
  ...governance.routes,
  ...margin.routes,
  estimatePosition.route,
  ...parties.routes,
  successorMarkets.route,
  ...oracles.routes,
  ...nodes.routes,
  rewards.epochSummariesRoute,
  ...feesStats.routes,
  paidLiquidityFees.route,
  liquidityProviders.route,
  ...funding.routes,
  fundingPayments.route,
  ...transfers.routes,
  bundles.removedRoute,
  ...notary.routes,
  ...keyRotations.routes,
  ...history.routes,
  ...teams.routes,
  games.route,
  timeWeightedNotionalPosition.route
]

/** The streaming routes (chunked HTTP or WebSocket), registered after the others. */
export const streamRoutes: ReadonlyArray<StreamRoute<NodeView>> = [
  ...streams.routes,
  ...makeObserverRoutes(50),
  ...makeAccountStreamRoutes(50),
  ...makeMarketStreamRoutes(),
  makeLedgerMovementsRoute(50),
  ledgerExport.route,
  historyExport.route,
  ...makeGovernanceStreamRoutes(50),
  ...makeMarginStreamRoutes(50)
]
