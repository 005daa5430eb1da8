import { Schema } from "effect"
import { routes } from "../src/internal/api/routes.js"
import type { NodeView } from "../src/internal/api/node.js"
import type { NodeVersion } from "../src/internal/api/nodeVersion.js"
import { Core, type CoreOptions } from "../src/internal/core/core.js"
import type { ParamValue, Reply } from "../src/internal/route.js"
import { World, type Options } from "../src/World.js"
import { StreamControls } from "../src/internal/api/streamControls.js"

/** Calls a route's handler directly, as the gateway would after parsing the query. */
export const call = (
  node: NodeView,
  path: string,
  query: Record<string, ParamValue | ReadonlyArray<ParamValue>> = {},
  pathParams: Record<string, string> = {}
): Reply => {
  const route = routes.find((r) => r.path === path)
  if (route === undefined) throw new Error(`no route ${path}`)
  const reply = route.handle(
    { query: new Map(Object.entries(query)), path: new Map(Object.entries(pathParams)) },
    node,
    undefined
  )
  if (reply instanceof Promise) throw new Error(`${path} answers asynchronously`)
  return reply
}

const cores = new WeakMap<World, Core>()

/** The one core of a world (made on first use, as the simulator makes it with the world). */
export const coreOf = (world: World, options?: CoreOptions): Core => {
  let core = cores.get(world)
  if (core === undefined) {
    core = new Core(world, options)
    cores.set(world, core)
  }
  return core
}

export const nodeOf = (
  world: World,
  options: { height?: number; quirks?: boolean; nodeVersion?: NodeVersion } = {}
): NodeView => {
  const core = coreOf(world)
  const height = options.height ?? world.height
  return {
    world,
    height,
    readableHeight: height,
    quirks: options.quirks ?? false,
    nodeVersion: options.nodeVersion ?? "v0.75",
    core,
    feed: core.feed,
    controls: new StreamControls()
  }
}

export const smallWorld = (options: Options = {}) => new World({ seed: 7, ...options })

/** Decodes a 200 reply with its schema and checks that encoding gives back the same bytes. */
export const decoded = <A, I>(schema: Schema.Schema<A, I>, reply: Reply): A => {
  if (reply.status !== 200) throw new Error(`status ${reply.status}: ${reply.body}`)
  const value = Schema.decodeUnknownSync(schema)(JSON.parse(reply.body))
  const again = JSON.stringify(Schema.encodeSync(schema)(value))
  if (again !== reply.body) throw new Error(`not byte-identical:\n${reply.body.slice(0, 300)}\n${again.slice(0, 300)}`)
  return value
}

export const cursorJson = (cursor: string): string => Buffer.from(cursor, "base64").toString("utf8")

/** Follows `after` cursors to the end and returns every node. */
export const walk = <N>(
  fetch: (after: string | undefined) => { nodes: ReadonlyArray<N>; next: boolean; end: string }
) => {
  const all: Array<N> = []
  let after: string | undefined
  for (let guard = 0; guard < 10_000; guard++) {
    const page = fetch(after)
    all.push(...page.nodes)
    if (!page.next) return all
    after = page.end
  }
  throw new Error("paging did not end")
}
