/** Governance: proposals over pages with each filter, one by id and reference, votes, their errors, and the streams' frames. */
import type { Simulator } from "@vega-effect/simulator"
import { Effect } from "effect"
import { openHttpStream, sleep } from "../support/streams.js"
import { type Recorder, recordFrames } from "./exchanges.js"

export const governance = async (r: Recorder, sim: Simulator.Service) => {
  const proposals = openHttpStream(r.url, "/api/v2/stream/governance")
  const votes = openHttpStream(r.url, `/api/v2/stream/votes?partyId=${sim.world.catalog.parties[1].id}`)
  const noFilter = openHttpStream(r.url, "/api/v2/stream/votes")
  await sleep(100)
  await Effect.runPromise(sim.advance(25))
  await recordFrames(r, "/api/v2/stream/governance", proposals, 20)
  await recordFrames(r, "/api/v2/stream/votes", votes, 20)
  await recordFrames(r, "/api/v2/stream/votes", noFilter, 1)

  await r.pages("/api/v2/governances", "connection")
  const all = await r.query("/api/v2/governances")
  const first = all?.connection?.edges?.[0]?.node?.proposal
  if (first === undefined) throw new Error("the world has no proposal")
  await r.query("/api/v2/governances", { proposalState: "STATE_OPEN" })
  await r.query("/api/v2/governances", { proposalType: "TYPE_NETWORK_PARAMETERS", proposerPartyId: first.partyId })
  await r.query("/api/v2/governances", { proposalReference: first.reference })
  await r.query("/api/v2/governances", { proposalReference: "nope" })
  await r.query("/api/v2/governances", { "pagination.after": Buffer.from("[1]").toString("base64") })
  await r.query("/api/v2/governance", { proposalId: first.id })
  await r.query("/api/v2/governance", { reference: first.reference })
  await r.query("/api/v2/governance", { proposalId: "ab".repeat(32) })
  await r.query("/api/v2/governance", { proposalId: "xyz" })
  await r.query("/api/v2/governance")
  await r.pages("/api/v2/votes", "votes", { partyId: sim.world.catalog.parties[1].id })
  const voted = (all.connection.edges as Array<any>).find((e) => e.node.yes.length + e.node.no.length > 0)
  if (voted !== undefined) await r.pages("/api/v2/votes", "votes", { proposalId: voted.node.proposal.id })
  await r.query("/api/v2/votes", { proposalId: first.id })
  await r.query("/api/v2/votes")
  await r.query("/api/v2/votes", { partyId: "xyz" })
}
