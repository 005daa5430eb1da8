/**
 * Reports read from a simulated network against its ground truth: the world's own reward totals
 * and payout rows, scaled here independently of the code under test.
 */
import { assert, describe, it } from "@effect/vitest"
import { Simulator } from "@vega-effect/simulator"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Either from "effect/Either"
import * as Html from "../src/formats/Html.js"
import * as Json from "../src/formats/Json.js"
import * as Progress from "../src/Progress.js"
import { layerSilent } from "../src/Progress.js"
import { type EpochRow, type Filters, noFilters, type Report } from "../src/Report.js"
import { ReadError } from "../src/ReadError.js"
import { TooManyRequests } from "../src/RequestEstimate.js"
import { listOf } from "../src/RowStore.js"
import { clientLayer, makeReport, type RunOptions } from "../src/Run.js"
import { withProxy } from "./support/proxy.js"

type World = Simulator.Service["world"]

const filters = (overrides: Partial<Filters> = {}): Filters => ({ ...noFilters, ...overrides })

const options = (overrides: Partial<RunOptions> = {}): RunOptions => ({
  nodes: [],
  seed: 1,
  view: "assets",
  filters: filters(),
  format: "json",
  output: undefined,
  epochs: false,
  timeout: Duration.seconds(30),
  ...overrides
})

/** Base units as asset units, by string surgery (independent of the schema's decimal code). */
const scale = (amount: bigint, decimals: number): string => {
  const digits = amount.toString().padStart(decimals + 1, "0")
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "")
  return fraction === "" ? whole : `${whole}.${fraction}`
}

/** party|asset → total, as the world holds it now. */
const worldTotals = (world: World): Map<string, bigint> => {
  const out = new Map<string, bigint>()
  for (const [party, byAsset] of world.rewards.totals) {
    for (const [asset, history] of byAsset) {
      const visible = history.filter((h) => h.from <= world.height)
      if (visible.length > 0) out.set(`${party}|${asset}`, visible[visible.length - 1].total)
    }
  }
  return out
}

const assetById = (world: World, id: string) => world.catalog.assets.find((a) => a.id === id)!

/** A report with its per-epoch rows in memory. */
type ReadReport = Omit<Report, "epochs"> & { readonly epochs: ReadonlyArray<EpochRow> | undefined }

/** A per-epoch row as the JSON output lists it. */
interface JsonRow {
  readonly [field: string]: string | null
}

/**
 * The per-epoch rows as the JSON output lists them, read back (a report made for JSON has its rows
 * laid out as JSON as they were read: what it writes is all there is of them).
 */
const listed = (report: Report): ReadonlyArray<EpochRow> => {
  const assets = new Map(report.totals.map(({ asset }) => [asset.id, asset]))
  const { epochs } = JSON.parse(Json.render(report)) as { readonly epochs: ReadonlyArray<JsonRow> }
  return epochs.map((e) => ({
    epoch: BigInt(e.epoch!),
    receivedAt: BigInt(e.receivedAt!),
    receivedAtIso: e.receivedAtIso!,
    partyId: e.partyId!,
    alias: e.alias ?? undefined,
    asset: assets.get(e.assetId!)!,
    rewardType: e.rewardType!,
    amount: BigInt(e.amountRaw!),
    units: e.amount!,
    percentageOfTotal: e.percentageOfTotal!,
    lockedUntilEpoch: BigInt(e.lockedUntilEpoch!),
    gameId: e.gameId ?? undefined,
    teamId: e.teamId ?? undefined,
    rowId: e.rowId!
  }))
}

/** The report with its per-epoch rows read back from its JSON (they are readable only while its scope is open). */
const reportOf = (sim: Simulator.Service, o: RunOptions, url = sim.url) =>
  makeReport({ ...o, format: "json" }).pipe(
    Effect.map((report): ReadReport => ({ ...report, epochs: report.epochs && listed(report) })),
    Effect.scoped,
    Effect.provide(clientLayer([url], o.timeout, false)),
    Effect.provide(layerSilent)
  )

