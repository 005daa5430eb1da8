/**
 * Who works which slice, when several watchers share one state.
 *
 * Each watcher is a member, seen alive by its heartbeat. A slice is worked by the holder of its
 * lease, which the holder renews; a lease not renewed within its time to live expires, and another
 * member may take the slice over. Commits are fenced: the store writes a slice's cycle only while
 * the lease is its own (see `Store.commit`), so a watcher that stalled past its lease and woke up
 * writes nothing. The state a taker resumes from is exactly what the last holder committed.
 *
 * Times come from the database's clock, so watchers on several machines need no shared clock. On
 * one host, a member whose process is gone is not waited for: its leases expire at once.
 */
import type { SqlError } from "@effect/sql/SqlError"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { hostname } from "node:os"
import { migrate } from "./Migrations.js"

export interface Member {
  readonly owner: string
  readonly host: string
  readonly pid: number
}

export interface Acquired {
  readonly slice: string
  /** The member it was taken from after its lease expired; absent for a free slice. */
  readonly from?: string
}

export interface Options {
  /** How long a lease lasts without renewal; renew well within it (a third is usual). */
  readonly ttl?: Duration.DurationInput
}

export interface Service {
  /** This watcher's identity: host, process and a random part. */
  readonly owner: string
  /** How long a lease lasts without renewal. */
  readonly ttl: Duration.Duration
  /** How often to renew: a third of `ttl` (at least 50 ms), so a renewal can fail twice before a lease expires. */
  readonly renewEvery: Duration.Duration
  /** Registers this watcher as a member, with a lease row for each of these slices. */
  readonly join: (slices: ReadonlyArray<string>) => Effect.Effect<void, SqlError>
  /** Leaves: every lease of this watcher is freed at once and the member row goes. */
  readonly leave: Effect.Effect<void, SqlError>
  /** The live members (heartbeat within the time to live), ordered by identity. */
  readonly members: Effect.Effect<ReadonlyArray<Member>, SqlError>
  /** Heartbeat, and every lease of this watcher extended; returns the slices still its own. */
  readonly renew: Effect.Effect<ReadonlySet<string>, SqlError>
  /** The slices free, or whose lease expired: those `acquire` may get. */
  readonly available: Effect.Effect<ReadonlySet<string>, SqlError>
  /** Takes the slice if it is free or its lease expired; `undefined` when another member holds it. */
  readonly acquire: (slice: string) => Effect.Effect<Acquired | undefined, SqlError>
  /** Gives slices up at once, for another member to take. */
  readonly release: (slices: ReadonlyArray<string>) => Effect.Effect<void, SqlError>
  /** Expires the leases of members on this host whose process is gone; returns them. */
  readonly reapDead: Effect.Effect<ReadonlyArray<Member>, SqlError>
  /** Each slice's holder (absent: free). */
  readonly holders: Effect.Effect<ReadonlyMap<string, string>, SqlError>
}

export class Leases extends Context.Tag("@vega-effect/watcher/Leases")<Leases, Service>() {}

const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to someone else
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * How many slices the member at `index` among `members` should hold: an even share, the first
 * members taking one more each while the division leaves some over.
 */
export const shareOf = (slices: number, members: number, index: number): number =>
  Math.floor(slices / members) + (index < slices % members ? 1 : 0)

/** The database's clock, in milliseconds. */
export const nowMillis = (sql: SqlClient.SqlClient) =>
  sql.onDialectOrElse({
    pg: () => sql.literal("(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint"),
    orElse: () => sql.literal("CAST(unixepoch('subsec') * 1000 AS INTEGER)")
  })

/** The database as this member uses it: its identity and host, the database's clock and the lease time. */
interface MemberSql {
  readonly sql: SqlClient.SqlClient
  readonly owner: string
  readonly host: string
  /** The database's clock (`nowMillis`). */
  readonly now: ReturnType<typeof nowMillis>
  readonly ttlMillis: number
}

/** The live members (heartbeat within the time to live), ordered by identity. */
const listMembers = ({ now, sql, ttlMillis }: MemberSql): Effect.Effect<ReadonlyArray<Member>, SqlError> =>
  Effect.gen(function* () {
    // members silent for ten lease times are forgotten
    yield* sql`DELETE FROM watcher_member WHERE heartbeat < ${now} - ${ttlMillis * 10}`
    const rows = yield* sql<{ owner: string; host: string; pid: number | string }>`SELECT owner, host, pid
      FROM watcher_member WHERE heartbeat >= ${now} - ${ttlMillis} ORDER BY owner`
    return rows.map((row): Member => ({ owner: row.owner, host: row.host, pid: Number(row.pid) }))
  })

