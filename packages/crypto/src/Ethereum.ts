/**
 * The Ethereum side of Vega data: Keccak-256 (Ethereum's pre-standard padding, not SHA3-256) and
 * EIP-55 checksummed addresses, as stake linkings carry them.
 *
 * @since 0.1.0
 */
import { Kernel } from "./internal/keccak.js"

const RATE = 136

let kernel: Kernel | undefined

/**
 * Keccak-256 of `data`, as 32 bytes. (With `suffix` 0x06 it is SHA3-256 instead.)
 *
 * @since 0.1.0
 * @category Hashing
 */
export const keccak256 = (data: Uint8Array, suffix = 0x01): Uint8Array => {
  const permutation = (kernel ??= new Kernel())
  const padded = new Uint8Array(Math.floor(data.length / RATE) * RATE + RATE)
  padded.set(data)
  padded[data.length] ^= suffix
  padded[padded.length - 1] ^= 0x80
  const state = new Uint8Array(200)
  for (let offset = 0; offset < padded.length; offset += RATE) {
    for (let i = 0; i < RATE; i++) state[i] ^= padded[offset + i]
    permutation.permute(state)
  }
  return state.slice(0, 32)
}

/**
 * The EIP-55 mixed-case form of an address (`0x` optional, any case): a letter is upper case when
 * the matching nibble of the Keccak-256 of the lowercase address is 8 or more.
 *
 * @since 0.1.0
 * @category Addresses
 */
export const checksumAddress = (address: string): string => {
  const lower = typeof address === "string" ? address.replace(/^0x/i, "").toLowerCase() : ""
  if (!/^[0-9a-f]{40}$/.test(lower)) throw new RangeError(`not an Ethereum address: ${String(address)}`)
  const hash = keccak256(new TextEncoder().encode(lower))
  let out = "0x"
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0xf
    out += nibble >= 8 ? lower[i].toUpperCase() : lower[i]
  }
  return out
}

/**
 * Whether an address is correctly checksummed (all-lowercase and all-uppercase addresses carry no
 * checksum and pass).
 *
 * @since 0.1.0
 * @category Addresses
 */
export const isChecksummed = (address: string): boolean => {
  if (typeof address !== "string") return false
  const body = address.replace(/^0x/i, "")
  if (!/^[0-9a-fA-F]{40}$/.test(body)) return false
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true
  return checksumAddress(body) === `0x${body}`
}