/** Every line and total of `report` equals the world's totals restricted to `keep`. */
const assertTotals = (
  report: Pick<Report, "lines" | "totals">,
  world: World,
  keep: (party: string, asset: string) => boolean
) => {
  const expected = [...worldTotals(world)].filter(([key]) => keep(...(key.split("|") as [string, string])))
  assert.isAbove(expected.length, 0, "the filter keeps some totals")
  const lines = new Map(report.lines.map((l) => [`${l.partyId}|${l.asset.id}`, l]))
  assert.strictEqual(report.lines.length, expected.length)
  for (const [key, amount] of expected) {
    const line = lines.get(key)
    assert.isDefined(line, key)
    const asset = assetById(world, line!.asset.id)
    assert.strictEqual(line!.amount, amount)
    assert.strictEqual(line!.units, scale(amount, asset.decimals))
    assert.strictEqual(line!.asset.symbol, asset.symbol)
    assert.strictEqual(line!.asset.decimals, asset.decimals)
  }
  const perAsset = new Map<string, bigint>()
  for (const [key, amount] of expected) {
    const asset = key.split("|")[1]
    perAsset.set(asset, (perAsset.get(asset) ?? 0n) + amount)
  }
  assert.deepStrictEqual(
    new Map(report.totals.map((t) => [t.asset.id, t.amount])),
    perAsset,
    "asset totals are the sums of the world's totals"
  )
  for (const t of report.totals) assert.strictEqual(t.units, scale(t.amount, t.asset.decimals))
}

// four assets: VEGA and WETH with 18 decimals, USDT and USDC with 6
const world = { seed: 7, blockInterval: "manual" as const, scale: { parties: 60, assets: 4, epochs: 12 } }

