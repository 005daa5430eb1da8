/**
 * Governance, as the v0.75.8 data node answers it (datanode/api/trading_data_v2.go,
 * datanode/sqlstore/proposals.go and votes.go, datanode/entities/proposal.go and vote.go, the
 * `proposals_current` and `votes_current` views of sqlstore/migrations/0080_batch_proposals.sql):
 *
 * - `GET /api/v2/governance` (GetGovernanceData): `proposalId`, else `reference` (else 400
 *   `missing proposal ID or reference`). The proposal's current state with its yes and no votes
 *   (each party's latest vote, by party id; the view's order). An unknown one is 404 `failed to get
 *   proposal` with inner `proposalID: <id>, reference: <ref>: no resource corresponding to this
 *   id`; an id that is not hex 400, inner ending `not a valid hex id (or well known exception)`.
 * - `GET /api/v2/governances` (ListGovernanceData): filters `proposalState`, `proposalType`
 *   (the kind's key in the terms; TYPE_ALL none, TYPE_UNSPECIFIED matches nothing),
 *   `proposerPartyId`; or `proposalReference`, which answers that one proposal (its cursor as
 *   start and end, no further pages) or 404 as GetGovernanceData. The store lists the open
 *   proposals first, then the others, each group by (state time, id), newest first by default.
 *   It runs one query per group, the cursor applying to the group of the cursor's state only, and
 *   pages their joined rows (see {@link proposalRows}). The cursor is
 *   `{"state":<number>,"vega_time","id"}`; one that does not decode is 500 `failed to get
 *   proposals` with inner `ProposerPartyId: <party>: <the JSON error>`. A party that is not hex
 *   makes the store's queries fail to bind, which the store takes as the end of its results: an
 *   empty page. The list's nodes carry the votes as GetGovernanceData's do, but `proposalType` is
 *   always TYPE_SINGLE_OR_UNSPECIFIED for a single proposal.
 * - `GET /api/v2/votes` (ListVotes): `partyId` and/or `proposalId` (neither: 400 `missing proposal
 *   id and party id`), each party's latest vote, ordered by the vote's time only (newest first by
 *   default); the cursor is `{"party_id","vega_time"}` but only its time is compared.
 *
 * The streams `GET /api/v2/stream/governance` (ObserveGovernance) and `/api/v2/stream/votes`
 * (ObserveVotes) are in {@link makeGovernanceStreamRoutes}.
 */
