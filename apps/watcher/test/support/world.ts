/**
 * The world the process tests drive block by block: every resource active, small enough for
 * dozens of blocks in seconds.
 */
import { Simulator } from "@vega-effect/simulator"

export const processTestWorld = (options: {
  readonly seed: number
  readonly markets: number
  readonly positions: number
}) =>
  Simulator.make({
    seed: options.seed,
    blockInterval: "manual",
    blocksPerEpoch: 5,
    scale: {
      parties: 40,
      markets: options.markets,
      positions: options.positions,
      stakeLinkings: 150,
      liquidityProvisions: 12,
      referralSets: 2,
      refereesPerSet: 3,
      signerBundles: 3,
      epochs: 3
    },
    activity: { positionTrades: 6, stakeEvents: 2, liquidityChanges: 1, profileChanges: 1, bundleEveryEpochs: 1 }
  })

/**
 * Real-time settings for a world moved block by block by a test: a chain standing still for 200 ms
 * is taken as done with its block (rather than a second), reconciliations are not held to a share
 * of a node that does not limit anyone, and a bus that hears nothing while the test waits is not
 * taken for dead.
 */
export const LIVE_TEST_SETTINGS = {
  mode: "live",
  live: { quiet: "200ms", reconcileBudget: 1000, backfillBudget: 1000, idleTimeout: "1h" }
} as const
