/**
 * Writes `src/generated/` from Vega's v0.75.0 spec (`spec/openapi/`): a module of schemas per proto
 * package (every message and enum a route reaches, in the REST gateway's JSON) and the endpoint
 * table (`Endpoints.ts`: every route and stream). Run `pnpm --filter @vega-effect/schema generate`
 * after changing the spec, the exactness table or the hand-written list; `test/Generated.test.ts`
 * fails when what is committed differs from what this writes.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as prettier from "prettier"
import { handwrittenTyped, scalarCodec, type Typed } from "./codecs.js"
import {
  type Descriptor,
  jsonName,
  load,
  mapEntry,
  type ProtoEnum,
  type ProtoField,
  type ProtoMessage,
  SCALARS
} from "./descriptor.js"
import { EXACTNESS, type Kind } from "./exactness.js"
import { EXPORT_NAMES, MESSAGES, ROUTES } from "./handwritten.js"
import { type Route, routes } from "./routes.js"

export const SPEC_VERSION = "v0.75.0"
/** The `@since` of what the generator writes. */
const SINCE = "0.2.0"

const sourceDirectory = new URL("../src/", import.meta.url)
export const outputDirectory = new URL("../src/generated/", import.meta.url)

/** The module each proto package's messages and enums are written to. */
const PACKAGE_MODULES: Readonly<Record<string, string>> = {
  vega: "Vega",
  "vega.data.v1": "VegaData",
  "vega.events.v1": "VegaEvents",
  "vega.commands.v1": "VegaCommands",
  "vega.api.v1": "CoreApi",
  "datanode.api.v2": "DataNode"
}

/** Messages that other modules of this package already describe. */
const BUILT_IN: Readonly<Record<string, string>> = {
  "datanode.api.v2.PageInfo": "Pagination.PageInfo",
  "datanode.api.v2.Pagination": "Pagination.PaginationParams",
  "google.protobuf.Value": "Opaque"
}

type Form = "response" | "request"

/** A member of a generated message. */
interface Member extends Typed {
  readonly member: string
  /** `nullable`: written as `null` when unset, decoded absent; `optional`: may be left out */
  readonly presence: "required" | "nullable" | "optional"
}

const optionalOf = (typed: Typed): Typed => ({ ...typed, codec: `/* @__PURE__ */ optional(${typed.codec})` })

interface Definition {
  readonly fullName: string
  readonly module: string
  readonly name: string
  readonly form: Form
}

/**
 * A hand-written enum by proto name, found in the package's modules: `Module.Export`. Where two
 * modules describe one enum (a subset for one member, `Reward.RewardType` of `vega.AccountType`),
 * the one with the most values is reused.
 */
const handwrittenEnums = (): ReadonlyMap<string, string> => {
  const found = new Map<string, { readonly reference: string; readonly values: number }>()
  for (const file of readdirSync(sourceDirectory).sort()) {
    if (!file.endsWith(".ts")) continue
    const text = readFileSync(new URL(file, sourceDirectory), "utf8")
    for (const m of text.matchAll(/export const (\w+) = Enum\.make\(\s*"([\w.]+)",\s*\{([^}]*)\}/g)) {
      const values = (m[3]!.match(/:\s*\d+/g) ?? []).length
      const previous = found.get(m[2]!)
      if (previous === undefined || previous.values < values)
        found.set(m[2]!, { reference: `${file.slice(0, -3)}.${m[1]}`, values })
    }
  }
  return new Map([...found].map(([name, { reference }]) => [name, reference]))
}

const exportNameOf = (longName: string): string => longName.replace(/\./g, "")

const isConnection = (descriptor: Descriptor, message: ProtoMessage): ProtoMessage | undefined => {
  const [edges, pageInfo] = message.fields
  if (message.fields.length !== 2 || edges?.name !== "edges" || pageInfo?.name !== "page_info") return undefined
  const edge = descriptor.messages.get(edges.fullType)
  const node = edge?.fields.find((f) => f.name === "node")
  if (edge === undefined || edge.fields.length !== 2 || node === undefined) return undefined
  return descriptor.messages.get(node.fullType)
}

