/**
 * The network's history, as the v0.75.8 data node serves it (datanode/api/trading_data_v2.go,
 * datanode/sqlstore/checkpoints.go, snapshot_data.go, protocol_upgrade_proposals.go,
 * datanode/entities/checkpoint.go, snapshot_data.go, protocol_upgrade_proposal.go,
 * datanode/networkhistory):
 *
 * - `GET /api/v2/checkpoints` (ListCheckpoints): the core's checkpoints, paged by block height
 *   (newest first by default); the cursor is `{"blockHeight":…}`. A cursor that is not the
 *   cursor's JSON is 500 `failed to get checkpoint`.
 * - `GET /api/v2/snapshots` (ListCoreSnapshots): the core's state snapshots, paged by block height;
 *   each is its height, block hash and core version (`protocolUpgradeBlock` is never filled by
 *   the store, so always `false`); the cursor is `{"VegaTime":…,"BlockHeight":…,"BlockHash":…,
 *   "VegaCoreVersion":…}` (Go's field names), of which the height is read back. A bad cursor is
 *   500 `failed to list core snapshots`.
 * - `GET /api/v2/upgrade/proposals` (ListProtocolUpgradeProposals): each proposal's latest state,
 *   paged by upgrade height then release tag; `status` keeps those of that status (an
 *   `UNSPECIFIED` one, none), `approvedBy` those the key approved (compared as text, so the key
 *   must be written as the core writes it, lowercase). The cursor is `{"VegaTime":…,
 *   "UpgradeBlockHeight":…,"VegaReleaseTag":…}`. A bad cursor is 500 `failed to list protocol
 *   upgrade proposals`.
 * - `GET /api/v2/upgrade/status` (GetProtocolUpgradeStatus): whether the node has seen the core
 *   start an upgrade; the world's proposals never pass, so `{"ready":false}`.
 * - `GET /api/v2/networkhistory` (GetNetworkHistoryStatus): the node's IPFS address (the local
 *   address of its swarm connections, with its peer id), the swarm key (derived from the chain id,
 *   the swarm key seed: `/key/swarm/psk/1.0.0/`, `/base16/` and the hex of the seed's first 32
 *   bytes, zero padded, on three lines) and its connected peers. The node shuffles the peers on
 *   every call; the simulator shuffles them by the height it reads, so an answer is reproducible.
 * - `GET /api/v2/networkhistory/bootstrap` (GetNetworkHistoryBootstrapPeers): the bootstrap peers
 *   of its configuration.
 * - `GET /api/v2/networkhistory/segments` (ListAllNetworkHistorySegments): every segment the node
 *   has published, newest (highest `toHeight`) first, unpaged.
 *
 * The world has one IPFS identity for its data nodes; every node of a world answers the same
 * peer.
 */
