/** Asset-limits bundles: an enacted asset update's bundle, the asset updates listed, and the errors. */
import type { Simulator } from "@vega-effect/simulator"
import { Effect } from "effect"
import type { Recorder } from "./exchanges.js"

/** Whether the world has enacted an asset update. */
const hasEnacted = (sim: Simulator.Service): boolean =>
  sim.world.governance.placed.some(
    (p) => p.kind === "updateAsset" && sim.world.governance.current(p.id)!.state === "STATE_ENACTED"
  )

export const assetLimits = async (r: Recorder, sim: Simulator.Service) => {
  for (let i = 0; i < 100 && !hasEnacted(sim); i++) await Effect.runPromise(sim.advance(10))
  const updates = await r.query("/api/v2/governances", { proposalType: "TYPE_UPDATE_ASSET" })
  const proposals: Array<{ id: string; state: string }> = (updates?.connection?.edges ?? []).map(
    (e: { node: { proposal: { id: string; state: string } } }) => e.node.proposal
  )
  const enacted = proposals.find((p) => p.state === "STATE_ENACTED")
  if (enacted === undefined) throw new Error("the world has no enacted asset update")
  const template = "/api/v2/erc20/asset/limits/bundle"
  await r.query(template, { proposalId: enacted.id })
  await r.query("/api/v2/node/signatures", { id: enacted.id })
  const unsigned = proposals.find((p) => p.state !== "STATE_ENACTED")
  if (unsigned !== undefined) await r.query(template, { proposalId: unsigned.id })
  const others = await r.query("/api/v2/governances", { proposalType: "TYPE_NETWORK_PARAMETERS" })
  const other = others?.connection?.edges?.[0]?.node?.proposal?.id
  if (other !== undefined) await r.query(template, { proposalId: other })
  await r.query(template, { proposalId: "ab".repeat(32) })
  await r.query(template, { proposalId: "xyz" })
  await r.query(template)
}
