import { afterEach, describe, expect, it, vi } from "@effect/vitest"

describe("examples", () => {
  afterEach(() => vi.restoreAllMocks())

  it("checkpoint.ts crashes, resumes from its checkpoint and processes every transfer once", async () => {
    const lines: Array<string> = []
    vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) => void lines.push(args.join(" ")))
    await import("../examples/checkpoint.js")
    expect(lines).toEqual([
      "run 1",
      "processed transfer 1: 100",
      "processed transfer 2: 200",
      "processed transfer 3: 300",
      "processed transfer 4: 400",
      "processed transfer 5: 500",
      `crashed at transfer 6; checkpoint ${Buffer.from('{"id":"5"}').toString("base64")}`,
      "run 2, from the checkpoint",
      "processed transfer 6: 600",
      "processed transfer 7: 700",
      "processed transfer 8: 800",
      "processed transfer 9: 900",
      "processed transfer 10: 1000",
      "processed 10 of 10 transfers, each once: true"
    ])
  })
})
