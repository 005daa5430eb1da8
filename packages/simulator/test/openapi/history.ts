/**
 * The network's history: checkpoints, core snapshots and upgrade proposals over pages, with
 * filters and bad cursors; the upgrade status; network history's status, bootstrap peers and
 * segments, and a segment's export with its errors. The chain is first run past a core snapshot,
 * so every list has a page.
 */
import type { Simulator } from "@vega-effect/simulator"
import { Effect } from "effect"
import type { Recorder } from "./exchanges.js"

const badCursor = { "pagination.after": Buffer.from("[1]").toString("base64") }

export const history = async (r: Recorder, sim: Simulator.Service) => {
  for (let i = 0; i < 10; i++) {
    const page = await r.query("/api/v2/snapshots")
    if ((page?.coreSnapshots?.edges?.length ?? 0) > 0) break
    await Effect.runPromise(sim.advance(50))
  }
  await r.pages("/api/v2/checkpoints", "checkpoints")
  await r.query("/api/v2/checkpoints", badCursor)
  await r.query("/api/v2/checkpoints", { "pagination.first": "0" })
  await r.pages("/api/v2/snapshots", "coreSnapshots")
  await r.query("/api/v2/snapshots", badCursor)
  await r.pages("/api/v2/upgrade/proposals", "protocolUpgradeProposals")
  const all = await r.query("/api/v2/upgrade/proposals")
  const approver = all?.protocolUpgradeProposals?.edges?.[0]?.node?.approvers?.[0]
  if (approver === undefined) throw new Error("the world has no upgrade proposal")
  await r.query("/api/v2/upgrade/proposals", { status: "PROTOCOL_UPGRADE_PROPOSAL_STATUS_REJECTED" })
  await r.query("/api/v2/upgrade/proposals", { status: "PROTOCOL_UPGRADE_PROPOSAL_STATUS_PENDING" })
  await r.query("/api/v2/upgrade/proposals", { approvedBy: approver })
  await r.query("/api/v2/upgrade/proposals", badCursor)
  await r.query("/api/v2/upgrade/status")
  await r.query("/api/v2/networkhistory")
  await r.query("/api/v2/networkhistory/bootstrap")
  const listed = await r.query("/api/v2/networkhistory/segments")
  const segment = listed?.segments?.[0]
  if (segment === undefined) throw new Error("no network history segment")
  const range = { fromBlock: segment.fromHeight, toBlock: segment.toHeight }
  const zip = await r.raw("/api/v2/networkhistory/export", { ...range, table: "TABLE_BLOCKS" })
  if (zip.contentType !== "application/zip" || !zip.text.startsWith("PK")) throw new Error("not the export's zip")
  await r.raw("/api/v2/networkhistory/export", range)
  await r.raw("/api/v2/networkhistory/export", { fromBlock: "2", toBlock: segment.toHeight, table: "TABLE_BLOCKS" })
}
