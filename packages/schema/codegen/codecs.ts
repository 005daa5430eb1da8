/**
 * The codec of one member: what its proto type and its entry in the exactness table make of it.
 * Expressions are TypeScript source, evaluated in a generated module (see `generate.ts` for the
 * names they use).
 */
import type { ProtoField } from "./descriptor.js"
import type { Kind } from "./exactness.js"

/** A member's codec, and the TypeScript types of its decoded and encoded values. */
export interface Typed {
  readonly codec: string
  readonly type: string
  readonly encoded: string
}

const typed = (codec: string, type: string, encoded = "string"): Typed => ({ codec, type, encoded })

/** A hand-written schema (`Module.name`) and the types its schema gives. */
export const handwrittenTyped = (reference: string): Typed =>
  reference === "Opaque"
    ? typed("Opaque", "unknown", "unknown")
    : typed(reference, `Schema.Schema.Type<typeof ${reference}>`, `Schema.Schema.Encoded<typeof ${reference}>`)

/**
 * The id schemas by member name, for the members the table calls ids: a market, an asset, an
 * order or a node has a branded id of its own; any other id is a `VegaId`.
 */
const ID_BRANDS: Readonly<Record<string, string>> = {
  marketId: "Ids.MarketId",
  marketIds: "Ids.MarketId",
  market: "Ids.MarketId",
  markets: "Ids.MarketId",
  parentMarketId: "Ids.MarketId",
  successorMarketId: "Ids.MarketId",
  fromAccountMarketId: "Ids.MarketId",
  toAccountMarketId: "Ids.MarketId",
  assetId: "Ids.AssetId",
  assetIds: "Ids.AssetId",
  asset: "Ids.AssetId",
  settlementAsset: "Ids.AssetId",
  quoteAsset: "Ids.AssetId",
  baseAsset: "Ids.AssetId",
  rewardAssetId: "Ids.AssetId",
  assetForMetric: "Ids.AssetId",
  orderId: "Ids.OrderId",
  orderIds: "Ids.OrderId",
  buyOrder: "Ids.OrderId",
  sellOrder: "Ids.OrderId",
  nodeId: "Ids.NodeId"
}

const idOf = (member: string): string => ID_BRANDS[member] ?? "Ids.VegaId"

/** A string id, or `""` where the node leaves it unset. */
const orEmpty = (id: string): Typed => typed(`/* @__PURE__ */ orEmpty(${id})`, `"" | ${id}`)

const id = (schema: string): Typed => typed(schema, schema)

/** The codec of a string member by its kind. */
const stringCodec = (kind: Kind | undefined, member: string): Typed => {
  switch (kind) {
    case undefined:
    case "Text":
      return typed("Schema.String", "string")
    case "Amount":
      return typed("Amount.Amount", "bigint")
    case "AmountOrEmpty":
      return typed("Amount.AmountOrEmpty", "Option.Option<bigint>")
    case "SignedAmount":
      return typed("Amount.SignedAmount", "bigint")
    case "Decimal":
      return typed("Decimal.Decimal", "BigDecimal.BigDecimal")
    case "DecimalOrEmpty":
      return typed("Decimal.DecimalOrEmpty", "Option.Option<BigDecimal.BigDecimal>")
    case "Uint64Text":
      return typed("Integer.Uint64", "bigint")
    case "Id":
      return id(idOf(member))
    case "IdOrEmpty":
      return orEmpty(idOf(member))
    case "PartyId":
      return id("Ids.PartyId")
    case "PartyIdOrEmpty":
      return orEmpty("Ids.PartyId")
    case "EthereumAddress":
      return id("Ethereum.EthereumAddress")
    case "EthereumAddressOrEmpty":
      return orEmpty("Ethereum.EthereumAddress")
    case "Timestamp":
    case "EthereumTimestamp":
      throw new Error(`${member}: a string member cannot be a ${kind} (those are int64 members)`)
  }
}

const integerCodec = (kind: Kind | undefined, member: string, signed: boolean): Typed => {
  switch (kind) {
    case undefined:
      return typed(signed ? "Integer.Int64" : "Integer.Uint64", "bigint")
    case "Timestamp":
      return id("Timestamp.VegaTimestamp")
    case "EthereumTimestamp":
      return id("Timestamp.EthereumTimestamp")
    default:
      throw new Error(`${member}: a 64-bit integer member cannot be a ${kind}`)
  }
}

/** The codec of a scalar member (one element of it, when repeated). */
export const scalarCodec = (field: ProtoField, member: string, kind: Kind | undefined): Typed => {
  switch (field.fullType) {
    case "string":
      return stringCodec(kind, member)
    case "int64":
    case "sint64":
    case "sfixed64":
      return integerCodec(kind, member, true)
    case "uint64":
    case "fixed64":
      return integerCodec(kind, member, false)
    case "int32":
    case "sint32":
    case "sfixed32":
      return typed("Integer.Int32", "number", "number")
    case "uint32":
    case "fixed32":
      return typed("Integer.Uint32", "number", "number")
    case "bool":
      return typed("Schema.Boolean", "boolean", "boolean")
    case "double":
    case "float":
      return typed("Schema.Number", "number", "number")
    case "bytes":
      // base64 text, kept as received
      return typed("Schema.String", "string")
    default:
      throw new Error(`${member}: unexpected scalar type ${field.fullType}`)
  }
}
