import { createHash } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Ethereum } from "@vega-effect/crypto"

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")

describe("Ethereum", () => {
  it("hashes with Keccak-256", () => {
    expect(hex(Ethereum.keccak256(new Uint8Array(0)))).toBe(
      "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
    )
    expect(hex(Ethereum.keccak256(new TextEncoder().encode("abc")))).toBe(
      "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"
    )
  })

  it("is the SHA3-256 sponge with the other padding", () => {
    for (const length of [0, 1, 135, 136, 137, 300]) {
      const data = new Uint8Array(length).map((_, i) => (i * 31 + 7) & 0xff)
      expect(hex(Ethereum.keccak256(data, 0x06))).toBe(createHash("sha3-256").update(data).digest("hex"))
    }
  })

  it("checksums addresses as EIP-55 does", () => {
    for (const address of [
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
      "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
      "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb"
    ]) {
      expect(Ethereum.checksumAddress(address.toLowerCase())).toBe(address)
      expect(Ethereum.isChecksummed(address)).toBe(true)
    }
    expect(Ethereum.isChecksummed("0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed")).toBe(false)
    expect(() => Ethereum.checksumAddress("0x1234")).toThrow(RangeError)
  })
})
