import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import { DataNodeClient } from "@vega-effect/http"

// Type-level: `npx -y pnpm@10 check` (tsc) fails if a `@ts-expect-error` below stops being an error.
describe("the DataNodeClient service shape", () => {
  it("a client without one of its methods is not a DataNodeClient", () => {
    const complete = {} as DataNodeClient.Service
    const { nodes: _nodes, ...withoutNodes } = complete
    const { execute: _execute, ...withoutExecute } = complete
    // @ts-expect-error `nodes` is missing
    DataNodeClient.DataNodeClient.of(withoutNodes)
    // @ts-expect-error `execute` is missing
    DataNodeClient.DataNodeClient.of(withoutExecute)
    expectTypeOf<Omit<DataNodeClient.Service, "positions">>().not.toMatchTypeOf<DataNodeClient.Service>()
    expect(DataNodeClient.DataNodeClient.of(complete)).toBe(complete)
  })
})