import { DataNode, DataNodeApi, Encoder, GatewayError, VegaEvents } from "@vega-effect/schema"
import { resolve } from "../paging.js"
import { enumParam, paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import { makeRandom, mix } from "../random.js"
import {
  type CheckpointRow,
  compareUpgradeKey,
  type CoreSnapshotRow,
  DATABASE_VERSIONS,
  type SegmentRow,
  type UpgradeProposalRow
} from "../world/history.js"
import { arraySource, cachedJson, cachedJsonByVersion, list } from "./connection.js"
import {
  CheckpointCursor,
  CoreSnapshotCursor,
  type CursorSpec,
  type CursorValues,
  isZeroCursor,
  ProtocolUpgradeProposalCursor,
  writeCursor
} from "./cursors.js"
import type { NodeView } from "./node.js"
import { RELEASES } from "./nodeVersion.js"
import { pagination, str } from "./params.js"
import { badCursor, internal, invalidPagination, ok } from "./reply.js"

const { ApiErrors } = GatewayError

/** The per-call random stream of the connected peers' order. */
const PEER_ORDER_STREAM = 252

const encodeCheckpoint = Encoder.stringify(DataNode.Checkpoint)
const encodeSnapshot = Encoder.stringify(VegaEvents.CoreSnapshotData)
const encodeProposal = Encoder.stringify(VegaEvents.ProtocolUpgradeEvent)
const encodeSegment = Encoder.stringify(DataNode.HistorySegment)
const encodeStatus = Encoder.stringify(DataNode.GetNetworkHistoryStatusResponse)
const encodePeers = Encoder.stringify(DataNode.GetNetworkHistoryBootstrapPeersResponse)

const STATUS_NAMES: Readonly<Record<number, VegaEvents.ProtocolUpgradeProposalStatus>> = Object.fromEntries(
  Object.entries(VegaEvents.ProtocolUpgradeProposalStatus.values).map(([name, n]) => [n, name])
) as never

/**
 * A cursor's key, or `null` for a zero cursor, which keeps every row: it compares equal to all
 * of them, so the page starts at the first row either way.
 */
const keyOr = <K>(spec: CursorSpec, values: CursorValues, key: K): K | null => (isZeroCursor(spec, values) ? null : key)
const byKey =
  <Row, K>(compare: (row: Row, key: K) => number) =>
  (row: Row, key: K | null): number =>
    key === null ? 0 : compare(row, key)

// ---- checkpoints

const checkpointJson = cachedJson((row: CheckpointRow) =>
  encodeCheckpoint({ hash: row.hash, blockHash: row.blockHash, atBlock: BigInt(row.height) } as DataNode.Checkpoint)
)
const checkpointCursor = (row: CheckpointRow): string => writeCursor(CheckpointCursor, [row.height])

const listCheckpoints = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const rows = node.world.history.checkpointsAt(node.readableHeight)
  const result = list<CheckpointRow, number | null>({
    request,
    cursor: CheckpointCursor,
    keyOf: (v) => keyOr(CheckpointCursor, v, v.get("blockHeight") as number),
    source: arraySource(
      rows,
      byKey((row: CheckpointRow, key: number) => row.height - key),
      checkpointCursor
    ),
    nodeJson: checkpointJson
  })
  if ("cursorError" in result) return internal(ApiErrors.CheckpointServiceGet, badCursor(result.cursorError))
  return ok(`{"checkpoints":${result.json}}`)
}

// ---- core snapshots

/** The core writes its own release into each snapshot event: the one the node imitates. */
const snapshotJson = cachedJsonByVersion((row: CoreSnapshotRow, version) =>
  encodeSnapshot({
    blockHeight: BigInt(row.height),
    blockHash: row.blockHash,
    coreVersion: RELEASES[version].version,
    protocolUpgradeBlock: false
  } as VegaEvents.CoreSnapshotData)
)

const listSnapshots = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const rows = node.world.history.snapshotsAt(node.readableHeight)
  const version = RELEASES[node.nodeVersion].version
  const result = list<CoreSnapshotRow, number | null>({
    request,
    cursor: CoreSnapshotCursor,
    keyOf: (v) => keyOr(CoreSnapshotCursor, v, v.get("BlockHeight") as number),
    source: arraySource(
      rows,
      byKey((row: CoreSnapshotRow, key: number) => row.height - key),
      (row) => writeCursor(CoreSnapshotCursor, [row.vt, row.height, row.blockHash, version])
    ),
    nodeJson: snapshotJson(node.nodeVersion)
  })
  if ("cursorError" in result) {
    return internal(ApiErrors.CoreSnapshotServiceListSnapshots, badCursor(result.cursorError))
  }
  return ok(`{"coreSnapshots":${result.json}}`)
}

// ---- protocol upgrade proposals

const proposalJson = cachedJson((row: UpgradeProposalRow) =>
  encodeProposal({
    upgradeBlockHeight: BigInt(row.upgradeHeight),
    vegaReleaseTag: row.tag,
    approvers: row.approvers,
    status: STATUS_NAMES[row.status]
  } as unknown as VegaEvents.ProtocolUpgradeEvent)
)
const proposalCursor = (row: UpgradeProposalRow): string =>
  writeCursor(ProtocolUpgradeProposalCursor, [row.vt, row.upgradeHeight, row.tag])