/** The text of a doc comment from a proto description: its first paragraph, made safe. */
const docText = (description: string, fallback: string): string => {
  const first = description.split(/\n\s*\n/)[0]?.trim() ?? ""
  const text = first === "" ? fallback : first
  return text.replace(/\*\//g, "* /").replace(/^@/gm, "(at)").replace(/\n/g, " ")
}

const comment = (lines: ReadonlyArray<string>): string =>
  `/**\n${lines.map((l) => ` * ${l}`.trimEnd()).join("\n")}\n */\n`

class Generator {
  readonly enums = handwrittenEnums()
  readonly definitions = new Map<string, Definition>()
  /** Per module: its definitions in order, and the modules it imports. */
  readonly modules = new Map<string, { readonly code: Array<string>; readonly imports: Set<string> }>()
  private readonly emitting = new Set<string>()

  constructor(readonly descriptor: Descriptor) {}

  module(name: string) {
    let module = this.modules.get(name)
    if (module === undefined) {
      module = { code: [], imports: new Set() }
      this.modules.set(name, module)
    }
    return module
  }

  /** `Module.Export` or `Export`: how `module` refers to another module's value. */
  private qualified(module: string, target: string, name: string): string {
    if (target === module) return name
    this.module(module).imports.add(target)
    return `${target}.${name}`
  }

  /** A reference from `module` to a message, in a form; the message is defined first if need be. */
  messageRef(module: string, fullName: string, form: Form): Typed {
    const builtIn = BUILT_IN[fullName]
    if (builtIn !== undefined) return handwrittenTyped(builtIn)
    const hand = MESSAGES[fullName]
    if (hand !== undefined) return handwrittenTyped(hand)
    const definition = this.define(fullName, form)
    const name = this.qualified(module, definition.module, definition.name)
    return { codec: name, type: name, encoded: `${name}Encoded` }
  }

  enumRef(module: string, fullName: string): string {
    const hand = this.enums.get(fullName)
    if (hand !== undefined) return hand
    const key = `enum ${fullName}`
    let definition = this.definitions.get(key)
    if (definition === undefined) {
      const e = this.descriptor.enums.get(fullName)
      if (e === undefined) throw new Error(`no enum ${fullName}`)
      definition = { fullName, module: moduleOf(e.package), name: exportNameOf(e.longName), form: "response" }
      this.definitions.set(key, definition)
      this.emitEnum(definition, e)
    }
    return this.qualified(module, definition.module, definition.name)
  }

  define(fullName: string, form: Form): Definition {
    const key = `${form} ${fullName}`
    // no message of the v0.75 API refers to itself; one that did would need Schema.suspend here
    if (this.emitting.has(key)) throw new Error(`${fullName} refers to itself: not supported`)
    const existing = this.definitions.get(key)
    if (existing !== undefined) return existing
    const message = this.descriptor.messages.get(fullName)
    if (message === undefined) throw new Error(`no message ${fullName}`)
    // a message is a request's or an answer's, never both in v0.75 (the two forms differ)
    if (this.definitions.has(`${form === "request" ? "response" : "request"} ${fullName}`))
      throw new Error(`${fullName} is needed both in a request and in an answer: not supported`)
    const definition: Definition = {
      fullName,
      module: moduleOf(message.package),
      name: exportNameOf(message.longName),
      form
    }
    this.definitions.set(key, definition)
    this.emitting.add(key)
    this.emitMessage(definition, message)
    this.emitting.delete(key)
    return definition
  }

  private emitEnum(definition: Definition, e: ProtoEnum): void {
    const values = e.values.map((v) => `  ${v.name}: ${Number(v.number)}`).join(",\n")
    const doc = comment([
      `${docText(e.description, `The enum \`${e.fullName}\`.`)} (\`${e.fullName}\`)`,
      "",
      `@since ${SINCE}`,
      "@category Enums"
    ])
    const typeDoc = comment([`The values of {@link ${definition.name}}.`, "", `@since ${SINCE}`, "@category Enums"])
    this.module(definition.module).code.push(
      `${doc}export const ${definition.name} = /* @__PURE__ */ Enum.make("${e.fullName}", {\n${values}\n})\n` +
        `${typeDoc}export type ${definition.name} = Enum.Type<typeof ${definition.name}>\n`
    )
  }

  /** The codec of one element of a member (the member itself unless it is repeated or a map). */
  private elementOf(definition: Definition, field: ProtoField, member: string, kind: Kind | undefined): Typed {
    const { module, form } = definition
    if (SCALARS.has(field.fullType)) return scalarCodec(field, member, kind)
    if (!this.descriptor.enums.has(field.fullType)) return this.messageRef(module, field.fullType, form)
    const ref = this.enumRef(module, field.fullType)
    // an answer's enum is open (a newer node's value is kept); a request's takes known names only
    return form === "request"
      ? { codec: `${ref}.Known`, type: `Enum.Known<typeof ${ref}>`, encoded: `Enum.Known<typeof ${ref}>` }
      : { codec: ref, type: `Enum.Type<typeof ${ref}>`, encoded: "string | number" }
  }

  /** One member of a message: its codec, its types, and whether it may be left out. */
  private fieldOf(definition: Definition, message: ProtoMessage, field: ProtoField, required: boolean): Member {
    const member = jsonName(field.name)
    const kind = EXACTNESS[message.fullName]?.[member]
    const entry = mapEntry(this.descriptor, field)
    const one = this.elementOf(definition, entry?.fields[1] ?? field, member, kind)
    const many = (wrap: (t: string) => string, codec: string): Typed => ({
      codec,
      type: wrap(one.type),
      encoded: wrap(one.encoded)
    })
    const typed =
      entry !== undefined
        ? many(
            (t) => `{ readonly [key: string]: ${t} }`,
            `/* @__PURE__ */ Schema.Record({ key: Schema.String, value: ${one.codec} })`
          )
        : field.label === "repeated"
          ? many((t) => `ReadonlyArray<${t}>`, `/* @__PURE__ */ Schema.Array(${one.codec})`)
          : one
    const isMessage = entry === undefined && field.label !== "repeated" && this.descriptor.messages.has(field.fullType)
    if (definition.form === "request")
      return required
        ? { member, ...typed, presence: "required" }
        : { member, ...optionalOf(typed), presence: "optional" }
    if (field.isoneof) return { member, ...optionalOf(typed), presence: "optional" }
    // an answer's connection is always set by the node's handlers (datanode/api/trading_data_v2.go
    // at v0.75.8 builds every List answer with its connection and page info)
    const connection = isMessage && isConnection(this.descriptor, this.descriptor.messages.get(field.fullType)!)
    const nullable = isMessage && !connection && !BUILT_IN[field.fullType]?.startsWith("Pagination")
    return nullable
      ? {
          member,
          codec: `/* @__PURE__ */ nullable(${typed.codec})`,
          type: typed.type,
          encoded: `${typed.encoded} | null`,
          presence: "nullable"
        }
      : { member, ...typed, presence: "required" }
  }

  private emitMessage(definition: Definition, message: ProtoMessage, pathParams: ReadonlySet<string> = new Set()) {
    const { module, name } = definition
    const node = isConnection(this.descriptor, message)
    const docOf = (field: ProtoField) =>
      field.description.trim() === "" ? "" : `/** ${docText(field.description, jsonName(field.name))} */\n`
    let body: string
    let type: string
    let encoded: string
    if (node !== undefined) {
      const rows = this.messageRef(module, node.fullName, definition.form)
      body = `/* @__PURE__ */ Pagination.Connection(${rows.codec})`
      type = `Pagination.Connection<${rows.type}>`
      encoded = `{ readonly edges: ReadonlyArray<{ readonly node: ${rows.encoded}; readonly cursor: string }>; readonly pageInfo: Schema.Schema.Encoded<typeof Pagination.PageInfo> | null }`
    } else {
      // a list of messages cannot travel in a query string (the gateway reads none): a GET's
      // request leaves it out, as the spec's parameters do
      const sendable = (field: ProtoField) =>
        definition.form !== "request" ||
        !(field.ismap || (field.label === "repeated" && this.descriptor.messages.has(field.fullType)))
      const fields = message.fields.filter(sendable)
      const members = fields.map((field) =>
        this.fieldOf(definition, message, field, pathParams.has(jsonName(field.name)))
      )
      const oneofs = new Map<string, Array<string>>()
      for (const field of message.fields)
        if (field.isoneof && field.label !== "optional")
          oneofs.set(field.oneofdecl, [...(oneofs.get(field.oneofdecl) ?? []), jsonName(field.name)])
      const checks = [...oneofs]
        .filter(() => definition.form === "response")
        .map(([decl, names]) => `.pipe(/* @__PURE__ */ oneof("${decl}", ${JSON.stringify(names)}))`)
        .join("")
      body = `/* @__PURE__ */ Schema.Struct({\n${members.map((m) => `${m.member}: ${m.codec}`).join(",\n")}\n})${checks}.annotations({ identifier: "${message.fullName}" })`
      type = `{\n${members.map((m, i) => `${docOf(fields[i]!)}readonly ${m.member}${m.presence === "required" ? "" : "?"}: ${m.type}`).join("\n")}\n}`
      encoded = `{\n${members.map((m) => `readonly ${m.member}${m.presence === "optional" ? "?" : ""}: ${m.encoded}`).join("\n")}\n}`
    }
    const what = definition.form === "request" ? "The request" : "The JSON"
    const doc = comment([
      `${docText(message.description, `The message \`${message.fullName}\`.`)} (\`${message.fullName}\`)`,
      "",
      `@since ${SINCE}`,
      definition.form === "request" ? "@category Requests" : "@category Messages"
    ])
    const encodedDoc = comment([`${what} form of {@link ${name}}.`, "", `@since ${SINCE}`, "@category Encoded"])
    const declare = (iface: string, shape: string) =>
      shape.startsWith("{") ? `export interface ${iface} ${shape}\n` : `export interface ${iface} extends ${shape} {}\n`
    this.module(module).code.push(
      `${doc}${declare(name, type)}` +
        `${encodedDoc}${declare(`${name}Encoded`, encoded)}` +
        `${doc}export const ${name}: Schema.Schema<${name}, ${name}Encoded> = ${body}\n`
    )
  }

  /** A route's request schema (path parameters required, every other member optional). */
  requestRef(route: Route): string {
    const hand = ROUTES[route.name]?.request
    if (hand !== undefined) return hand
    const message = this.descriptor.messages.get(route.request)
    if (message === undefined) throw new Error(`no message ${route.request}`)
    if (message.fields.length === 0) return "Endpoint.NoParams"
    const pathParams = new Set([...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!))
    const key = `request ${route.request}`
    let definition = this.definitions.get(key)
    if (definition === undefined) {
      definition = {
        fullName: route.request,
        module: moduleOf(message.package),
        name: exportNameOf(message.longName),
        form: "request"
      }
      this.definitions.set(key, definition)
      this.emitMessage(definition, message, pathParams)
    }
    return this.qualified("Endpoints", definition.module, definition.name)
  }
}

