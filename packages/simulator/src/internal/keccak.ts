/**
 * Keccak-256 (the pre-standard padding Ethereum uses, not SHA3-256), for EIP-55 address checksums.
 * Node's crypto offers SHA3 but not Keccak; addresses are few, so a BigInt lane implementation is
 * plenty fast.
 */

const MASK = (1n << 64n) - 1n

const ROUND_CONSTANTS = [
  0x0000000000000001n,
  0x0000000000008082n,
  0x800000000000808an,
  0x8000000080008000n,
  0x000000000000808bn,
  0x0000000080000001n,
  0x8000000080008081n,
  0x8000000000008009n,
  0x000000000000008an,
  0x0000000000000088n,
  0x0000000080008009n,
  0x000000008000000an,
  0x000000008000808bn,
  0x800000000000008bn,
  0x8000000000008089n,
  0x8000000000008003n,
  0x8000000000008002n,
  0x8000000000000080n,
  0x000000000000800an,
  0x800000008000000an,
  0x8000000080008081n,
  0x8000000000008080n,
  0x0000000080000001n,
  0x8000000080008008n
]

// rotation offset of lane x + 5y
const ROTATIONS = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14]

const rotl = (v: bigint, n: number): bigint => (n === 0 ? v : ((v << BigInt(n)) | (v >> BigInt(64 - n))) & MASK)

const permute = (a: Array<bigint>): void => {
  const c = new Array<bigint>(5)
  const b = new Array<bigint>(25)
  for (const rc of ROUND_CONSTANTS) {
    for (let x = 0; x < 5; x++) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20]
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1)
      for (let y = 0; y < 25; y += 5) a[x + y] ^= d
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(a[x + 5 * y], ROTATIONS[x + 5 * y])
    }
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) a[x + y] = b[x + y] ^ (~b[((x + 1) % 5) + y] & MASK & b[((x + 2) % 5) + y])
    }
    a[0] ^= rc
  }
}

const RATE = 136

/** Keccak-256 of `data`, as 32 bytes. `suffix` 0x06 gives SHA3-256 instead (used to test the permutation). */
export const keccak256 = (data: Uint8Array, suffix = 0x01): Uint8Array => {
  const padded = new Uint8Array(Math.floor(data.length / RATE) * RATE + RATE)
  padded.set(data)
  padded[data.length] ^= suffix
  padded[padded.length - 1] ^= 0x80
  const state = new Array<bigint>(25).fill(0n)
  for (let offset = 0; offset < padded.length; offset += RATE) {
    for (let lane = 0; lane < RATE / 8; lane++) {
      let v = 0n
      for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(padded[offset + lane * 8 + i])
      state[lane] ^= v
    }
    permute(state)
  }
  const out = new Uint8Array(32)
  for (let i = 0; i < 32; i++) out[i] = Number((state[i >> 3] >> BigInt(8 * (i & 7))) & 0xffn)
  return out
}

/** EIP-55 mixed-case checksum of a 20-byte address given as 40 hex characters (any case). */
export const toChecksumAddress = (hex40: string): string => {
  const lower = hex40.toLowerCase()
  const hash = keccak256(new TextEncoder().encode(lower))
  let out = "0x"
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0xf
    out += nibble >= 8 ? lower[i].toUpperCase() : lower[i]
  }
  return out
}
