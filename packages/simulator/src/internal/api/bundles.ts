/**
 * `GET /api/v2/erc20/multisigcontrol/signer/added/bundles` (ListERC20MultiSigSignerAddedBundles).
 */
import { DataNodeApi, Encoder, GatewayError, SignerBundle } from "@vega-effect/schema"
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

export const bundleCursor = (row: BundleRow): string => writeCursor(SignerBundleCursor, [row.vt, row.id])

const { ApiErrors } = GatewayError

/** Go's `strconv.ParseInt(s, 10, 64)`: the value, or its error text. */
const parseInt64 = (s: string): bigint | string => {
  if (!/^[+-]?\d+$/.test(s)) return `strconv.ParseInt: parsing ${JSON.stringify(s)}: invalid syntax`
  const n = BigInt(s)
  return n < -(2n ** 63n) || n >= 2n ** 63n ? `strconv.ParseInt: parsing ${JSON.stringify(s)}: value out of range` : n
}

const handle = (params: Params, node: NodeView): Reply => {
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
  if (nodeId !== undefined && !decodesAsId(nodeId)) return invalidId(ApiErrors.AddedMultisigEvents, notHex(nodeId))
  if (submitter !== undefined && !(submitter.startsWith("0x") && isHexBytes(submitter.slice(2)))) {
    return invalidId(ApiErrors.AddedMultisigEvents, notHex(submitter))
  }
  const height = node.readableHeight
  const rows = node.world.signerBundles.rows.filter(
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
    nodeJson: bundleJson(node.nodeVersion)
  })
  if ("cursorError" in result) return internal(ApiErrors.AddedMultisigEvents, badCursor(result.cursorError))
  return ok(`{"bundles":${result.json}}`)
}

export const route: Route<NodeView> = {
  method: DataNodeApi.ListSignerAddedBundles.method,
  path: DataNodeApi.ListSignerAddedBundles.path,
  params: [param("nodeId", "string"), param("submitter", "string"), param("epochSeq", "string"), ...paginationParams],
  handle
}