const moduleOf = (pkg: string): string => {
  const module = PACKAGE_MODULES[pkg]
  if (module === undefined) throw new Error(`no module for proto package ${pkg}`)
  return module
}

/** The connection member of a paged route's answer, if it has one and takes `pagination`. */
const connectionOf = (descriptor: Descriptor, route: Route): string | undefined => {
  const request = descriptor.messages.get(route.request)
  const response = descriptor.messages.get(route.response)
  if (request === undefined || response === undefined) return undefined
  if (!request.fields.some((f) => f.fullType === "datanode.api.v2.Pagination")) return undefined
  const connections = response.fields.filter((f) => {
    const target = descriptor.messages.get(f.fullType)
    return f.label !== "repeated" && target !== undefined && isConnection(descriptor, target) !== undefined
  })
  return connections.length === 1 ? jsonName(connections[0]!.name) : undefined
}

const endpointOf = (generator: Generator, route: Route): string => {
  const descriptor = generator.descriptor
  const exportName = EXPORT_NAMES[route.name] ?? route.name
  const hand = ROUTES[route.name]
  const request = generator.requestRef(route)
  const doc = comment([
    `\`${route.method} ${route.path}\`: ${docText(route.summary, route.rpc)}.`,
    "",
    `@since ${SINCE}`,
    `@category ${route.domain}`
  ])
  const common = `name: "${route.name}",\npath: "${route.path}",\nrequest: ${request}`
  if (route.stream) {
    const message =
      hand?.response !== undefined
        ? hand.response
        : `/* @__PURE__ */ StreamForm.make(${generator.messageRef("Endpoints", route.response, "response").codec})`
    return `${doc}export const ${exportName} = /* @__PURE__ */ Endpoint.stream({\n${common},\nmessage: ${message}\n})\n`
  }
  if (route.file) return `${doc}export const ${exportName} = /* @__PURE__ */ Endpoint.file({\n${common}\n})\n`
  const response =
    hand?.response !== undefined ? hand.response : generator.messageRef("Endpoints", route.response, "response").codec
  const connection = connectionOf(descriptor, route)
  const fields = `name: "${route.name}",\nmethod: "${route.method}",\npath: "${route.path}",\nrequest: ${request},\nresponse: ${response}`
  return connection === undefined
    ? `${doc}export const ${exportName} = /* @__PURE__ */ Endpoint.make({\n${fields}\n})\n`
    : `${doc}export const ${exportName} = /* @__PURE__ */ Endpoint.paged({\n${fields},\nconnection: "${connection}"\n})\n`
}

