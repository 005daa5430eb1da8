/**
 * The codec of one member: what its proto type and its entry in the exactness table make of it.
 * Expressions are TypeScript source, evaluated in a generated module (see `generate.ts` for the
 * names they use).
 */
import type { ProtoField } from "./descriptor.js"
import type { Kind } from "./exactness.js"

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

const orEmpty = (codec: string): string => `/* @__PURE__ */ orEmpty(${codec})`

/** The codec of a string member by its kind; `undefined` for a plain string. */
const stringCodec = (kind: Kind | undefined, member: string): string => {
  switch (kind) {
    case undefined:
    case "Text":
      return "Schema.String"
    case "Amount":
      return "Amount.Amount"
    case "AmountOrEmpty":
      return "Amount.AmountOrEmpty"
    case "SignedAmount":
      return "Amount.SignedAmount"
    case "Decimal":
      return "Decimal.Decimal"
    case "DecimalOrEmpty":
      return "Decimal.DecimalOrEmpty"
    case "Uint64Text":
      return "Integer.Uint64"
    case "Id":
      return idOf(member)
    case "IdOrEmpty":
      return orEmpty(idOf(member))
    case "PartyId":
      return "Ids.PartyId"
    case "PartyIdOrEmpty":
      return orEmpty("Ids.PartyId")
    case "EthereumAddress":
      return "Ethereum.EthereumAddress"
    case "EthereumAddressOrEmpty":
      return orEmpty("Ethereum.EthereumAddress")
    case "Timestamp":
    case "EthereumTimestamp":
      throw new Error(`${member}: a string member cannot be a ${kind} (those are int64 members)`)
  }
}

const integerCodec = (kind: Kind | undefined, member: string, signed: boolean): string => {
  switch (kind) {
    case undefined:
      return signed ? "Integer.Int64" : "Integer.Uint64"
    case "Timestamp":
      return "Timestamp.VegaTimestamp"
    case "EthereumTimestamp":
      return "Timestamp.EthereumTimestamp"
    default:
      throw new Error(`${member}: a 64-bit integer member cannot be a ${kind}`)
  }
}

/** The codec of a scalar member (one element of it, when repeated). */
export const scalarCodec = (field: ProtoField, member: string, kind: Kind | undefined): string => {
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
      return "Integer.Int32"
    case "uint32":
    case "fixed32":
      return "Integer.Uint32"
    case "bool":
      return "Schema.Boolean"
    case "double":
    case "float":
      return "Schema.Number"
    case "bytes":
      // base64 text, kept as received
      return "Schema.String"
    default:
      throw new Error(`${member}: unexpected scalar type ${field.fullType}`)
  }
}
