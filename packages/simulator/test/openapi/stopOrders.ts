/** Stop orders: their list over pages with each filter, one by id, and the error bodies. */
import type { Recorder } from "./exchanges.js"

export const stopOrders = async (r: Recorder, market: string) => {
  await r.pages("/api/v2/stoporders", "orders")
  const page = await r.query("/api/v2/stoporders", { "filter.marketIds": market })
  await r.query("/api/v2/stoporders", {
    "filter.statuses": ["STATUS_PENDING", "STATUS_TRIGGERED"],
    "filter.expiryStrategies": "EXPIRY_STRATEGY_CANCELS"
  })
  await r.query("/api/v2/stoporders", { "filter.liveOnly": "true" })
  const all = await r.query("/api/v2/stoporders", { "pagination.first": "5" })
  const id = all?.orders?.edges?.[0]?.node?.stopOrder?.id as string
  const party = all?.orders?.edges?.[0]?.node?.stopOrder?.partyId as string
  await r.query("/api/v2/stoporders", { "filter.partyIds": party })
  await r.query("/api/v2/stoporder/{orderId}", {}, { orderId: id })
  await r.query("/api/v2/stoporder/{orderId}", {}, { orderId: "ab".repeat(32) })
  await r.query("/api/v2/stoporder/{orderId}", {}, { orderId: "xyz" })
  await r.query("/api/v2/stoporders", { "filter.partyIds": "nope" })
  return page
}
