/**
 * The rows a slice holds, as the watcher keeps them in memory: a 64-bit hash of each key and a
 * 64-bit fingerprint of its row, 16 bytes a row in one typed array, whatever the keys and rows
 * weigh. The rows themselves stay in the store; a row read is compared with its fingerprint, and
 * only a row that differs is looked up there.
 *
 * The keys are not kept, so the set cannot be listed: a read that says which rows are gone asks
 * the store for the slice's keys (see `Store.keys`). Two keys whose hashes collide (about one
 * chance in 10^7 for 10^6 rows) share an entry: the other key's row then looks changed and is
 * looked up in the store, where its real row is found, so a collision costs a lookup, never a
 * change.
 */
import { createHash } from "node:crypto"
import { hash64 } from "./internal/hash64.js"

/** What a read needs of the rows held: whether a key is held, and its row's fingerprint. */
export interface HeldRows {
  /** How many rows are held. */
  readonly size: number
  readonly has: (key: string) => boolean
  readonly get: (key: string) => string | undefined
}

export interface Fingerprints extends HeldRows {
  /** The memory the set takes. */
  readonly byteLength: () => number
  readonly set: (key: string, fingerprint: string) => void
  readonly delete: (key: string) => void
}

/** A row's fingerprint: the first 64 bits of the SHA-256 of its canonical JSON, in hex. */
export const fingerprintOf = (json: string): string => createHash("sha256").update(json).digest("hex").slice(0, 16)

/** Words per slot: key hash (2), fingerprint (2). */
const WORDS = 4
const INITIAL_SLOTS = 1024
/** Grown past this share of slots in use, so probes stay short. */
const MAX_LOAD = 0.7

/** An empty set of fingerprints. */
export const make = (): Fingerprints => {
  let slots = INITIAL_SLOTS
  let table = new Uint32Array(slots * WORDS)
  let count = 0

  // a slot is empty when its key hash is 0:0, a hash `hash64` never gives
  const isEmpty = (slot: number) => table[slot * WORDS] === 0 && table[slot * WORDS + 1] === 0
  const home = (hi: number) => hi & (slots - 1)

  /** The slot of the key hash, or the empty slot where it would go. */
  const find = (hi: number, lo: number): number => {
    let slot = home(hi)
    while (!isEmpty(slot) && (table[slot * WORDS] !== hi || table[slot * WORDS + 1] !== lo)) {
      slot = (slot + 1) & (slots - 1)
    }
    return slot
  }

  const put = (hi: number, lo: number, fhi: number, flo: number) => {
    const slot = find(hi, lo)
    if (isEmpty(slot)) count++
    const at = slot * WORDS
    table[at] = hi
    table[at + 1] = lo
    table[at + 2] = fhi
    table[at + 3] = flo
  }

  const grow = () => {
    const old = table
    slots *= 2
    table = new Uint32Array(slots * WORDS)
    count = 0
    for (let i = 0; i < old.length; i += WORDS) {
      if (old[i] !== 0 || old[i + 1] !== 0) put(old[i], old[i + 1], old[i + 2], old[i + 3])
    }
  }

  const get = (key: string): string | undefined => {
    const [hi, lo] = hash64(key)
    const slot = find(hi, lo)
    if (isEmpty(slot)) return undefined
    const at = slot * WORDS
    return table[at + 2].toString(16).padStart(8, "0") + table[at + 3].toString(16).padStart(8, "0")
  }

  const set = (key: string, fingerprint: string) => {
    if ((count + 1) / slots > MAX_LOAD) grow()
    const [hi, lo] = hash64(key)
    put(hi, lo, Number.parseInt(fingerprint.slice(0, 8), 16), Number.parseInt(fingerprint.slice(8, 16), 16))
  }

  /** Linear probing's deletion: later entries of the run move back, so no probe stops short. */
  const remove = (key: string) => {
    const [hi, lo] = hash64(key)
    let hole = find(hi, lo)
    if (isEmpty(hole)) return
    count--
    let next = hole
    for (;;) {
      next = (next + 1) & (slots - 1)
      if (isEmpty(next)) break
      const want = home(table[next * WORDS])
      // the entry at `next` may fill the hole unless its home lies cyclically in (hole, next]
      const stays = hole <= next ? hole < want && want <= next : hole < want || want <= next
      if (stays) continue
      table.copyWithin(hole * WORDS, next * WORDS, next * WORDS + WORDS)
      hole = next
    }
    table.fill(0, hole * WORDS, hole * WORDS + WORDS)
  }

  return {
    get size() {
      return count
    },
    byteLength: () => table.byteLength,
    has: (key) => {
      const [hi, lo] = hash64(key)
      return !isEmpty(find(hi, lo))
    },
    get,
    set,
    delete: remove
  }
}
