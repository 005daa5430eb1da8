/**
 * Instances of the API's JSON made from Vega's published spec alone (the OpenAPI component schemas,
 * with `proto.json` for which members are oneof or proto3 `optional`), and the exactness table for
 * what a string or 64-bit member holds. Nothing here reads this package's schemas: the instances
 * are what a node may write, and the tests hold the schemas to them.
 *
 * REST form (jsonpb with `EmitDefaults`): every member written but unset oneof and `optional`
 * members, unset messages `null` (a connection and its page info are always set, as the node's
 * handlers always set them), 64-bit integers as strings, enums as names. Stream form: enums as
 * numbers and default values left out.
 */
import { readFileSync } from "node:fs"
import { EXACTNESS } from "../../codegen/exactness.js"
import type { AnyKind, Handwritten } from "./handwritten.js"

export type SpecVersion = "v0.75.0" | "v0.79.0"
type Json = unknown
type OpenApiSchema = Record<string, any>

interface ProtoField {
  readonly name: string
  readonly label: string
  readonly isoneof: boolean
  readonly oneofdecl: string
}
interface ProtoMessage {
  readonly longName: string
  readonly fullName: string
  readonly fields: ReadonlyArray<ProtoField>
}
interface ProtoEnum {
  readonly longName: string
  readonly fullName: string
  readonly values: ReadonlyArray<{ readonly name: string; readonly number: string }>
}

export interface Spec {
  readonly version: SpecVersion
  readonly components: Readonly<Record<string, OpenApiSchema>>
  readonly paths: Readonly<Record<string, Record<string, any>>>
  /** by definition name (`vegaOrder`) */
  readonly messages: ReadonlyMap<string, ProtoMessage>
  readonly enums: ReadonlyMap<string, ProtoEnum>
}

const readJson = (version: SpecVersion, file: string): any =>
  JSON.parse(readFileSync(new URL(`../../spec/openapi/${version}/${file}`, import.meta.url), "utf8"))

export const jsonName = (field: string): string => field.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())

/**
 * grpc-gateway names a definition by its message's name (nested names joined) prefixed by as many
 * trailing package segments as make it unique: `vegaMarket`, `v1TransactionResult`.
 */
const definitionNames = (pkg: string, longName: string): ReadonlyArray<string> => {
  const parts = pkg.split(".")
  const base = longName.replace(/\./g, "")
  return parts.map((_, i) => parts.slice(i).join("") + base).concat(base)
}

const byDefinitionName = <T extends { readonly longName: string }>(
  files: ReadonlyArray<any>,
  pick: (file: any) => ReadonlyArray<T>,
  components: Readonly<Record<string, OpenApiSchema>>
): Map<string, T> => {
  const found = new Map<string, Array<T>>()
  for (const file of files)
    for (const item of pick(file))
      for (const name of definitionNames(file.package, item.longName))
        if (name in components) found.set(name, [...(found.get(name) ?? []), item])
  const out = new Map<string, T>()
  for (const [name, items] of found) {
    // a name two messages could take is resolved by the members the definition lists
    const props = Object.keys(components[name].properties ?? {})
      .sort()
      .join()
    const match =
      items.length === 1
        ? items[0]
        : items.find(
            (m: any) =>
              (m.fields ?? [])
                .map((f: ProtoField) => jsonName(f.name))
                .sort()
                .join() === props
          )
    if (match !== undefined) out.set(name, match)
  }
  return out
}

export const loadSpec = (version: SpecVersion): Spec => {
  const data = readJson(version, "trading_data_v2.openapi.json")
  const core = readJson(version, "transaction.openapi.json")
  const files = readJson(version, "proto.json").files
  const components = { ...core.components.schemas, ...data.components.schemas }
  return {
    version,
    components,
    paths: { ...core.paths, ...data.paths },
    messages: byDefinitionName<ProtoMessage>(files, (f) => f.messages, components),
    enums: byDefinitionName<ProtoEnum>(files, (f) => f.enums, components)
  }
}

export const refName = (ref: string): string => ref.slice("#/components/schemas/".length)

