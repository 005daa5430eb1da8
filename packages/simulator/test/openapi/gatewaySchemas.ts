/**
 * Vega's published OpenAPI specs (kept as fixtures in the schema package) turned into JSON Schemas
 * that hold a body to the REST gateway's marshalling rules, for ajv.
 *
 * The specs describe the messages loosely (no `required`, no `additionalProperties`, 64-bit
 * integers as plain strings). The gateway writes them strictly (vegaprotocol/vega v0.75.8,
 * datanode/gateway/rest/server.go): REST answers through jsonpb with `EmitDefaults: true` (every
 * field written, unset messages as `null`, oneof and proto3 `optional` members left out when unset,
 * 64-bit integers as decimal strings, enums as names), `/api/v2/stream/*` with `EnumsAsInts: true`
 * and `EmitDefaults: false` (enums as numbers, default values left out). So each component schema
 * becomes a closed object whose required members are the fields `proto.json` marks neither oneof
 * nor optional, and whose message-typed fields may be `null` (REST), or an object with nothing
 * required and no default value written (stream).
 */
import { readFileSync } from "node:fs"
import { Ajv, type ValidateFunction } from "ajv"

export type SpecVersion = "v0.75.0" | "v0.79.0"
export type Form = "rest" | "stream"

interface ProtoField {
  readonly name: string
  readonly label: string
  readonly isoneof: boolean
  readonly ismap: boolean
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
interface ProtoFile {
  readonly package: string
  readonly messages: ReadonlyArray<ProtoMessage>
  readonly enums: ReadonlyArray<ProtoEnum>
}
type OpenApiSchema = Record<string, any>

export interface Spec {
  readonly version: SpecVersion
  readonly components: Readonly<Record<string, OpenApiSchema>>
  readonly paths: Readonly<Record<string, Record<string, any>>>
  readonly messages: ReadonlyMap<string, ProtoMessage>
  readonly enums: ReadonlyMap<string, ProtoEnum>
}

/** Where the spec files are kept: the schema package's test fixtures. */
export const specDirectory = new URL("../../../schema/spec/openapi/", import.meta.url)

const readJson = (version: SpecVersion, file: string): any =>
  JSON.parse(readFileSync(new URL(`${version}/${file}`, specDirectory), "utf8"))

/** protoc's JSON name of a field: `tx_per_block` → `txPerBlock`. */
export const jsonName = (field: string): string => field.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())

/**
 * grpc-gateway names a definition by its message's name (nested names joined) prefixed by as many
 * trailing package segments as make it unique: `vegaMarket`, `v1TransactionResult`,
 * `TransactionResultFailureDetails`, `apiv2LiquidityProvision`.
 */
const definitionNames = (pkg: string, longName: string): ReadonlyArray<string> => {
  const parts = pkg.split(".")
  const base = longName.replace(/\./g, "")
  return parts.map((_, i) => parts.slice(i).join("") + base).concat(base)
}

const byDefinitionName = <T extends { readonly longName: string }>(
  files: ReadonlyArray<ProtoFile>,
  pick: (file: ProtoFile) => ReadonlyArray<T>,
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
  const files: ReadonlyArray<ProtoFile> = readJson(version, "proto.json").files
  const components = { ...core.components.schemas, ...data.components.schemas }
  const messages = byDefinitionName(files, (f) => f.messages, components)
  const enums = byDefinitionName(files, (f) => f.enums, components)
  const errorDetail = files.flatMap((f) => f.messages).find((m) => m.fullName === "vega.ErrorDetail")
  if (errorDetail === undefined) throw new Error("proto.json lacks vega.ErrorDetail")
  messages.set("vegaErrorDetail", errorDetail)
  return { version, components, paths: { ...core.paths, ...data.paths }, messages, enums }
}

const refName = (ref: string): string => ref.slice("#/components/schemas/".length)

const isEnum = (spec: Spec, name: string): boolean => spec.components[name]?.enum !== undefined

/** Scalars as jsonpb writes them, and in stream form never their default value. */
const scalar = (schema: OpenApiSchema, form: Form): OpenApiSchema => {
  const notDefault = (value: unknown) => (form === "stream" ? { not: { const: value } } : {})
  switch (schema.type) {
    case "string":
      if (schema.format === "int64" || schema.format === "uint64")
        return { type: "string", pattern: "^-?[0-9]+$", ...notDefault("0") }
      if (schema.format === "byte") return { type: "string", pattern: "^[A-Za-z0-9+/]*={0,2}$", ...notDefault("") }
      return { type: "string", ...notDefault("") }
    case "integer":
      return { type: "integer", ...notDefault(0) }
    case "number":
      return { type: "number", ...notDefault(0) }
    case "boolean":
      return { type: "boolean", ...notDefault(false) }
    case "object":
      // google.protobuf.Value (ethereum call arguments): any JSON value
      return {}
    default:
      throw new Error(`unexpected schema ${JSON.stringify(schema).slice(0, 200)}`)
  }
}

