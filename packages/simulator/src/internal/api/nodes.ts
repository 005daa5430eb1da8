/**
 * `GET /api/v2/nodes` (ListNodes), `GET /api/v2/node/{id}` (GetNode) and `GET /api/v2/delegations`
 * (ListDelegations), as the v0.75.8 data node answers them (datanode/api/trading_data_v2.go,
 * datanode/sqlstore/node.go, datanode/sqlstore/delegation.go, datanode/entities/node.go and
 * delegation.go). The nodes are the world's validators, the ones GetEpoch names, with the stake of
 * world/delegations.ts.
 *
 * ListNodes: the nodes of `epochSeq` (the current epoch when absent or above 2^63-1), by node id
 * ascending, cursor `{"id":…}`. An epoch the node does not have is 404 `failed to get epoch`
 * (code 250001, datanode/api/errors.go); a cursor that does not parse is 500 `failed to get nodes`. GetNode reads the current epoch; an unknown id is 404 with the store's
 * no-rows text as the detail message.
 *
 * Simplified: every node is a consensus (Tendermint) validator in every epoch, with a performance
 * score of 1 and a stake score of its share of the epoch's stake; `pendingStake` is 0, `rewardScore`
 * and `epochData` are unset.
 */
import { DataNodeApi, Decimal, Encoder, Epoch, GatewayError } from "@vega-effect/schema"
import * as Option from "effect/Option"
import { resolve } from "../paging.js"
import { param, paginationParams, type Params, type Reply, type Route } from "../route.js"
import { goFloat32 } from "../goJson.js"
import { parseInt64 } from "../goQuery.js"
import { epochStake, type DelegationRow, type EpochStake, type NodeStake } from "../world/delegations.js"
import { ratioText } from "../world/governance.js"
import { arraySource, list } from "./connection.js"
import { DelegationCursor, NodeCursor, writeCursor } from "./cursors.js"
import { storedIdKey } from "./ids.js"
import type { NodeView } from "./node.js"
import { pagination, str, int64 } from "./params.js"
import { badCursor, error, internal, invalidId, invalidPagination, notHex, ok } from "./reply.js"
import { compareStrings } from "../world/versioned.js"

const { ApiErrors, ErrorDetailCode, NO_RESOURCE_INNER } = GatewayError

const encodeNode = Encoder.stringify(Epoch.Validator)

/** 10,000: the voting power the consensus set shares (core's validator ranking scale). */
const VOTING_POWER = 10_000n

const ONE = Option.getOrThrow(Decimal.parse("1"))

export const delegationValue = (d: { party: string; nodeId: string; epoch: number; amount: bigint }) => ({
  party: d.party,
  nodeId: d.nodeId,
  amount: d.amount,
  epochSeq: BigInt(d.epoch)
})

/** The node as `vega.Node` (GetEpoch's validators, ListNodes' and GetNode's nodes). */
export const nodeValue = (node: NodeStake, stake: EpochStake): Epoch.Validator => {
  const v = node.validator
  const share = Option.getOrThrow(Decimal.parse(stake.total === 0n ? "0" : ratioText(node.stakedTotal, stake.total)))
  return {
    id: v.nodeId,
    pubKey: v.pubKey,
    tmPubKey: "",
    ethereumAddress: v.ethereumAddress,
    infoUrl: `https://${v.name}.example`,
    location: "",
    stakedByOperator: node.stakedByOperator,
    stakedByDelegates: node.stakedByDelegates,
    stakedTotal: node.stakedTotal,
    maxIntendedStake: 0n,
    pendingStake: 0n,
    epochData: null,
    status: "NODE_STATUS_VALIDATOR",
    delegations: node.delegations.map(delegationValue),
    rewardScore: null,
    rankingScore: {
      stakeScore: share,
      performanceScore: ONE,
      previousStatus: "VALIDATOR_NODE_STATUS_TENDERMINT",
      status: "VALIDATOR_NODE_STATUS_TENDERMINT",
      votingPower: stake.total === 0n ? 0 : Number((VOTING_POWER * node.stakedTotal) / stake.total),
      rankingScore: share
    },
    name: v.name,
    avatarUrl: ""
  } as unknown as Epoch.Validator
}

export const nodeJson = (node: NodeStake, stake: EpochStake): string => encodeNode(nodeValue(node, stake))

