/**
 * Signature bundles that remove a validator's signer from the ERC-20 multisig control contract,
 * issued when a validator leaves the signer set.
 *
 * The core issues one bundle per remaining validator able to submit it: each has its own resource
 * id (the SHA3-256 of the old signer's address, the submitter's address and the nonce, in hex,
 * core/validators/signatures.go, v0.75.8), all share the removal's nonce, and each is signed by
 * the validators on its own (its node signatures are kind ERC20_MULTISIG_SIGNER_REMOVED). The
 * nonces are a counter started from the first removal's unix seconds plus one, as the core sets
 * its nonce from the block time.
 *
 * Simplification: the catalog's validator set does not change; a removal names a validator of
 * the catalog, and the validators' node answers stay as they are.
 */
import { createHash } from "node:crypto"
import { SignerBundle } from "@vega-effect/schema"
import type { Random } from "../random.js"
import type { Catalog } from "./catalog.js"
import type { Chain } from "./chain.js"
import { type BundleRow, compareBundles } from "./bundles.js"

export class SignerRemovals {
  /** In the store's base order, `vega_time, id`. */
  readonly rows: Array<BundleRow> = []
  private nonce = 0

  constructor(
    private readonly catalog: Catalog,
    private readonly chain: Chain
  ) {}

  generate(random: Random, count: number, height: number): void {
    const lastEpoch = this.chain.epochOf(height)
    const epochs = Array.from({ length: count }, () => 1 + random.int(lastEpoch)).sort((a, b) => a - b)
    for (const epoch of epochs) this.remove(random, epoch, Math.min(height, this.chain.epochFirstBlock(epoch)))
  }

  /** A validator leaving the signer set at `epoch`: its removal bundles are written at block `from`. */
  remove(random: Random, epoch: number, from: number): void {
    const validators = this.catalog.validators
    const validator = random.pick(validators)
    const others = validators.filter((v) => v !== validator)
    const vt = this.chain.blockTime(from)
    if (this.nonce === 0) this.nonce = Math.floor(vt / 1_000_000) + 1
    const nonce = this.nonce++
    for (const submitter of others) {
      const signers = others.filter(() => random.chance(0.9))
      const signatures = signers.map(() => random.hex(SignerBundle.SIGNATURE_BYTES)).sort()
      const id = createHash("sha3-256")
        .update(`${validator.ethereumAddress}${submitter.ethereumAddress}${nonce}`)
        .digest("hex")
      this.rows.push({
        from,
        id,
        validator,
        submitter,
        nonce,
        vt,
        signatures: signatures.length === 0 ? "" : `0x${signatures.join("")}`,
        epoch
      })
    }
    this.rows.sort(compareBundles)
  }
}