/** Takes the slice if it is free or its lease expired; `undefined` when another member holds it. */
const acquire = (
  { now, owner, sql, ttlMillis }: MemberSql,
  slice: string
): Effect.Effect<Acquired | undefined, SqlError> =>
  Effect.gen(function* () {
    const rows = yield* sql<{ owner: string | null; expired: number | boolean }>`SELECT owner,
      CASE WHEN expires < ${now} THEN 1 ELSE 0 END AS expired FROM watcher_lease WHERE slice = ${slice}`
    const lease = rows[0]
    if (lease === undefined) return undefined
    if (lease.owner === owner) return { slice }
    if (lease.owner !== null && Number(lease.expired) !== 1) return undefined
    const taken =
      lease.owner === null
        ? yield* sql<{ slice: string }>`UPDATE watcher_lease SET owner = ${owner}, expires = ${now} + ${ttlMillis}
            WHERE slice = ${slice} AND owner IS NULL RETURNING slice`
        : yield* sql<{ slice: string }>`UPDATE watcher_lease SET owner = ${owner}, expires = ${now} + ${ttlMillis},
            takeovers = takeovers + 1
            WHERE slice = ${slice} AND owner = ${lease.owner} AND expires < ${now} RETURNING slice`
    if (taken.length === 0) return undefined
    return lease.owner === null ? { slice } : { slice, from: lease.owner }
  })

/** Expires the leases of members on this host whose process is gone; returns them. */
const reapDead = ({ host, owner, sql }: MemberSql): Effect.Effect<ReadonlyArray<Member>, SqlError> =>
  Effect.gen(function* () {
    const rows = yield* sql<{ owner: string; pid: number | string }>`SELECT owner, pid FROM watcher_member
      WHERE host = ${host} AND owner <> ${owner}`
    const dead = rows.filter((row) => !processAlive(Number(row.pid)))
    for (const member of dead) {
      yield* sql`UPDATE watcher_lease SET expires = 0 WHERE owner = ${member.owner}`
      yield* sql`DELETE FROM watcher_member WHERE owner = ${member.owner}`
    }
    return dead.map((row): Member => ({ owner: row.owner, host, pid: Number(row.pid) }))
  })

export const make = (options: Options = {}): Effect.Effect<Service, SqlError | Error, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* migrate
    const host = hostname()
    const owner = `${host}:${process.pid}:${Math.random().toString(36).slice(2, 10)}`
    const ttl = Duration.decode(options.ttl ?? "15 seconds")
    // the database's clock counts milliseconds
    const ttlMillis = Duration.toMillis(ttl)
    const now = nowMillis(sql)
    const member: MemberSql = { sql, owner, host, now, ttlMillis }

    const heartbeat = sql`INSERT INTO watcher_member (owner, host, pid, heartbeat)
      VALUES (${owner}, ${host}, ${process.pid}, ${now})
      ON CONFLICT (owner) DO UPDATE SET heartbeat = excluded.heartbeat`

    const join = (slices: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        yield* heartbeat
        if (slices.length === 0) return
        yield* sql`INSERT INTO watcher_lease ${sql.insert(
          slices.map((slice) => ({ slice, owner: null, expires: 0, takeovers: 0 }))
        )} ON CONFLICT (slice) DO NOTHING`
      })

    const leave = Effect.zipRight(
      sql`UPDATE watcher_lease SET owner = NULL, expires = 0 WHERE owner = ${owner}`,
      sql`DELETE FROM watcher_member WHERE owner = ${owner}`
    ).pipe(Effect.asVoid)

    const renew = Effect.gen(function* () {
      yield* heartbeat
      const rows = yield* sql<{ slice: string }>`UPDATE watcher_lease SET expires = ${now} + ${ttlMillis}
        WHERE owner = ${owner} RETURNING slice`
      return new Set(rows.map((row) => row.slice))
    })

    const available = Effect.map(
      sql<{ slice: string }>`SELECT slice FROM watcher_lease WHERE owner IS NULL OR expires < ${now}`,
      (rows) => new Set(rows.map((row) => row.slice))
    )

    const release = (slices: ReadonlyArray<string>) =>
      slices.length === 0
        ? Effect.void
        : sql`UPDATE watcher_lease SET owner = NULL, expires = 0
            WHERE owner = ${owner} AND ${sql.in("slice", slices)}`.pipe(Effect.asVoid)

    const holders = Effect.map(
      sql<{ slice: string; owner: string | null }>`SELECT slice, owner FROM watcher_lease`,
      (rows) => {
        const out = new Map<string, string>()
        for (const row of rows) if (row.owner !== null) out.set(row.slice, row.owner)
        return out
      }
    )

    return {
      owner,
      ttl,
      renewEvery: Duration.max(Duration.millis(50), Duration.unsafeDivide(ttl, 3)),
      join,
      leave,
      members: listMembers(member),
      renew,
      available,
      acquire: (slice) => acquire(member, slice),
      release,
      reapDead: reapDead(member),
      holders
    } satisfies Service
  })

export const layer = (options: Options = {}): Layer.Layer<Leases, SqlError | Error, SqlClient.SqlClient> =>
  Layer.effect(Leases, make(options))
