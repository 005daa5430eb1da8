/**
 * The node signatures the notary store holds, by resource id (`node_signatures`,
 * datanode/sqlstore/notary.go, v0.75.8): every validator's signature of a resource the bridges
 * need, kept as raw bytes and read in the store's order (`resource_id, sig`, bytes ascending).
 *
 * Resources of the world:
 * - signer bundles adding a validator (kind ERC20_MULTISIG_SIGNER_ADDED) and removing one
 *   (ERC20_MULTISIG_SIGNER_REMOVED): the signatures their rows carry;
 * - each asset's listing on the ERC-20 bridge (ASSET_NEW), signed by every validator at the
 *   first block;
 * - each withdrawal (ASSET_WITHDRAWAL), signed by every validator in the block that made it (the
 *   world's withdrawals are finalised in that block, so none waits for signatures);
 * - each enacted asset update (ASSET_UPDATE, by proposal id), signed by every validator in the
 *   block that enacted it (the core starts collecting them at the enactment:
 *   `core/processor/abci.go` `enactAssetUpdate`, v0.75.8); before it, the proposal has none.
 *
 * Signatures of listings, withdrawals and asset updates are derived, not drawn: 65 bytes (r, s and a recovery
 * byte 0x1b or 0x1c, as Ethereum signatures end) from the SHA-512 of the chain id, the kind, the
 * resource id and the validator's node id, so they take nothing from any random stream.
 */
import { createHash } from "node:crypto"
import { SignerBundle } from "@vega-effect/schema"
import type { CashRow } from "./accounts.js"
import type { BundleRow } from "./bundles.js"
import type { AssetInfo, Catalog } from "./catalog.js"
import type { Chain } from "./chain.js"

export type SignatureKind =
  | "NODE_SIGNATURE_KIND_ASSET_NEW"
  | "NODE_SIGNATURE_KIND_ASSET_WITHDRAWAL"
  | "NODE_SIGNATURE_KIND_ASSET_UPDATE"
  | "NODE_SIGNATURE_KIND_ERC20_MULTISIG_SIGNER_ADDED"
  | "NODE_SIGNATURE_KIND_ERC20_MULTISIG_SIGNER_REMOVED"

export interface ResourceSignatures {
  /** The block the signatures were written in. */
  readonly from: number
  readonly kind: SignatureKind
  /** Lowercase hex, 130 digits each, ascending. */
  readonly sigs: ReadonlyArray<string>
}

/** The packed form of a resource's signatures (`PackNodeSignatures`): `0x` and each in hex, or `""`. */
export const packSignatures = (sigs: ReadonlyArray<string>): string => (sigs.length === 0 ? "" : `0x${sigs.join("")}`)

const unpack = (packed: string): ReadonlyArray<string> =>
  packed === "" ? [] : SignerBundle.splitSignatures(packed as SignerBundle.BundleSignatures)

export class Notary {
  private readonly byBundle = new Map<string, ResourceSignatures>()
  private readonly byWithdrawal = new Map<string, CashRow>()
  private bundlesIndexed = [0, 0]
  private withdrawalsIndexed = 0
  private readonly derived = new WeakMap<object, ResourceSignatures>()
  private readonly updates = new Map<string, ResourceSignatures>()
  /** The block that enacted each asset update (governance's, once it is made). */
  private assetUpdates: ReadonlyMap<string, number> = new Map()

  constructor(
    private readonly catalog: Catalog,
    private readonly chain: Chain,
    private readonly added: ReadonlyArray<BundleRow>,
    private readonly removed: ReadonlyArray<BundleRow>,
    private readonly withdrawals: ReadonlyArray<CashRow>
  ) {}

  /** The signatures of a resource (lowercase hex id) written by `height`, or none. */
  signatures(id: string, height: number): ResourceSignatures | undefined {
    const found = this.lookup(id)
    return found !== undefined && found.from <= height ? found : undefined
  }

  /** Follows governance's enacted asset updates (by proposal id, the block that enacted each). */
  followAssetUpdates(enacted: ReadonlyMap<string, number>): void {
    this.assetUpdates = enacted
  }

  /** The signatures of an enacted asset update, by its proposal id; none before its enactment. */
  assetUpdate(proposalId: string): ResourceSignatures | undefined {
    const enacted = this.assetUpdates.get(proposalId)
    if (enacted === undefined) return undefined
    let found = this.updates.get(proposalId)
    if (found === undefined) {
      found = this.sign(proposalId, "NODE_SIGNATURE_KIND_ASSET_UPDATE", enacted)
      this.updates.set(proposalId, found)
    }
    return found
  }

  /** The signatures of an asset's listing. */
  assetListing(asset: AssetInfo): ResourceSignatures {
    return this.derive(asset, asset.id, "NODE_SIGNATURE_KIND_ASSET_NEW", 1)
  }

  /** The signatures approving a withdrawal. */
  withdrawal(row: CashRow): ResourceSignatures {
    return this.derive(row, row.id, "NODE_SIGNATURE_KIND_ASSET_WITHDRAWAL", row.height)
  }

  private lookup(id: string): ResourceSignatures | undefined {
    this.indexBundles()
    const bundle = this.byBundle.get(id)
    if (bundle !== undefined) return bundle
    const asset = this.catalog.assets.find((a) => a.id === id)
    if (asset !== undefined) return this.assetListing(asset)
    const update = this.assetUpdate(id)
    if (update !== undefined) return update
    for (; this.withdrawalsIndexed < this.withdrawals.length; this.withdrawalsIndexed++) {
      const row = this.withdrawals[this.withdrawalsIndexed]
      this.byWithdrawal.set(row.id, row)
    }
    const row = this.byWithdrawal.get(id)
    return row === undefined ? undefined : this.withdrawal(row)
  }

  private indexBundles(): void {
    // bundle rows are kept sorted, so index them again whenever more were written
    const lists = [this.added, this.removed]
    const kinds: ReadonlyArray<SignatureKind> = [
      "NODE_SIGNATURE_KIND_ERC20_MULTISIG_SIGNER_ADDED",
      "NODE_SIGNATURE_KIND_ERC20_MULTISIG_SIGNER_REMOVED"
    ]
    lists.forEach((rows, i) => {
      if (this.bundlesIndexed[i] === rows.length) return
      for (const row of rows) {
        if (!this.byBundle.has(row.id)) {
          this.byBundle.set(row.id, { from: row.from, kind: kinds[i], sigs: unpack(row.signatures) })
        }
      }
      this.bundlesIndexed[i] = rows.length
    })
  }

  private derive(owner: object, id: string, kind: SignatureKind, from: number): ResourceSignatures {
    let found = this.derived.get(owner)
    if (found === undefined) {
      found = this.sign(id, kind, from)
      this.derived.set(owner, found)
    }
    return found
  }

  private sign(id: string, kind: SignatureKind, from: number): ResourceSignatures {
    const sigs = this.catalog.validators
      .map((v) => {
        const digest = createHash("sha512").update(`${this.chain.chainId}/${kind}/${id}/${v.nodeId}`).digest()
        return `${digest.toString("hex")}${digest[0] % 2 === 0 ? "1b" : "1c"}`
      })
      .sort()
    return { from, kind, sigs }
  }
}
