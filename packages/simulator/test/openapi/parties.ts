/** Parties: their list over pages, one by id, the network party, and unknown or invalid ids. */
import type { Recorder } from "./exchanges.js"

export const parties = async (r: Recorder, party: string) => {
  await r.pages("/api/v2/parties", "parties")
  await r.query("/api/v2/parties", { partyId: party })
  await r.query("/api/v2/parties", { partyId: "cd".repeat(32) })
  await r.query("/api/v2/parties", { partyId: "xyz" })
  await r.query("/api/v2/party/{partyId}", {}, { partyId: party })
  await r.query("/api/v2/party/{partyId}", {}, { partyId: "network" })
  await r.query("/api/v2/party/{partyId}", {}, { partyId: "cd".repeat(32) })
  await r.query("/api/v2/party/{partyId}", {}, { partyId: "xyz" })
}