/** The lists of every endpoint of each kind, at the end of the endpoint table. */
const listsOf = (all: ReadonlyArray<Route>): string => {
  const names = (keep: (r: Route) => boolean) =>
    all
      .filter(keep)
      .map((r) => EXPORT_NAMES[r.name] ?? r.name)
      .join(", ")
  const list = (name: string, type: string, what: string, keep: (r: Route) => boolean) =>
    comment([`Every ${what}.`, "", `@since ${SINCE}`, "@category Lists"]) +
    `export const ${name}: ReadonlyArray<${type}> = [${names(keep)}]\n`
  const domains = new Map<string, Array<string>>()
  for (const r of all) domains.set(r.domain, [...(domains.get(r.domain) ?? []), EXPORT_NAMES[r.name] ?? r.name])
  const byDomain =
    comment([
      "The routes by domain, as Vega's spec groups them (its tags), each in the spec's order.",
      "",
      `@since ${SINCE}`,
      "@category Lists"
    ]) +
    `export const domains: { readonly [domain: string]: ReadonlyArray<string> } = ${JSON.stringify(
      Object.fromEntries([...domains].sort(([a], [b]) => a.localeCompare(b)))
    )}\n`
  return [
    byDomain,
    list("endpoints", "Endpoint.Any", "route that answers a JSON message", (r) => !r.stream && !r.file),
    list("streams", "Endpoint.AnyStream", "streaming route", (r) => r.stream),
    list("files", "Endpoint.AnyFile", "route that answers a file", (r) => r.file)
  ].join("\n")
}

