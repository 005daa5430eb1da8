/**
 * Every route's request against the parameters Vega's v0.75.0 spec declares for it: the client
 * sends exactly those names (dotted as the gateway reads them), repeats exactly the repeated
 * ones, and sends each value as its type says (digits for integers, `true`/`false`, enum names
 * of the spec's list); a request with a wrong type or an enum name the spec does not list is
 * refused before it is sent.
 */
import { describe, expect, it } from "@effect/vitest"
import { DataNodeApi, Endpoint } from "@vega-effect/schema"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import { loadSpec, Random } from "./support/spec.js"

const spec = loadSpec("v0.75.0")

interface Parameter {
  readonly name: string
  readonly in: "query" | "path"
  readonly schema: {
    readonly type: string
    readonly format?: string
    readonly enum?: ReadonlyArray<string>
    readonly items?: any
  }
}

/** What our request schema sends for one dotted name. */
interface Sent {
  readonly repeated: boolean
  /** the JSON type of one value on the encoded side */
  readonly type: "string" | "number" | "boolean"
  /** the names an enum takes, when it is one */
  readonly names: ReadonlyArray<string> | undefined
  /** the schema of one value, to make a valid one */
  readonly ast: AST.AST
}

const unwrap = (ast: AST.AST): AST.AST => {
  for (;;) {
    if (AST.isRefinement(ast)) ast = ast.from
    else if (AST.isTransformation(ast)) ast = ast.from
    else if (AST.isSuspend(ast)) ast = ast.f()
    else return ast
  }
}

const leafOf = (ast: AST.AST, repeated: boolean): Sent => {
  const node = unwrap(ast)
  const of = (type: Sent["type"], names?: ReadonlyArray<string>): Sent => ({ repeated, type, names, ast })
  if (AST.isUnion(node)) {
    const members = node.types.map(unwrap)
    if (members.every((t) => AST.isLiteral(t) && typeof t.literal === "string"))
      return of(
        "string",
        members.map((t) => String((t as AST.Literal).literal))
      )
    // a string or "" union
    if (members.some((t) => t._tag === "StringKeyword")) return of("string")
  }
  if (node._tag === "StringKeyword" || node._tag === "TemplateLiteral") return of("string")
  if (node._tag === "NumberKeyword") return of("number")
  if (node._tag === "BooleanKeyword") return of("boolean")
  throw new Error(`unexpected request member ${String(node)}`)
}

/** Every dotted name our request schema can send, and how. */
const sentBy = (ast: AST.AST, prefix = ""): Map<string, Sent> => {
  const node = unwrap(ast)
  const out = new Map<string, Sent>()
  if (!AST.isTypeLiteral(node)) throw new Error(`a request is a struct, got ${String(node)}`)
  for (const ps of node.propertySignatures) {
    const name = `${prefix}${String(ps.name)}`
    const member = unwrap(ps.type)
    if (AST.isTupleType(member)) out.set(name, leafOf(member.rest[0]!.type, true))
    else if (AST.isTypeLiteral(member)) for (const [k, v] of sentBy(member, `${name}.`)) out.set(k, v)
    else out.set(name, leafOf(ps.type, false))
  }
  return out
}

const typeOf = (p: Parameter): Omit<Sent, "ast"> => {
  const one = p.schema.type === "array" ? p.schema.items : p.schema
  const type = one.type === "integer" ? "number" : one.type === "boolean" ? "boolean" : "string"
  return { repeated: p.schema.type === "array", type, names: one.enum }
}

const identifierOf = (ast: AST.AST): string | undefined => {
  for (let node: AST.AST | undefined = ast; node !== undefined;) {
    const id = AST.getIdentifierAnnotation(node)
    if (id._tag === "Some") return id.value
    node =
      AST.isRefinement(node) || AST.isTransformation(node)
        ? node.from
        : AST.isUnion(node)
          ? node.types.find((t) => !AST.isLiteral(t))
          : undefined
  }
  return undefined
}

const HEX_IDS = new Set([
  "PartyId",
  "MarketId",
  "AssetId",
  "NodeId",
  "OrderId",
  "VegaId",
  "ReferralSetId",
  "LiquidityProvisionId",
  "StakeLinkingId",
  "BundleId",
  "PublicKey",
  "TxHash",
  "BlockHash"
])

/** A valid value of a parameter for the query string, by its spec type and what our schema takes. */
const valueOf = (random: Random, p: Parameter, sent: Sent): unknown => {
  const one = p.schema.type === "array" ? p.schema.items : p.schema
  const id = identifierOf(sent.ast)
  const single = (): unknown => {
    if (one.enum !== undefined) return random.pick(one.enum as ReadonlyArray<string>)
    if (one.type === "integer") return p.name.startsWith("pagination.") ? 1 + random.int(5000) : random.int(1000)
    if (one.type === "boolean") return random.chance(0.5)
    if (id !== undefined && HEX_IDS.has(id)) return random.hex(64)
    if (one.format === "int64" || one.format === "uint64" || id === "Amount" || id === "Uint64" || id === "Int64")
      return String(random.int(1_000_000))
    if (id === "SignedAmount") return String(-random.int(1_000_000))
    if (id === "Decimal" || id === "DecimalOrEmpty") return "0.25"
    if (id === "EthereumAddress") return `0x${random.hex(40)}`
    return `v${random.hex(6)}`
  }
  return p.schema.type === "array" ? [single(), single()] : single()
}