const listProposals = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const status = str(params, "status")
  const approvedBy = str(params, "approvedBy")
  const wanted = status === undefined ? undefined : VegaEvents.ProtocolUpgradeProposalStatus.values[status as never]
  const rows = node.world.history
    .proposalsAt(node.readableHeight)
    .filter(
      (row) =>
        (wanted === undefined || row.status === wanted) &&
        (approvedBy === undefined || row.approvers.includes(approvedBy))
    )
  const result = list<UpgradeProposalRow, { upgradeHeight: number; tag: string } | null>({
    request,
    cursor: ProtocolUpgradeProposalCursor,
    keyOf: (v) =>
      keyOr(ProtocolUpgradeProposalCursor, v, {
        upgradeHeight: v.get("UpgradeBlockHeight") as number,
        tag: v.get("VegaReleaseTag") as string
      }),
    source: arraySource(rows, byKey(compareUpgradeKey), proposalCursor),
    nodeJson: proposalJson
  })
  if ("cursorError" in result) {
    return internal(ApiErrors.ProtocolUpgradeServiceListProposals, badCursor(result.cursorError))
  }
  return ok(`{"protocolUpgradeProposals":${result.json}}`)
}

// ---- network history

/** The swarm key the node derives from its seed (datanode/networkhistory/store/store.go). */
export const swarmKeyOf = (seed: string): string => {
  const key = Buffer.alloc(32)
  Buffer.from(seed, "utf8").copy(key, 0, 0, 32)
  return `/key/swarm/psk/1.0.0/\n/base16/\n${key.toString("hex")}`
}

const networkHistoryStatus = (_: Params, node: NodeView): Reply => {
  const { chain, history, seed } = node.world
  const { peer } = history
  const peers = [...peer.connected]
  // rand.Shuffle's Fisher-Yates, from a stream of the height read
  const random = makeRandom(mix(seed, node.readableHeight, PEER_ORDER_STREAM))
  for (let i = peers.length - 1; i > 0; i--) {
    const j = random.int(i + 1)
    ;[peers[i], peers[j]] = [peers[j], peers[i]]
  }
  return ok(
    encodeStatus({
      ipfsAddress: `${peer.address}/p2p/${peer.peerId}`,
      swarmKey: swarmKeyOf(chain.chainId),
      swarmKeySeed: chain.chainId,
      connectedPeers: peers
    })
  )
}

const bootstrapPeers = (_: Params, node: NodeView): Reply =>
  ok(encodePeers({ bootstrapPeers: node.world.history.peer.bootstrap }))

const segmentJson = (chainId: string, databaseVersion: number) => (row: SegmentRow) =>
  encodeSegment({
    fromHeight: BigInt(row.from),
    toHeight: BigInt(row.to),
    historySegmentId: row.id,
    previousHistorySegmentId: row.previousId,
    databaseVersion: BigInt(databaseVersion),
    chainId
  })

const listSegments = (_: Params, node: NodeView): Reply => {
  const rows = node.world.history.segmentsAt(node.readableHeight)
  const json = segmentJson(node.world.chain.chainId, DATABASE_VERSIONS[node.nodeVersion])
  let out = ""
  for (let i = rows.length - 1; i >= 0; i--) out += `${out === "" ? "" : ","}${json(rows[i])}`
  return ok(`{"segments":[${out}]}`)
}

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.ListCheckpoints.method,
    path: DataNodeApi.ListCheckpoints.path,
    params: paginationParams,
    handle: listCheckpoints
  },
  {
    method: DataNodeApi.ListCoreSnapshots.method,
    path: DataNodeApi.ListCoreSnapshots.path,
    params: paginationParams,
    handle: listSnapshots
  },
  {
    method: DataNodeApi.ListProtocolUpgradeProposals.method,
    path: DataNodeApi.ListProtocolUpgradeProposals.path,
    params: [
      enumParam("status", VegaEvents.ProtocolUpgradeProposalStatus.values),
      param("approvedBy", "string"),
      ...paginationParams
    ],
    handle: listProposals
  },
  {
    method: DataNodeApi.GetProtocolUpgradeStatus.method,
    path: DataNodeApi.GetProtocolUpgradeStatus.path,
    params: [],
    handle: () => ok(`{"ready":false}`)
  },
  {
    method: DataNodeApi.GetNetworkHistoryStatus.method,
    path: DataNodeApi.GetNetworkHistoryStatus.path,
    params: [],
    handle: networkHistoryStatus
  },
  {
    method: DataNodeApi.GetNetworkHistoryBootstrapPeers.method,
    path: DataNodeApi.GetNetworkHistoryBootstrapPeers.path,
    params: [],
    handle: bootstrapPeers
  },
  {
    method: DataNodeApi.ListAllNetworkHistorySegments.method,
    path: DataNodeApi.ListAllNetworkHistorySegments.path,
    params: [],
    handle: listSegments
  }
]