const MODULE_DOCS: Readonly<Record<string, string>> = {
  Vega: "The messages and enums of proto package `vega` that the API's routes reach (orders, trades, accounts, governance, ...).",
  VegaData:
    "The messages and enums of proto package `vega.data.v1` (oracle data and data source specs) that the API's routes reach.",
  VegaEvents:
    "The messages and enums of proto package `vega.events.v1` (event bus payloads) that the API's routes reach.",
  VegaCommands: "The messages and enums of proto package `vega.commands.v1` that the API's routes reach.",
  CoreApi: "The messages and enums of proto package `vega.api.v1` (the core node's API) that its routes reach.",
  DataNode:
    "The requests and answers of the data node's API (proto package `datanode.api.v2`), and the messages only they use.",
  Endpoints: "Every route and stream of the data node's API (and the core routes it proxies), as `Endpoint` values."
}

/** The package's hand-written modules, which generated code may refer to as `Module.name`. */
const HANDWRITTEN_MODULES: ReadonlyArray<string> = readdirSync(sourceDirectory)
  .filter((file) => file.endsWith(".ts") && file !== "index.ts")
  .map((file) => file.slice(0, -3))

const HELPERS = ["nullable", "optional", "orEmpty", "oneof", "Opaque"]

/** The code of a module without its type declarations: what it uses as values. */
const valuesOf = (code: string): string =>
  code
    .replace(/export interface \w+ (?:extends [^\n]*\{\}|\{[^\n]*\}|\{\n[\s\S]*?\n\})\n/g, "")
    .replace(/export type [^\n]*\n/g, "")
    .replace(/: Schema\.Schema<\w+, \w+> =/g, " =")

