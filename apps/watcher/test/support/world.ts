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
