/**
 * What a program using the client ships: small programs bundled with esbuild as an application
 * would bundle them (minified, platform node, ESM, the workspace packages from their sources
 * through the `@vega-effect/source` condition), and how many bytes of the output come from
 * `packages/schema` and from its generated modules (esbuild's metafile).
 */
import { fileURLToPath } from "node:url"
import * as esbuild from "esbuild"

/** The workspace's root, where esbuild works: the metafile names the inputs from there. */
export const root = fileURLToPath(new URL("../../../", import.meta.url))
const here = fileURLToPath(new URL(".", import.meta.url))

/** Reads every position of a market with `client.positions(...)`, over undici. */
export const positionsOnly = `
import { NodeHttpClient } from "@effect/platform-node"
import { DataNodeClient } from "@vega-effect/http"
import { Effect, Layer, Stream } from "effect"

const DataNode = DataNodeClient.layer({ urls: process.argv.slice(2) }).pipe(Layer.provide(NodeHttpClient.layerUndici))
const market = "a08d564afb14acd3fa86b004f899b2639942cd7cb5e0c9bed8f92fdf15e4033b"

const program = Effect.gen(function* () {
  const client = yield* DataNodeClient.DataNodeClient
  yield* client
    .positions({ filter: { marketIds: [market] } })
    .pipe(Stream.runForEach((item) => Effect.log(item.node.partyId, item.node.openVolume)))
})

Effect.runPromise(program.pipe(Effect.provide(DataNode)))
`

/** The same, and a reference to every route of the table, so that none can be left out. */
export const everyEndpoint = `${positionsOnly}
import * as DataNodeApi from "@vega-effect/schema/DataNodeApi"
console.log(Object.values(DataNodeApi).length)
`

export interface Figures {
  /** bytes of the bundle */
  readonly total: number
  /** of them, from packages/schema */
  readonly schema: number
  /** of them, from packages/schema/src/generated */
  readonly generated: number
  /** the generated modules with bytes in the bundle */
  readonly generatedModules: ReadonlyArray<string>
}

const GENERATED = "packages/schema/src/generated/"

/** Bundles a program (TypeScript source) and measures what it ships. */
export const bundle = async (contents: string): Promise<Figures> => {
  const result = await esbuild.build({
    stdin: { contents, resolveDir: here, sourcefile: "program.ts", loader: "ts" },
    absWorkingDir: root,
    bundle: true,
    minify: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["@vega-effect/source"],
    metafile: true,
    write: false,
    outfile: "program.js",
    logLevel: "warning"
  })
  const inputs = Object.entries(Object.values(result.metafile.outputs)[0].inputs)
  const bytes = (prefix: string) =>
    inputs.filter(([path]) => path.startsWith(prefix)).reduce((sum, [, input]) => sum + input.bytesInOutput, 0)
  return {
    total: result.outputFiles[0].contents.length,
    schema: bytes("packages/schema/"),
    generated: bytes(GENERATED),
    generatedModules: inputs
      .filter(([path, input]) => path.startsWith(GENERATED) && input.bytesInOutput > 0)
      .map(([path]) => path.slice(GENERATED.length))
  }
}
