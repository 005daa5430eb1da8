/**
 * What the node checks once a transaction passed proof of work (vega `core/processor/abci.go`):
 * the network limits of `OnCheckTx` (code 51) and then the command-specific CheckTx handlers
 * (code 70), for the commands and the world the simulator models.
 *
 * Read from the node's code, not quoted in its facts: which commands `canSubmitTx` stops while
 * trading is disabled (orders, stop orders and liquidity provisions), and the text of the
 * handlers' unknown-market error (`invalid market ID`, the execution engine's
 * `ErrInvalidMarketID`) for order submissions and liquidity provision submissions and amendments.
 * Cancellations have no CheckTx handler: an unknown order or provision fails only in its block.
 */
import type { Commands } from "@vega-effect/schema"
import type { World } from "../../World.js"

/** The network limits the simulator models. */
export interface NetworkLimits {
  /** Whether the network allows trading (`limits.CanTrade`). */
  readonly tradingEnabled: boolean
}

export const TRADING_DISABLED = "trading disabled"
export const INVALID_MARKET_ID = "invalid market ID"

const TRADING_COMMANDS: ReadonlySet<Commands.CommandName> = new Set([
  "orderSubmission",
  "orderAmendment",
  "orderCancellation",
  "liquidityProvisionSubmission",
  "liquidityProvisionAmendment",
  "liquidityProvisionCancellation",
  "stopOrdersSubmission",
  "stopOrdersCancellation"
])

/** `OnCheckTx`'s network limits: the code-51 text, if the command may not be submitted now. */
export const networkLimitError = (limits: NetworkLimits, command: Commands.Command): string | undefined =>
  !limits.tradingEnabled && TRADING_COMMANDS.has(command._tag) ? TRADING_DISABLED : undefined

// the engine looks markets up by id as given: an uppercase id is unknown
const marketError = (world: World, marketId: string): string | undefined =>
  world.catalog.marketById.get(marketId)?.id === marketId ? undefined : INVALID_MARKET_ID

/** The command's CheckTx handler: the code-70 text, if it refuses the command. */
export const commandCheckError = (world: World, command: Commands.Command): string | undefined => {
  switch (command._tag) {
    case "orderSubmission":
    case "liquidityProvisionSubmission":
    case "liquidityProvisionAmendment":
      return marketError(world, command.value.marketId)
    default:
      return undefined
  }
}
