/**
 * `src/generated/` is what `codegen/generate.ts` writes from the spec and the tables: a change to
 * either that was not followed by running the generator fails here (`pnpm generate` mends it).
 */
import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { generate, outputDirectory } from "../codegen/generate.js"

describe("src/generated", () => {
  it("is what the generator writes", async () => {
    const files = await generate()
    const committed = readdirSync(outputDirectory).sort()
    expect(committed).toEqual([...files.keys()].sort())
    for (const [name, text] of files) {
      expect(readFileSync(new URL(name, outputDirectory), "utf8"), `src/generated/${name}`).toBe(text)
    }
  }, 120_000)
})