/** A small seeded generator (mulberry32): the same seed gives the same instances. */
export class Random {
  private state: number
  constructor(seed: number) {
    this.state = seed >>> 0
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  int(n: number): number {
    return Math.floor(this.next() * n)
  }
  chance(p: number): boolean {
    return this.next() < p
  }
  pick<A>(items: ReadonlyArray<A>): A {
    return items[this.int(items.length)]!
  }
  digits(n: number): string {
    let s = String(1 + this.int(9))
    for (let i = 1; i < n; i++) s += String(this.int(10))
    return s
  }
  hex(n: number): string {
    let s = ""
    for (let i = 0; i < n; i++) s += "0123456789abcdef"[this.int(16)]
    return s
  }
}

export const UINT256_MAX = ((1n << 256n) - 1n).toString()
const UINT64_MAX = "18446744073709551615"
const INT64_MAX = "9223372036854775807"
const INT64_MIN = "-9223372036854775808"

/** What a member is: its definition's proto message, the member, and its kind in the table. */
export interface Member {
  readonly member: string
  readonly kind: AnyKind | undefined
}

/** Whether a definition is a page of a list: `edges` and `pageInfo`. */
export const isConnection = (schema: OpenApiSchema | undefined): boolean =>
  schema?.properties !== undefined && Object.keys(schema.properties).sort().join() === "edges,pageInfo"

/** Whether a definition is an edge of a page: `node` and `cursor`. */
export const isEdge = (schema: OpenApiSchema | undefined): boolean =>
  schema?.properties !== undefined && Object.keys(schema.properties).sort().join() === "cursor,node"

export interface Options {
  /** amounts at 2^256-1 and 64-bit members at their extremes */
  readonly extremes?: boolean
  /** what the hand-written schemas say of their members (kinds, members always set) */
  readonly handwritten?: Handwritten
}

/** Makes REST-form instances of the spec's definitions. */
export class Instances {
  /** Round robin per enum and per oneof, so that every value and member comes up in turn. */
  private readonly turns = new Map<string, number>()
  private turn(key: string, n: number): number {
    const t = this.turns.get(key) ?? this.random.int(n)
    this.turns.set(key, t + 1)
    return t % n
  }

  constructor(
    readonly spec: Spec,
    readonly random: Random,
    readonly options: Options = {}
  ) {}

  /** A member's kind: the exactness table's, or for a hand-written message what its schema says. */
  private kindOf(definition: string, member: string): Member {
    const message = this.spec.messages.get(definition)
    const table = message === undefined ? undefined : EXACTNESS[message.fullName]?.[member]
    return { member, kind: table ?? this.options.handwritten?.kinds.get(definition)?.get(member) }
  }

  private stringOf(member: Member | undefined, format: string | undefined): string {
    const r = this.random
    const extreme = this.options.extremes === true
    if (member?.kind === "Decimals") return r.pick(["0", "5", "18"])
    if (format === "int64") {
      if (member?.kind === "Timestamp" || member?.kind === "EthereumTimestamp")
        return extreme ? INT64_MAX : r.pick(["0", r.digits(19).replace(/^[89]/, "1")])
      return extreme ? r.pick([INT64_MIN, INT64_MAX]) : r.pick(["0", "-1", r.digits(1 + r.int(18)), INT64_MIN])
    }
    if (format === "uint64") return extreme ? UINT64_MAX : r.pick(["0", r.digits(1 + r.int(19)), UINT64_MAX])
    if (format === "byte") return r.pick(["", "AQID", "3q2+7w=="])
    switch (member?.kind) {
      case "Amount":
        return extreme ? UINT256_MAX : r.pick(["0", r.digits(1 + r.int(30)), UINT256_MAX])
      case "AmountOrEmpty":
        return extreme ? UINT256_MAX : r.pick(["", "0", r.digits(1 + r.int(30))])
      case "SignedAmount":
        return extreme ? r.pick([UINT256_MAX, `-${UINT256_MAX}`]) : r.pick(["0", `-${r.digits(12)}`, r.digits(25)])
      case "Decimal":
        return r.pick(["0", "1", "0.0002", `-${r.digits(3)}.${r.digits(4)}1`, `${r.digits(20)}.5`])
      case "DecimalOrEmpty":
        return r.pick(["", "0.25", r.digits(3)])
      case "Uint64Text":
        return extreme ? UINT64_MAX : r.pick(["0", r.digits(1 + r.int(10))])
      case "Id":
        return r.hex(64)
      case "IdOrEmpty":
        return r.pick(["", r.hex(64)])
      case "PartyId":
        return r.pick(["network", r.hex(64), r.hex(64)])
      case "PartyIdOrEmpty":
        return r.pick(["", "network", r.hex(64)])
      case "EthereumAddress":
        return `0x${r.hex(40)}`
      case "EthereumAddressOrEmpty":
        return r.pick(["", `0x${r.hex(40)}`])
      case "EthereumTxHash":
        return `0x${r.hex(64)}`
      case "Int64Text":
        return extreme ? INT64_MIN : r.pick(["0", "-5", r.digits(12)])
      case "BundleSignatures":
        return r.pick(["", `0x${r.hex(130)}`])
      case "PercentageOfTotal":
        return r.pick(["25", "33.333333333333336", "5e-05", "100"])
      case "Rfc3339":
        return r.pick(["2024-03-01T12:00:00.123456Z", "2023-11-30T23:59:59Z"])
      default:
        return r.pick(["", "text", `a ${r.hex(6)} b`, "ünïcødé ✓"])
    }
  }

