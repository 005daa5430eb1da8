import { afterEach, describe, expect, it, vi } from "@effect/vitest"

describe("examples", () => {
  afterEach(() => vi.restoreAllMocks())

  it("usage.ts runs and prints what the README shows", async () => {
    const lines: Array<string> = []
    vi.spyOn(console, "log").mockImplementation(
      (...args: Array<unknown>) => void lines.push(args.map(String).join(" "))
    )
    await import("../examples/usage.js")
    await vi.waitFor(() => expect(lines.length).toBe(4), { timeout: 30_000 })
    expect(lines[0]).toBe("one page: 2 positions, more: true")
    const total = Number(/streamed: (\d+)/.exec(lines[1])![1])
    expect(lines[2]).toBe(`resumed after 10: ${total - 10} more`)
    expect(lines[3]).toBe(`with a failing node and a lagging one: ${total} positions, served by node 2`)
  })
})
