/**
 * `GET /api/v2/networkhistory/export` (ExportNetworkHistory), as the v0.75.8 node serves it
 * (datanode/api/trading_data_v2.go ExportNetworkHistory, datanode/networkhistory/segment,
 * datanode/networkhistory/snapshot/service_create_snapshot.go, datanode/networkhistory/fsutil):
 *
 * - Query `fromBlock`, `toBlock` and `table` (a `Table` name). No table (or `TABLE_UNSPECIFIED`)
 *   is 500 `no table name for network history supplied` (`empty table name`). The range must start
 *   at the first block of a published segment and end at the last block of one, within one
 *   contiguous run of segments, else 400 `could not to get contiguous history segments` with the
 *   range named.
 * - A server stream of `google.api.HttpBody` messages of type `application/zip`, with a
 *   `Content-Disposition` naming the file `<chain id>-<table>-<from>-<to>.zip` (heights on six
 *   digits): a zip holding one CSV per database version of the segments (the world's are all of
 *   one), `<chain id>-<table>-<version, 3 digits>-<from>-<to>.csv`. The CSV is each segment's copy
 *   of the table, one after the other, the header kept from the first only. A segment copies a
 *   history table's rows from the time of its first block on, as they stood at its last block,
 *   ordered by the table's primary key: `COPY … (FORMAT csv, HEADER)`, times as a UTC session
 *   writes a `timestamptz`, `bytea` as `\x` and hex.
 * - The node writes the zip with Go's archive/zip (deflated entries, a data descriptor after each,
 *   no times) through its export writer, which sends a message once it holds 1 MiB; the gateway
 *   writes each message's bytes then its `\n`.
 *
 * What the simulator simplifies: only `TABLE_BLOCKS` (`vega_time,height,hash`) and
 * `TABLE_CHECKPOINTS` (`hash,block_hash,block_height,tx_hash,vega_time,seq_num`, the checkpoint's
 * `seq_num` being 1, as the world does not number the block's events, and its `tx_hash` empty, as
 * the core's block context has none) hold rows; the other tables' CSV is empty. The deflate
 * stream is Node's, not Go's (the same text once inflated), and the zip is cut into 1 MiB
 * messages wherever the bytes fall.
 */
import { DataNode, DataNodeApi, GatewayError } from "@vega-effect/schema"
import * as zlib from "node:zlib"
import { microsToPostgresText } from "../goTime.js"
import { enumParam, param, type StreamRoute } from "../route.js"
import { DATABASE_VERSIONS, type SegmentRow } from "../world/history.js"
import type { World } from "../../World.js"
import { int64, str } from "./params.js"
import type { StreamNode } from "./streams.js"

const { ApiErrors } = GatewayError

/** The export writer's chunk size (`httpBodyChunkSize`, datanode/api/trading_data_v2.go). */
const CHUNK_BYTES = 1024 * 1024

const pad = (n: number, width: number): string => String(n).padStart(width, "0")

/** A history table's header and its rows in a segment from `from` to `to`. */
interface TableCopy {
  readonly header: string
  readonly rows: (world: World, segment: SegmentRow) => Iterable<string>
}

const TABLES: Readonly<Record<string, TableCopy>> = {
  blocks: {
    header: "vega_time,height,hash",
    *rows(world, segment) {
      const { chain } = world
      for (let h = segment.from; h <= segment.to; h++) {
        yield `${microsToPostgresText(chain.blockTime(h))},${h},\\x${chain.blockHash(h)}`
      }
    }
  },
  checkpoints: {
    header: "hash,block_hash,block_height,tx_hash,vega_time,seq_num",
    *rows(world, segment) {
      for (const row of world.history.checkpointsAt(segment.to)) {
        if (row.height < segment.from) continue
        yield `${row.hash},${row.blockHash},${row.height},\\x,${microsToPostgresText(world.chain.blockTime(row.height))},1`
      }
    }
  }
}

/** The segments of the one contiguous run that starts a segment at `from` and ends one at `to`. */
const contiguous = (
  segments: ReadonlyArray<SegmentRow>,
  from: number,
  to: number
): ReadonlyArray<SegmentRow> | string => {
  // the world's segments are one contiguous run, oldest first
  const first = segments[0]
  const last = segments[segments.length - 1]
  const within = first !== undefined && first.from <= from && last.to >= to
  if (!within || !segments.some((s) => s.from === from) || !segments.some((s) => s.to === to)) {
    return `heights ${from} to ${to} do not lie within a continuous segment range`
  }
  return segments.filter((s) => s.to >= from && s.from <= to)
}

