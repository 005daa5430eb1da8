/**
 * The governance streams, fed by the blocks' changes (datanode/api/trading_data_v2.go
 * `ObserveGovernance`, `ObserveVotes`, datanode/service/governance.go, v0.75.8). No snapshot:
 * each change after the stream opens, one message per change, in the order the block made them.
 *
 * - `GET /api/v2/stream/governance` (ObserveGovernance): query `partyId`. Each proposal's new
 *   state (`{"result":{"data":…}}`), with the proposal's votes as the store holds them at the end
 *   of that block. With `partyId` given (even empty), only the proposals of that party, the id
 *   compared as text, exactly.
 * - `GET /api/v2/stream/votes` (ObserveVotes): query `partyId`, `proposalId`. Each vote cast, and
 *   each vote again as the close weighs it (`{"result":{"vote":…}}`). A non-empty `partyId`
 *   follows that party's votes; else a non-empty `proposalId` the votes on that proposal; neither
 *   fails the stream with 400 `missing proposal id or party id`. The v0.75.8 service compares the
 *   proposal id with each vote's party id, so a proposal's stream never sends anything; with
 *   `quirks: "v0.75"` the simulator does the same.
 *
 * Messages are in the stream form (enums as numbers, defaults left out).
 */
import { DataNodeApi, GatewayError, StreamForm } from "@vega-effect/schema"
import * as Schema from "effect/Schema"
import { param, type Params, type StreamRoute } from "../route.js"
import type { ProposalRow, VoteRow } from "../world/governance.js"
import { governanceData, voteValue } from "./governance.js"
import type { NodeView } from "./node.js"
import { followWatched } from "./observers.js"

const encodeGovernance = Schema.encodeSync(StreamForm.frame(DataNodeApi.ObserveGovernance.message))
const encodeVotes = Schema.encodeSync(StreamForm.frame(DataNodeApi.ObserveVotes.message))

const text = (params: Params, name: string): string | undefined => {
  const value = params.query.get(name)
  return value === undefined ? undefined : String(value)
}

const governanceRoute = (pollInterval: number): StreamRoute<NodeView> => ({
  method: "GET",
  path: DataNodeApi.ObserveGovernance.path,
  params: [param("partyId", "string")],
  open: (params, node, sink) => {
    const partyId = text(params, "partyId")
    return followWatched(node, "governance", sink, pollInterval, (block) => {
      for (const { change } of block.changes?.entries ?? []) {
        if (change._tag !== "Proposal") continue
        const row: ProposalRow = change.row
        if (partyId !== undefined && row.party.id !== partyId) continue
        const data = governanceData(node.world, row, block.height)
        sink.send(JSON.stringify(encodeGovernance({ result: { data } } as never)))
      }
    })
  }
})

const votesRoute = (pollInterval: number): StreamRoute<NodeView> => ({
  method: "GET",
  path: DataNodeApi.ObserveVotes.path,
  params: [param("partyId", "string"), param("proposalId", "string")],
  open: (params, node, sink) => {
    const partyId = text(params, "partyId") ?? ""
    const proposalId = text(params, "proposalId") ?? ""
    if (partyId === "" && proposalId === "") {
      sink.fail(GatewayError.fromApiError(GatewayError.ApiErrors.MissingProposalIdOrPartyId))
      return { close: () => {} }
    }
    const matches = (row: VoteRow): boolean =>
      partyId !== ""
        ? row.party.id === partyId
        : node.quirks
          ? row.party.id === proposalId
          : row.proposalId === proposalId
    return followWatched(node, "votes", sink, pollInterval, (block) => {
      for (const { change } of block.changes?.entries ?? []) {
        if (change._tag !== "Vote" || !matches(change.row)) continue
        sink.send(JSON.stringify(encodeVotes({ result: { vote: voteValue(change.row) } } as never)))
      }
    })
  }
})

/** The governance streams, polling a lagging node's height every `pollInterval` ms. */
export const makeGovernanceStreamRoutes = (pollInterval: number): ReadonlyArray<StreamRoute<NodeView>> => [
  governanceRoute(pollInterval),
  votesRoute(pollInterval)
]
