/**
 * Keeps this watcher's share of the slices: joins the members, renews its leases in the background
 * (a lease found lost is dropped at once), and between cycles balances: a watcher holding more than
 * its share gives the surplus up, one holding less takes free or expired slices. A watcher joining
 * or leaving changes every share, so the slices spread again within a cycle or two.
 */
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import { type Service as Leases, shareOf } from "./Leases.js"
import * as Metrics from "./Metrics.js"

export interface Changes {
  readonly acquired: ReadonlyArray<string>
  /** Slices given up to rebalance, or lost to another watcher, since the last balance. */
  readonly dropped: ReadonlyArray<string>
}

export interface Coordinator {
  /** Gives up or takes slices until this watcher holds its share; what changed since the last call. */
  readonly balance: Effect.Effect<Changes, SqlError>
  readonly held: Effect.Effect<ReadonlySet<string>>
  /** Forgets a slice whose lease turned out to be another watcher's (a commit was refused). */
  readonly lose: (slice: string) => Effect.Effect<void>
}

export interface Options {
  /** Every slice this watcher can work, in order. */
  readonly slices: ReadonlyArray<string>
  /** Told at once of slices lost between balances (to stop a sink's delivery, say). */
  readonly onLost: (slices: ReadonlyArray<string>) => Effect.Effect<void>
}

export const make = (leases: Leases, options: Options): Effect.Effect<Coordinator, SqlError, Scope.Scope> =>
  Effect.gen(function* () {
    const { slices } = options
    const mutex = yield* Effect.makeSemaphore(1)
    const held = new Set<string>()
    let dropped: Array<string> = []

    const recordHeld = Effect.suspend(() =>
      Effect.zipRight(
        Metric.set(Metrics.slicesHeld, held.size),
        Effect.forEach(slices, (slice) =>
          Metric.set(Metrics.sliceHeld.pipe(Metric.tagged("slice", slice)), held.has(slice) ? 1 : 0)
        )
      )
    )

    const drop = (lost: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        if (lost.length === 0) return
        for (const slice of lost) held.delete(slice)
        // a slice can be found lost (a commit saw the lease free or taken) just after a balance took it
        // back: its row is then this watcher's again, and would be renewed forever with no one working
        // it. Giving it up (a no-op when another watcher holds it) lets the next balance hand it out.
        yield* leases
          .release(lost)
          .pipe(Effect.catchAll((error) => Effect.logWarning("could not give lost slices up", error)))
        dropped.push(...lost)
        yield* Metric.update(Metrics.leaseLostTotal, lost.length)
        yield* Effect.logWarning(`lost the lease of ${lost.join(", ")} to another watcher`)
        yield* recordHeld
        yield* options.onLost(lost)
      })

    yield* leases.join(slices)
    yield* Effect.addFinalizer(() =>
      leases.leave.pipe(Effect.catchAll((error) => Effect.logWarning("could not give the leases up", error)))
    )

    const renew = mutex.withPermits(1)(
      Effect.gen(function* () {
        const ours = yield* leases.renew
        yield* drop([...held].filter((slice) => !ours.has(slice)))
      })
    )
    yield* Effect.forkScoped(
      renew.pipe(
        Effect.catchAll((error) => Effect.logWarning("could not renew the leases", error)),
        Effect.repeat(Schedule.spaced(leases.renewEvery))
      )
    )

    const balance = mutex.withPermits(1)(
      Effect.gen(function* () {
        for (const member of yield* leases.reapDead) {
          yield* Effect.logInfo(`watcher ${member.owner} (pid ${member.pid}) is gone: its slices are free`)
        }
        const members = yield* leases.members
        const owners = members.some((m) => m.owner === leases.owner)
          ? members.map((m) => m.owner)
          : [...members.map((m) => m.owner), leases.owner].sort()
        yield* Metric.set(Metrics.members, owners.length)
        const index = owners.indexOf(leases.owner)
        const share = shareOf(slices.length, owners.length, index)
        const released: Array<string> = []
        if (held.size > share) {
          const surplus = slices.filter((slice) => held.has(slice)).slice(share)
          yield* leases.release(surplus)
          for (const slice of surplus) held.delete(slice)
          released.push(...surplus)
          yield* Metric.update(Metrics.leaseReleasedTotal, surplus.length)
          yield* Effect.logInfo(`gave up ${surplus.length} slice(s) for ${owners.length} watchers to share`)
        }
        const acquired: Array<string> = []
        const takenFrom = new Map<string, Array<string>>()
        const available = held.size < share ? yield* leases.available : new Set<string>()
        // each member starts looking at its own part of the list, so they rarely race for a slice
        const start = Math.floor((index * slices.length) / owners.length)
        for (let i = 0; i < slices.length && held.size < share; i++) {
          const slice = slices[(start + i) % slices.length]
          if (held.has(slice) || !available.has(slice)) continue
          const got = yield* leases.acquire(slice)
          if (got === undefined) continue
          held.add(slice)
          acquired.push(slice)
          if (got.from !== undefined) takenFrom.set(got.from, [...(takenFrom.get(got.from) ?? []), slice])
        }
        for (const [from, taken] of takenFrom) {
          yield* Metric.update(Metrics.leaseTakeoversTotal, taken.length)
          yield* Effect.logWarning(`took ${taken.join(", ")} over from ${from}, whose lease expired`)
        }
        yield* recordHeld
        const changes: Changes = { acquired, dropped: [...dropped, ...released] }
        dropped = []
        return changes
      })
    )

    return {
      balance,
      held: Effect.sync(() => new Set(held)),
      lose: (slice) => mutex.withPermits(1)(drop(held.has(slice) ? [slice] : []))
    } satisfies Coordinator
  })
