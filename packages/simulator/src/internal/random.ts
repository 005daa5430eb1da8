/**
 * Deterministic pseudo-randomness: the same seed gives the same world, byte for byte.
 * xoshiro128** seeded through splitmix32; fast, 32-bit, good enough for simulation.
 */

export interface Random {
  /** A float in [0, 1). */
  next(): number
  /** An integer in [0, n). */
  int(n: number): number
  /** An integer in [min, max]. */
  between(min: number, max: number): number
  /** True with probability p. */
  chance(p: number): boolean
  /** One element of a non-empty array. */
  pick<A>(items: ReadonlyArray<A>): A
  /** 32 random bits as an unsigned integer. */
  uint32(): number
  /** `bytes` random bytes as lowercase hex. */
  hex(bytes: number): string
}

const splitmix32 = (seed: number) => {
  let state = seed >>> 0
  return (): number => {
    state = (state + 0x9e3779b9) >>> 0
    let z = state
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0
    return (z ^ (z >>> 16)) >>> 0
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"))

/** A generator for a numeric seed. */
export const makeRandom = (seed: number): Random => {
  const init = splitmix32(seed)
  let a = init()
  let b = init()
  let c = init()
  let d = init()
  const uint32 = (): number => {
    const result = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0
    const t = b << 9
    c ^= a
    d ^= b
    b ^= c
    a ^= d
    c ^= t
    d = rotl(d, 11)
    return result
  }
  const next = () => uint32() / 4294967296
  const int = (n: number) => Math.floor(next() * n)
  return {
    next,
    int,
    between: (min, max) => min + int(max - min + 1),
    chance: (p) => next() < p,
    pick: (items) => items[int(items.length)],
    uint32,
    hex: (bytes) => {
      let out = ""
      for (let i = 0; i < bytes; i += 4) {
        const word = uint32()
        out += HEX[word & 0xff] + HEX[(word >>> 8) & 0xff] + HEX[(word >>> 16) & 0xff] + HEX[word >>> 24]
      }
      return out.slice(0, bytes * 2)
    }
  }
}

const rotl = (x: number, k: number): number => ((x << k) | (x >>> (32 - k))) >>> 0

/** Mixes several integers (seed, height, stream) into one seed, so each block has its own stream. */
export const mix = (...parts: ReadonlyArray<number>): number => {
  let h = 0x811c9dc5
  for (const part of parts) {
    h = Math.imul(h ^ (part >>> 0), 0x01000193) >>> 0
    h = Math.imul(h ^ Math.floor(part / 4294967296), 0x01000193) >>> 0
  }
  return splitmix32(h)()
}

/**
 * A 32-bit integer scrambled one to one (splitmix32's output function): different inputs always
 * give different outputs, which look unrelated.
 */
export const scramble32 = (n: number): number => splitmix32(n)()

/** A numeric seed from a string or number. */
export const seedOf = (seed: string | number): number => {
  if (typeof seed === "number") return seed >>> 0
  let h = 0x811c9dc5
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193) >>> 0
  return h
}
