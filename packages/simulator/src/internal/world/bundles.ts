/**
 * Signature bundles that add a validator to the ERC-20 multisig signer set: one when a node is
 * promoted, signed by the current validators (65-byte signatures, concatenated in byte order).
 */
import { SignerBundle } from "@vega-effect/schema"
import type { Random } from "../random.js"
import type { Catalog, Validator } from "./catalog.js"
import type { Chain } from "./chain.js"
import type { Journal } from "./journal.js"
import { compareStrings } from "./versioned.js"

export interface BundleRow {
  readonly from: number
  readonly id: string
  readonly validator: Validator
  readonly submitter: Validator
  readonly nonce: number
  readonly vt: number
  readonly signatures: string
  readonly epoch: number
}

/** Base order: `vega_time, id`. */
export const compareBundles = (a: BundleRow, b: BundleRow): number => a.vt - b.vt || compareStrings(a.id, b.id)

export interface BundleKey {
  readonly vt: number
  readonly id: string
}

export const compareBundleToKey = (a: BundleRow, k: BundleKey): number => a.vt - k.vt || compareStrings(a.id, k.id)

export class SignerBundles {
  readonly rows: Array<BundleRow> = []
  private nonce = 0

  constructor(
    private readonly catalog: Catalog,
    private readonly chain: Chain,
    private readonly journal?: Journal
  ) {}

  generate(random: Random, count: number, height: number): void {
    const lastEpoch = this.chain.epochOf(height)
    const epochs = Array.from({ length: count }, () => 1 + random.int(lastEpoch)).sort((a, b) => a - b)
    for (const epoch of epochs) this.promote(random, epoch, Math.min(height, this.chain.epochFirstBlock(epoch)))
  }

  /** A validator promoted at `epoch` gets a bundle written at block `from`. */
  promote(random: Random, epoch: number, from: number): void {
    const validators = this.catalog.validators
    const validator = random.pick(validators)
    const others = validators.filter((v) => v !== validator)
    const vt = this.chain.blockTime(from)
    if (this.nonce === 0) this.nonce = Math.floor(vt / 1_000_000)
    const signers = others.filter(() => random.chance(0.9))
    const signatures = signers.map(() => random.hex(SignerBundle.SIGNATURE_BYTES)).sort()
    const row: BundleRow = {
      from,
      id: random.hex(32),
      validator,
      submitter: others.length > 0 ? random.pick(others) : validator,
      nonce: this.nonce++,
      vt,
      signatures: signatures.length === 0 ? "" : `0x${signatures.join("")}`,
      epoch
    }
    this.rows.push(row)
    this.rows.sort(compareBundles)
    // the bundle is readable with its signatures from the block that issues it: its signatures
    // are announced in that block too
    this.journal?.record(from, { _tag: "BundleIssued", row })
    if (row.signatures !== "") this.journal?.record(from, { _tag: "BundleSigned", row })
  }
}