  private scalar(schema: OpenApiSchema, member: Member | undefined): Json {
    const r = this.random
    switch (schema.type) {
      case "string":
        return this.stringOf(member, schema.format)
      case "integer":
        return schema.format === "int32"
          ? r.pick([0, -1, 2147483647, -2147483648, r.int(1000)])
          : r.pick([0, 4294967295, r.int(100000)])
      case "number":
        return r.pick([0, 1.5, -0.25, 1e-7, 123456.789])
      case "boolean":
        return r.chance(0.5)
      case "object":
        // google.protobuf.Value: any JSON value
        return r.pick([null, 1, "x", true, { a: [1, "b"] }])
      default:
        throw new Error(`unexpected scalar ${JSON.stringify(schema).slice(0, 120)}`)
    }
  }

  /** The members of a definition the gateway may leave out: oneof members and proto3 `optional`. */
  private presence(definition: string) {
    const message = this.spec.messages.get(definition)
    const oneofs = new Map<string, Array<string>>()
    const optional = new Set<string>()
    for (const f of message?.fields ?? []) {
      if (!f.isoneof) continue
      if (f.label === "optional") optional.add(jsonName(f.name))
      else oneofs.set(f.oneofdecl, [...(oneofs.get(f.oneofdecl) ?? []), jsonName(f.name)])
    }
    return { oneofs, optional }
  }

  /** A value of a member's schema; `depth` bounds the nesting of messages. */
  value(schema: OpenApiSchema, member: Member | undefined, depth: number, nullable: boolean): Json {
    if (schema.$ref !== undefined) {
      const name = refName(schema.$ref)
      const target = this.spec.components[name]!
      if (target.enum !== undefined) return target.enum[this.turn(name, target.enum.length)]
      if (nullable && (depth > 3 || this.random.chance(0.2))) return null
      return this.definition(name, depth + 1)
    }
    if (schema.type === "array") {
      const n = depth > 3 ? 0 : this.random.pick([0, 1, 2, 3])
      return Array.from({ length: n }, () => this.value(schema.items, member, depth + 1, false))
    }
    if (schema.type === "object" && schema.additionalProperties !== undefined) {
      const n = depth > 3 ? 0 : this.random.int(3)
      return Object.fromEntries(
        Array.from({ length: n }, (_, i) => [
          `key${i}`,
          this.value(schema.additionalProperties, undefined, depth + 1, false)
        ])
      )
    }
    return this.scalar(schema, member)
  }