// ---- Go's archive/zip, as `zip.NewWriter` and `Create` write an entry

const u16 = (n: number): Buffer => {
  const b = Buffer.alloc(2)
  b.writeUInt16LE(n)
  return b
}
const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4)
  b.writeUInt32LE(n >>> 0)
  return b
}

/** A zip of deflated entries, each with a data descriptor, no times and no extra fields. */
export const zipOf = (entries: ReadonlyArray<{ readonly name: string; readonly data: Buffer }>): Buffer => {
  const parts: Array<Buffer> = []
  const central: Array<Buffer> = []
  let offset = 0
  for (const { data, name } of entries) {
    const nameBytes = Buffer.from(name, "utf8")
    const compressed = zlib.deflateRawSync(data)
    const crc = zlib.crc32(data)
    // version 2.0, flags: sizes in the data descriptor, deflate, time and date 0
    const common = [u16(20), u16(0x8), u16(8), u16(0), u16(0)]
    const local = Buffer.concat([
      u32(0x04034b50),
      ...common,
      u32(0),
      u32(0),
      u32(0),
      u16(nameBytes.length),
      u16(0),
      nameBytes
    ])
    const descriptor = Buffer.concat([u32(0x08074b50), u32(crc), u32(compressed.length), u32(data.length)])
    central.push(
      Buffer.concat([
        u32(0x02014b50),
        u16(20),
        ...common,
        u32(crc),
        u32(compressed.length),
        u32(data.length),
        u16(nameBytes.length),
        u16(0),
        u16(0),
        u16(0),
        u16(0),
        u32(0),
        u32(offset),
        nameBytes
      ])
    )
    parts.push(local, compressed, descriptor)
    offset += local.length + compressed.length + descriptor.length
  }
  const directory = Buffer.concat(central)
  const end = Buffer.concat([
    u32(0x06054b50),
    u16(0),
    u16(0),
    u16(entries.length),
    u16(entries.length),
    u32(directory.length),
    u32(offset),
    u16(0)
  ])
  return Buffer.concat([...parts, directory, end])
}

const TABLE_VALUES: Readonly<Record<string, number>> = DataNode.Table.values

export const route: StreamRoute<StreamNode> = {
  method: "GET",
  path: DataNodeApi.ExportNetworkHistory.path,
  params: [param("fromBlock", "int64"), param("toBlock", "int64"), enumParam("table", TABLE_VALUES)],
  open: (params, node, sink) => {
    const done = { close: () => {} }
    const table = str(params, "table") ?? "TABLE_UNSPECIFIED"
    if (table === "TABLE_UNSPECIFIED") {
      sink.fail(GatewayError.fromApiError(ApiErrors.NetworkHistoryNoTableName, "empty table name"))
      return done
    }
    const tableName = table.toLowerCase().replace(/^table_/, "")
    const from = Number(int64(params, "fromBlock") ?? 0n)
    const to = Number(int64(params, "toBlock") ?? 0n)
    const { world } = node
    const segments = contiguous(world.history.segmentsAt(node.readableHeight), from, to)
    // a range whose ends match but run backwards slices no segment: the node then formats the
    // error with a nil cause, which its handler cannot write (inferred); answered with no inner
    if (typeof segments === "string" || segments.length === 0) {
      sink.fail(
        GatewayError.fromApiError(
          ApiErrors.NetworkHistoryGetContiguousSegments,
          typeof segments === "string" ? segments : ""
        )
      )
      return done
    }
    const { chainId } = world.chain
    const heightFrom = segments[0].from
    const heightTo = segments[segments.length - 1].to
    sink.sendHeader({
      "Content-Disposition": `attachment;filename=${chainId}-${tableName}-${pad(heightFrom, 6)}-${pad(heightTo, 6)}.zip`
    })
    const copy = TABLES[tableName]
    let csv = ""
    if (copy !== undefined) {
      segments.forEach((segment, i) => {
        if (i === 0) csv += `${copy.header}\n`
        for (const row of copy.rows(world, segment)) csv += `${row}\n`
      })
    }
    const name = `${chainId}-${tableName}-${pad(DATABASE_VERSIONS[node.nodeVersion ?? "v0.75"], 3)}-${pad(heightFrom, 6)}-${pad(heightTo, 6)}.csv`
    const zip = zipOf([{ name, data: Buffer.from(csv, "utf8") }])
    for (let at = 0; at < zip.length; at += CHUNK_BYTES) {
      sink.sendBody("application/zip", zip.subarray(at, Math.min(zip.length, at + CHUNK_BYTES)))
    }
    sink.end()
    return done
  }
}
