/**
 * `GET /api/v2/erc20/multisigcontrol/signer/added/bundles` (ListERC20MultiSigSignerAddedBundles)
 * and `GET /api/v2/erc20/multisigcontrol/signer/removed/bundles`
 * (ListERC20MultiSigSignerRemovedBundles). Both read the same store table
 * (`erc20_multisig_signer_events`, datanode/sqlstore/erc20_multisig_event.go, v0.75.8), one event
 * kind each, with the same filters, order (`vega_time, id`) and cursor; the API checks them the
 * same way and differs only in its service error (`failed to get removed multisig events`, 270002,
 * for removals) and in the signer's field (`oldSigner` for removals).
 */
import { DataNode, DataNodeApi, Encoder, GatewayError, SignerBundle } from "@vega-effect/schema"
import { isHexBytes } from "../hex.js"
import { resolve } from "../paging.js"
import { paginationParams, param, type Params, type Reply, type Route } from "../route.js"
import { type BundleKey, type BundleRow, compareBundleToKey } from "../world/bundles.js"
import { arraySource, cachedJsonByVersion, list } from "./connection.js"
import { ETHEREUM_CHAIN_ID, since } from "./nodeVersion.js"
import { SignerBundleCursor, writeCursor } from "./cursors.js"
import { decodesAsId } from "./ids.js"
import type { NodeView } from "./node.js"
import { pagination, str } from "./params.js"
import { badCursor, error, internal, invalidId, invalidPagination, notHex, ok } from "./reply.js"

const encode = Encoder.stringify(SignerBundle.SignerAddedBundle)

export const bundleJson = cachedJsonByVersion((row: BundleRow, version) =>
  encode({
    newSigner: row.validator.ethereumAddress,
    submitter: row.submitter.ethereumAddress,
    nonce: BigInt(row.nonce),
    timestamp: BigInt(row.vt) * 1000n,
    signatures: row.signatures,
    epochSeq: BigInt(row.epoch),
    // the multisig's EVM chain (v0.76+): Ethereum mainnet
    ...(since(version, "v0.79") ? { chainId: ETHEREUM_CHAIN_ID } : {})
  } as SignerBundle.SignerAddedBundle)
)

const encodeRemoved = Encoder.stringify(DataNode.ERC20MultiSigSignerRemovedBundle)

export const removedBundleJson = cachedJsonByVersion((row: BundleRow, version) => {
  const json = encodeRemoved({
    oldSigner: row.validator.ethereumAddress,
    submitter: row.submitter.ethereumAddress,
    nonce: BigInt(row.nonce),
    timestamp: BigInt(row.vt) * 1000n,
    signatures: row.signatures,
    epochSeq: BigInt(row.epoch)
  } as unknown as DataNode.ERC20MultiSigSignerRemovedBundle)
  // the multisig's EVM chain, the last field (v0.76+)
  return since(version, "v0.79") ? `${json.slice(0, -1)},"chainId":"${ETHEREUM_CHAIN_ID}"}` : json
})

export const bundleCursor = (row: BundleRow): string => writeCursor(SignerBundleCursor, [row.vt, row.id])

const { ApiErrors } = GatewayError

/** Go's `strconv.ParseInt(s, 10, 64)`: the value, or its error text. */
const parseInt64 = (s: string): bigint | string => {
  if (!/^[+-]?\d+$/.test(s)) return `strconv.ParseInt: parsing ${JSON.stringify(s)}: invalid syntax`
  const n = BigInt(s)
  return n < -(2n ** 63n) || n >= 2n ** 63n ? `strconv.ParseInt: parsing ${JSON.stringify(s)}: value out of range` : n
}

interface Kind {
  readonly rows: (node: NodeView) => ReadonlyArray<BundleRow>
  readonly serviceError: GatewayError.ApiError
  readonly json: (version: NodeView["nodeVersion"]) => (row: BundleRow) => string
}

const handleOf =
  (kind: Kind) =>
  (params: Params, node: NodeView): Reply => {
    const epochText = str(params, "epochSeq") ?? ""
    let epoch: bigint | undefined
    if (epochText !== "") {
      const parsed = parseInt64(epochText)
      if (typeof parsed === "string") {
        return error(GatewayError.fromApiError(ApiErrors.EpochIdParse, `epochSql: ${epochText}: ${parsed}`))
      }
      epoch = parsed
    }
    const request = resolve(pagination(params))
    if ("error" in request) return invalidPagination(request.error)
    const nodeId = str(params, "nodeId") || undefined
    const submitter = str(params, "submitter") || undefined
    if (nodeId !== undefined && !decodesAsId(nodeId)) return invalidId(kind.serviceError, notHex(nodeId))
    if (submitter !== undefined && !(submitter.startsWith("0x") && isHexBytes(submitter.slice(2)))) {
      return invalidId(kind.serviceError, notHex(submitter))
    }
    const height = node.readableHeight
    const rows = kind
      .rows(node)
      .filter(
        (row) =>
          row.from <= height &&
          (nodeId === undefined || row.validator.nodeId === nodeId.toLowerCase()) &&
          (submitter === undefined || row.submitter.ethereumAddress === submitter.toLowerCase()) &&
          (epoch === undefined || BigInt(row.epoch) === epoch)
      )
    const result = list<BundleRow, BundleKey>({
      request,
      cursor: SignerBundleCursor,
      keyOf: (v) => ({ vt: v.get("vega_time") as number, id: (v.get("id") as string).toLowerCase() }),
      source: arraySource(rows, compareBundleToKey, bundleCursor),
      nodeJson: kind.json(node.nodeVersion)
    })
    if ("cursorError" in result) return internal(kind.serviceError, badCursor(result.cursorError))
    return ok(`{"bundles":${result.json}}`)
  }

const params = [
  param("nodeId", "string"),
  param("submitter", "string"),
  param("epochSeq", "string"),
  ...paginationParams
]

export const route: Route<NodeView> = {
  method: DataNodeApi.ListSignerAddedBundles.method,
  path: DataNodeApi.ListSignerAddedBundles.path,
  params,
  handle: handleOf({
    rows: (node) => node.world.signerBundles.rows,
    serviceError: ApiErrors.AddedMultisigEvents,
    json: bundleJson
  })
}

export const removedRoute: Route<NodeView> = {
  method: DataNodeApi.ListERC20MultiSigSignerRemovedBundles.method,
  path: DataNodeApi.ListERC20MultiSigSignerRemovedBundles.path,
  params,
  handle: handleOf({
    rows: (node) => node.world.signerRemovals.rows,
    serviceError: ApiErrors.RemovedMultisigEvents,
    json: removedBundleJson
  })
}
