/**
 * Signature bundles that add a validator to the ERC-20 multisig signer set.
 *
 * With `nodes` configured they are read per node and each row carries its node id; without, every
 * bundle is read at once and the node is unknown: the node does not say which validator a bundle
 * promotes (only its Ethereum address), so the row's `nodeId` is `""` and its key starts with `-`.
 *
 * Bundles are only ever added, so reads are incremental: the node lists them newest first
 * (`vega_time DESC, id DESC`), and a bundle is written with the time of its block, so every bundle
 * the node adds after a read sorts before all bundles that read saw. Reading stops at the first
 * bundle already held; that one is kept in the snapshot, so signatures it gained since (validators
 * sign in later blocks) still show as a change. Older held bundles are not read again.
 */
import type { DataNodeClient } from "@vega-effect/http"
import { Encoder, Pagination, SignerBundle } from "@vega-effect/schema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type { Change, Row } from "../Event.js"
import { changedFields } from "../FieldChanges.js"
import type { Resource } from "../Resource.js"
import { type DecodedDiff, define, liveHint, noAssets, rowDiff, SHARED_BUS, unsharded } from "../ResourceDefinition.js"
import * as Units from "../Units.js"
import { IdList, type OptionsOf } from "../WatchOptions.js"
import { catalog } from "../ResourceCatalog.js"

const encodeBundle = Encoder.encodeSync(SignerBundle.SignerAddedBundle)

/** `watch.signerBundles`: the validators (node ids) whose bundles to read (absent: every bundle, node unknown). */
const fields = { nodes: Schema.optional(IdList) }
export type Options = OptionsOf<typeof fields>

/** Signature bundles as the watcher holds them: the node's bundle with the node it promotes (`""`: unknown). */
export const BundleRow = Schema.Struct({ nodeId: Schema.String, ...SignerBundle.SignerAddedBundle.fields })
export type SignerBundleRow = typeof BundleRow.Encoded
type Bundle = typeof BundleRow.Type

/** `<nodeId or "-">/<epochSeq>/<nonce>`: the nonce is a counter, unique per bundle. */
export const bundleKey = (nodeId: string, bundle: { readonly epochSeq: string; readonly nonce: string }): string =>
  `${nodeId === "" ? "-" : nodeId}/${bundle.epochSeq}/${bundle.nonce}`

/** The number of whole 65-byte signatures in a bundle's `signatures` (`""` or `0x` + hex). */
export const signatureCount = (signatures: string): number =>
  SignerBundle.splitSignatures(signatures as SignerBundle.BundleSignatures).filter(
    (signature) => signature.length === SignerBundle.SIGNATURE_BYTES * 2
  ).length

const detailsOf = (bundle: Bundle) => ({
  node: bundle.nodeId,
  epoch: bundle.epochSeq.toString(),
  signatures: signatureCount(bundle.signatures),
  newSigner: bundle.newSigner,
  submitter: bundle.submitter
})

const fieldsChanged = changedFields(BundleRow)

const diffDecoded: DecodedDiff<Bundle, Options> = (before, after) => {
  if (after === undefined) {
    // not seen from incremental reads; reported should a complete read ever lack a held bundle
    return before === undefined ? [] : [{ kind: "signer_bundle.removed", details: detailsOf(before) }]
  }
  if (before === undefined) return [{ kind: "signer_bundle.added", details: detailsOf(after) }]
  const changed = fieldsChanged(before, after)
  if (changed.length === 0) return []
  return [
    {
      kind: "signer_bundle.changed",
      details: { ...detailsOf(after), signaturesBefore: signatureCount(before.signatures), fields: changed }
    }
  ]
}

const diffRows = rowDiff(BundleRow, diffDecoded)

/** {@link diffDecoded} over stored rows. */
export const diff = (before: Row | undefined, after: Row | undefined): ReadonlyArray<Change> =>
  diffRows(before, after, noAssets, { enabled: true })

/** Page sizes: the largest on a first read; small pages when only the newest few are new. */
const INCREMENTAL_PAGE = 100

export const make = (client: DataNodeClient.Service, options: Options): Resource => ({
  name: "signerBundles",
  read: ({ previous }) => {
    const paging =
      previous.size === 0 ? { pageSize: Pagination.MAX_PAGE_SIZE } : { pageSize: INCREMENTAL_PAGE, prefetch: 0 }
    const readNewest = (nodeId: string) =>
      client.signerAddedBundles(nodeId === "" ? {} : { nodeId }, paging).pipe(
        Stream.map(({ node }): readonly [string, SignerBundleRow] => {
          const row = { nodeId, ...encodeBundle(node) }
          return [bundleKey(nodeId, row), row]
        }),
        Stream.takeUntil(([key]) => previous.has(key)),
        Stream.runCollect
      )
    const nodes = options.nodes === undefined || options.nodes.length === 0 ? [""] : [...new Set(options.nodes)]
    return Effect.forEach(nodes, readNewest, { concurrency: 4 }).pipe(
      Effect.map((perNode) => ({
        rows: new Map<string, Row>(perNode.flatMap((chunk) => [...chunk])),
        complete: false
      }))
    )
  },
  diff: (before, after) => diff(before, after)
})

/** Signer bundles: one slice, read again on a hint when the bus says a signer was added or a node signed. */
export const definition = define({
  ...catalog.signerBundles,
  sharding: unsharded,
  options: fields,
  reader: ({ client, options }) => make(client, options),
  live: {
    _tag: "Bus",
    types: ["BUS_EVENT_TYPE_ERC20_MULTI_SIG_SIGNER_ADDED", "BUS_EVENT_TYPE_NODE_SIGNATURE"],
    subscription: SHARED_BUS,
    // a new bundle or one of its signatures: the bundles are read again
    change: (event) =>
      event.erc20MultisigSignerAdded === undefined && event.nodeSignature === undefined ? undefined : liveHint("")
  },
  row: BundleRow,
  diff: diffDecoded,
  mainFields: ["newSigner", "epochSeq", "nonce"],
  units: Units.none
})
