/**
 * The HTML page: self-contained, escaped, with bars proportional to the exact amounts — checked in
 * the markup, against a golden file, and in a real browser's pixels (skipped where there is no Chromium).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { PNG } from "pngjs"
import { describe, expect, it } from "vitest"
import { chart, chunks, escapeHtml, render } from "../src/formats/Html.js"
import { provenanceEntries } from "../src/formats/text.js"
import type { AssetInfo, EpochRow, PartyLine, Report } from "../src/Report.js"
import { chromiumAvailable, screenshot } from "./support/chromium.js"
import { listOf } from "../src/RowStore.js"
import { parties, sampleReport, sampleRows, USDT, VEGA } from "./support/sample.js"

const goldenFile = join(dirname(fileURLToPath(import.meta.url)), "golden", "sample.assets.html")

/** The `name="value"` attributes of a tag's attribute text. */
const attributes = (text: string): Record<string, string> =>
  Object.fromEntries([...text.matchAll(/([\w:-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]))

interface Bar {
  readonly width: number
  readonly fill: string
  readonly title: string
}

/** The bars of each asset's chart, by asset id, top to bottom. */
const chartBars = (html: string): Map<string, ReadonlyArray<Bar>> =>
  new Map(
    [...html.matchAll(/<svg\b([^>]*)>([\s\S]*?)<\/svg>/g)].map((svg) => [
      attributes(svg[1])["data-asset"],
      [...svg[2].matchAll(/<rect\b([^>]*)>(?:<title>([^<]*)<\/title>)?/g)].map((rect) => {
        const attrs = attributes(rect[1])
        return { width: Number(attrs.width), fill: attrs.fill, title: rect[2] ?? "" }
      })
    ])
  )

/** What the chart should show for `asset`: its lines best first (at most 20), bar widths by bigint math. */
const expectedBars = (report: Report, asset: AssetInfo) => {
  const lines = report.lines
    .filter((line) => line.asset.id === asset.id)
    .sort((a, b) => a.rank - b.rank)
    .slice(0, 20)
  const max = lines.reduce((m, line) => (line.amount > m ? line.amount : m), 0n)
  return lines.map((line) => {
    const width = Number((line.amount * 600n) / max)
    return { line, width: line.amount > 0n && width === 0 ? 1 : width }
  })
}

const vegaLine = (rank: number, n: number, amount: bigint): PartyLine => ({
  rank,
  partyId: n.toString(16).padStart(64, "0"),
  alias: undefined,
  asset: VEGA,
  amount,
  units: String(amount),
  share: "0.0000"
})

const epochRow = (n: number): EpochRow => ({ ...sampleRows[0], epoch: BigInt(n), rowId: String(n) })

describe("Html.render", () => {
  const html = render(sampleReport)

  it("is one self-contained HTML5 page", () => {
    expect(html.startsWith('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">')).toBe(true)
    expect(html).toContain("<title>Vega rewards report</title>")
    expect(html).toContain("<h1>Vega rewards report</h1>")
    expect(html).toContain("<style>")
    expect(html.trimEnd().endsWith("</html>")).toBe(true)
    expect(html).not.toMatch(/<script/i)
    expect(html).not.toMatch(/<(?:link|img|iframe|object|embed|base)\b/i)
    expect(html).not.toMatch(/\b(?:src|href|srcset|xlink:href|action|poster)\s*=/i)
    expect(html).not.toMatch(/url\(|@import/i)
    // the node URLs are there, but only as the provenance's text
    expect([...html.matchAll(/https?:\/\//g)]).toHaveLength(2)
    expect(html).toContain("<dt>node</dt><dd>http://127.0.0.1:3008, http://127.0.0.1:3009</dd>")
  })

  it("shows the provenance", () => {
    for (const [name, value] of provenanceEntries(sampleReport.provenance)) {
      expect(html).toContain(`<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`)
    }
    expect(html).toContain("<dd>1234566–1234567</dd>")
    expect(html).toContain("<dd>2024-04-02T10:20:30.123456Z</dd>")
  })

  it("escapes all text from the chain", () => {
    expect(escapeHtml(`a & b < c > d " e ' f`)).toBe("a &amp; b &lt; c &gt; d &quot; e &#39; f")
    expect(html).toContain("&lt;b&gt;Bob&lt;/b&gt; &amp; | co")
    expect(html).not.toContain("<b>")
    expect(html).toContain("Alice, &quot;the&quot; staker")
    expect(html).toContain("Carol second line")

    const hostile = `"><script>alert('x')</script><img src=https://evil.example/x.png onerror=alert(1)>`
    const page = render({
      ...sampleReport,
      view: "epochs",
      lines: sampleReport.lines.map((line) => ({ ...line, alias: hostile })),
      epochs: listOf(sampleRows.map((row) => ({ ...row, alias: hostile, rewardType: hostile })))
    })
    expect(page).not.toMatch(/<script|<img|onerror="/i)
    const tags = new Set([...page.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].map((m) => m[1].toLowerCase()))
    const allowed =
      "html head meta title style body h1 h2 h3 p span dl dt dd section table thead tbody tr th td svg g rect text"
    expect([...tags].filter((tag) => !allowed.split(" ").includes(tag))).toEqual([])
  })

  it("shows the totals per asset, grouped", () => {
    expect(html).toContain('<td class="num">1,500.000123 USDT</td>')
    expect(html).toContain('<td class="num">3.731250000000000123 VEGA</td>')
  })

  it("draws bars proportional to the exact amounts", () => {
    const bars = chartBars(html)
    expect([...bars.keys()]).toEqual([USDT.id, VEGA.id])
    sampleReport.totals.forEach(({ asset }, index) => {
      const expected = expectedBars(sampleReport, asset)
      const drawn = bars.get(asset.id)!
      expect(drawn.map((bar) => bar.width)).toEqual(expected.map((bar) => bar.width))
      expect(new Set(drawn.map((bar) => bar.fill))).toEqual(new Set([chart.palette[index]]))
      drawn.forEach((bar, i) => expect(bar.title).toContain(expected[i].line.partyId))
    })
    // by hand: 0.865625 / 2 of 600 px is 259.6875; 123 base units of 2 VEGA is under a pixel, drawn as 1
    expect(bars.get(VEGA.id)!.map((bar) => bar.width)).toEqual([600, 259, 259, 1])
    expect(bars.get(USDT.id)!.map((bar) => bar.width)).toEqual([600, 300])
    expect(html).toMatch(/<svg class="chart" [^>]*role="img" aria-label="Top earners in VEGA: 4 parties/)
  })

  it("charts the best 20 of an asset by rank, whatever the sort", () => {
    const lines = Array.from({ length: 25 }, (_, i) => vegaLine(i + 1, i + 1, BigInt(25 - i) * 10n ** 18n)).reverse()
    const report: Report = { ...sampleReport, totals: [sampleReport.totals[1]], lines }
    const page = render(report)
    const drawn = chartBars(page).get(VEGA.id)!
    expect(drawn.map((bar) => bar.width)).toEqual(expectedBars(report, VEGA).map((bar) => bar.width))
    expect(drawn).toHaveLength(20)
    expect(drawn[0].width).toBe(600)
    expect(drawn[19].width).toBe(144) // 6/25 of 600
    expect(page).toContain("The top 20 of 25 parties, best first")
  })

  it("has no chart for the totals and epochs views", () => {
    for (const view of ["totals", "epochs"] as const) {
      const page = render({ ...sampleReport, view, lines: [] })
      expect(page).not.toContain("<svg")
      expect(page).toContain(`The ${view} view lists no party totals, so there is no chart.`)
    }
    expect(render({ ...sampleReport, view: "totals", lines: [] })).not.toContain('<section id="view">')
  })

  it("groups the parties view by party", () => {
    const lines = [0, 3, 1, 2, 4, 5].map((i) => sampleReport.lines[i])
    const page = render({ ...sampleReport, view: "parties", lines })
    expect(page).toContain("<h2>Assets per party</h2>")
    expect([...page.matchAll(/<tr class="group">/g)]).toHaveLength(4)
    expect(page).toContain(`&lt;b&gt;Bob&lt;/b&gt; &amp; | co<span class="id">${parties.bob}</span>`)
  })

  it("lists the per-epoch rows, at most 1,000", () => {
    const page = render({ ...sampleReport, view: "epochs", lines: [] })
    expect(page).toContain("<th>Received (UTC)</th>")
    expect(page).toContain('<td class="num">2024-04-02T09:26:40.123456Z</td>')
    expect(page).toContain('<td class="num">5e-05</td>')
    expect(page).not.toContain("Showing the first")

    const many = render({
      ...sampleReport,
      view: "epochs",
      lines: [],
      crossCheck: undefined,
      epochs: listOf(Array.from({ length: 1001 }, (_, i) => epochRow(i)))
    })
    expect([...many.matchAll(/<tr><td class="num">\d+<\/td>/g)]).toHaveLength(1000)
    expect(many).toContain(
      "Showing the first 1,000 of 1,001 rows; the CSV, JSON, Koinly and CoinTracking outputs hold all of them."
    )
  })

  it("shows the cross-check", () => {
    expect(html).toContain('<span class="failed">Failed.</span> 1 of 6 party–asset pairs do not add up')
    expect(html).toContain(
      `<tr><td class="id">${parties.bob}</td><td>&lt;b&gt;Bob&lt;/b&gt; &amp; | co</td><td title="${USDT.id}">USDT</td><td class="num">1,000 USDT</td><td class="num">0 USDT</td><td class="num">-1,000 USDT</td></tr>`
    )
    const passed = render({ ...sampleReport, crossCheck: { status: "passed", pairs: 6, rows: 4 } })
    expect(passed).toContain('<span class="passed">Passed.</span>')
    const skipped = render({ ...sampleReport, crossCheck: { status: "skipped", reason: "only epochs 1 to 2 <read>" } })
    expect(skipped).toContain('<span class="skipped">Skipped.</span> only epochs 1 to 2 &lt;read&gt;')
    expect(render({ ...sampleReport, crossCheck: undefined })).not.toContain("Cross-check")
  })

  it("is written a line at a time, the view's lines made as they are written", () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => vegaLine(i + 1, i, BigInt(20_000 - i)))
    for (const view of ["assets", "parties"] as const) {
      const report: Report = { ...sampleReport, view, totals: sampleReport.totals.slice(1), lines }
      const pieces = [...chunks(report)]
      expect(pieces.join("")).toBe(render(report))
      expect(pieces.length).toBeGreaterThan(lines.length)
      const rows = pieces.filter((piece) => piece.startsWith("<tr>"))
      expect(rows.length).toBe(lines.length)
      expect(rows.every((row) => row.indexOf("\n") === row.length - 1)).toBe(true)
    }
  })

  it("matches the golden file", () => {
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(goldenFile, html)
    expect(html).toBe(readFileSync(goldenFile, "utf8"))
  })
})

/** One bar as drawn: its first and last pixel row and its length in pixels. */
interface DrawnBar {
  readonly top: number
  readonly bottom: number
  readonly length: number
}

/** The bars of exactly `colour` (±2 a channel) in the image, top to bottom; a bar is a run of rows holding it. */
const barsOfColour = (png: PNG, colour: string): ReadonlyArray<DrawnBar> => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16))
  const counts: Array<number> = []
  for (let y = 0; y < png.height; y++) {
    let n = 0
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 4
      const d = png.data
      if (Math.abs(d[i] - r) <= 2 && Math.abs(d[i + 1] - g) <= 2 && Math.abs(d[i + 2] - b) <= 2) n++
    }
    counts.push(n)
  }
  const bars: Array<DrawnBar> = []
  let start = -1
  counts.forEach((n, y) => {
    if (n > 0 && start < 0) start = y
    if ((n === 0 || y === counts.length - 1) && start >= 0) {
      const bottom = n === 0 ? y - 1 : y
      bars.push({ top: start, bottom, length: Math.max(...counts.slice(start, bottom + 1)) })
      start = -1
    }
  })
  return bars
}

describe("Html.render in Chromium", () => {
  it.skipIf(!chromiumAvailable)(
    "draws every bar at its length",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "reward-report-html-"))
      const htmlFile = join(dir, "sample.html")
      const pngFile = join(dir, "sample.png")
      writeFileSync(htmlFile, render(sampleReport))
      await screenshot(htmlFile, pngFile, { width: 1280, height: 1600 })
      console.log(`screenshot of the sample report: ${pngFile}`)
      const png = PNG.sync.read(readFileSync(pngFile))
      expect([png.width, png.height]).toEqual([1280, 1600])

      let ink = 0
      for (let i = 0; i < png.data.length; i += 4) {
        if (png.data[i] < 240 || png.data[i + 1] < 240 || png.data[i + 2] < 240) ink++
      }
      expect(ink).toBeGreaterThan(20_000)

      sampleReport.totals.forEach(({ asset }, index) => {
        const expected = expectedBars(sampleReport, asset)
        const drawn = barsOfColour(png, chart.palette[index])
        expect(drawn, `bars of ${asset.symbol}`).toHaveLength(expected.length)
        drawn.forEach((bar, i) => {
          expect(
            Math.abs(bar.length - expected[i].width),
            `${asset.symbol} bar ${i + 1}: ${bar.length} px`
          ).toBeLessThanOrEqual(2)
          expect(Math.abs(bar.bottom - bar.top + 1 - chart.barHeight)).toBeLessThanOrEqual(2)
        })
      })
      // alice's 2 VEGA, bob's 0.865625 and dave's 123 base units (the 1 px minimum)
      const vega = barsOfColour(png, chart.palette[1]).map((bar) => bar.length)
      expect(vega[0]).toBeGreaterThanOrEqual(598)
      expect(Math.abs(vega[1] - 259)).toBeLessThanOrEqual(2)
      expect(vega[3]).toBeGreaterThanOrEqual(1)
      expect(vega[3]).toBeLessThanOrEqual(3)
    },
    90_000
  )
})
