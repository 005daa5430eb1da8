/**
 * The notary's signatures and the ERC-20 bridge bundles built from them (datanode/api/
 * trading_data_v2.go, datanode/sqlstore/notary.go, datanode/entities/node_signature.go, v0.75.8):
 *
 * - `GET /api/v2/node/signatures` (ListNodeSignatures): the signatures of one resource id, in
 *   the store's order (`resource_id, sig`, bytes ascending), paged with a cursor of both
 *   (`{"resource_id":…,"sig":…}`, the signature base64 as Go writes bytes). An empty id is
 *   `missing resource ID`; an id that is not hex is `failed to get notary for resource ID`
 *   (InvalidArgument, `resourceID: <id>: decoding …`), checked before the cursor; an unknown id
 *   is an empty page.
 * - `GET /api/v2/erc20/asset/list/bundle` (GetERC20ListAssetBundle): the asset's ERC-20 contract,
 *   its id, the nonce (the asset id read as a hexadecimal number, in decimal) and its listing's
 *   signatures packed (`0x` and each signature's hex, or `""` when none).
 * - `GET /api/v2/erc20/asset/withdrawal/bundle` (GetERC20WithdrawalApproval): the withdrawal's
 *   asset contract, amount, nonce (its `ref`), packed signatures, receiver address and creation
 *   time in unix seconds (v0.76+ add `sourceChainId`, the asset's EVM chain). An unknown
 *   withdrawal is `failed to get withdrawal` (NotFound); a withdrawal not yet signed would have
 *   `signatures` `""`, but the world signs each in the block that makes it.
 * - `GET /api/v2/erc20/asset/limits/bundle` (GetERC20SetAssetLimitsBundle): for an asset-update
 *   proposal (`proposalId`, 64 hex digits: else 400 `proposal id is a required parameter` or
 *   `invalid proposal id`), the asset's ERC-20 contract and id, the nonce (the proposal id read as
 *   a hexadecimal number, in decimal), the proposed lifetime limit and withdrawal threshold, and
 *   the notary's signatures of the proposal packed (`""` until its enactment starts the
 *   signing). An unknown proposal is 404 `failed to get proposal` (`no resource corresponding to
 *   this id`); one of another kind is 500 `not an update asset proposal`, with no code in the
 *   node's table (datanode/api/trading_data_v2.go, v0.75.8).
 */