/** The request object that sets a dotted name to `value`. */
const nest = (into: Record<string, any>, name: string, value: unknown) => {
  const parts = name.split(".")
  let at = into
  for (const part of parts.slice(0, -1)) at = at[part] ??= {}
  at[parts.at(-1)!] = value
}

interface Route {
  readonly name: string
  readonly request: Schema.Schema<any, any>
  readonly parameters: ReadonlyArray<Parameter>
  readonly url: (request: unknown) => Either.Either<string, unknown>
}

/** Every GET route of the table (JSON, stream and file routes), with the spec's parameters. */
const routes = (): ReadonlyArray<Route> => {
  const paths = [
    ...DataNodeApi.endpoints
      .filter((e) => e.method === "GET")
      .map((e) => ({ e, url: (r: unknown) => Endpoint.url(e, r) })),
    ...DataNodeApi.files.map((e) => ({ e, url: (r: unknown) => Endpoint.url(e, r) })),
    ...DataNodeApi.streams.map((e) => ({ e, url: (r: unknown) => Endpoint.streamUrl(e, r) }))
  ]
  return paths.flatMap(({ e, url }) => {
    const operation = spec.paths[e.path]?.get
    return operation === undefined
      ? []
      : [{ name: e.name, request: e.request, parameters: operation.parameters ?? [], url }]
  })
}

const queryOf = (url: string): Array<readonly [string, string]> =>
  [...new URLSearchParams(url.includes("?") ? url.slice(url.indexOf("?") + 1) : "")].map(([k, v]) => [k, v] as const)

/** Every enum name of the v0.79.0 spec: hand-written enums also know what later releases added. */
const LATER_ENUM_NAMES: ReadonlySet<string> = new Set(
  Object.values(loadSpec("v0.79.0").components).flatMap((c: any) => (Array.isArray(c.enum) ? c.enum : []))
)

describe("every route's request against the v0.75.0 spec", () => {
  const all = routes()

  it("covers every GET route of the spec", () => {
    const gets = Object.values(spec.paths).filter((ops: any) => ops.get !== undefined).length
    expect(all.length).toBe(gets)
  })

  for (const [index, route] of all.entries()) {
    const { name, parameters, request } = route
    // the event bus reads its request from a frame, not the query string (see Endpoint.StreamEndpoint)
    const byFrame = name === "ObserveEventBus" || name === "CoreObserveEventBus"

    it(`${name}: sends the spec's parameter names, repetition and types`, () => {
      const ours = sentBy(request.ast)
      const declared = new Map(parameters.map((p) => [p.name, p]))
      if (byFrame) return
      expect([...ours.keys()].sort(), "names").toEqual([...declared.keys()].sort())
      for (const [member, p] of declared) {
        const sent = ours.get(member)!
        const expected = typeOf(p)
        expect({ member, repeated: sent.repeated, type: sent.type }).toEqual({
          member,
          repeated: expected.repeated,
          type: expected.type
        })
        if (expected.names !== undefined && sent.names !== undefined) {
          // every name the spec lists, and beyond them only names later releases added
          expect(sent.names.slice(0, expected.names.length), member).toEqual(expected.names)
          for (const extra of sent.names.slice(expected.names.length))
            expect(LATER_ENUM_NAMES.has(extra), extra).toBe(true)
        }
      }
    })

    it(`${name}: a request with every parameter set becomes that query string`, () => {
      if (byFrame) return
      const random = new Random(5000 + index)
      const ours = sentBy(request.ast)
      const given = new Map<string, unknown>()
      const value: Record<string, any> = {}
      for (const p of parameters) {
        // a paged request takes one direction: forward
        if (p.name === "pagination.last" || p.name === "pagination.before") continue
        const v = valueOf(random, p, ours.get(p.name)!)
        given.set(p.name, v)
        nest(value, p.name, v)
      }
      const decoded = Schema.decodeUnknownEither(request)(value)
      if (Either.isLeft(decoded)) throw new Error(`${JSON.stringify(value)}: ${decoded.left.message}`)
      const url = Either.getOrThrow(route.url(decoded.right) as Either.Either<string, never>)
      const pathParams = parameters.filter((p) => p.in === "path").map((p) => p.name)
      for (const member of pathParams)
        expect(url.split("?")[0]).toContain(encodeURIComponent(String(given.get(member))))
      const expected = [...given]
        .filter(([member]) => !pathParams.includes(member))
        .flatMap(([member, v]) => (Array.isArray(v) ? v : [v]).map((one) => [member, String(one)] as const))
      expect(queryOf(url).sort()).toEqual(expected.sort())
    })

    it(`${name}: refuses a value of the wrong type and an enum name the spec does not list`, () => {
      for (const p of parameters) {
        const wrongValue =
          p.schema.type === "boolean" || p.schema.type === "integer"
            ? "yes"
            : p.schema.type === "array"
              ? "not a list"
              : 12
        const wrong: Record<string, any> = {}
        nest(wrong, p.name, wrongValue)
        expect(Either.isLeft(Schema.decodeUnknownEither(request)(wrong)), `${p.name}: ${String(wrongValue)}`).toBe(true)
        const one = p.schema.type === "array" ? p.schema.items : p.schema
        if (one.enum !== undefined) {
          const unknown: Record<string, any> = {}
          nest(unknown, p.name, p.schema.type === "array" ? ["NOT_A_VALUE"] : "NOT_A_VALUE")
          expect(Either.isLeft(Schema.decodeUnknownEither(request)(unknown)), p.name).toBe(true)
        }
      }
    })
  }
})
