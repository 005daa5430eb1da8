/**
 * The schema package in five steps, offline: build a request URL, decode a page exactly, scale
 * with the right decimals, keep an unknown enum value, and write the page back byte for byte.
 *
 * Run: npx tsx --conditions=@vega-effect/source examples/basics.ts
 */
import { Either, Schema } from "effect"
import { DataNodeApi, Decimal, Decoder, Enum, Ids, Position, Scaling } from "@vega-effect/schema"

const party = Schema.decodeSync(Ids.PartyId)("7D30838BE180DDF0C9D31E3CF3B8A06BB3738D19BC3B61F6ED5B20A57BCB3DFC")

// 1. The URL of a request, with the gateway's parameter names and encoding.
const url = DataNodeApi.url(DataNodeApi.ListPositions, {
  filter: { partyIds: [party] },
  pagination: { first: 500, newestFirst: false }
})
console.log(Either.getOrThrow(url))

// 2. A page as the node sends it (here inline), decoded with the compiled decoder.
const body = `{"positions":{"edges":[{"node":{"marketId":"a08d564afb14acd3fa86b004f899b2639942cd7cb5e0c9bed8f92fdf15e4033b","partyId":"${party}","openVolume":"-1234","realisedPnl":"-1250000","unrealisedPnl":"340000","averageEntryPrice":"123456","updatedAt":"1711965012345678000","lossSocialisationAmount":"0","positionStatus":"POSITION_STATUS_LIQUIDATED"},"cursor":"eyJ2ZWdhX3RpbWUiOiIyMDI0In0="}],"pageInfo":{"hasNextPage":false,"hasPreviousPage":false,"startCursor":"eyJ2ZWdhX3RpbWUiOiIyMDI0In0=","endCursor":"eyJ2ZWdhX3RpbWUiOiIyMDI0In0="}}}`
const page = Decoder.decodeUnknownSync(Position.ListPositionsResponse)(JSON.parse(body))
const position = page.positions.edges[0].node

// 3. Exact scaling: volume with the market's position decimals, price with its price decimals.
console.log("open volume", Decimal.format(Scaling.fromPositionUnits(position.openVolume, Scaling.positionDecimals(3))))
console.log("entry price", Decimal.format(Scaling.fromPriceUnits(position.averageEntryPrice, Scaling.priceDecimals(5))))

// 4. A status this library does not know yet is kept, not rejected.
const status = position.positionStatus
console.log("status", Enum.isUnknownEnumValue(status) ? `unknown (${status.value})` : status)

// 5. Encoding writes back what the node wrote.
console.log("identical", JSON.stringify(Schema.encodeSync(Position.ListPositionsResponse)(page)) === body)
