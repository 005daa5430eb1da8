/**
 * Decoding throughput on bulk rows: 100,000 positions and 100,000 stake linkings, served as
 * pages of 1,000 (the node's default page size). Prints records/s for JSON.parse alone and for
 * JSON.parse plus schema decoding, measured in the same run, and the ratio between them.
 *
 * Run: npx -y pnpm@10 --filter @vega-effect/schema bench
 */
import { createHash } from "node:crypto"
import { Schema } from "effect"
import { Decoder, Position, StakeLinking } from "@vega-effect/schema"

const ROWS = 100_000
const PAGE = 1_000
const ROUNDS = 7

const hex = (seed: string) => createHash("sha256").update(seed).digest("hex")
const cursor = (seed: string) =>
  Buffer.from(JSON.stringify({ vegaTime: "2024-04-01T09:30:12.345678Z", id: hex(seed) })).toString("base64")

const statuses = [
  "POSITION_STATUS_UNSPECIFIED",
  "POSITION_STATUS_ORDERS_CLOSED",
  "POSITION_STATUS_CLOSED_OUT",
  "POSITION_STATUS_DISTRESSED"
]
const markets = Array.from({ length: 50 }, (_, i) => hex(`market-${i}`))

const positionPage = (page: number): string => {
  const edges = []
  for (let i = 0; i < PAGE; i++) {
    const n = page * PAGE + i
    edges.push({
      node: {
        marketId: markets[n % markets.length],
        partyId: hex(`party-${n}`),
        openVolume: String((n % 2 === 0 ? -1 : 1) * (n * 37)),
        realisedPnl: String(-(n * 1234567)),
        unrealisedPnl: String(n * 7654321),
        averageEntryPrice: String(100000 + n),
        updatedAt: String(1711965012345678000n + BigInt(n) * 1000n),
        lossSocialisationAmount: "0",
        positionStatus: statuses[n % 4]
      },
      cursor: cursor(`p-${n}`)
    })
  }
  return JSON.stringify({
    positions: {
      edges,
      pageInfo: {
        hasNextPage: true,
        hasPreviousPage: false,
        startCursor: edges[0].cursor,
        endCursor: edges[PAGE - 1].cursor
      }
    }
  })
}

const stakePage = (page: number): string => {
  const edges = []
  for (let i = 0; i < PAGE; i++) {
    const n = page * PAGE + i
    edges.push({
      node: {
        id: hex(`sl-${n}`),
        type: n % 3 === 0 ? "TYPE_UNLINK" : "TYPE_LINK",
        ts: String(1636134806 + n),
        party: hex(`party-${n % 5000}`),
        amount: `${n + 1}000000000000000000`,
        status: n % 7 === 0 ? "STATUS_PENDING" : "STATUS_ACCEPTED",
        finalizedAt: String(1711965012345678000n + BigInt(n) * 1000n),
        txHash: `0x${hex(`tx-${n}`)}`,
        blockHeight: String(19500000 + n),
        blockTime: String(1636134806 + n),
        logIndex: String(n % 10),
        ethereumAddress: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
      },
      cursor: cursor(`s-${n}`)
    })
  }
  return JSON.stringify({
    currentStakeAvailable: "123000000000000000000",
    stakeLinkings: {
      edges,
      pageInfo: {
        hasNextPage: true,
        hasPreviousPage: false,
        startCursor: edges[0].cursor,
        endCursor: edges[PAGE - 1].cursor
      }
    }
  })
}

const measure = (pages: ReadonlyArray<string>, work: (text: string) => unknown): number => {
  const times: Array<number> = []
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint()
    for (const text of pages) work(text)
    times.push(Number(process.hrtime.bigint() - start) / 1e9)
  }
  times.sort((a, b) => a - b)
  return ROWS / times[Math.floor(times.length / 2)]
}

const report = <A, I>(name: string, pages: ReadonlyArray<string>, schema: Schema.Schema<A, I>) => {
  const compiled = Decoder.decodeUnknownSync(schema)
  const effect = Schema.decodeUnknownSync(schema)
  // warm every path up so the JIT has seen it before timing
  for (const text of pages.slice(0, 10)) {
    compiled(JSON.parse(text))
    effect(JSON.parse(text))
  }
  const parseOnly = measure(pages, (text) => JSON.parse(text))
  const withDecoder = measure(pages, (text) => compiled(JSON.parse(text)))
  const withSchema = measure(pages, (text) => effect(JSON.parse(text)))
  const fmt = (n: number) => Math.round(n).toLocaleString("en-US").padStart(10)
  const line = (label: string, rate: number) =>
    console.log(
      `  ${label.padEnd(44)} ${fmt(rate)} rec/s   ${(parseOnly / rate).toFixed(2)}x the time of JSON.parse alone`
    )
  console.log(name)
  line("JSON.parse alone", parseOnly)
  line("JSON.parse + Decoder.decodeUnknownSync", withDecoder)
  line("JSON.parse + Schema.decodeUnknownSync", withSchema)
}

const positionPages = Array.from({ length: ROWS / PAGE }, (_, i) => positionPage(i))
const stakePages = Array.from({ length: ROWS / PAGE }, (_, i) => stakePage(i))

console.log(
  `${ROWS.toLocaleString("en-US")} rows each, pages of ${PAGE}, median of ${ROUNDS} rounds (node ${process.version})`
)
report("positions", positionPages, Position.ListPositionsResponse)
report("stake linkings", stakePages, StakeLinking.GetStakeResponse)
