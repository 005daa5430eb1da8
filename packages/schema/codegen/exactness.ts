/**
 * What the API's strings and 64-bit integers really are: the one reviewed table from which the
 * generator picks each member's codec. The spec says only `string` (amounts, prices, ids, decimals
 * alike) or `int64`/`uint64` (times, epochs, sizes alike); the node's sources say more, and what
 * they say is written here, message by message, with the reason where it is not plain.
 *
 * Keys are proto full names of messages and the JSON (lowerCamel) names of their members. A string
 * member the table does not name stays a plain string; a 64-bit member it does not name is a
 * 64-bit integer (`Int64` / `Uint64`, as a `bigint`).
 */

/** What one member is. */
export type Kind =
  /** an unsigned integer in base units (asset, price or position units): a 256-bit decimal string */
  | "Amount"
  /** the same, or `""` where the node leaves it unset */
  | "AmountOrEmpty"
  /** a signed integer in base units (PnL, funding payments, signed volumes) */
  | "SignedAmount"
  /** a decimal number: factors, rates, fractions, scores, shares (may have a fractional part) */
  | "Decimal"
  /** the same, or `""` where the node leaves it unset */
  | "DecimalOrEmpty"
  /** an unsigned 64-bit integer carried in a string member (e.g. an epoch written as text) */
  | "Uint64Text"
  /** 64 lowercase hexadecimal characters, always set (market, asset, order, proposal ids, ...) */
  | "Id"
  /** the same, or `""` where the node leaves it unset */
  | "IdOrEmpty"
  /** a party: 64 hexadecimal characters or `network` */
  | "PartyId"
  /** the same, or `""` where the node leaves it unset */
  | "PartyIdOrEmpty"
  /** `0x` and 40 hexadecimal characters */
  | "EthereumAddress"
  /** the same, or `""` */
  | "EthereumAddressOrEmpty"
  /** an int64 member holding a time in nanoseconds since the Unix epoch (Vega time) */
  | "Timestamp"
  /** an int64/uint64 member holding a time in seconds since the Unix epoch (Ethereum time) */
  | "EthereumTimestamp"
  /** reviewed, and a plain string (a name, a free text, a hash, an enum-like text): listed so that
   * an amount-like name is never left unclassified by accident */
  | "Text"

/** The table: message full name -> member JSON name -> kind. */
export const EXACTNESS: Readonly<Record<string, Readonly<Record<string, Kind>>>> = {
  // entries, grouped by message, each message's members in declaration order, e.g.:
  // "vega.Order": {
  //   id: "Id",
  //   marketId: "Id",
  //   partyId: "PartyId",
  //   price: "Amount", // market price decimals
  //   ...
  // },
}
