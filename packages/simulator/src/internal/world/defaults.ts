/**
 * The world's defaults, in a module of their own: `vega-sim --help` says them without loading the
 * world (`World.ts` exports them, documented).
 */
import type { Scale } from "../../World.js"

export const defaultScale: Scale = {
  parties: 200,
  assets: 3,
  markets: 6,
  validators: 5,
  positions: 1_000,
  stakeLinkings: 1_000,
  liquidityProvisions: 60,
  referralSets: 5,
  refereesPerSet: 6,
  signerBundles: 8,
  profileShare: 0.3,
  stopOrders: 6,
  epochs: 10,
  transfers: 8,
  recurringTransfers: 3
}

export const DEFAULT_SEED = 1

export const DEFAULT_BLOCKS_PER_EPOCH = 50

export const DEFAULT_FUNDING_PERIOD_SECONDS = 28_800
