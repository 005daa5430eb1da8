/**
 * Vega identifiers: 64 hexadecimal characters (32 bytes). Any case is accepted on input and
 * normalised to lowercase, which is what the node always outputs. Party ids also admit the
 * built-in `network` party.
 *
 * @since 0.1.0
 */
import type * as Brand from "effect/Brand"
import type * as FastCheck from "effect/FastCheck"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as FastDecode from "./internal/fastDecode.js"
import * as FastEncode from "./internal/fastEncode.js"

/**
 * 64 hexadecimal characters in any case: the shape of every Vega id, public key and transaction
 * hash (32 bytes). Use {@link isVegaId}, or this pattern in a `Schema.pattern`.
 *
 * @since 0.1.0
 * @category Constants
 */
export const HEX_ID_PATTERN = /^[0-9a-fA-F]{64}$/

const anyCaseHex64 = HEX_ID_PATTERN
const lowerHex64 = /^[0-9a-f]{64}$/

/** 1 at the character codes of `0-9a-f`. */
const LOWER_HEX = /* @__PURE__ */ (() => {
  const table = new Uint8Array(128)
  for (const c of "0123456789abcdef") table[c.charCodeAt(0)] = 1
  return table
})()

/**
 * `lowerHex64.test(s)`, by table: about three times faster than the pattern (every id of every row
 * of a page goes through it). A code past the table reads `undefined`, which is not 1.
 */
const isLowerHex64 = (s: string): boolean => {
  if (s.length !== 64) return false
  for (let i = 0; i < 64; i++) if (LOWER_HEX[s.charCodeAt(i)] !== 1) return false
  return true
}

/**
 * The party that stands for the network itself; it exists on every data node.
 *
 * @since 0.1.0
 * @category Constants
 */
export const NETWORK_PARTY = "network"

/**
 * True for 64 hexadecimal characters in any case.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isVegaId = (s: string): boolean => anyCaseHex64.test(s)

/**
 * True for what a party id can be: 64 hexadecimal characters or `network`.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isPartyId = (s: string): boolean => s === NETWORK_PARTY || anyCaseHex64.test(s)

const makeId = <B extends string>(brand: B, description: string, allowNetwork: boolean) => {
  const to = Schema.String.pipe(
    Schema.pattern(allowNetwork ? /^(?:[0-9a-f]{64}|network)$/ : lowerHex64),
    Schema.brand(brand)
  ).annotations({
    arbitrary: () => (fc) =>
      (allowNetwork
        ? fc.oneof({ weight: 1, arbitrary: fc.constant(NETWORK_PARTY) }, { weight: 19, arbitrary: hex64(fc) })
        : hex64(fc)) as FastCheck.Arbitrary<any>
  })
  const parse = (s: string): string | undefined =>
    isLowerHex64(s) || (allowNetwork && s === NETWORK_PARTY) ? s : anyCaseHex64.test(s) ? s.toLowerCase() : undefined
  const expected = allowNetwork
    ? `${description} (64 hexadecimal characters or "network")`
    : `${description} (64 hexadecimal characters)`
  return Schema.transformOrFail(Schema.String, to, {
    strict: true,
    decode: (s, _, ast) => {
      const id = parse(s)
      return id === undefined
        ? ParseResult.fail(new ParseResult.Type(ast, s, `Expected ${expected}, actual ${JSON.stringify(s)}`))
        : ParseResult.succeed(id as string & Brand.Brand<B>)
    },
    encode: ParseResult.succeed
  }).annotations({
    identifier: brand,
    description: expected,
    ...FastDecode.annotation((u) => (typeof u === "string" ? (parse(u) ?? FastDecode.FAIL) : FastDecode.FAIL)),
    ...FastEncode.annotation((u) =>
      typeof u === "string" && (isLowerHex64(u) || (allowNetwork && u === NETWORK_PARTY)) ? u : FastEncode.FAIL
    )
  })
}

const hex64 = (fc: typeof FastCheck) => fc.stringMatching(lowerHex64)

/**
 * A party id: a public key in hex, or the built-in `network` party.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const PartyId = makeId("PartyId", "a party id", true)
/**
 * The decoded form of the `PartyId` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type PartyId = typeof PartyId.Type

/**
 * An ed25519 public key in hex, which is also the id of the party that owns it.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const PublicKey = makeId("PublicKey", "a public key", false)
/**
 * The decoded form of the `PublicKey` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type PublicKey = typeof PublicKey.Type

/**
 * A market id.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const MarketId = makeId("MarketId", "a market id", false)
/**
 * The decoded form of the `MarketId` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type MarketId = typeof MarketId.Type

/**
 * An asset id.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const AssetId = makeId("AssetId", "an asset id", false)
/**
 * The decoded form of the `AssetId` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type AssetId = typeof AssetId.Type

/**
 * A validator node id.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const NodeId = makeId("NodeId", "a node id", false)
/**
 * The decoded form of the `NodeId` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type NodeId = typeof NodeId.Type

/**
 * A liquidity provision id.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const LiquidityProvisionId = makeId("LiquidityProvisionId", "a liquidity provision id", false)
/**
 * The decoded form of the `LiquidityProvisionId` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type LiquidityProvisionId = typeof LiquidityProvisionId.Type

/**
 * A referral set id.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const ReferralSetId = makeId("ReferralSetId", "a referral set id", false)
/**
 * The decoded form of the `ReferralSetId` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type ReferralSetId = typeof ReferralSetId.Type

/**
 * A stake linking id.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const StakeLinkingId = makeId("StakeLinkingId", "a stake linking id", false)
/**
 * The decoded form of the `StakeLinkingId` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type StakeLinkingId = typeof StakeLinkingId.Type

/**
 * A signature bundle id.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const BundleId = makeId("BundleId", "a signature bundle id", false)
/**
 * The decoded form of the `BundleId` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type BundleId = typeof BundleId.Type

/**
 * An order id.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const OrderId = makeId("OrderId", "an order id", false)
/**
 * The decoded form of the `OrderId` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type OrderId = typeof OrderId.Type

/**
 * Any other Vega id (a proposal, a trade, a transfer, a deposit, a team, ...): 64 hexadecimal
 * characters, lowercase once decoded.
 *
 * @since 0.2.0
 * @category Schemas
 */
export const VegaId = makeId("VegaId", "an id", false)
/**
 * The decoded form of the `VegaId` schema.
 *
 * @since 0.2.0
 * @category Models
 */
export type VegaId = typeof VegaId.Type

/**
 * A block hash.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const BlockHash = makeId("BlockHash", "a block hash", false)
/**
 * The decoded form of the `BlockHash` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type BlockHash = typeof BlockHash.Type