describe("totals equal the simulator's ground truth", () => {
  it.scopedLive("every party and asset, with 18- and 6-decimal assets", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      const report = yield* reportOf(sim, options())
      assertTotals(report, sim.world, () => true)
      const decimals = new Set(report.totals.map((t) => t.asset.decimals))
      assert.deepStrictEqual([...decimals].sort(), [18, 6], "both kinds of asset are paid")
      // ranks and shares: largest first per asset, shares of the asset total
      for (const total of report.totals) {
        const lines = report.lines.filter((l) => l.asset.id === total.asset.id)
        assert.strictEqual(lines[0].rank, 1)
        for (let i = 1; i < lines.length; i++) assert.isTrue(lines[i - 1].amount >= lines[i].amount)
        const top = lines[0]
        const expectedShare = (top.amount * 1_000_000n + total.amount / 2n) / total.amount
        assert.strictEqual(top.share.replace(".", "").replace(/^0+(?=\d)/, ""), expectedShare.toString())
      }
      // aliases from profiles, as visible at the height read
      const aliasAt = (party: string) =>
        sim.world.profiles.versions.get(party)?.find((v) => v.from <= sim.world.height && sim.world.height < v.to)
          ?.alias
      const aliased = report.lines.filter((l) => l.alias !== undefined)
      assert.isAbove(aliased.length, 0)
      for (const line of report.lines) {
        const alias = aliasAt(line.partyId)
        assert.strictEqual(line.alias, alias === "" ? undefined : alias)
      }
      assert.deepStrictEqual(report.provenance.nodes, [sim.url])
      assert.strictEqual(report.provenance.height, BigInt(sim.world.height))
    })
  )

  it.scopedLive("with a node down among several, the others answer and the provenance names only them", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      const o = options()
      const report = yield* makeReport(o).pipe(
        Effect.provide(clientLayer(["http://127.0.0.1:1", sim.url], o.timeout, false)),
        Effect.provide(layerSilent)
      )
      assertTotals(report, sim.world, () => true)
      assert.deepStrictEqual(report.provenance.nodes, [sim.url])
    })
  )

  it.scopedLive("filtered by party, by asset symbol, and both", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      const keys = [...worldTotals(sim.world).keys()].map((k) => k.split("|"))
      const usdt = sim.world.catalog.assets.find((a) => a.symbol === "USDT")!
      const parties = [...new Set(keys.filter(([, a]) => a === usdt.id).map(([p]) => p))].slice(0, 2)
      assert.strictEqual(parties.length, 2)

      const byParty = yield* reportOf(sim, options({ filters: filters({ parties }) }))
      assertTotals(byParty, sim.world, (p) => parties.includes(p))

      const byAsset = yield* reportOf(sim, options({ filters: filters({ assets: ["USDT"] }) }))
      assertTotals(byAsset, sim.world, (_, a) => a === usdt.id)
      assert.deepStrictEqual(byAsset.provenance.filters.assets, [usdt.id])

      const both = yield* reportOf(sim, options({ filters: filters({ parties, assets: [usdt.id] }) }))
      assertTotals(both, sim.world, (p, a) => parties.includes(p) && a === usdt.id)
    })
  )

  it.scopedLive("per-epoch rows equal the world's payouts and add up to the totals", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ ...world, quirks: "v0.75" })
      const report = yield* reportOf(sim, options({ epochs: true, view: "epochs" }))
      const rows = sim.world.rewards.rows.filter((r) => r.from <= sim.world.height)
      const key = (epoch: bigint, party: string, asset: string, type: string, amount: bigint) =>
        `${epoch}|${party}|${asset}|${type}|${amount}`
      assert.deepStrictEqual(
        report.epochs!.map((r) => key(r.epoch, r.partyId, r.asset.id, r.rewardType, r.amount)).sort(),
        rows.map((r) => key(BigInt(r.epoch), r.party.id, r.asset.id, r.rewardType, r.amount)).sort()
      )
      for (const row of report.epochs!) assert.strictEqual(row.units, scale(row.amount, row.asset.decimals))
      assert.strictEqual(new Set(report.epochs!.map((r) => r.rowId)).size, report.epochs!.length, "ids are unique")
      assert.deepStrictEqual(report.crossCheck, {
        status: "passed",
        pairs: worldTotals(sim.world).size,
        rows: rows.length
      })
      // the same read again gives the same ids (they do not depend on the node's order)
      const again = yield* reportOf(sim, options({ epochs: true, view: "epochs" }))
      assert.deepStrictEqual(
        again.epochs!.map((r) => r.rowId),
        report.epochs!.map((r) => r.rowId)
      )
    })
  )

  it.scopedLive(
    "rows of several parties, read one party at a time, come merged in report order with the same ids",
    () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.make(world)
        const all = yield* reportOf(sim, options({ epochs: true, view: "epochs" }))
        const parties = [...new Set(all.epochs!.map((r) => r.partyId))].slice(0, 3).reverse()
        assert.strictEqual(parties.length, 3)
        const some = yield* reportOf(sim, options({ view: "epochs", filters: filters({ parties }) }))
        const theirs = all.epochs!.filter((r) => parties.includes(r.partyId))
        assert.isAbove(theirs.length, 3)
        assert.deepStrictEqual(
          some.epochs!.map((r) => r.rowId),
          theirs.map((r) => r.rowId)
        )
        assert.strictEqual(some.crossCheck?.status, "passed")
      })
  )

  it.scopedLive("an epoch range gives the sums of that range's rows, and skips the cross-check", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      const report = yield* reportOf(
        sim,
        options({ filters: filters({ fromEpoch: 3n, toEpoch: 5n, rewardTypes: ["ACCOUNT_TYPE_GLOBAL_REWARD"] }) })
      )
      const rows = sim.world.rewards.rows.filter(
        (r) => r.epoch >= 3 && r.epoch <= 5 && r.rewardType === "ACCOUNT_TYPE_GLOBAL_REWARD"
      )
      assert.isAbove(rows.length, 0)
      const sums = new Map<string, bigint>()
      for (const r of rows) sums.set(r.party.id, (sums.get(r.party.id) ?? 0n) + r.amount)
      assert.deepStrictEqual(new Map(report.lines.map((l) => [l.partyId, l.amount])), sums)
      assert.deepStrictEqual(
        report.lines.map((l) => l.asset.symbol),
        report.lines.map(() => "VEGA")
      )
      assert.strictEqual(report.crossCheck?.status, "skipped")
      assert.isTrue(report.epochs!.every((r) => r.epoch >= 3n && r.epoch <= 5n))
    })
  )

  it.scopedLive("an epoch ending during the read is read again, and the report is consistent", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      const before = worldTotals(sim.world)
      // the first request for per-epoch rows moves the chain past the end of the epoch
      let moved = false
      const url = yield* withProxy(sim.url, {
        onRequest: (path) =>
          path.startsWith("/api/v2/rewards?") && !moved
            ? Effect.gen(function* () {
                moved = true
                const blocksPerEpoch = sim.world.chain.epochLastBlock(2) - sim.world.chain.epochLastBlock(1)
                yield* sim.advance(blocksPerEpoch)
              })
            : Effect.void
      })
      const report = yield* reportOf(sim, options({ epochs: true }), url)
      assert.isTrue(moved)
      const after = worldTotals(sim.world)
      assert.notDeepEqual(after, before, "rewards were paid during the read")
      assert.strictEqual(report.crossCheck?.status, "passed")
      assertTotals(report, sim.world, () => true)
    })
  )

  it.scopedLive("with rows, totals are read asset by asset, including an asset the node does not list", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      const summaryReads: Array<string> = []
      let hidden: string | undefined
      const url = yield* withProxy(sim.url, {
        onRequest: (path) =>
          Effect.sync(() => {
            if (path.startsWith("/api/v2/rewards/summaries")) summaryReads.push(path)
          }),
        // the asset list leaves out one asset that rewards are paid in
        rewrite: (path, body) => {
          if (!path.startsWith("/api/v2/assets")) return body
          const json = JSON.parse(body) as { assets: { edges: Array<{ node: { id: string } }> } }
          const paid = new Set([...worldTotals(sim.world).keys()].map((key) => key.split("|")[1]))
          const at = json.assets.edges.findIndex((edge) => paid.has(edge.node.id))
          hidden = json.assets.edges[at].node.id
          json.assets.edges.splice(at, 1)
          return JSON.stringify(json)
        }
      })
      const report = yield* reportOf(sim, options({ epochs: true }), url)
      assert.isDefined(hidden)
      assert.strictEqual(report.crossCheck?.status, "passed")
      assertTotals(report, sim.world, () => true)
      assert.isTrue(report.totals.some((t) => t.asset.id === hidden))
      // one answer per asset: before the rows (the assets listed), after them (those too, and the hidden one)
      const assetIds = summaryReads.map((path) => new URL(path, "http://node").searchParams.get("assetId"))
      assert.notInclude(assetIds, null)
      assert.strictEqual(assetIds.filter((id) => id === hidden).length, 1)
      assert.strictEqual(summaryReads.length, 2 * sim.world.catalog.assets.length - 1)
    })
  )

  it.scopedLive("rows the node lists twice (vega#3760) are reported as mismatches", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make(world)
      const url = yield* withProxy(sim.url, {
        rewrite: (path, body) => {
          if (!path.startsWith("/api/v2/rewards?")) return body
          const json = JSON.parse(body) as { rewards: { edges: Array<unknown> } }
          const edges = json.rewards.edges
          if (edges.length > 0) edges.push(edges[0])
          return JSON.stringify(json)
        }
      })
      const report = yield* reportOf(sim, options({ epochs: true }), url)
      const check = report.crossCheck
      assert.strictEqual(check?.status, "failed")
      if (check?.status !== "failed") return
      assert.isAbove(check.mismatches.length, 0)
      for (const m of check.mismatches) {
        assert.isTrue(m.rows > m.summary, "a duplicated row adds to the sum")
        assert.strictEqual(m.summary, worldTotals(sim.world).get(`${m.partyId}|${m.asset.id}`))
      }
    })
  )
})

