import { describe, expect, it } from "vitest"
import * as Fingerprints from "../src/Fingerprints.js"

/** A deterministic stream of pseudo-random numbers. */
const random = (seed: number) => () => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
  return seed
}

describe("Fingerprints", () => {
  it("keeps, replaces and forgets fingerprints like a Map, through growth and deletions", () => {
    const next = random(7)
    const set = Fingerprints.make()
    const reference = new Map<string, string>()
    // few distinct keys, many operations: runs of linear probing form and are cut by deletions
    for (let i = 0; i < 60_000; i++) {
      const key = `market${next() % 3000}/party${next() % 7}`
      const op = next() % 10
      if (op < 3) {
        set.delete(key)
        reference.delete(key)
      } else {
        const print = Fingerprints.fingerprintOf(String(next()))
        set.set(key, print)
        reference.set(key, print)
      }
      if (i % 4999 === 0) {
        for (const [k, v] of reference) expect(set.get(k)).toBe(v)
      }
    }
    expect(set.size).toBe(reference.size)
    for (let m = 0; m < 3000; m++) {
      for (let p = 0; p < 7; p++) {
        const key = `market${m}/party${p}`
        expect(set.has(key)).toBe(reference.has(key))
        expect(set.get(key)).toBe(reference.get(key))
      }
    }
  })

  it("fingerprints are 64 bits of the row's digest: equal rows, equal prints", () => {
    expect(Fingerprints.fingerprintOf('{"a":"1"}')).toBe(Fingerprints.fingerprintOf('{"a":"1"}'))
    expect(Fingerprints.fingerprintOf('{"a":"1"}')).not.toBe(Fingerprints.fingerprintOf('{"a":"2"}'))
    expect(Fingerprints.fingerprintOf("x")).toMatch(/^[0-9a-f]{16}$/)
  })

  it("holds a million rows in 32 MB or less", () => {
    const set = Fingerprints.make()
    for (let i = 0; i < 1_000_000; i++) set.set(`${i.toString(16).padStart(64, "0")}/${i}`, "0123456789abcdef")
    expect(set.size).toBe(1_000_000)
    expect(set.get(`${(123_456).toString(16).padStart(64, "0")}/123456`)).toBe("0123456789abcdef")
    expect(set.byteLength()).toBeLessThanOrEqual(32 * 1024 * 1024)
  })
})
