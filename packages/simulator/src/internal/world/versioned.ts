/**
 * Multi-version rows: every state a row goes through is kept with the range of block heights at
 * which it is visible, so one world can answer as of any recent height (a lagging or frozen node
 * reads an older height than the leader). Versions nobody can see any more are pruned.
 */
import { Ids } from "@vega-effect/schema"

export interface Versioned {
  /** First height at which this version is visible. */
  readonly from: number
  /** First height at which it is no longer visible (`Infinity` while current). */
  to: number
}

export const visibleAt = (row: Versioned, height: number): boolean => row.from <= height && height < row.to

/** The version of a row a view at `height` sees, from its versions oldest first. */
export const versionAt = <A extends Versioned>(
  versions: ReadonlyArray<A> | undefined,
  height: number
): A | undefined => {
  if (versions === undefined) return undefined
  for (let i = versions.length - 1; i >= 0; i--) {
    if (versions[i].from <= height) return visibleAt(versions[i], height) ? versions[i] : undefined
  }
  return undefined
}

/** The latest version of a row, from its versions oldest first. */
export const latestVersion = <A>(versions: ReadonlyArray<A> | undefined): A | undefined =>
  versions?.[versions.length - 1]

/**
 * Appends `next` to a row's versions (oldest first): the latest stops being visible where `next`
 * begins. A row changed twice in one block keeps only the second state, as the node keeps one row
 * per row and block time; the state replaced is returned then.
 */
export const addVersion = <A extends Versioned>(versions: Array<A>, next: A): A | undefined => {
  const last = versions[versions.length - 1]
  if (last.from === next.from) {
    versions[versions.length - 1] = next
    return last
  }
  last.to = next.from
  versions.push(next)
  return undefined
}

/** Index of the first element not less than `probe`, in an array sorted by `compare`. */
export const lowerBound = <A, B>(items: ReadonlyArray<A>, probe: B, compare: (a: A, b: B) => number): number => {
  let lo = 0
  let hi = items.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (compare(items[mid], probe) < 0) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Index of the first element with `key(e) > value`, in an array sorted by `key`. */
export const upperBound = <A>(items: ReadonlyArray<A>, value: number, key: (a: A) => number): number => {
  let lo = 0
  let hi = items.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (key(items[mid]) <= value) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Inserts keeping the array sorted (rows with equal keys keep insertion order). */
export const insertSorted = <A>(items: Array<A>, item: A, compare: (a: A, b: A) => number): void => {
  let lo = 0
  let hi = items.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (compare(items[mid], item) <= 0) lo = mid + 1
    else hi = mid
  }
  items.splice(lo, 0, item)
}

/** Removes, in place, the versions no view at `minHeight` or later can see. */
export const prune = <A extends Versioned>(items: Array<A>, minHeight: number): void => {
  let write = 0
  for (let read = 0; read < items.length; read++) {
    const item = items[read]
    if (item.to > minHeight) items[write++] = item
  }
  items.length = write
}

/** Byte order of ids as the node stores them: hex compares as bytes, `network` sorts as `03`. */
export const idSortKey = (id: string): string => (id === Ids.NETWORK_PARTY ? "03" : id)

export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
