/** Nodes, delegations, network data and limits: lists over pages, one node, unknown nodes and epochs, bad filters. */
import type { Recorder } from "./exchanges.js"

export const nodes = async (r: Recorder) => {
  await r.pages("/api/v2/nodes", "nodes")
  await r.query("/api/v2/nodes", { epochSeq: "2" })
  await r.query("/api/v2/nodes", { epochSeq: "100000" })
  const first = await r.query("/api/v2/nodes", { "pagination.first": "1" })
  const id: string = first?.nodes?.edges?.[0]?.node?.id ?? "00"
  await r.query("/api/v2/node/{id}", {}, { id })
  await r.query("/api/v2/node/{id}", {}, { id: "ab".repeat(32) })
  await r.pages("/api/v2/delegations", "delegations")
  await r.pages("/api/v2/delegations", "delegations", { epochId: "2" })
  await r.query("/api/v2/delegations", { nodeId: id, "pagination.first": "3" })
  await r.query("/api/v2/delegations", { epochId: "x" })
  await r.query("/api/v2/delegations", { partyId: "zz" })
  await r.query("/api/v2/network/data")
  await r.query("/api/v2/network/limits")
}