import { DataNode, DataNodeApi, Encoder, GatewayError, Vega } from "@vega-effect/schema"
import * as BigDecimal from "effect/BigDecimal"
import { atOrBeyond, isDescending, pageInOrder, type PageRequest, resolve } from "../paging.js"
import { enumParam, paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import { PROPOSAL_STATE_NUMBER, type ProposalRow, type VoteRow } from "../world/governance.js"
import { compareStrings } from "../world/versioned.js"
import type { World } from "../../World.js"
import { connectionJson } from "./connection.js"
import { type CursorValues, ProposalCursor, readCursor, VoteCursor, writeCursor } from "./cursors.js"
import { storedIdKey } from "./ids.js"
import type { NodeView } from "./node.js"
import { pagination, str } from "./params.js"
import { error, invalidPagination, notHex, ok } from "./reply.js"

const { ApiErrors, GrpcCode } = GatewayError

const nanos = (micros: number): bigint => BigInt(micros) * 1000n

/** A proposal's wire value (`entities.Proposal.ToProto`). */
export const proposalValue = (row: ProposalRow): Vega.Proposal =>
  ({
    id: row.id,
    reference: row.reference,
    partyId: row.party.id,
    state: row.state,
    timestamp: nanos(row.submittedAt),
    terms: {
      closingTimestamp: BigInt(row.closingSecs),
      enactmentTimestamp: BigInt(row.enactmentSecs),
      validationTimestamp: 0n,
      ...(row.assetUpdate !== undefined
        ? {
            updateAsset: {
              assetId: row.assetUpdate.asset.id,
              changes: {
                quantum: BigDecimal.unsafeFromString(row.assetUpdate.quantum),
                erc20: {
                  lifetimeLimit: row.assetUpdate.lifetimeLimit,
                  withdrawThreshold: row.assetUpdate.withdrawThreshold
                }
              }
            }
          }
        : row.change === undefined
          ? { newFreeform: {} }
          : { updateNetworkParameter: { changes: { key: row.change.key, value: row.change.value } } })
    },
    ...(row.reason === undefined ? {} : { reason: row.reason }),
    rationale: { description: row.description, title: row.title },
    requiredParticipation: BigDecimal.unsafeFromString(row.requiredParticipation),
    requiredMajority: BigDecimal.unsafeFromString(row.requiredMajority)
  }) as unknown as Vega.Proposal

/** A vote's wire value (`entities.Vote.ToProto`): its time is the core's, when it was cast. */
export const voteValue = (row: VoteRow): Vega.Vote =>
  ({
    partyId: row.party.id,
    value: row.value,
    proposalId: row.proposalId,
    timestamp: nanos(row.initialAt),
    totalGovernanceTokenBalance: row.balance,
    totalGovernanceTokenWeight: BigDecimal.unsafeFromString(row.weight),
    totalEquityLikeShareWeight: BigDecimal.unsafeFromString("0"),
    elsPerMarket: []
  }) as unknown as Vega.Vote

/** Each party's latest vote on a proposal as a view at `height` sees it, by party id (bytes). */
export const votesOn = (world: World, proposalId: string, height: number): Array<VoteRow> => {
  const { governance } = world
  const rows: Array<VoteRow> = []
  for (const first of governance.votesByProposal.get(proposalId) ?? []) {
    const row = governance.voteAt(first, height)
    if (row !== undefined) rows.push(row)
  }
  return rows.sort((a, b) => compareStrings(a.party.key, b.party.key))
}

/** A proposal's governance data (`proposalToGovernanceData`): the proposal and its votes. */
export const governanceData = (world: World, row: ProposalRow, height: number): Vega.GovernanceData => {
  const votes = votesOn(world, row.id, height)
  return {
    proposal: proposalValue(row),
    yes: votes.filter((v) => v.value === "VALUE_YES").map(voteValue),
    no: votes.filter((v) => v.value === "VALUE_NO").map(voteValue),
    yesParty: {},
    noParty: {},
    proposalType: "TYPE_SINGLE_OR_UNSPECIFIED",
    proposals: []
  } as unknown as Vega.GovernanceData
}

const encodeData = Encoder.stringify(Vega.GovernanceData)
const encodeVote = Encoder.stringify(Vega.Vote)

export const proposalCursor = (row: ProposalRow): string =>
  writeCursor(ProposalCursor, [PROPOSAL_STATE_NUMBER[row.state], row.vt, row.id])

const voteCursor = (row: VoteRow): string => writeCursor(VoteCursor, [row.party.id, row.vt])

/** The proposals a view at `height` sees, in their current state. */
const proposalsAt = (world: World, height: number): Array<ProposalRow> => {
  const rows: Array<ProposalRow> = []
  for (const first of world.governance.placed) {
    const row = world.governance.at(first.id, height)
    if (row !== undefined) rows.push(row)
  }
  return rows
}

interface ProposalKey {
  readonly state: number
  readonly vt: number
  readonly id: string
}

const compareProposal = (row: ProposalRow, key: ProposalKey): number =>
  row.vt - key.vt || compareStrings(row.id, key.id)

/**
 * One query of `PaginateQuery` over rows in base order (ascending): read in the page's direction,
 * kept by the cursor predicate when there is a cursor, up to the SQL limit.
 */
const queryRows = <Row, Key>(
  rows: ReadonlyArray<Row>,
  request: PageRequest,
  key: Key | undefined,
  compare: (row: Row, key: Key) => number
): Array<Row> => {
  const descending = isDescending(request)
  const limit = request.limit + (key === undefined ? 1 : 2)
  const ordered = descending ? [...rows].reverse() : rows
  const out: Array<Row> = []
  for (const row of ordered) {
    if (out.length >= limit) break
    if (key === undefined || atOrBeyond(compare(row, key), descending)) out.push(row)
  }
  return out
}

/** The types of `ListGovernanceDataRequest.Type` and the key of the terms each looks for. */
const TYPE_KEYS: Readonly<Record<string, string | undefined>> = {
  TYPE_UNSPECIFIED: "unknown",
  TYPE_ALL: undefined,
  TYPE_NEW_MARKET: "newMarket",
  TYPE_UPDATE_MARKET: "updateMarket",
  TYPE_NETWORK_PARAMETERS: "updateNetworkParameter",
  TYPE_NEW_ASSET: "newAsset",
  TYPE_NEW_FREE_FORM: "newFreeform",
  TYPE_UPDATE_ASSET: "updateAsset",
  TYPE_NEW_SPOT_MARKET: "newSpotMarket",
  TYPE_UPDATE_SPOT_MARKET: "updateSpotMarket",
  TYPE_NEW_TRANSFER: "newTransfer",
  TYPE_CANCEL_TRANSFER: "cancelTransfer",
  TYPE_UPDATE_MARKET_STATE: "updateMarketState",
  TYPE_UPDATE_REFERRAL_PROGRAM: "updateReferralProgram",
  TYPE_UPDATE_VOLUME_DISCOUNT_PROGRAM: "updateVolumeDiscountProgram"
}

const OPEN = PROPOSAL_STATE_NUMBER.STATE_OPEN

/**
 * The rows of `Proposals.Get` before `PageEntities`: the open proposals' query and the others',
 * each skipped or paged without the cursor as the store decides from the cursor's state, joined
 * open first when paging forward, the others first when paging backward, cut to the page's SQL
 * limit by {@link pageInOrder}.
 */
const proposalRows = (
  rows: ReadonlyArray<ProposalRow>,
  request: PageRequest,
  inState: number | undefined,
  cursor: ProposalKey | undefined
): Array<ProposalRow> => {
  const state = cursor?.state ?? 0
  const forward = request.forward
  const byTime = (a: ProposalRow, b: ProposalRow) => a.vt - b.vt || compareStrings(a.id, b.id)
  const open = rows.filter((r) => r.state === "STATE_OPEN").sort(byTime)
  const others = rows
    .filter((r) => (inState === undefined ? r.state !== "STATE_OPEN" : PROPOSAL_STATE_NUMBER[r.state] === inState))
    .sort(byTime)
  const skipOpen = (inState !== undefined && inState !== OPEN) || (forward && state !== 0 && state !== OPEN)
  const skipOthers = inState === OPEN || (!forward && state === OPEN)
  const openRows = skipOpen ? [] : queryRows(open, request, state === OPEN ? cursor : undefined, compareProposal)
  const otherRows = skipOthers
    ? []
    : queryRows(others, request, state === OPEN || state === 0 ? undefined : cursor, compareProposal)
  return forward ? [...openRows, ...otherRows] : [...otherRows, ...openRows]
}

const dataEdges = (node: NodeView, rows: ReadonlyArray<ProposalRow>, request: PageRequest, hasCursor: boolean) => {
  const page = pageInOrder(rows, request, hasCursor, proposalCursor)
  const json = (row: ProposalRow) => encodeData(governanceData(node.world, row, node.readableHeight))
  return connectionJson(page.rows, json, proposalCursor, page.hasNextPage, page.hasPreviousPage)
}

const byReference = (world: World, reference: string, height: number): ProposalRow | undefined => {
  for (const row of proposalsAt(world, height)) if (row.reference === reference) return row
  return undefined
}

const notFound = (inner: string): Reply =>
  error(GatewayError.fromApiError(ApiErrors.GovernanceServiceGet, inner, GrpcCode.NotFound))

const listGovernanceData = (params: Params, node: NodeView): Reply => {
  const resolved = resolve(pagination(params))
  if ("error" in resolved) return invalidPagination(resolved.error)
  const height = node.readableHeight
  const reference = str(params, "proposalReference")
  if (reference !== undefined) {
    const row = byReference(node.world, reference, height)
    if (row === undefined) return notFound(`proposalReference: ${reference}: ${GatewayError.NO_RESOURCE_INNER}`)
    const json = encodeData(governanceData(node.world, row, height))
    const cursor = Buffer.from(proposalCursor(row)).toString("base64")
    const info = `{"hasNextPage":false,"hasPreviousPage":false,"startCursor":"${cursor}","endCursor":"${cursor}"}`
    return ok(`{"connection":{"edges":[{"node":${json},"cursor":"${cursor}"}],"pageInfo":${info}}}`)
  }
  const party = str(params, "proposerPartyId")
  let cursor: ProposalKey | undefined
  if (resolved.cursor !== undefined) {
    const values = readCursor(ProposalCursor, resolved.cursor)
    if ("error" in values) {
      return error(
        GatewayError.fromApiError(
          ApiErrors.GovernanceServiceGetProposals,
          `ProposerPartyId: ${party ?? ""}: ${values.error as string}`,
          GrpcCode.Internal
        )
      )
    }
    const v = values as CursorValues
    cursor = { state: v.get("state") as number, vt: v.get("vega_time") as number, id: v.get("id") as string }
  }
  const partyKey = party === undefined ? undefined : storedIdKey(party)
  // a party id that does not decode fails the store's queries, which it reads as no more rows
  if (party !== undefined && partyKey === undefined)
    return ok(`{"connection":${connectionJson([], String, String, false, false)}}`)
  const stateName = str(params, "proposalState")
  const typeName = str(params, "proposalType")
  const typeKey = typeName === undefined ? undefined : TYPE_KEYS[typeName]
  const rows = proposalsAt(node.world, height).filter(
    (row) => (partyKey === undefined || row.party.key === partyKey) && (typeKey === undefined || row.kind === typeKey)
  )
  const inState =
    stateName === undefined ? undefined : ((Vega.ProposalState.values as Record<string, number>)[stateName] ?? 0)
  const joined = proposalRows(rows, resolved, inState, cursor)
  return ok(`{"connection":${dataEdges(node, joined, resolved, resolved.cursor !== undefined)}}`)
}

const getGovernanceData = (params: Params, node: NodeView): Reply => {
  const id = str(params, "proposalId")
  const reference = str(params, "reference")
  if (id === undefined && reference === undefined) {
    return error(GatewayError.fromApiError(ApiErrors.MissingProposalIdOrReference))
  }
  const which = `proposalID: ${id ?? ""}, reference: ${reference ?? ""}`
  const height = node.readableHeight
  let row: ProposalRow | undefined
  if (id !== undefined) {
    const key = storedIdKey(id)
    if (key === undefined) {
      return error(
        GatewayError.fromApiError(
          ApiErrors.GovernanceServiceGet,
          `${which}: not a valid hex id (or well known exception)`,
          GrpcCode.InvalidArgument
        )
      )
    }
    row = node.world.governance.at(key, height)
  } else row = byReference(node.world, reference!, height)
  if (row === undefined) return notFound(`${which}: ${GatewayError.NO_RESOURCE_INNER}`)
  return ok(`{"data":${encodeData(governanceData(node.world, row, height))}}`)
}

interface VoteKey {
  readonly vt: number
}

const listVotes = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const party = str(params, "partyId")
  const proposal = str(params, "proposalId")
  if (party === undefined && proposal === undefined) {
    return error(GatewayError.fromApiError(ApiErrors.MissingProposalIdAndPartyId))
  }
  let key: VoteKey | undefined
  if (request.cursor !== undefined) {
    const values = readCursor(VoteCursor, request.cursor)
    if ("error" in values) {
      return error(
        GatewayError.fromApiError(
          ApiErrors.GovernanceServiceGetVotes,
          `proposalID: ${proposal ?? ""}, partyID: ${party ?? ""}: ${values.error as string}`,
          GrpcCode.Internal
        )
      )
    }
    key = { vt: (values as CursorValues).get("vega_time") as number }
  }
  const partyKey = party === undefined ? undefined : storedIdKey(party)
  const proposalKey = proposal === undefined ? undefined : storedIdKey(proposal)
  // an id that does not decode fails the query as it binds it (the proposal's first); the error
  // is the store's, wrapped by scany, as the stop-order and order streams infer it
  const bad =
    proposal !== undefined && proposalKey === undefined ? proposal : partyKey === undefined ? party : undefined
  if (bad !== undefined) {
    return error(
      GatewayError.fromApiError(
        ApiErrors.GovernanceServiceGetVotes,
        `proposalID: ${proposal ?? ""}, partyID: ${party ?? ""}: scany: query multiple result rows: ${notHex(bad)}`,
        GrpcCode.InvalidArgument
      )
    )
  }
  const { governance } = node.world
  const height = node.readableHeight
  const firsts =
    proposalKey !== undefined
      ? (governance.votesByProposal.get(proposalKey) ?? [])
      : [...governance.votesByParty.entries()]
          .filter(([id]) => node.world.catalog.partyById.get(id)?.key === partyKey)
          .flatMap(([, rows]) => rows)
  const rows: Array<VoteRow> = []
  for (const first of firsts) {
    if (partyKey !== undefined && first.party.key !== partyKey) continue
    const row = governance.voteAt(first, height)
    if (row !== undefined) rows.push(row)
  }
  // ordered by the vote's time only; votes of one block keep the order they were written in
  rows.sort((a, b) => a.vt - b.vt || a.seq - b.seq)
  const sql = queryRows(rows, request, key, (row: VoteRow, k: VoteKey) => row.vt - k.vt)
  const page = pageInOrder(sql, request, key !== undefined, voteCursor)
  const json = connectionJson(
    page.rows,
    (row) => encodeVote(voteValue(row)),
    voteCursor,
    page.hasNextPage,
    page.hasPreviousPage
  )
  return ok(`{"votes":${json}}`)
}

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.GetGovernanceData.method,
    path: DataNodeApi.GetGovernanceData.path,
    params: [param("proposalId", "string"), param("reference", "string")],
    handle: getGovernanceData
  },
  {
    method: DataNodeApi.ListGovernanceData.method,
    path: DataNodeApi.ListGovernanceData.path,
    params: [
      enumParam("proposalState", Vega.ProposalState.values),
      enumParam("proposalType", DataNode.ListGovernanceDataRequestType.values),
      param("proposerPartyId", "string"),
      param("proposalReference", "string"),
      ...paginationParams
    ],
    handle: listGovernanceData
  },
  {
    method: DataNodeApi.ListVotes.method,
    path: DataNodeApi.ListVotes.path,
    params: [param("partyId", "string"), param("proposalId", "string"), ...paginationParams],
    handle: listVotes
  }
]
