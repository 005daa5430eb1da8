/**
 * Vega's published spec as the generator reads it: `proto.json` (every message with its fields in
 * declaration order, every enum with its numbers, every service with its methods) and the two
 * OpenAPI documents (the routes, their parameters and their answers).
 */
import { readFileSync } from "node:fs"

export type SpecVersion = "v0.75.0" | "v0.79.0"

export interface ProtoField {
  readonly name: string
  readonly description: string
  /** `repeated`, `optional` (proto3 optional) or `""` */
  readonly label: string
  /** a scalar type name (`string`, `uint64`, ...) or a message or enum name */
  readonly type: string
  /** the scalar type name, or the full name of the message or enum */
  readonly fullType: string
  readonly ismap: boolean
  /** a member of a oneof, real or synthetic (proto3 `optional`) */
  readonly isoneof: boolean
  readonly oneofdecl: string
}

export interface ProtoMessage {
  readonly longName: string
  readonly fullName: string
  readonly description: string
  readonly fields: ReadonlyArray<ProtoField>
  /** the proto package, e.g. `vega.events.v1` */
  readonly package: string
}

export interface ProtoEnum {
  readonly longName: string
  readonly fullName: string
  readonly description: string
  readonly values: ReadonlyArray<{ readonly name: string; readonly number: string; readonly description: string }>
  readonly package: string
}

export interface ProtoMethod {
  readonly name: string
  readonly requestFullType: string
  readonly responseFullType: string
  readonly responseStreaming: boolean
}

/** An operation of the OpenAPI documents. */
export interface Operation {
  readonly operationId: string
  readonly summary?: string
  readonly description?: string
  readonly tags?: ReadonlyArray<string>
  readonly parameters?: ReadonlyArray<Parameter>
  readonly responses: Record<string, { readonly content?: Record<string, { readonly schema: any }> }>
}

export interface Parameter {
  readonly name: string
  readonly in: "query" | "path"
  readonly required?: boolean
  readonly explode?: boolean
  readonly schema: { readonly type?: string; readonly format?: string; readonly items?: any; readonly enum?: any }
}

export interface OpenApi {
  readonly paths: Record<string, Record<string, Operation>>
  readonly components: { readonly schemas: Record<string, any> }
}

export interface Descriptor {
  readonly version: SpecVersion
  readonly messages: ReadonlyMap<string, ProtoMessage>
  readonly enums: ReadonlyMap<string, ProtoEnum>
  /** by `Service.Method`, e.g. `TradingDataService.ListOrders` */
  readonly methods: ReadonlyMap<string, ProtoMethod>
  readonly tradingData: OpenApi
  readonly core: OpenApi
}

/** Where the specs are kept, beside the package's sources. */
export const specDirectory = new URL("../spec/openapi/", import.meta.url)

const readJson = (version: SpecVersion, file: string): any =>
  JSON.parse(readFileSync(new URL(`${version}/${file}`, specDirectory), "utf8"))

/** protoc's JSON name of a field, which the REST gateway writes: `tx_per_block` → `txPerBlock`. */
export const jsonName = (field: string): string => field.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())

export const load = (version: SpecVersion): Descriptor => {
  const messages = new Map<string, ProtoMessage>()
  const enums = new Map<string, ProtoEnum>()
  const methods = new Map<string, ProtoMethod>()
  for (const file of readJson(version, "proto.json").files) {
    for (const m of file.messages) messages.set(m.fullName, { ...m, package: file.package })
    for (const e of file.enums) enums.set(e.fullName, { ...e, package: file.package })
    for (const s of file.services) for (const m of s.methods) methods.set(`${s.name}.${m.name}`, m)
  }
  return {
    version,
    messages,
    enums,
    methods,
    tradingData: readJson(version, "trading_data_v2.openapi.json"),
    core: readJson(version, "transaction.openapi.json")
  }
}

/** The scalar types of proto, as `proto.json` names them. */
export const SCALARS: ReadonlySet<string> = new Set([
  "string",
  "bytes",
  "bool",
  "int32",
  "uint32",
  "sint32",
  "fixed32",
  "sfixed32",
  "int64",
  "uint64",
  "sint64",
  "fixed64",
  "sfixed64",
  "double",
  "float"
])

/**
 * A map field: `proto.json` marks it `ismap` and types it by its synthetic `…Entry` message (whose
 * `key` and `value` fields say the types). It also marks one plain repeated field `ismap`
 * (`ListEntitiesResponse.ledger_entries`), which a real map's `…Entry` type tells apart.
 */
export const mapEntry = (descriptor: Descriptor, field: ProtoField): ProtoMessage | undefined => {
  if (!field.ismap) return undefined
  const entry = descriptor.messages.get(field.fullType)
  return entry !== undefined &&
    entry.longName.endsWith("Entry") &&
    entry.fields.map((f) => f.name).join() === "key,value"
    ? entry
    : undefined
}
