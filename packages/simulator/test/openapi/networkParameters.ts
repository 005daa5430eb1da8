/** Network parameters: their list over pages, one by key, and an unknown key. */
import type { Recorder } from "./exchanges.js"

export const networkParameters = async (r: Recorder) => {
  await r.pages("/api/v2/network/parameters", "networkParameters")
  await r.query("/api/v2/network/parameters", { "pagination.first": "1000" })
  await r.query("/api/v2/network/parameters", { "pagination.last": "3" })
  await r.query("/api/v2/network/parameters/{key}", {}, { key: "governance.proposal.freeform.minClose" })
  await r.query("/api/v2/network/parameters/{key}", {}, { key: "no.such.parameter" })
}