describe("the HTML page of the epochs view keeps only the rows it shows", () => {
  it.scopedLive("the same page as from every row kept, over more rows than it shows", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ ...world, scale: { ...world.scale, parties: 400 } })
      const read = (format: RunOptions["format"]) =>
        makeReport(options({ view: "epochs", format })).pipe(
          Effect.provide(clientLayer([sim.url], undefined, false)),
          Effect.provide(layerSilent)
        )
      // every row, as the JSON lists them
      const all = yield* read("json")
      const head = yield* read("html")
      assert.isAbove(all.epochs?.length ?? 0, Html.epochRowLimit, "more rows than the page shows")
      assert.strictEqual(head.epochs?.length, all.epochs?.length)
      // made at different moments: the pages are compared with one provenance
      assert.strictEqual(
        Html.render({ ...head, provenance: all.provenance }),
        Html.render({ ...all, epochs: listOf(listed(all)) }),
        "the page from the first rows kept"
      )
      assert.throws(() => [...(head.epochs ?? [])], /only the first 1000 of \d+ per-epoch rows were kept/)
    })
  )
})

describe("an epoch with more payouts than one answer holds", () => {
  // 5,199 parties all paid in VEGA in each of epochs 1 and 2: more than the 5,000 rows one answer holds
  const big = {
    seed: 11,
    blockInterval: "manual" as const,
    scale: { parties: 5_200, assets: 3, epochs: 2 },
    activity: { rewardShare: 1 }
  }

  /** A report read through a proxy that counts the per-epoch row requests, with the notes it printed. */
  const countedReport = (sim: Simulator.Service, o: RunOptions) =>
    Effect.gen(function* () {
      const counts = { rows: 0, byCursor: 0, byParty: 0 }
      const url = yield* withProxy(sim.url, {
        onRequest: (path) =>
          Effect.sync(() => {
            if (!path.startsWith("/api/v2/rewards?")) return
            const query = new URL(path, "http://node").searchParams
            counts.rows++
            if (query.has("pagination.after")) counts.byCursor++
            if (query.has("partyId")) counts.byParty++
          })
      })
      const notes: Array<string> = []
      // each step of the bar with its total and the most done
      const steps: Array<{ label: string; total: number | undefined; done: number }> = []
      const progress: Progress.Service = {
        ...Progress.silent,
        step: (label, total) => Effect.sync(() => void steps.push({ label, total, done: 0 })),
        update: (done) =>
          Effect.sync(() => void (steps[steps.length - 1].done = Math.max(steps[steps.length - 1].done, done))),
        note: (line) => Effect.sync(() => notes.push(line))
      }
      const report = yield* makeReport(o).pipe(
        Effect.provide(clientLayer([url], o.timeout, false)),
        Effect.provideService(Progress.Progress, progress),
        Effect.either
      )
      return { report, counts, notes, steps }
    })

  const failure = (outcome: Either.Either<Report, { readonly message: string }>) =>
    outcome._tag === "Right" ? "" : outcome.left.message
  const epochRows = options({ epochs: true, view: "epochs" })
  const visibleRows = (world: World) => world.rewards.rows.filter((r) => r.from <= world.height)
  const rowKey = (r: { epoch: bigint; partyId: string; asset: { id: string }; rewardType: string; amount: bigint }) =>
    `${r.epoch}|${r.partyId}|${r.asset.id}|${r.rewardType}|${r.amount}`

  it.scopedLive(
    "a correct node pages each epoch by cursor; one whose cursor restarts is read party by party, the same rows",
    () =>
      Effect.gen(function* () {
        const correctSim = yield* Simulator.make(big)
        const truth = visibleRows(correctSim.world)
        for (const epoch of [1, 2]) {
          assert.isAbove(truth.filter((r) => r.epoch === epoch && r.asset.symbol === "VEGA").length, 5_000)
        }
        const correct = yield* countedReport(correctSim, epochRows)
        assert.isTrue(correct.report._tag === "Right", failure(correct.report))
        if (correct.report._tag !== "Right") return
        const rows = listed(correct.report.right)
        assert.strictEqual(rows.length, truth.length)
        assert.strictEqual(correct.report.right.crossCheck?.status, "passed")
        // each big epoch in two pages, the second by cursor; the windows around them a few more
        assert.strictEqual(correct.counts.byCursor, 2)
        assert.strictEqual(correct.counts.byParty, 0)
        assert.isAtMost(correct.counts.rows, Math.ceil(truth.length / 5_000) + 6)
        assert.deepStrictEqual(correct.notes, [])

        const quirkySim = yield* Simulator.make({ ...big, quirks: "v0.75" })
        // its party profiles too, which a node cannot page by cursor (read by id instead)
        const quirky = yield* countedReport(quirkySim, epochRows)
        assert.isTrue(quirky.report._tag === "Right", failure(quirky.report))
        if (quirky.report._tag !== "Right") return
        // the same rows, ids included (nothing lost or repeated by the attempt that restarted)
        const quirkyRows = listed(quirky.report.right)
        assert.deepStrictEqual(quirkyRows.map(rowKey), rows.map(rowKey))
        assert.deepStrictEqual(
          quirkyRows.map((r) => r.rowId),
          rows.map((r) => r.rowId)
        )
        assert.strictEqual(quirky.report.right.crossCheck?.status, "passed")
        // one cursor attempt (epoch 1); epoch 2 goes straight to the split: one request per VEGA party
        const vega = quirkySim.world.catalog.assets.find((a) => a.symbol === "VEGA")!.id
        const vegaParties = [...worldTotals(quirkySim.world).keys()].filter((k) => k.endsWith(`|${vega}`)).length
        assert.strictEqual(quirky.counts.byCursor, 1)
        assert.strictEqual(quirky.counts.byParty, 2 * vegaParties)
        const estimate = `${vegaParties.toLocaleString("en-US")} requests, about 4 min 20 s at the node's 20 requests/s`
        // the bar follows each party-by-party read to its end, then the epochs again
        const splits = quirky.steps.filter((step) => step.label.endsWith("party by party"))
        assert.deepStrictEqual(splits, [
          { label: "epoch 1, party by party", total: vegaParties, done: vegaParties },
          { label: "epoch 2, party by party", total: vegaParties, done: vegaParties }
        ])
        assert.deepStrictEqual(
          correct.steps.filter((step) => step.label.endsWith("party by party")),
          []
        )
        assert.deepStrictEqual(quirky.notes, [
          `vega-reward-report: epoch 1 has more than 5000 payouts in VEGA that the node cannot page: reading them party by party: ${estimate}`,
          `vega-reward-report: epoch 2 has more than 5000 payouts in VEGA that the node cannot page: reading them party by party: ${estimate}`
        ])
        console.log(
          `rows ${truth.length}: correct node ${correct.counts.rows} requests (${correct.counts.byCursor} by cursor); ` +
            `quirky node ${quirky.counts.rows} requests (${quirky.counts.byCursor} by cursor, ${quirky.counts.byParty} by party)`
        )
      }),
    180_000
  )

  it.scopedLive("a split read needing more than maxRequests is refused before its first party request", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ ...big, quirks: "v0.75" })
      const refused = yield* countedReport(sim, { ...epochRows, maxRequests: 1_000 })
      assert.strictEqual(refused.report._tag, "Left")
      if (refused.report._tag !== "Left") return
      const error = refused.report.left
      assert.instanceOf(error, TooManyRequests)
      assert.match(
        error.message,
        /^epoch 1 has more than 5000 payouts in VEGA that the node cannot page: reading them party by party needs 5,\d{3} requests, about 4 min 20 s at the node's 20 requests\/s, more than --max-requests 1000 \(VEGA_REPORT_MAX_REQUESTS\); nothing was written/
      )
      assert.strictEqual(refused.counts.byParty, 0, "no request of the split was sent")
    })
  )
  it.scopedLive(
    "a node whose payout times go back fails a tax import's read; other formats list the rows",
    () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.make(big)
        // every row of epoch 2 said to be paid before any of epoch 1 (each epoch is a window of its own)
        const url = yield* withProxy(sim.url, {
          rewrite: (path, body) => {
            if (!path.startsWith("/api/v2/rewards?")) return body
            const json = JSON.parse(body) as {
              rewards: { edges: Array<{ node: { epoch: string; receivedAt: string } }> }
            }
            for (const { node } of json.rewards.edges) if (node.epoch === "2") node.receivedAt = "1"
            return JSON.stringify(json)
          }
        })
        const read = (format: RunOptions["format"]) =>
          makeReport(options({ epochs: true, format })).pipe(
            Effect.provide(clientLayer([url], undefined, false)),
            Effect.provide(layerSilent),
            Effect.either
          )
        for (const format of ["koinly", "cointracking"] as const) {
          const outcome = yield* read(format)
          assert.strictEqual(outcome._tag, "Left", format)
          if (outcome._tag === "Left") {
            assert.instanceOf(outcome.left, ReadError)
            assert.include(outcome.left.message, "payout times go back from one epoch to a later one")
          }
        }
        const csv = yield* read("csv")
        assert.strictEqual(csv._tag, "Right", failure(csv))
      }),
    180_000
  )
})
