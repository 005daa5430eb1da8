/**
 * The node behind the state, said once. A slice whose checkpoint is above what the node shows is
 * not read (a checkpoint never goes back), so nothing is reported until the node passes the state:
 * a state kept for a chain that started anew, a node restored from an older snapshot, a failover
 * to a node that lags. Without a word the watcher would look stuck; with a word per slice and per
 * attempt, the log would fill. So one line when the node is found behind, then nothing until it
 * has caught up; found behind again later, one line again.
 */
import * as Effect from "effect/Effect"
import type { ReadPoint } from "./Event.js"

/** What was seen: the state's height, and the node's. */
export interface Seen {
  /** The highest checkpoint of the slices waiting (0: none waits). */
  readonly state: number
  readonly node: number
  /** The node that showed `node`, when known. */
  readonly url?: string | undefined
}

export interface Notice {
  /** Says that the node is behind the state, unless already said since it last caught up. */
  readonly observe: (seen: Seen) => Effect.Effect<void>
}

/** The line: `state <state> is at height N, the node at <url> at M: waiting ...`. */
export const message = (database: string, seen: Seen): string =>
  `state ${database} is at height ${seen.state}, the node${seen.url === undefined || seen.url === "" ? "s" : ` at ${seen.url}`} at ${seen.node}: ` +
  `waiting for the node to pass it (nothing is reported until then)`

/** A notice for the state named `database` (as logs name it: no password). */
export const make = (database: string): Notice => {
  let said = false
  return {
    observe: (seen) =>
      Effect.suspend(() => {
        if (seen.node >= seen.state) {
          said = false
          return Effect.void
        }
        if (said) return Effect.void
        said = true
        return Effect.logWarning(message(database, seen))
      })
  }
}

/** What a cycle saw: its slices refused for a node behind their checkpoints, if any, else its head. */
export const ofCycle = (
  head: ReadPoint,
  behind: ReadonlyArray<{ readonly height: number; readonly node: string; readonly checkpoint: number }>
): Seen =>
  behind.length === 0
    ? { state: 0, node: head.height }
    : {
        state: Math.max(...behind.map((slice) => slice.checkpoint)),
        node: Math.min(...behind.map((slice) => slice.height)),
        url: behind[0].node
      }
