import { afterEach, describe, expect, it, vi } from "@effect/vitest"

describe("examples", () => {
  afterEach(() => vi.restoreAllMocks())

  it("order.ts submits an order and sees its result and position", async () => {
    const lines: Array<string> = []
    vi.spyOn(console, "log").mockImplementation(
      (...args: Array<unknown>) => void lines.push(args.map(String).join(" "))
    )
    await import("../examples/order.js")
    await vi.waitFor(() => expect(lines.length).toBe(3), { timeout: 30_000 })
    expect(lines[0]).toBe("party b5fd9d3c4ad553cb3196303b6e6df7f484cf7f5331a572a45031239fd71ad8a0")
    expect(lines[1]).toMatch(/^result success [0-9a-f]{64}$/)
    expect(lines[2]).toBe("open volume 5")
  }, 40_000)
})
