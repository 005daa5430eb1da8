import { afterEach, describe, expect, it, vi } from "@effect/vitest"

describe("examples", () => {
  afterEach(() => vi.restoreAllMocks())

  it("transaction.ts builds a signed, proven transaction", async () => {
    const lines: Array<string> = []
    vi.spyOn(console, "log").mockImplementation(
      (...args: Array<unknown>) => void lines.push(args.map(String).join(" "))
    )
    await import("../examples/transaction.js")
    await vi.waitFor(() => expect(lines.length).toBe(5), { timeout: 30_000 })
    expect(lines[0]).toBe("party b5fd9d3c4ad553cb3196303b6e6df7f484cf7f5331a572a45031239fd71ad8a0")
    expect(lines[1]).toBe("signature verifies true")
    expect(lines[2]).toBe("proof of work verifies true")
    expect(lines[3]).toMatch(/^txHash [0-9A-F]{64}$/)
    expect(lines[4]).toBe("body keys inputData,signature,pubKey,version,pow")
  })
})