const moduleText = (name: string, module: { readonly code: ReadonlyArray<string>; readonly imports: Set<string> }) => {
  const text = module.code.join("\n")
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "")
  const values = valuesOf(code)
  const uses = (identifier: string, within = code) => new RegExp(`(?<![.\\w])${identifier}\\.`).test(within)
  const importOf = (alias: string, from: string) =>
    uses(alias, values) ? `import * as ${alias} from "${from}"` : `import type * as ${alias} from "${from}"`
  const helpers = HELPERS.filter((h) => new RegExp(`(?<![.\\w])${h}\\b`).test(values))
  const imports = [
    ...["BigDecimal", "Option", "Schema"].filter((m) => uses(m)).map((m) => importOf(m, `effect/${m}`)),
    ...HANDWRITTEN_MODULES.filter((m) => uses(m)).map((m) => importOf(m, `../${m}.js`)),
    ...[...module.imports].sort().map((m) => importOf(m, `./${m}.js`)),
    ...(helpers.length > 0 ? [`import { ${helpers.join(", ")} } from "../internal/proto.js"`] : [])
  ]
  const header = comment([
    MODULE_DOCS[name] ?? name,
    "",
    `Generated by \`codegen/generate.ts\` from Vega's ${SPEC_VERSION} spec (\`spec/openapi/\`) and the`,
    "exactness table (`codegen/exactness.ts`): edit those, then run the generator; never this file.",
    "",
    `@since ${SINCE}`
  ])
  return `${header}${imports.join("\n")}\n\n${text}`
}

/** Every file the generator writes, by file name, formatted as the repository formats code. */
export const generate = async (): Promise<ReadonlyMap<string, string>> => {
  const descriptor = load(SPEC_VERSION)
  const generator = new Generator(descriptor)
  const all = routes(descriptor)
  generator.module("Endpoints").code.push(...all.map((route) => endpointOf(generator, route)), listsOf(all))
  const config = await prettier.resolveConfig(fileURLToPath(new URL("index.ts", outputDirectory)))
  const out = new Map<string, string>()
  for (const [name, module] of [...generator.modules].sort(([a], [b]) => a.localeCompare(b))) {
    if (module.code.length === 0) continue
    const text = await prettier.format(moduleText(name, module), { ...config, parser: "typescript" })
    out.set(`${name}.ts`, text)
  }
  return out
}

const main = async () => {
  const files = await generate()
  rmSync(outputDirectory, { recursive: true, force: true })
  mkdirSync(outputDirectory, { recursive: true })
  for (const [name, text] of files) writeFileSync(new URL(name, outputDirectory), text)
  console.log(`wrote ${files.size} files to src/generated/`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()
