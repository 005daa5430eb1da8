import { afterEach, describe, expect, it, vi } from "@effect/vitest"

describe("examples", () => {
  afterEach(() => vi.restoreAllMocks())

  it("basics.ts runs and prints what the README promises", async () => {
    const lines: Array<string> = []
    vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) => void lines.push(args.join(" ")))
    await import("../examples/basics.js")
    expect(lines).toEqual([
      "/api/v2/positions?filter.partyIds=7d30838be180ddf0c9d31e3cf3b8a06bb3738d19bc3b61f6ed5b20a57bcb3dfc&pagination.first=500&pagination.newestFirst=false",
      "open volume -1.234",
      "entry price 1.23456",
      "status unknown (POSITION_STATUS_LIQUIDATED)",
      "identical true"
    ])
  })
})
