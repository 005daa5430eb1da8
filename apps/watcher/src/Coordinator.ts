/**
 * Keeps this watcher's share of the slices: joins the members, renews its leases in the background
 * (a lease found lost is dropped at once), and between cycles balances: a watcher holding more than
 * its share gives the surplus up, one holding less takes free or expired slices. A watcher joining
 * or leaving changes every share, so the slices spread again within a cycle or two.
 */
import type { SqlError } from "@effect/sql/SqlError"
import { FailureText } from "@vega-effect/http"
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

/** What the coordinator keeps between calls. */
interface State {
  readonly leases: Leases
  readonly options: Options
  /** The slices this watcher holds. */
  readonly held: Set<string>
  /** Slices lost since the last balance, which reports them. */
  dropped: Array<string>
}

/** The gauges of the slices held: how many, and 1 or 0 for each slice. */
const recordHeld = ({ held, options }: State): Effect.Effect<void> =>
  Effect.suspend(() =>
    Effect.zipRight(
      Metric.set(Metrics.slicesHeld, held.size),
      Effect.forEach(options.slices, (slice) =>
        Metric.set(Metrics.sliceHeld.pipe(Metric.tagged("slice", slice)), held.has(slice) ? 1 : 0)
      )
    )
  )

/** Forgets slices found lost, gives their leases up and tells `onLost`. */
const drop = (state: State, lost: ReadonlyArray<string>): Effect.Effect<void> =>
  Effect.gen(function* () {
    if (lost.length === 0) return
    for (const slice of lost) state.held.delete(slice)
    // a slice can be found lost (a commit saw the lease free or taken) just after a balance took it
    // back: its row is then this watcher's again, and would be renewed forever with no one working
    // it. Giving it up (a no-op when another watcher holds it) lets the next balance hand it out.
    yield* state.leases
      .release(lost)
      .pipe(Effect.catchAll((error) => FailureText.logWarning("could not give lost slices up", error)))
    state.dropped.push(...lost)
    yield* Metric.update(Metrics.leaseLostTotal, lost.length)
    yield* Effect.logWarning(`lost the lease of ${lost.join(", ")} to another watcher`)
    yield* recordHeld(state)
    yield* state.options.onLost(lost)
  })

/** Renews the leases; the held slices no longer among them are dropped. */
const renew = (state: State): Effect.Effect<void, SqlError> =>
  Effect.gen(function* () {
    const ours = yield* state.leases.renew
    const lost = [...state.held].filter((slice) => !ours.has(slice))
    yield* drop(state, lost)
  })

/** The live members' identities (the dead on this host reaped first), this watcher always among them. */
const liveOwners = (leases: Leases): Effect.Effect<ReadonlyArray<string>, SqlError> =>
  Effect.gen(function* () {
    for (const member of yield* leases.reapDead) {
      yield* Effect.logInfo(`watcher ${member.owner} (pid ${member.pid}) is gone: its slices are free`)
    }
    const members = yield* leases.members
    const owners = members.some((m) => m.owner === leases.owner)
      ? members.map((m) => m.owner)
      : [...members.map((m) => m.owner), leases.owner].sort()
    yield* Metric.set(Metrics.members, owners.length)
    return owners
  })

/** Gives up the held slices beyond `share` (the last ones in slice order); returns them. */
const releaseSurplus = (state: State, share: number, members: number): Effect.Effect<ReadonlyArray<string>, SqlError> =>
  Effect.gen(function* () {
    const { held } = state
    if (held.size <= share) return []
    const surplus = state.options.slices.filter((slice) => held.has(slice)).slice(share)
    yield* state.leases.release(surplus)
    for (const slice of surplus) held.delete(slice)
    yield* Metric.update(Metrics.leaseReleasedTotal, surplus.length)
    yield* Effect.logInfo(`gave up ${surplus.length} slice(s) for ${members} watchers to share`)
    return surplus
  })

/** Takes free or expired slices until `share` are held; returns them, and reports the takeovers. */
const acquireShare = (
  state: State,
  share: number,
  index: number,
  members: number
): Effect.Effect<ReadonlyArray<string>, SqlError> =>
  Effect.gen(function* () {
    const { held, leases } = state
    const { slices } = state.options
    const acquired: Array<string> = []
    const takenFrom = new Map<string, Array<string>>()
    const available = held.size < share ? yield* leases.available : new Set<string>()
    // each member starts looking at its own part of the list, so they rarely race for a slice
    const start = Math.floor((index * slices.length) / members)
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
    return acquired
  })

/** Gives up or takes slices until this watcher holds its share; what changed since the last balance. */
const balance = (state: State): Effect.Effect<Changes, SqlError> =>
  Effect.gen(function* () {
    const owners = yield* liveOwners(state.leases)
    const index = owners.indexOf(state.leases.owner)
    const share = shareOf(state.options.slices.length, owners.length, index)
    const released = yield* releaseSurplus(state, share, owners.length)
    const acquired = yield* acquireShare(state, share, index, owners.length)
    yield* recordHeld(state)
    const changes: Changes = { acquired, dropped: [...state.dropped, ...released] }
    state.dropped = []
    return changes
  })

export const make = (leases: Leases, options: Options): Effect.Effect<Coordinator, SqlError, Scope.Scope> =>
  Effect.gen(function* () {
    const state: State = { leases, options, held: new Set(), dropped: [] }
    // renewals, balances and losses take turns: each reads and changes the slices held
    const mutex = yield* Effect.makeSemaphore(1)

    yield* leases.join(options.slices)
    yield* Effect.addFinalizer(() =>
      leases.leave.pipe(Effect.catchAll((error) => FailureText.logWarning("could not give the leases up", error)))
    )

    yield* Effect.forkScoped(
      mutex
        .withPermits(1)(renew(state))
        .pipe(
          Effect.retry(FailureText.logRetries("could not renew the leases", Schedule.spaced(leases.renewEvery))),
          Effect.repeat(Schedule.spaced(leases.renewEvery))
        )
    )

    return {
      balance: mutex.withPermits(1)(balance(state)),
      held: Effect.sync(() => new Set(state.held)),
      lose: (slice) => mutex.withPermits(1)(drop(state, state.held.has(slice) ? [slice] : []))
    } satisfies Coordinator
  })
