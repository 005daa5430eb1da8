/**
 * Decoding cost on bulk rows, against `JSON.parse` alone, in the same run: pages of 1,000 rows (the
 * node's default page size) of positions and stake linkings (hand-written schemas), and of orders,
 * trades, ledger entries and accounts (generated schemas, answers of `DataNodeApi.ListOrders`,
 * `ListTrades`, `ListLedgerEntries` and `ListAccounts`).
 *
 * For each kind, every round times three ways of reading the same pages: `JSON.parse` alone,
 * `JSON.parse` then `Decoder.decodeUnknownSync` (the compiled fast path), and `JSON.parse` then
 * Effect's `Schema.decodeUnknownSync`, in an order that turns from round to round, each after a
 * minor garbage collection (run with `--expose-gc`) so that none pays for the garbage of the way
 * before it. A round's ratio is the time of a decoding way over the time of `JSON.parse` alone in
 * that round; the figures are the medians over the rounds. The run also checks that the fast path decoded every page itself
 * (no page handed back to Effect's parser), and that both decoders agree on the first page.
 *
 * Prints the figures, and writes them into this package's README, between the `bench:decode`
 * markers.
 *
 * Run: npx -y pnpm@10 --filter @vega-effect/schema bench
 * (node --expose-gc --import tsx --conditions=@vega-effect/source bench/decode.ts)
 */
import { createHash } from "node:crypto"
import { readFileSync, writeFileSync } from "node:fs"
import { cpus } from "node:os"
import { fileURLToPath } from "node:url"
import { DataNodeApi, Decoder, Position, StakeLinking } from "@vega-effect/schema"
import * as Schema from "effect/Schema"
import * as FastDecode from "../src/internal/fastDecode.js"
import { type Handwritten, read } from "../test/support/handwritten.js"
import { Instances, loadSpec, Random, refName, UINT256_MAX } from "../test/support/spec.js"

const PAGE = 1_000
/** distinct pages of each kind, decoded in every round */
const PAGES = 10
const ROUNDS = 21
/** the goal for the compiled decoder: at most this many times the time of `JSON.parse` alone */
const GOAL = 1.5

const hex = (seed: string) => createHash("sha256").update(seed).digest("hex")
const cursor = (seed: string) =>
  Buffer.from(JSON.stringify({ vegaTime: "2024-04-01T09:30:12.345678Z", id: hex(seed) })).toString("base64")

const pageInfo = (edges: ReadonlyArray<{ readonly cursor: string }>) => ({
  hasNextPage: true,
  hasPreviousPage: false,
  startCursor: edges[0].cursor,
  endCursor: edges[edges.length - 1].cursor
})

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
  return JSON.stringify({ positions: { edges, pageInfo: pageInfo(edges) } })
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
    stakeLinkings: { edges, pageInfo: pageInfo(edges) }
  })
}

const spec = loadSpec("v0.75.0")

/**
 * The extremes the spec instances hold on purpose, for the tests (a third of the amounts at
 * 2^256 - 1, of the 64-bit integers at their bounds), which a node's pages rarely hold: each is
 * written as a digit string of 1 to 18 digits instead, valid for every kind of member that holds
 * one.
 */
const EXTREMES = new Set([UINT256_MAX, "18446744073709551615", "9223372036854775807", "-9223372036854775808"])
const withoutExtremes = (random: Random) => (_: string, value: unknown) =>
  typeof value === "string" && EXTREMES.has(value)
    ? `${value.startsWith("-") ? "-" : ""}${random.digits(1 + random.int(18))}`
    : value

/**
 * Pages of a paged route made from Vega's spec alone (`test/support/spec.ts`): every member as a
 * node writes it (ids 64 hex, amounts and 64-bit integers digit strings, enums by name, unset
 * messages `null`), without the extremes, seeded, the same in every run.
 */
const specPages = (endpoint: DataNodeApi.Any, connection: string, seed: number): ReadonlyArray<string> => {
  const definition = refName(spec.paths[endpoint.path].get.responses["200"].content["application/json"].schema.$ref)
  const connectionDefinition = refName(spec.components[definition].properties[connection].$ref)
  const edgeDefinition = refName(spec.components[connectionDefinition].properties.edges.items.$ref)
  // the hand-written schemas a generated row reuses say what their members hold
  const handwritten: Handwritten = { kinds: new Map(), alwaysSet: new Set(), optional: new Set() }
  read(spec, definition, endpoint.response.ast, handwritten)
  const instances = new Instances(spec, new Random(seed), { handwritten })
  const ordinary = withoutExtremes(new Random(seed))
  return Array.from({ length: PAGES }, () => {
    const edges = Array.from({ length: PAGE }, () => instances.definition(edgeDefinition) as { cursor: string })
    return JSON.stringify({ [connection]: { edges, pageInfo: pageInfo(edges) } }, ordinary)
  })
}

interface Row {
  readonly name: string
  readonly kib: number
  readonly parse: number
  readonly decoder: number
  readonly effect: number
}

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const time = (pages: ReadonlyArray<string>, work: (text: string) => unknown): number => {
  globalThis.gc?.({ type: "minor" })
  const start = process.hrtime.bigint()
  for (const text of pages) work(text)
  return Number(process.hrtime.bigint() - start) / 1e9
}

