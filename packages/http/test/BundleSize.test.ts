/**
 * A program that reads positions with the client ships the routes the client names, not the
 * whole table: esbuild cannot leave out any member of a module namespace that is used as a whole
 * (a barrel's `export * as DataNodeApi`, or the namespace taken as a value), so the client must
 * reach the table through its own subpath and by its members.
 */
import { describe, expect, it } from "@effect/vitest"
import { bundle, everyEndpoint, positionsOnly } from "./bundleSize.js"

describe("bundle size", () => {
  it("leaves the routes a positions-only program does not use out of it", { timeout: 60_000 }, async () => {
    const positions = await bundle(positionsOnly)
    const every = await bundle(everyEndpoint)
    // every route: some 75 kB of generated schemas; the client's own twenty or so: a few kB
    expect(every.generated).toBeGreaterThan(50_000)
    expect(positions.generated).toBeLessThan(every.generated / 10)
    expect(positions.generatedModules).not.toContain("Vega.ts")
    expect(positions.generatedModules).not.toContain("VegaEvents.ts")
  })
})