/** One member's schema; `presence` says whether the member is a oneof / optional one. */
const member = (spec: Spec, schema: OpenApiSchema, form: Form, presence: boolean): OpenApiSchema => {
  if (schema.$ref !== undefined) {
    const target = refName(schema.$ref)
    const ref = { $ref: `#/definitions/${target}` }
    if (isEnum(spec, target)) {
      // an enum member with presence is written even at its zero value
      return form === "stream" && !presence ? { allOf: [ref, { not: { const: 0 } }] } : ref
    }
    // an unset singular message is `null` in REST; left out in stream form and when it has presence
    return form === "rest" && !presence ? { anyOf: [ref, { type: "null" }] } : ref
  }
  if (schema.type === "array") {
    const items =
      schema.items.$ref !== undefined
        ? { $ref: `#/definitions/${refName(schema.items.$ref)}` }
        : scalar(schema.items, "rest")
    return { type: "array", items, ...(form === "stream" ? { minItems: 1 } : {}) }
  }
  if (schema.type === "object" && schema.additionalProperties !== undefined) {
    return { type: "object", additionalProperties: member(spec, schema.additionalProperties, "rest", true) }
  }
  return presence ? scalar(schema, "rest") : scalar(schema, form)
}

/** The proto fields of a definition that may be left out: oneof members and proto3 `optional`. */
export const optionalMembers = (spec: Spec, name: string): ReadonlySet<string> => {
  // google.rpc.Status (code, message, details) and google.api.HttpBody (the export routes' file
  // answers) are not in proto.json and have no oneof
  if (name === "googlerpcStatus" || name === "apiHttpBody") return new Set()
  const message = spec.messages.get(name)
  if (message === undefined) throw new Error(`${spec.version}: no proto message for ${name}`)
  return new Set(message.fields.filter((f) => f.isoneof || f.label === "optional").map((f) => jsonName(f.name)))
}

const definition = (spec: Spec, name: string, form: Form): OpenApiSchema => {
  const schema = spec.components[name] ?? {}
  if (schema.enum !== undefined) {
    if (form === "rest") return { type: "string", enum: schema.enum }
    // google.protobuf.NullValue (inside google.protobuf.Value) is not in proto.json: its one value is 0
    const values = name === "protobufNullValue" ? [{ name: "NULL_VALUE", number: "0" }] : spec.enums.get(name)?.values
    if (values === undefined) throw new Error(`${spec.version}: no proto enum for ${name}`)
    return { type: "integer", enum: values.map((v) => Number(v.number)) }
  }
  if (name === "protobufAny") {
    // the error details the node sends: vega.ErrorDetail, packed with its type URL
    const detail = definition(spec, "vegaErrorDetail", form)
    return {
      ...detail,
      properties: { "@type": { const: "type.googleapis.com/vega.ErrorDetail" }, ...detail.properties },
      required: ["@type", ...detail.required]
    }
  }
  const optional = optionalMembers(spec, name)
  const source: Record<string, OpenApiSchema> =
    name === "vegaErrorDetail"
      ? Object.fromEntries(
          spec.messages
            .get(name)!
            .fields.map((f) => [jsonName(f.name), f.name === "code" ? { type: "integer" } : { type: "string" }])
        )
      : (schema.properties ?? {})
  const properties = Object.fromEntries(
    Object.entries(source).map(([key, value]) => [key, member(spec, value, form, optional.has(key))])
  )
  const required = form === "rest" ? Object.keys(properties).filter((key) => !optional.has(key)) : []
  return { type: "object", properties, required, additionalProperties: false }
}

/** Every definition of the spec, in one JSON Schema document per form. */
export const definitions = (spec: Spec, form: Form): Record<string, OpenApiSchema> =>
  Object.fromEntries(
    Object.keys(spec.components)
      .concat("vegaErrorDetail")
      .map((name) => [name, definition(spec, name, form)])
  )

/** The schema of a route's 200 answer, by the spec's path template and method. */
export const responseSchema = (spec: Spec, path: string, method: "get" | "post"): OpenApiSchema => {
  const operation = spec.paths[path]?.[method]
  if (operation === undefined) throw new Error(`${spec.version}: no ${method} ${path} in the spec`)
  const schema = operation.responses["200"].content["application/json"].schema
  if (schema.$ref !== undefined) return { $ref: `#/definitions/${refName(schema.$ref)}` }
  // a stream's frames: {"result": message} or {"error": status}
  return {
    type: "object",
    properties: Object.fromEntries(
      Object.entries(schema.properties as Record<string, OpenApiSchema>).map(([k, v]) => [
        k,
        { $ref: `#/definitions/${refName(v.$ref)}` }
      ])
    ),
    minProperties: 1,
    maxProperties: 1,
    additionalProperties: false
  }
}

/** A route's error answer: `google.rpc.Status`. */
export const errorSchema = (spec: Spec, path: string, method: "get" | "post"): OpenApiSchema => {
  const schema = spec.paths[path]?.[method]?.responses.default.content["application/json"].schema
  if (schema?.$ref === undefined) throw new Error(`${spec.version}: no error answer for ${method} ${path}`)
  return { $ref: `#/definitions/${refName(schema.$ref)}` }
}

/** Validators compiled once per spec and form. */
export const makeValidators = (spec: Spec) => {
  const ajvs = {
    rest: new Ajv({ allErrors: true, strict: true }),
    stream: new Ajv({ allErrors: true, strict: true })
  }
  for (const form of ["rest", "stream"] as const) ajvs[form].addSchema({ definitions: definitions(spec, form) }, "spec")
  const cache = new Map<string, ValidateFunction>()
  return (form: Form, schema: OpenApiSchema): ValidateFunction => {
    const key = `${form} ${JSON.stringify(schema)}`
    let validate = cache.get(key)
    if (validate === undefined) {
      const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/definitions/', '"spec#/definitions/'))
      validate = ajvs[form].compile(rewritten)
      cache.set(key, validate)
    }
    return validate
  }
}
