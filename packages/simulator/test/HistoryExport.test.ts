import { describe, expect, it } from "@effect/vitest"
import { Simulator } from "@vega-effect/simulator"
import { Effect } from "effect"
import * as zlib from "node:zlib"
import { microsToPostgresText } from "../src/internal/goTime.js"
import { request } from "./support/http.js"

/** The entries of a zip, read from its central directory as an unzip tool would. */
const unzip = (zip: Buffer): Array<{ name: string; text: string; flags: number; method: number }> => {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  expect(end).toBeGreaterThan(0)
  const count = zip.readUInt16LE(end + 10)
  let at = zip.readUInt32LE(end + 16)
  const entries = []
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50)
    const flags = zip.readUInt16LE(at + 8)
    const method = zip.readUInt16LE(at + 10)
    const crc = zip.readUInt32LE(at + 16)
    const size = zip.readUInt32LE(at + 20)
    const nameLength = zip.readUInt16LE(at + 28)
    const offset = zip.readUInt32LE(at + 42)
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString()
    expect(zip.readUInt32LE(offset)).toBe(0x04034b50)
    const start = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28)
    const data = zlib.inflateRawSync(zip.subarray(start, start + size))
    expect(zlib.crc32(data)).toBe(crc)
    // the data descriptor after the entry repeats its crc and sizes
    expect(zip.readUInt32LE(start + size)).toBe(0x08074b50)
    expect(zip.readUInt32LE(start + size + 4)).toBe(crc)
    entries.push({ name, text: data.toString(), flags, method })
    at += 46 + nameLength
  }
  return entries
}

const exportOf = (url: string, query: string) =>
  Effect.promise(() => request(url, `/api/v2/networkhistory/export?${query}`))

describe("GET /api/v2/networkhistory/export", () => {
  it.scopedLive("zips a table's rows over a contiguous run of segments", () =>
    Effect.gen(function* () {
      // 20 epochs of 50 blocks: segments 1-300, 301-600 and 601-900
      const sim = yield* Simulator.make({ seed: 7, scale: { epochs: 20 } })
      const { chain } = sim.world
      const id = chain.chainId

      const reply = yield* exportOf(sim.url, "fromBlock=301&toBlock=900&table=TABLE_BLOCKS")
      expect(reply.status).toBe(200)
      expect(reply.headers["content-type"]).toBe("application/zip")
      expect(reply.headers["content-disposition"]).toBe(`attachment;filename=${id}-blocks-000301-000900.zip`)
      // one message, then the gateway's delimiter
      expect(reply.body[reply.body.length - 1]).toBe(0x0a)
      const [entry, ...others] = unzip(reply.body.subarray(0, -1))
      expect(others).toEqual([])
      expect(entry).toMatchObject({ name: `${id}-blocks-099-000301-000900.csv`, flags: 8, method: 8 })
      const lines = entry.text.split("\n")
      expect(lines.pop()).toBe("")
      // one header, then every block of both segments
      expect(lines[0]).toBe("vega_time,height,hash")
      expect(lines.length).toBe(1 + 600)
      expect(lines[1]).toBe(`${microsToPostgresText(chain.blockTime(301))},301,\\x${chain.blockHash(301)}`)
      expect(lines[600]).toBe(`${microsToPostgresText(chain.blockTime(900))},900,\\x${chain.blockHash(900)}`)

      // the checkpoints of the first segment, as /api/v2/checkpoints lists them
      const cps = yield* exportOf(sim.url, "fromBlock=1&toBlock=300&table=TABLE_CHECKPOINTS")
      const rows = unzip(cps.body.subarray(0, -1))[0].text.trim().split("\n")
      expect(rows[0]).toBe("hash,block_hash,block_height,tx_hash,vega_time,seq_num")
      const listed = JSON.parse(
        (yield* Effect.promise(() =>
          request(sim.url, "/api/v2/checkpoints?pagination.newestFirst=false&pagination.first=1000")
        )).text
      ).checkpoints.edges.map((e: { node: { hash: string; blockHash: string; atBlock: string } }) => e.node)
      const first = listed.filter((n: { atBlock: string }) => Number(n.atBlock) <= 300)
      expect(rows.slice(1).map((r) => r.split(",").slice(0, 3))).toEqual(
        first.map((n: { hash: string; blockHash: string; atBlock: string }) => [n.hash, n.blockHash, n.atBlock])
      )
      expect(rows[1].split(",").slice(3)).toEqual([
        "\\x",
        microsToPostgresText(chain.blockTime(Number(first[0].atBlock))),
        "1"
      ])

      // a table the world does not write: an empty CSV
      const trades = yield* exportOf(sim.url, "fromBlock=601&toBlock=900&table=TABLE_TRADES")
      expect(unzip(trades.body.subarray(0, -1))).toMatchObject([
        { name: `${id}-trades-099-000601-000900.csv`, text: "" }
      ])
    })
  )

  it.scopedLive("refuses a missing table and a range that is not a run of segments", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 7, scale: { epochs: 20 } })
      const errorOf = (text: string) => JSON.parse(text).error

      const none = yield* exportOf(sim.url, "fromBlock=1&toBlock=300")
      expect(none.status).toBe(500)
      expect(errorOf(none.text).details[0]).toMatchObject({
        code: 10000,
        message: "no table name for network history supplied",
        inner: "empty table name"
      })
      for (const range of ["fromBlock=2&toBlock=300", "fromBlock=1&toBlock=301", "fromBlock=1&toBlock=1200"]) {
        const bad = yield* exportOf(sim.url, `${range}&table=TABLE_BLOCKS`)
        expect(bad.status).toBe(400)
        const [, from, to] = /fromBlock=(\d+)&toBlock=(\d+)/.exec(range)!
        expect(errorOf(bad.text).details[0]).toMatchObject({
          code: 10000,
          message: "could not to get contiguous history segments",
          inner: `heights ${from} to ${to} do not lie within a continuous segment range`
        })
      }
    })
  )

  it.scopedLive("names the CSV after a v0.79 node's schema version", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 7, scale: { epochs: 20 }, nodeVersion: "v0.79" })
      const reply = yield* exportOf(sim.url, "fromBlock=1&toBlock=300&table=TABLE_BLOCKS")
      expect(unzip(reply.body.subarray(0, -1))[0].name).toBe(`${sim.world.chain.chainId}-blocks-123-000001-000300.csv`)
    })
  )

  it.scopedLive("serves a lagging node only the segments of its height", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({
        seed: 7,
        scale: { epochs: 20 },
        nodes: [{}, { lag: 500 }]
      })
      const lagging = sim.nodes[1].url
      expect((yield* exportOf(sim.nodes[0].url, "fromBlock=1&toBlock=900&table=TABLE_BLOCKS")).status).toBe(200)
      expect((yield* exportOf(lagging, "fromBlock=1&toBlock=300&table=TABLE_BLOCKS")).status).toBe(200)
      expect((yield* exportOf(lagging, "fromBlock=1&toBlock=900&table=TABLE_BLOCKS")).status).toBe(400)
    })
  )
})
