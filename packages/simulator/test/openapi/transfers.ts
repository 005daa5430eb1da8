/**
 * Transfers: every transfer over pages, one party's, the filters, one transfer, the fee estimate
 * and the fee discount, and bad or unknown ids.
 */
import type { Recorder } from "./exchanges.js"

export const transfers = async (r: Recorder, market: string) => {
  const template = "/api/v2/transfers"
  await r.pages(template, "transfers")
  const page = await r.query(template)
  const node = page?.transfers?.edges?.[0]?.node?.transfer
  await r.query(template, { status: "STATUS_DONE", "pagination.newestFirst": "false" })
  await r.query(template, { isReward: "true" })
  await r.query(template, { fromEpoch: "1", toEpoch: "1000" })
  await r.query(template, { toAccountType: "ACCOUNT_TYPE_GLOBAL_REWARD" })
  if (node !== undefined) {
    await r.query(template, { pubkey: node.from, direction: "TRANSFER_DIRECTION_TRANSFER_TO_OR_FROM" })
    await r.query(template, { pubkey: node.from, direction: "TRANSFER_DIRECTION_TRANSFER_FROM" })
    await r.query("/api/v2/transfer/{transferId}", {}, { transferId: node.id })
    await r.query("/api/v2/transfers/estimate-fee", {
      fromAccount: node.from,
      fromAccountType: "ACCOUNT_TYPE_GENERAL",
      toAccount: node.to,
      amount: "1234567890",
      assetId: node.asset
    })
    await r.query("/api/v2/transfers/total-fee-discount", { partyId: node.from, assetId: node.asset })
    await r.query("/api/v2/transfers/estimate-fee", { amount: "x", assetId: node.asset })
  }
  // the discount of a taker of the first epochs, in the asset it trades in
  const trades = await r.query("/api/v2/trades", {
    marketIds: market,
    "pagination.first": "1",
    "pagination.newestFirst": "false"
  })
  const trade = trades?.trades?.edges?.[0]?.node
  const assets = await r.query("/api/v2/assets")
  if (trade !== undefined) {
    const taker = trade.aggressor === "SIDE_BUY" ? trade.buyer : trade.seller
    for (const edge of assets?.assets?.edges ?? []) {
      const reply = await r.query("/api/v2/transfers/total-fee-discount", { partyId: taker, assetId: edge.node.id })
      if (reply?.totalDiscount !== undefined) break
    }
  }
  // a party needs a direction
  await r.query(template, { pubkey: "ab".repeat(32) })
  await r.query("/api/v2/transfer/{transferId}", {}, { transferId: "cd".repeat(32) })
  await r.query("/api/v2/transfer/{transferId}", {}, { transferId: "xyz" })
  await r.query("/api/v2/transfers/estimate-fee", { amount: "10", assetId: "cd".repeat(32) })
  await r.query("/api/v2/transfers/total-fee-discount", { partyId: "ab".repeat(32), assetId: "cd".repeat(32) })
}
