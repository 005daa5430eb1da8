/**
 * The node releases the simulator imitates: their version text, commit, and which wire shapes
 * differ between them.
 */

import type { TransactionResult } from "@vega-effect/schema"

/** A node release line the simulator can imitate. */
export type NodeVersion = "v0.75" | "v0.79"

export const NODE_VERSIONS: ReadonlyArray<NodeVersion> = ["v0.75", "v0.79"]

/** What `/api/v2/info` and `/statistics` report (tags v0.75.8 and v0.79.0 of vegaprotocol/vega). */
export const RELEASES: Readonly<Record<NodeVersion, { readonly version: string; readonly commit: string }>> = {
  "v0.75": { version: "v0.75.8", commit: "7ecac479f2e0750c3bd71fe3aa2731f490d60821" },
  "v0.79": { version: "v0.79.0", commit: "a50750cc10809d64b24c05f99b77345693eb9bc3" }
}

/** The EVM chain id bridged assets and the multisig live on (v0.76+ write it): Ethereum mainnet. */
export const ETHEREUM_CHAIN_ID = "1"

/** Whether a node of `version` has what `release` introduced. */
export const since = (version: NodeVersion, release: NodeVersion): boolean =>
  NODE_VERSIONS.indexOf(version) >= NODE_VERSIONS.indexOf(release)

/**
 * A transaction result as a node of `version` writes it. The core keeps results in the v0.79 form;
 * a v0.75 node has no `statusDetail` and no keyed `failure.errors`, and names the stop order
 * echoes `stopOrderSubmission` / `stopOrderCancellation` (vegaprotocol/vega v0.75.8,
 * protos/sources/vega/events/v1/events.proto, TransactionResult).
 */
export const resultAs = (
  result: TransactionResult.TransactionResult,
  version: NodeVersion
): TransactionResult.TransactionResult => {
  if (since(version, "v0.79")) return result
  const { failure, statusDetail: _, stopOrdersCancellation, stopOrdersSubmission, ...rest } = result
  return {
    ...rest,
    ...(stopOrdersSubmission === undefined ? {} : { stopOrderSubmission: stopOrdersSubmission }),
    ...(stopOrdersCancellation === undefined ? {} : { stopOrderCancellation: stopOrdersCancellation }),
    ...(failure === undefined ? {} : { failure: { error: failure.error } })
  }
}