/** The epoch GetEpoch-like reads are for: `undefined` when the node does not have it. */
export const knownEpoch = (node: NodeView, seq: number): number | undefined => {
  const current = node.world.chain.epochOf(node.readableHeight)
  return seq < 1 || seq > current ? undefined : seq
}

/** 404 `failed to get epoch` (code 250001), the body of an epoch the node does not have. */
export const epochNotFound = (): Reply => error(GatewayError.fromApiError(ApiErrors.GetEpoch, NO_RESOURCE_INNER))

const MAX_INT64 = 2n ** 63n - 1n

const listNodes = (params: Params, node: NodeView): Reply => {
  const current = node.world.chain.epochOf(node.readableHeight)
  const asked = int64(params, "epochSeq")
  const seq = asked === undefined || asked > MAX_INT64 ? current : knownEpoch(node, Number(asked))
  if (seq === undefined) return epochNotFound()
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const stake = epochStake(node.world, seq)
  const cursorOf = (n: NodeStake) => writeCursor(NodeCursor, [n.validator.nodeId])
  const result = list<NodeStake, string>({
    request,
    cursor: NodeCursor,
    keyOf: (v) => (v.get("id") as string).toLowerCase(),
    source: arraySource(
      stake.nodes,
      (n, key) => (n.validator.nodeId < key ? -1 : n.validator.nodeId > key ? 1 : 0),
      cursorOf
    ),
    nodeJson: (n) => nodeJson(n, stake)
  })
  if ("cursorError" in result) return internal(ApiErrors.NodeServiceGetNodes, badCursor(result.cursorError))
  return ok(`{"nodes":${result.json}}`)
}

const getNode = (params: Params, node: NodeView): Reply => {
  const id = (params.path.get("id") ?? "").toLowerCase()
  const stake = epochStake(node.world, node.world.chain.epochOf(node.readableHeight))
  const found = stake.nodes.find((n) => n.validator.nodeId === id)
  if (found === undefined) return error(GatewayError.notFound(ErrorDetailCode.Unmapped, NO_RESOURCE_INNER))
  return ok(`{"node":${nodeJson(found, stake)}}`)
}

interface DelegationKey {
  readonly vt: number
  readonly party: string
  readonly nodeId: string
  readonly epoch: number
}

const compareDelegationToKey = (d: DelegationRow, k: DelegationKey): number =>
  d.vt - k.vt || compareStrings(d.party, k.party) || compareStrings(d.nodeId, k.nodeId) || d.epoch - k.epoch

const delegationCursor = (d: DelegationRow): string => writeCursor(DelegationCursor, [d.vt, d.party, d.nodeId, d.epoch])

const encodeDelegation = Encoder.stringify(Epoch.Delegation)

const delegationJson = (d: DelegationRow): string => encodeDelegation(delegationValue(d) as unknown as Epoch.Delegation)

/**
 * ListDelegations reads `delegations_current` with the filters it is given: without `epochId`,
 * every epoch's (not only the current one's, whatever the proto comment says). `epochId` is a
 * proto string parsed as an int64 (400 `failed to parse epoch id`). Ordering `vega_time, party_id,
 * node_id, epoch_id` (newest first by default), cursor `{"vegaTime","partyId","nodeId","epochId"}`.
 * A party or node filter that is not hex fails the query: 400 `failed to get delegation`, its inner
 * text naming the filters (the epoch, a Go pointer there, is written as its nil form `0`).
 */
