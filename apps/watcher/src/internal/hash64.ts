/**
 * A 64-bit hash of a text, as two 32-bit halves: two FNV-1a-style passes with different offsets and
 * multipliers, each
 * finished with MurmurHash3's avalanche so that keys differing in one character spread over the
 * whole table. Never 0:0 (that marks an empty slot in `Fingerprints`).
 */
const mix = (h: number): number => {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

export const hash64 = (text: string): readonly [hi: number, lo: number] => {
  let a = 0x811c9dc5
  let b = 0x01000193 ^ 0x9e3779b9
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995)
  }
  const hi = mix(a)
  const lo = mix(b)
  return hi === 0 && lo === 0 ? [0, 1] : [hi, lo]
}
