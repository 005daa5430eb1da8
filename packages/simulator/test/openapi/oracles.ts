/** Oracle specs over pages, one by id, and oracle data (none), with bad and unknown ids. */
import type { Recorder } from "./exchanges.js"

export const oracles = async (r: Recorder) => {
  await r.pages("/api/v2/oracle/specs", "oracleSpecs")
  const page = await r.query("/api/v2/oracle/specs", { "pagination.first": "1" })
  const id = page?.oracleSpecs?.edges?.[0]?.node?.externalDataSourceSpec?.spec?.id
  if (id !== undefined) {
    await r.query("/api/v2/oracle/spec/{oracleSpecId}", {}, { oracleSpecId: id })
    await r.query("/api/v2/oracle/data", { oracleSpecId: id })
  }
  await r.query("/api/v2/oracle/spec/{oracleSpecId}", {}, { oracleSpecId: "cd".repeat(32) })
  await r.query("/api/v2/oracle/spec/{oracleSpecId}", {}, { oracleSpecId: "xyz" })
  await r.query("/api/v2/oracle/data")
  await r.query("/api/v2/oracle/data", { oracleSpecId: "xyz" })
}
