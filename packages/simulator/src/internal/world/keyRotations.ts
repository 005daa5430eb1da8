/**
 * Validators rotating their keys: Vega keys (`KeyRotation`) and Ethereum keys
 * (`EthereumKeyRotation`), each written at the block it takes effect in.
 *
 * The validators' node answers (ListNodes, GetNode, GetEpoch) show each validator's current keys
 * at every height and stay as they are: the rotations are history, generated with the world, and
 * each validator's chain of rotations ends at the keys those answers show (the last rotation's
 * new key is the validator's `pubKey`, its last Ethereum rotation's new address its
 * `ethereumAddress`). A node lagging behind sees only the rotations written by its height.
 */
import type { Random } from "../random.js"
import type { Catalog, Validator } from "./catalog.js"
import type { Chain } from "./chain.js"
import { compareStrings } from "./versioned.js"

export interface KeyRotationRow {
  readonly from: number
  readonly validator: Validator
  /** Vega public keys (64 hex) or lowercase `0x` Ethereum addresses. */
  readonly oldKey: string
  readonly newKey: string
  readonly vt: number
}

/** Base order of both tables: `vega_time, node_id, old, new` (sqlstore/key_rotations.go, ethereum_key_rotations.go). */
export const compareRotations = (a: KeyRotationRow, b: KeyRotationRow): number =>
  a.vt - b.vt ||
  compareStrings(a.validator.nodeId, b.validator.nodeId) ||
  compareStrings(a.oldKey, b.oldKey) ||
  compareStrings(a.newKey, b.newKey)

export class KeyRotations {
  readonly vega: Array<KeyRotationRow> = []
  readonly ethereum: Array<KeyRotationRow> = []

  constructor(
    private readonly catalog: Catalog,
    private readonly chain: Chain
  ) {}

  /** Up to `perValidator` rotations of each kind per validator, at distinct blocks up to `height`. */
  generate(random: Random, perValidator: number, height: number): void {
    for (const validator of this.catalog.validators) {
      this.chainOf(random, validator, perValidator, height, validator.pubKey, () => random.hex(32), this.vega)
      this.chainOf(
        random,
        validator,
        perValidator,
        height,
        validator.ethereumAddress,
        () => `0x${random.hex(20)}`,
        this.ethereum
      )
    }
    this.vega.sort(compareRotations)
    this.ethereum.sort(compareRotations)
  }

  private chainOf(
    random: Random,
    validator: Validator,
    perValidator: number,
    height: number,
    current: string,
    fresh: () => string,
    into: Array<KeyRotationRow>
  ): void {
    const count = random.int(perValidator + 1)
    const heights = [...new Set(Array.from({ length: count }, () => 2 + random.int(Math.max(1, height - 1))))].sort(
      (a, b) => a - b
    )
    // the keys before each rotation, oldest first; the last rotation leads to the current key
    const keys = heights.map(() => fresh())
    keys.push(current)
    heights.forEach((from, i) => {
      into.push({ from, validator, oldKey: keys[i], newKey: keys[i + 1], vt: this.chain.blockTime(from) })
    })
  }
}
