import { describe, expect, it } from "@effect/vitest"
import { Simulator } from "@vega-effect/simulator"
import { Effect } from "effect"
import { request } from "./support/http.js"

const HEADER =
  "vega_time,quantity,effect,transfer_type,asset_id,account_from_market_id,account_from_party_id," +
  "account_from_account_type,account_from_balance,account_to_market_id,account_to_party_id," +
  "account_to_account_type,account_to_balance"

const exportOf = (url: string, query: string) =>
  Effect.promise(() => request(url, `/api/v2/ledgerentry/export?${query}`))

/** The CSV rows of an export: header, rows, then the gateway's delimiter after the one chunk. */
const rowsOf = (text: string): Array<Array<string>> => {
  expect(text.endsWith("\n\n")).toBe(true)
  const lines = text.slice(0, -2).split("\n")
  expect(lines[0]).toBe(HEADER)
  return lines.slice(1).map((line) => line.split(","))
}

describe("GET /api/v2/ledgerentry/export", () => {
  it.scopedLive("answers a party's ledger as CSV, whose effects sum to the party's balances", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 7 })
      yield* sim.advance(20)
      const { world } = sim
      // the party with the most entries: a market maker
      const counts = new Map<string, number>()
      for (const row of world.accounts.ledger) {
        for (const owner of new Set([row.from.owner, row.to.owner])) counts.set(owner, (counts.get(owner) ?? 0) + 1)
      }
      counts.delete("network")
      const [party] = [...counts].sort((a, b) => b[1] - a[1])[0]

      const reply = yield* exportOf(sim.url, `partyId=${party.toUpperCase()}`)
      expect(reply.status).toBe(200)
      expect(reply.headers["content-type"]).toBe("text/csv")
      expect(reply.headers["content-disposition"]).toBe(
        `attachment;filename=ledger_entries_${party.toUpperCase()}_.csv`
      )
      const rows = rowsOf(reply.text)
      const mine = world.accounts.ledger.filter((r) => r.from.owner === party || r.to.owner === party)
      expect(rows.length).toBe(mine.length)
      expect(rows.map((r) => r[1])).toEqual(mine.map((r) => String(r.amount)))
      expect(rows[0][0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?\+00$/)
      // a general account has no market: an empty string, which CSV quotes
      const general = rows.find((r) => r[7] === "GENERAL")!
      expect(general[5]).toBe('""')

      // every unit in the party's accounts came through the ledger: the effects sum to them
      const effects = new Map<string, bigint>()
      for (const r of rows) effects.set(r[4], (effects.get(r[4]) ?? 0n) + BigInt(r[2]))
      const balances = new Map<string, bigint>()
      for (const account of world.accounts.byOwner.get(party) ?? []) {
        balances.set(account.asset.id, (balances.get(account.asset.id) ?? 0n) + world.accounts.balance(account))
      }
      expect(effects).toEqual(balances)

      // the asset and a start: the sending account's asset, entries from the start's second on
      const asset = rows[rows.length - 1][4]
      const start = mine[Math.floor(mine.length / 2)].vt
      const since = yield* exportOf(sim.url, `partyId=${party}&assetId=${asset}&dateRange.startTimestamp=${start}000`)
      const startText = new Date(Math.floor(start / 1e6) * 1e3).toISOString().slice(0, 19).replaceAll(":", "_")
      expect(since.headers["content-disposition"]).toBe(
        `attachment;filename=ledger_entries_${party}_${asset}__${startText}Z.csv`
      )
      const later = rowsOf(since.text)
      expect(later.length).toBeGreaterThan(0)
      expect(later.length).toBeLessThan(rows.length)
      expect(later.every((r) => r[4] === asset)).toBe(true)
    })
  )

  it.scopedLive("refuses a missing or invalid party id and an invalid asset id", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 7 })
      const party = sim.world.catalog.parties[3].id
      const detail = (code: number, message: string) =>
        `{"error":{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":${code},"message":"${message}"}]}}\n`
      const none = yield* exportOf(sim.url, "")
      expect([none.status, none.text]).toEqual([400, detail(10014, "missing party id")])
      const bad = yield* exportOf(sim.url, "partyId=network")
      expect([bad.status, bad.text]).toEqual([400, detail(10000, "invalid party id")])
      const asset = yield* exportOf(sim.url, `partyId=${party}&assetId=xyz`)
      expect([asset.status, asset.text]).toEqual([400, detail(10038, "invalid asset ID")])
    })
  )
})
