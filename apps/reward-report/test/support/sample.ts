/**
 * A small report with the awkward cases every format must get right: an 18- and a 6-decimal asset,
 * amounts below 0.001 and with 18 significant decimals, aliases with commas, quotes, a newline,
 * HTML and Markdown characters, a party with no alias, tied ranks, and a failed cross-check.
 */
import { type AssetInfo, type EpochRow, noFilters, type PartyLine, type Report } from "../../src/Report.js"
import { listOf } from "../../src/RowStore.js"

export const VEGA: AssetInfo = {
  id: "b4f2726571fbe8e33b442dc92ed2d7f0d810e21835b7371a7915a365f07ccd9b",
  symbol: "VEGA",
  name: "Vega",
  decimals: 18
}
export const USDT: AssetInfo = {
  id: "8ba0b10971f0c4747746cd01ff05a53ae75ca91eba1d4d050b527910c983e27e",
  symbol: "USDT",
  name: "Tether USD",
  decimals: 6
}

export const parties = {
  alice: "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1",
  bob: "b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0",
  carol: "c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3",
  dave: "d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4"
} as const

export const aliases: Record<string, string | undefined> = {
  [parties.alice]: 'Alice, "the" staker',
  [parties.bob]: "<b>Bob</b> & | co",
  [parties.carol]: "Carol\nsecond line",
  [parties.dave]: undefined
}

const line = (rank: number, party: string, asset: AssetInfo, amount: bigint, units: string, share: string) =>
  ({ rank, partyId: party, alias: aliases[party], asset, amount, units, share }) satisfies PartyLine

const epochRow = (
  epoch: bigint,
  receivedAt: bigint,
  receivedAtIso: string,
  party: string,
  asset: AssetInfo,
  rewardType: string,
  amount: bigint,
  units: string,
  percentageOfTotal: string,
  rowId: string
): EpochRow => ({
  epoch,
  receivedAt,
  receivedAtIso,
  partyId: party,
  alias: aliases[party],
  asset,
  rewardType,
  amount,
  units,
  percentageOfTotal,
  lockedUntilEpoch: epoch,
  gameId: undefined,
  teamId: undefined,
  rowId
})

/** The sample report's per-epoch rows, in report order. */
export const sampleRows: ReadonlyArray<EpochRow> = [
  epochRow(
    41n,
    1712050000123456000n,
    "2024-04-02T09:26:40.123456Z",
    parties.alice,
    VEGA,
    "ACCOUNT_TYPE_GLOBAL_REWARD",
    1_000_000_000_000_000_000n,
    "1",
    "40",
    "5f1c0b5f7a3b1c9e0d2a4b6c8e0f1a3b5c7d9e1f2a4b6c8d0e2f4a6b8c0d2e4f"
  ),
  epochRow(
    41n,
    1712050000123456000n,
    "2024-04-02T09:26:40.123456Z",
    parties.dave,
    VEGA,
    "ACCOUNT_TYPE_GLOBAL_REWARD",
    123n,
    "0.000000000000000123",
    "5e-05",
    "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"
  ),
  epochRow(
    42n,
    1712053600000000000n,
    "2024-04-02T10:26:40.000000Z",
    parties.alice,
    USDT,
    "ACCOUNT_TYPE_FEES_INFRASTRUCTURE",
    500_000_123n,
    "500.000123",
    "33.333333333333336",
    "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d"
  ),
  epochRow(
    42n,
    1712053600000000000n,
    "2024-04-02T10:26:40.000000Z",
    parties.carol,
    VEGA,
    "ACCOUNT_TYPE_GLOBAL_REWARD",
    865_625_000_000_000_000n,
    "0.865625",
    "100",
    "1111111111111111111111111111111111111111111111111111111111111111"
  )
]

export const sampleReport: Report = {
  provenance: {
    nodes: ["http://127.0.0.1:3008", "http://127.0.0.1:3009"],
    height: 1234567n,
    lowestHeight: 1234566n,
    blockTime: "2024-04-02T10:20:30.123456Z",
    filters: noFilters,
    generatedAt: "2026-11-22T08:00:00.000Z",
    generator: "vega-effect reward-report 0.0.0"
  },
  view: "assets",
  totals: [
    { asset: USDT, parties: 2, amount: 1_500_000_123n, units: "1500.000123" },
    { asset: VEGA, parties: 4, amount: 3_731_250_000_000_000_123n, units: "3.731250000000000123" }
  ],
  lines: [
    line(1, parties.bob, USDT, 1_000_000_000n, "1000", "66.6667"),
    line(2, parties.alice, USDT, 500_000_123n, "500.000123", "33.3333"),
    line(1, parties.alice, VEGA, 2_000_000_000_000_000_000n, "2", "53.6013"),
    line(2, parties.bob, VEGA, 865_625_000_000_000_000n, "0.865625", "23.1993"),
    line(2, parties.carol, VEGA, 865_625_000_000_000_000n, "0.865625", "23.1993"),
    line(4, parties.dave, VEGA, 123n, "0.000000000000000123", "0.0000")
  ],
  epochs: listOf(sampleRows),
  crossCheck: {
    status: "failed",
    pairs: 6,
    rows: 4,
    mismatches: [{ partyId: parties.bob, alias: aliases[parties.bob], asset: USDT, summary: 1_000_000_000n, rows: 0n }]
  }
}
