/** Epoch reward summaries: over pages, by asset and epoch range, and a bad asset id. */
import type { Recorder } from "./exchanges.js"

export const epochRewardSummaries = async (r: Recorder) => {
  const path = "/api/v2/rewards/epoch/summaries"
  await r.pages(path, "summaries")
  await r.query(path, { "filter.fromEpoch": "2", "filter.toEpoch": "3", "pagination.first": "5" })
  await r.query(path, { "filter.assetIds": "zz" })
}