import { DataNode, DataNodeApi, Encoder, EventBus, GatewayError, Ids } from "@vega-effect/schema"
import { resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import type { CashRow } from "../world/accounts.js"
import { packSignatures, type ResourceSignatures } from "../world/notary.js"
import { compareStrings } from "../world/versioned.js"
import { arraySource, list } from "./connection.js"
import { NodeSignatureCursor, writeCursor } from "./cursors.js"
import { receiverAddress, withdrawalRef } from "./deposits.js"
import { storedIdKey } from "./ids.js"
import type { NodeView } from "./node.js"
import { ETHEREUM_CHAIN_ID, since } from "./nodeVersion.js"
import { pagination, str } from "./params.js"
import { badCursor, error, internal, invalidId, invalidPagination, notHex, ok } from "./reply.js"

const { ApiErrors } = GatewayError

interface SignatureRow {
  readonly resourceId: string
  /** Lowercase hex. */
  readonly sig: string
  readonly kind: ResourceSignatures["kind"]
}

interface SignatureKey {
  readonly resourceId: string
  readonly sig: string
}

const encodeSignature = Encoder.stringify(EventBus.NodeSignature)

const hexToBase64 = (hex: string): string => Buffer.from(hex, "hex").toString("base64")

const signatureCursor = (row: SignatureRow): string =>
  writeCursor(NodeSignatureCursor, [row.resourceId, hexToBase64(row.sig)])

/** Go's strict standard base64 decoding of a `[]byte` field: the bytes as hex, or its error text. */
const base64ToHex = (text: string): { readonly hex: string } | { readonly error: string } => {
  const bad = text.search(/[^A-Za-z0-9+/=]/)
  if (bad >= 0) return { error: `illegal base64 data at input byte ${bad}` }
  if (text.length % 4 !== 0 || /=[^=]/.test(text) || /={3,}$/.test(text)) {
    return { error: `illegal base64 data at input byte ${Math.max(0, text.length - (text.length % 4 || 4))}` }
  }
  return { hex: Buffer.from(text, "base64").toString("hex") }
}

const listSignatures = (params: Params, node: NodeView): Reply => {
  const id = str(params, "id") ?? ""
  if (id === "") return error(GatewayError.fromApiError(ApiErrors.MissingResourceId))
  const request = resolve(pagination(params))
  if ("error" in request) return invalidPagination(request.error)
  const resourceId = storedIdKey(id)
  if (resourceId === undefined) return invalidId(ApiErrors.NotaryForResourceId, `resourceID: ${id}: ${notHex(id)}`)
  const found = node.world.notary.signatures(resourceId, node.readableHeight)
  const rows: ReadonlyArray<SignatureRow> =
    found === undefined ? [] : found.sigs.map((sig) => ({ resourceId, sig, kind: found.kind }))
  let sigError: string | undefined
  const result = list<SignatureRow, SignatureKey>({
    request,
    cursor: NodeSignatureCursor,
    keyOf: (v) => {
      const decoded = base64ToHex(v.get("sig") as string)
      if ("error" in decoded) sigError = decoded.error
      const rid = v.get("resource_id") as string
      return { resourceId: storedIdKey(rid) ?? rid, sig: "hex" in decoded ? decoded.hex : "" }
    },
    source: arraySource(
      rows,
      (row, key) => compareStrings(row.resourceId, key.resourceId) || compareStrings(row.sig, key.sig),
      signatureCursor
    ),
    nodeJson: (row) =>
      encodeSignature({ id: row.resourceId, sig: hexToBase64(row.sig), kind: row.kind } as EventBus.NodeSignature)
  })
  const cursorError = "cursorError" in result ? result.cursorError : sigError
  if (cursorError !== undefined) {
    return internal(ApiErrors.NotaryForResourceId, `resourceID: ${id}: ${badCursor(cursorError)}`)
  }
  return ok(`{"signatures":${(result as { json: string }).json}}`)
}

/** The nonce of an asset bundle: the id read as a hexadecimal number (`num.UintFromHex`), in decimal. */
const hexNonce = (id: string): bigint => BigInt(`0x${id}`)

const encodeListAsset = Encoder.stringify(DataNode.GetERC20ListAssetBundleResponse)

const listAssetBundle = (params: Params, node: NodeView): Reply => {
  const id = str(params, "assetId") ?? ""
  if (id === "") return error(GatewayError.fromApiError(ApiErrors.MissingAssetId))
  if (!Ids.isVegaId(id)) return error(GatewayError.fromApiError(ApiErrors.InvalidAssetId))
  const asset = node.world.catalog.assetById.get(id.toLowerCase())
  if (asset === undefined) {
    return error(GatewayError.fromApiError(ApiErrors.AssetServiceGetById, GatewayError.NO_RESOURCE_INNER))
  }
  const signatures = node.world.notary.signatures(asset.id, node.readableHeight)
  return ok(
    encodeListAsset({
      assetSource: asset.contractAddress,
      vegaAssetId: asset.id,
      nonce: hexNonce(asset.id),
      signatures: packSignatures(signatures?.sigs ?? [])
    } as unknown as DataNode.GetERC20ListAssetBundleResponse)
  )
}

const encodeLimits = Encoder.stringify(DataNode.GetERC20SetAssetLimitsBundleResponse)

const assetLimitsBundle = (params: Params, node: NodeView): Reply => {
  const id = str(params, "proposalId") ?? ""
  if (id === "") return error(GatewayError.fromApiError(ApiErrors.MissingProposalId))
  if (!Ids.isVegaId(id)) return error(GatewayError.fromApiError(ApiErrors.InvalidProposalId))
  const key = id.toLowerCase()
  const height = node.readableHeight
  const proposal = node.world.governance.at(key, height)
  if (proposal === undefined) {
    return error(
      GatewayError.fromApiError(
        ApiErrors.GovernanceServiceGet,
        GatewayError.NO_RESOURCE_INNER,
        GatewayError.GrpcCode.NotFound
      )
    )
  }
  const update = proposal.assetUpdate
  if (update === undefined) return error(GatewayError.fromApiError(ApiErrors.NotAnUpdateAssetProposal))
  const signatures = node.world.notary.signatures(key, height)
  return ok(
    encodeLimits({
      assetSource: update.asset.contractAddress,
      vegaAssetId: update.asset.id,
      nonce: hexNonce(key),
      lifetimeLimit: update.lifetimeLimit,
      threshold: update.withdrawThreshold,
      signatures: packSignatures(signatures?.sigs ?? [])
    } as unknown as DataNode.GetERC20SetAssetLimitsBundleResponse)
  )
}

const encodeApproval = Encoder.stringify(DataNode.GetERC20WithdrawalApprovalResponse)

const withdrawalApproval = (params: Params, node: NodeView): Reply => {
  const id = str(params, "withdrawalId") ?? ""
  if (id === "") return error(GatewayError.fromApiError(ApiErrors.MissingWithdrawalId))
  if (!Ids.isVegaId(id)) return error(GatewayError.fromApiError(ApiErrors.InvalidWithdrawalId))
  const wanted = id.toLowerCase()
  const height = node.readableHeight
  const row: CashRow | undefined = node.world.accounts.withdrawals.find((r) => r.id === wanted && r.height <= height)
  if (row === undefined) {
    return error(
      GatewayError.fromApiError(
        ApiErrors.WithdrawalServiceGet,
        GatewayError.NO_RESOURCE_INNER,
        GatewayError.GrpcCode.NotFound
      )
    )
  }
  const signatures = node.world.notary.signatures(row.id, height)
  const json = encodeApproval({
    assetSource: row.asset.contractAddress,
    amount: row.amount,
    nonce: withdrawalRef(node.world, row),
    signatures: packSignatures(signatures?.sigs ?? []),
    targetAddress: receiverAddress(row.party.id),
    // the contract reads unix seconds: the creation time's nanoseconds are cut
    creation: BigInt(Math.floor(row.vt / 1_000_000))
  } as unknown as DataNode.GetERC20WithdrawalApprovalResponse)
  return ok(since(node.nodeVersion, "v0.79") ? `${json.slice(0, -1)},"sourceChainId":"${ETHEREUM_CHAIN_ID}"}` : json)
}

export const routes: ReadonlyArray<Route<NodeView>> = [
  {
    method: DataNodeApi.ListNodeSignatures.method,
    path: DataNodeApi.ListNodeSignatures.path,
    params: [param("id", "string"), ...paginationParams],
    handle: listSignatures
  },
  {
    method: DataNodeApi.GetERC20ListAssetBundle.method,
    path: DataNodeApi.GetERC20ListAssetBundle.path,
    params: [param("assetId", "string")],
    handle: listAssetBundle
  },
  {
    method: DataNodeApi.GetERC20SetAssetLimitsBundle.method,
    path: DataNodeApi.GetERC20SetAssetLimitsBundle.path,
    params: [param("proposalId", "string")],
    handle: assetLimitsBundle
  },
  {
    method: DataNodeApi.GetERC20WithdrawalApproval.method,
    path: DataNodeApi.GetERC20WithdrawalApproval.path,
    params: [param("withdrawalId", "string")],
    handle: withdrawalApproval
  }
]