const listDelegations = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const epochText = str(params, "epochId")
  let epochFilter: number | undefined
  if (epochText !== undefined) {
    const parsed = parseInt64(epochText, 64)
    if (typeof parsed !== "bigint") {
      return error(GatewayError.fromApiError(ApiErrors.EpochIdParse, `epochID: ${epochText}: ${parsed.error}`))
    }
    epochFilter = parsed > 2n ** 53n || parsed < -(2n ** 53n) ? -1 : Number(parsed)
  }
  const partyText = str(params, "partyId")
  const nodeText = str(params, "nodeId")
  const party = partyText === undefined ? undefined : storedIdKey(partyText)
  const nodeId = nodeText === undefined ? undefined : storedIdKey(nodeText)
  const bad =
    party === undefined && partyText !== undefined
      ? partyText
      : nodeId === undefined && nodeText !== undefined
        ? nodeText
        : undefined
  const filters = `partyID: ${partyText ?? ""}, nodeID: ${nodeText ?? ""}, epochID: 0`
  if (bad !== undefined) return invalidId(ApiErrors.DelegationServiceGet, `${filters}: ${notHex(bad)}`)
  const current = node.world.chain.epochOf(node.readableHeight)
  const rows: Array<DelegationRow> = []
  const from = epochFilter ?? 1
  const to = epochFilter ?? current
  for (let e = Math.max(1, from); e <= Math.min(current, to); e++) {
    for (const d of epochStake(node.world, e).delegations) {
      if ((party === undefined || d.party === party) && (nodeId === undefined || d.nodeId === nodeId)) rows.push(d)
    }
  }
  const result = list<DelegationRow, DelegationKey>({
    request,
    cursor: DelegationCursor,
    keyOf: (v) => ({
      vt: v.get("vegaTime") as number,
      party: (v.get("partyId") as string).toLowerCase(),
      nodeId: (v.get("nodeId") as string).toLowerCase(),
      epoch: v.get("epochId") as number
    }),
    source: arraySource(rows, compareDelegationToKey, delegationCursor),
    nodeJson: delegationJson
  })
  if ("cursorError" in result)
    return internal(ApiErrors.DelegationServiceGet, `${filters}: ${badCursor(result.cursorError)}`)
  return ok(`{"delegations":${result.json}}`)
}

const nodeSetJson = (total: number, maximum: number | undefined): string =>
  `{"total":${total},"inactive":0,"promoted":[],"demoted":[]${maximum === undefined ? "" : `,"maximum":${maximum}`}}`

/**
 * GetNetworkData (datanode/api/trading_data_v2.go and sqlstore/node.go `GetNodeData`, v0.75.8):
 * the current epoch's delegations summed, the uptime as the minutes of every ended epoch (the
 * running one has no end time yet), the nodes counted per set by their ranking status (all
 * consensus nodes here, none inactive, promoted or demoted), and the sets' maximums from
 * `network.validators.tendermint.number` and that times
 * `network.validators.ersatz.multipleOfTendermintValidators` (a float32, truncated, as Go does).
 */
const getNetworkData = (_params: Params, node: NodeView): Reply => {
  const { chain, networkParameters } = node.world
  const current = chain.epochOf(node.readableHeight)
  const stake = epochStake(node.world, current)
  let micros = 0
  for (let e = 1; e < current; e++)
    micros += chain.blockTime(chain.epochLastBlock(e)) - chain.blockTime(chain.epochFirstBlock(e))
  const tendermint = Number(
    networkParameters.at("network.validators.tendermint.number", node.readableHeight)?.value ?? "0"
  )
  const factor = Math.fround(
    Number(
      networkParameters.at("network.validators.ersatz.multipleOfTendermintValidators", node.readableHeight)?.value ??
        "0"
    )
  )
  const ersatz = Math.trunc(tendermint * factor)
  const n = stake.nodes.length
  return ok(
    `{"nodeData":{"stakedTotal":"${stake.total}","totalNodes":${n},"inactiveNodes":0,` +
      `"tendermintNodes":${nodeSetJson(n, tendermint)},"ersatzNodes":${nodeSetJson(0, ersatz)},` +
      `"pendingNodes":${nodeSetJson(0, undefined)},"uptime":${goFloat32(micros / 60_000_000)}}}`
  )
}

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.ListNodes.method,
    path: DataNodeApi.ListNodes.path,
    params: [param("epochSeq", "uint64"), ...paginationParams],
    handle: listNodes
  },
  {
    method: DataNodeApi.GetNode.method,
    path: DataNodeApi.GetNode.path,
    params: [],
    handle: getNode
  },
  {
    method: DataNodeApi.ListDelegations.method,
    path: DataNodeApi.ListDelegations.path,
    params: [param("partyId", "string"), param("nodeId", "string"), param("epochId", "string"), ...paginationParams],
    handle: listDelegations
  },
  {
    method: DataNodeApi.GetNetworkData.method,
    path: DataNodeApi.GetNetworkData.path,
    params: [],
    handle: getNetworkData
  }
]
