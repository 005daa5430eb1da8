/**
 * `GET /api/v2/vega/keys/rotations` (ListKeyRotations) and `GET /api/v2/vega/keys/ethereum/rotations`
 * (ListEthereumKeyRotations), as the v0.75.8 data node answers them (datanode/api/
 * trading_data_v2.go, datanode/sqlstore/key_rotations.go, ethereum_key_rotations.go,
 * datanode/entities/key_rotation.go, ethereum_key_rotation.go).
 *
 * Both tables are ordered by `vega_time, node_id, old key, new key`. ListKeyRotations without a
 * node pages over all four (cursor `{"vega_time","node_id","old_pub_key","new_pub_key"}`); with a
 * node its store reads the node's rows by `vega_time` alone (a node rotates at most once a block),
 * comparing the cursor's time only, and reports its failures as `failed to get key rotations for
 * node` wrapped with `nodeID: <id>` (a cursor it cannot read: `could not parse key rotation
 * cursor`). ListEthereumKeyRotations has one path, the node filter optional, its cursor keys in
 * camel case, and every failure `failed to get ethereum key rotations for node` wrapped with the
 * node id, empty or not. The pagination is checked first in both.
 */
import { DataNodeApi, Encoder, GatewayError, VegaEvents } from "@vega-effect/schema"
import { resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { KeyRotationRow } from "../world/keyRotations.js"
import { compareStrings } from "../world/versioned.js"
import { arraySource, cachedJson, list } from "./connection.js"
import {
  type CursorSpec,
  type CursorValues,
  EthereumKeyRotationCursor,
  KeyRotationCursor,
  writeCursor
} from "./cursors.js"
import { storedIdKey } from "./ids.js"
import type { NodeView } from "./node.js"
import { pagination, str } from "./params.js"
import { badCursor, internal, invalidId, invalidPagination, notHex, ok } from "./reply.js"

const { ApiErrors } = GatewayError

const encodeVega = Encoder.stringify(VegaEvents.KeyRotation)
const encodeEthereum = Encoder.stringify(VegaEvents.EthereumKeyRotation)

const vegaJson = cachedJson((row: KeyRotationRow) =>
  encodeVega({
    nodeId: row.validator.nodeId,
    oldPubKey: row.oldKey,
    newPubKey: row.newKey,
    blockHeight: BigInt(row.from)
  } as unknown as VegaEvents.KeyRotation)
)

const ethereumJson = cachedJson((row: KeyRotationRow) =>
  encodeEthereum({
    nodeId: row.validator.nodeId,
    oldAddress: row.oldKey,
    newAddress: row.newKey,
    blockHeight: BigInt(row.from)
  } as unknown as VegaEvents.EthereumKeyRotation)
)

interface RotationKey {
  readonly vt: number
  readonly nodeId: string
  readonly oldKey: string
  readonly newKey: string
}

const keyOf =
  (spec: CursorSpec) =>
  (v: CursorValues): RotationKey => {
    const [vt, node, oldKey, newKey] = spec.fields.map((f) => v.get(f.key))
    // the store compares the ids' and keys' bytes: hex in any case reads the same
    return {
      vt: vt as number,
      nodeId: (node as string).toLowerCase(),
      oldKey: (oldKey as string).toLowerCase(),
      newKey: (newKey as string).toLowerCase()
    }
  }

const compareToKey = (row: KeyRotationRow, k: RotationKey): number =>
  row.vt - k.vt ||
  compareStrings(row.validator.nodeId, k.nodeId) ||
  compareStrings(row.oldKey, k.oldKey) ||
  compareStrings(row.newKey, k.newKey)

const cursorOf = (spec: CursorSpec) => (row: KeyRotationRow) =>
  writeCursor(spec, [row.vt, row.validator.nodeId, row.oldKey, row.newKey])
const vegaCursor = cursorOf(KeyRotationCursor)
const ethereumCursor = cursorOf(EthereumKeyRotationCursor)

/** The rows a node has read by its height, kept by a node filter (stored bytes, any case). */
const visible = (rows: ReadonlyArray<KeyRotationRow>, node: NodeView, nodeId: string | undefined) => {
  const height = node.readableHeight
  return rows.filter((r) => r.from <= height && (nodeId === undefined || r.validator.nodeId === nodeId))
}

const listVega = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const nodeId = str(params, "nodeId") ?? ""
  if (nodeId === "") {
    const result = list<KeyRotationRow, RotationKey>({
      request,
      cursor: KeyRotationCursor,
      keyOf: keyOf(KeyRotationCursor),
      source: arraySource(visible(node.world.keyRotations.vega, node, undefined), compareToKey, vegaCursor),
      nodeJson: vegaJson
    })
    if ("cursorError" in result) return internal(ApiErrors.KeyRotationServiceGetAll, badCursor(result.cursorError))
    return ok(`{"rotations":${result.json}}`)
  }
  // one node's rotations: ordered and compared by their time alone
  const wrap = `nodeID: ${nodeId}`
  const key = storedIdKey(nodeId)
  const rows = key === undefined ? [] : visible(node.world.keyRotations.vega, node, key)
  const result = list<KeyRotationRow, number>({
    request,
    cursor: KeyRotationCursor,
    keyOf: (v) => v.get("vega_time") as number,
    source: arraySource(rows, (row, vt) => row.vt - vt, vegaCursor),
    nodeJson: vegaJson
  })
  if ("cursorError" in result) {
    return internal(
      ApiErrors.KeyRotationServiceGetPerNode,
      `${wrap}: could not parse key rotation cursor: ${result.cursorError}`
    )
  }
  if (key === undefined) {
    return invalidId(
      ApiErrors.KeyRotationServiceGetPerNode,
      `${wrap}: failed to retrieve key rotations: scany: query multiple result rows: ${notHex(nodeId)}`
    )
  }
  return ok(`{"rotations":${result.json}}`)
}

const listEthereum = (params: Params, node: NodeView): Reply => {
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const nodeId = str(params, "nodeId") ?? ""
  const wrap = `nodeID: ${nodeId}`
  const key = nodeId === "" ? undefined : storedIdKey(nodeId)
  const rows = nodeId !== "" && key === undefined ? [] : visible(node.world.keyRotations.ethereum, node, key)
  const result = list<KeyRotationRow, RotationKey>({
    request,
    cursor: EthereumKeyRotationCursor,
    keyOf: keyOf(EthereumKeyRotationCursor),
    source: arraySource(rows, compareToKey, ethereumCursor),
    nodeJson: ethereumJson
  })
  if ("cursorError" in result) {
    return internal(ApiErrors.EthereumKeyRotationServiceGetPerNode, `${wrap}: ${badCursor(result.cursorError)}`)
  }
  if (nodeId !== "" && key === undefined) {
    return invalidId(
      ApiErrors.EthereumKeyRotationServiceGetPerNode,
      `${wrap}: scany: query multiple result rows: ${notHex(nodeId)}`
    )
  }
  return ok(`{"keyRotations":${result.json}}`)
}

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.ListKeyRotations.method,
    path: DataNodeApi.ListKeyRotations.path,
    params: [param("nodeId", "string"), ...paginationParams],
    handle: listVega
  },
  {
    method: DataNodeApi.ListEthereumKeyRotations.method,
    path: DataNodeApi.ListEthereumKeyRotations.path,
    params: [param("nodeId", "string"), ...paginationParams],
    handle: listEthereum
  }
]
