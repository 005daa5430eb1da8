import { afterEach, describe, expect, it, vi } from "@effect/vitest"

describe("examples", () => {
  afterEach(() => vi.restoreAllMocks())

  it("quickstart.ts runs", async () => {
    const lines: Array<string> = []
    vi.spyOn(console, "log").mockImplementation(
      (...args: Array<unknown>) => void lines.push(args.map(String).join(" "))
    )
    await import("../examples/quickstart.js")
    await vi.waitFor(() => expect(lines.length).toBe(4), { timeout: 20_000 })
    expect(lines[1]).toMatch(/^leader at \d+$/)
    expect(Number(lines[1].split(" ")[2]) - Number(lines[2].split(" ")[3])).toBe(3)
    expect(lines[3]).toBe("invalid page size 400 pagination limit must be in range 0-5000")
  })
})