  /** An instance of a definition. */
  definition(name: string, depth = 0): Json {
    const schema = this.spec.components[name]
    if (schema === undefined) throw new Error(`${this.spec.version}: no definition ${name}`)
    if (name === "protobufAny")
      return {
        "@type": "type.googleapis.com/vega.ErrorDetail",
        code: this.random.int(20000),
        message: "m",
        inner: ""
      }
    const { oneofs, optional } = this.presence(name)
    const chosen = new Set<string>()
    for (const [decl, members] of oneofs) {
      const pick = this.turn(`${name}.${decl}`, members.length + 1)
      if (pick < members.length) chosen.add(members[pick]!)
    }
    const inOneof = new Set([...oneofs.values()].flat())
    const alwaysSet = isConnection(schema) || isEdge(schema)
    const out: Record<string, Json> = {}
    for (const [key, member] of Object.entries((schema.properties ?? {}) as Record<string, OpenApiSchema>)) {
      if (inOneof.has(key) && !chosen.has(key)) continue
      if (optional.has(key) && this.random.chance(0.5)) continue
      const present = inOneof.has(key) || optional.has(key)
      const target = member.$ref === undefined ? undefined : this.spec.components[refName(member.$ref)]
      const set =
        alwaysSet || isConnection(target) || this.options.handwritten?.alwaysSet.has(`${name}.${key}`) === true
      out[key] = this.value(member, this.kindOf(name, key), depth, !present && !set)
    }
    return out
  }
}

/** The definition of a route's 200 answer (a stream's: the definition of its `result`). */
export const answerDefinition = (spec: Spec, path: string, method: string): string | undefined => {
  const schema = spec.paths[path]?.[method]?.responses?.["200"]?.content?.["application/json"]?.schema
  if (schema === undefined) return undefined
  if (schema.$ref !== undefined) return refName(schema.$ref)
  const result = schema.properties?.result?.$ref
  return result === undefined ? undefined : refName(result)
}

/** The spec's schema of the member at `path` in an instance of `definition`. */
export const schemaAt = (spec: Spec, definition: string, path: ReadonlyArray<string | number>): OpenApiSchema => {
  let schema: OpenApiSchema = { $ref: `#/components/schemas/${definition}` }
  for (const step of path) {
    if (schema.$ref !== undefined) schema = spec.components[refName(schema.$ref)]!
    if (typeof step === "number") schema = schema.items
    else if (schema.properties?.[step] !== undefined) schema = schema.properties[step]
    else if (schema.additionalProperties !== undefined) schema = schema.additionalProperties
    else throw new Error(`no member ${step} in ${JSON.stringify(schema).slice(0, 80)}`)
  }
  return schema
}

/** Whether a schema names an enum. */
export const isEnum = (spec: Spec, schema: OpenApiSchema): boolean =>
  schema.$ref !== undefined && spec.components[refName(schema.$ref)]?.enum !== undefined

/**
 * The stream form of a REST-form instance (`EnumsAsInts`, defaults left out), made from the spec:
 * enum names become their numbers, and `""`, `"0"` of a 64-bit member, `0`, `false`, `[]`, enum
 * value 0 and unset messages are left out, but for oneof and `optional` members, which keep their
 * value (a repeated member has no presence: an empty one is left out).
 */
export const toStreamForm = (spec: Spec, schema: OpenApiSchema, json: Json): Json => {
  if (schema.$ref !== undefined) {
    const name = refName(schema.$ref)
    const target = spec.components[name]!
    if (target.enum !== undefined) {
      const value = spec.enums.get(name)?.values.find((v) => v.name === json)
      return value === undefined ? json : Number(value.number)
    }
    if (json === null || typeof json !== "object") return json
    const message = spec.messages.get(name)
    const kept = new Set((message?.fields ?? []).filter((f) => f.isoneof).map((f) => jsonName(f.name)))
    const out: Record<string, Json> = {}
    for (const [key, value] of Object.entries(json as Record<string, Json>)) {
      const member = (target.properties ?? {})[key] ?? {}
      const converted = toStreamForm(spec, member, value)
      const keep = kept.has(key) && member.type !== "array"
      if (!keep && isDefault(spec, member, converted)) continue
      out[key] = converted
    }
    return out
  }
  if (schema.type === "array" && Array.isArray(json)) return json.map((j) => toStreamForm(spec, schema.items, j))
  if (
    schema.type === "object" &&
    schema.additionalProperties !== undefined &&
    json !== null &&
    typeof json === "object"
  )
    return Object.fromEntries(
      Object.entries(json as Record<string, Json>).map(([k, v]) => [
        k,
        toStreamForm(spec, schema.additionalProperties, v)
      ])
    )
  return json
}

const isDefault = (spec: Spec, schema: OpenApiSchema, json: Json): boolean => {
  if (json === null) return true
  if (Array.isArray(json)) return json.length === 0
  if (schema.additionalProperties !== undefined) return typeof json === "object" && Object.keys(json).length === 0
  if (isEnum(spec, schema)) return json === 0
  if (schema.type === "string")
    return json === "" || ((schema.format === "int64" || schema.format === "uint64") && json === "0")
  if (schema.type === "integer" || schema.type === "number") return json === 0
  if (schema.type === "boolean") return json === false
  return false
}