const measure = <A, I>(name: string, pages: ReadonlyArray<string>, schema: Schema.Schema<A, I>): Row => {
  const fast = FastDecode.compile(schema.ast)
  const compiled = Decoder.decodeUnknownSync(schema)
  const effect = Schema.decodeUnknownSync(schema)
  for (const text of pages) {
    // the figures are the fast path's only if it decodes every page by itself
    if (fast(JSON.parse(text)) === FastDecode.FAIL) throw new Error(`${name}: the fast path gave a page up`)
  }
  const first = JSON.parse(pages[0])
  if (JSON.stringify(compiled(first), replacer) !== JSON.stringify(effect(first), replacer)) {
    throw new Error(`${name}: the decoders disagree`)
  }
  const ways: ReadonlyArray<(text: string) => unknown> = [
    (text) => JSON.parse(text),
    (text) => compiled(JSON.parse(text)),
    (text) => effect(JSON.parse(text))
  ]
  // warm every way up so that the JIT has seen it before timing
  for (const way of ways) time(pages.slice(0, 2), way)
  const parse: Array<number> = []
  const decoder: Array<number> = []
  const slow: Array<number> = []
  for (let round = 0; round < ROUNDS; round++) {
    const seconds = [0, 0, 0]
    for (let k = 0; k < ways.length; k++) {
      const way = (round + k) % ways.length
      seconds[way] = time(pages, ways[way])
    }
    parse.push(seconds[0])
    decoder.push(seconds[1] / seconds[0])
    slow.push(seconds[2] / seconds[0])
  }
  const bytes = pages.reduce((sum, text) => sum + text.length, 0)
  return {
    name,
    kib: bytes / pages.length / 1024,
    parse: (pages.length * PAGE) / median(parse),
    decoder: median(decoder),
    effect: median(slow)
  }
}

/** JSON of decoded values, bigints as text. */
const replacer = (_: string, value: unknown) => (typeof value === "bigint" ? `${value}n` : value)

const cpu = cpus()
const setting = `pages of ${PAGE.toLocaleString("en-US")} rows, ${PAGES} of each kind, medians of ${ROUNDS} interleaved rounds`
console.log(setting)
const rows: Array<Row> = [
  measure(
    "positions",
    Array.from({ length: PAGES }, (_, i) => positionPage(i)),
    Position.ListPositionsResponse
  ),
  measure(
    "stake linkings",
    Array.from({ length: PAGES }, (_, i) => stakePage(i)),
    StakeLinking.GetStakeResponse
  ),
  measure("orders", specPages(DataNodeApi.ListOrders, "orders", 1), DataNodeApi.ListOrders.response),
  measure("trades", specPages(DataNodeApi.ListTrades, "trades", 2), DataNodeApi.ListTrades.response),
  measure(
    "ledger entries",
    specPages(DataNodeApi.ListLedgerEntries, "ledgerEntries", 3),
    DataNodeApi.ListLedgerEntries.response
  ),
  measure("accounts", specPages(DataNodeApi.ListAccounts, "accounts", 4), DataNodeApi.ListAccounts.response)
]

const fmt = (n: number) => Math.round(n).toLocaleString("en-US")
const times = (x: number) => `${x.toFixed(2)}x`
const lines = [
  setting,
  `node ${process.version}, ${cpu.length} cores (${cpu[0]?.model.trim() ?? "unknown"})`,
  `time of JSON.parse + decoding, over the time of JSON.parse alone (goal for Decoder: <= ${GOAL.toFixed(2)}x)`,
  "",
  `${"rows".padEnd(15)} ${"KiB/page".padStart(8)} ${"JSON.parse alone".padStart(17)} ${"+ Decoder".padStart(10)} ${"+ Schema.decodeUnknownSync".padStart(27)}`,
  ...rows.map(
    (r) =>
      `${r.name.padEnd(15)} ${fmt(r.kib).padStart(8)} ${`${fmt(r.parse)} rows/s`.padStart(17)} ` +
      `${times(r.decoder).padStart(10)} ${times(r.effect).padStart(27)}`
  ),
  "",
  `Decoder within ${GOAL.toFixed(2)}x: ${rows.filter((r) => r.decoder <= GOAL).length} of ${rows.length} kinds` +
    (rows.some((r) => r.decoder > GOAL)
      ? ` (not: ${rows
          .filter((r) => r.decoder > GOAL)
          .map((r) => r.name)
          .join(", ")})`
      : "")
]
for (const line of lines.slice(1)) console.log(line)

const readme = fileURLToPath(new URL("../README.md", import.meta.url))
const START = "<!-- bench:decode:start -->"
const END = "<!-- bench:decode:end -->"
const text = readFileSync(readme, "utf8")
const from = text.indexOf(START)
const to = text.indexOf(END)
if (from === -1 || to < from) throw new Error(`${readme}: no ${START} ... ${END} markers`)
writeFileSync(
  readme,
  `${text.slice(0, from + START.length)}\n\n\`\`\`\n${lines.join("\n")}\n\`\`\`\n\n${text.slice(to)}`
)
console.log("written into packages/schema/README.md")
