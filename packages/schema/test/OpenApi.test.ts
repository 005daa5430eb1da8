/**
 * `@vega-effect/schema` against Vega's published OpenAPI specs (spec/openapi): every
 * member of the spec's definitions for our resources, responses, requests and transactions exists
 * in our schema (encoded side) with a compatible JSON type, every value of every enum they reach is
 * one of ours with the same number, and every member we have that a spec lacks is optional.
 * Members kept as raw JSON (`Opaque`) are compatible with any message and not walked into.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import * as Schema from "@vega-effect/schema"
import * as SchemaAST from "effect/SchemaAST"

type AST = SchemaAST.AST

type Version = "v0.75.0" | "v0.79.0"
type Json = Record<string, any>

const read = (version: Version, file: string): Json =>
  JSON.parse(readFileSync(new URL(`../spec/openapi/${version}/${file}`, import.meta.url), "utf8"))

/** Our open enums by proto name (the widest one where two share a name, e.g. AccountType). */
const ourEnums = new Map<string, Schema.Enum.OpenEnum<string>>()
/**
 * Known differences, each with its reason. The two v0.76 command members are plain proto3 bools
 * that our commands always carry (the transaction encoder writes them only when true, so a v0.75
 * node's bytes are unchanged); the stream form fills them in when a v0.75 result leaves them out.
 */
const KNOWN: Readonly<Record<string, ReadonlyArray<string>>> = {
  "v0.75.0": [
    "v1TransactionResult.applyReferralCode.doNotJoinTeam: not in v0.75.0's v1ApplyReferralCode, yet required",
    "v1TransactionResult.createReferralSet.doNotCreateReferralSet: not in v0.75.0's v1CreateReferralSet, yet required"
  ],
  "v0.79.0": []
}
for (const module of Object.values(Schema) as Array<Record<string, unknown>>) {
  for (const value of Object.values(module)) {
    const e = value as Schema.Enum.OpenEnum<string> | undefined
    if (typeof e === "function" && typeof e.protoName === "string" && Array.isArray(e.names)) {
      const known = ourEnums.get(e.protoName)
      if (known === undefined || known.names.length < e.names.length) ourEnums.set(e.protoName, e)
    }
  }
}

/** Our schemas by the spec definition they describe. */
const ROOTS: ReadonlyArray<readonly [string, { readonly ast: AST }]> = [
  ["v2ListAllPositionsResponse", Schema.Position.ListPositionsResponse],
  ["v2GetStakeResponse", Schema.StakeLinking.GetStakeResponse],
  ["v2ListAllLiquidityProvisionsResponse", Schema.LiquidityProvision.ListLiquidityProvisionsResponse],
  ["v2ListPartiesProfilesResponse", Schema.PartyProfile.ListPartiesProfilesResponse],
  ["v2GetReferralSetStatsResponse", Schema.ReferralSetStats.GetReferralSetStatsResponse],
  ["v2ListERC20MultiSigSignerAddedBundlesResponse", Schema.SignerBundle.ListSignerAddedBundlesResponse],
  ["v2ListRewardSummariesResponse", Schema.RewardSummary.ListRewardSummariesResponse],
  ["v2ListRewardsResponse", Schema.Reward.ListRewardsResponse],
  ["v2InfoResponse", Schema.ChainInfo.InfoResponse],
  ["v2ListAssetsResponse", Schema.Asset.ListAssetsResponse],
  ["v2GetAssetResponse", Schema.Asset.GetAssetResponse],
  ["v2ListMarketsResponse", Schema.Market.ListMarketsResponse],
  ["v2GetMarketResponse", Schema.Market.GetMarketResponse],
  ["v2GetEpochResponse", Schema.Epoch.GetEpochResponse],
  ["v2GetVegaTimeResponse", Schema.ChainInfo.GetVegaTimeResponse],
  ["v1TransactionResult", Schema.TransactionResult.TransactionResult],
  ["googlerpcStatus", Schema.GatewayError.ErrorBody],
  ["v1StatisticsResponse", Schema.ChainInfo.StatisticsResponse],
  ["v1LastBlockHeightResponse", Schema.ChainInfo.LastBlockHeightResponse],
  ["v1GetSpamStatisticsResponse", Schema.SpamStatistics.GetSpamStatisticsResponse],
  ["v1Transaction", Schema.Transaction.Transaction],
  ["v1SubmitTransactionRequest", Schema.Transaction.SubmitTransactionRequest],
  ["v1SubmitRawTransactionRequest", Schema.Transaction.SubmitRawTransactionRequest],
  ["v1CheckTransactionRequest", Schema.Transaction.CheckTransactionRequest],
  ["v1CheckRawTransactionRequest", Schema.Transaction.CheckRawTransactionRequest],
  ["v1SubmitTransactionResponse", Schema.Transaction.SubmitTransactionResponse],
  ["v1SubmitRawTransactionResponse", Schema.Transaction.SubmitTransactionResponse],
  ["v1CheckTransactionResponse", Schema.Transaction.CheckTransactionResponse],
  ["v1CheckRawTransactionResponse", Schema.Transaction.CheckTransactionResponse]
]

interface Report {
  checks: number
  opaque: Set<string>
  readonly problems: Array<string>
}

/** The encoded-side node that says what JSON a member takes. */
const unwrap = (ast: AST): AST => {
  switch (ast._tag) {
    case "Transformation":
      return ourEnums.has(SchemaAST.getIdentifierAnnotation(ast).pipe((o) => (o._tag === "Some" ? o.value : "")))
        ? ast
        : unwrap(ast.from)
    case "Refinement":
      return unwrap(ast.from)
    case "Suspend":
      return unwrap(ast.f())
    case "Union": {
      // a nullable message (`null` or the message), an optional member (`undefined` or the value)
      const others = ast.types.filter(
        (t) => !(SchemaAST.isLiteral(t) && t.literal === null) && !SchemaAST.isUndefinedKeyword(t)
      )
      return others.length === 1 ? unwrap(others[0]) : ast
    }
    default:
      return ast
  }
}

const enumOf = (ast: AST): Schema.Enum.OpenEnum<string> | undefined => {
  const id = SchemaAST.getIdentifierAnnotation(ast)
  return id._tag === "Some" ? ourEnums.get(id.value) : undefined
}

const jsonKind = (ast: AST): string => {
  switch (ast._tag) {
    case "StringKeyword":
    case "TemplateLiteral":
      return "string"
    case "NumberKeyword":
      return "number"
    case "BooleanKeyword":
      return "boolean"
    case "Literal":
      return typeof ast.literal
    case "Transformation":
      // one of our open enums: a name on the wire
      return "string"
    case "Union": {
      const kinds = new Set(ast.types.map((t) => jsonKind(unwrap(t))))
      return kinds.size === 1 ? [...kinds][0] : [...kinds].sort().join("|")
    }
    default:
      return ast._tag
  }
}

const specKind = (member: Json): string =>
  member.type === "integer" || member.type === "number" ? "number" : (member.type as string)

/** An enum we model as a closed set of names (what a request may send): each must be a spec value. */
const closedEnum = (name: string, values: ReadonlyArray<string>, node: AST, path: string, report: Report): void => {
  const literals = SchemaAST.isUnion(node) ? node.types : [node]
  for (const literal of literals) {
    report.checks++
    if (!SchemaAST.isLiteral(literal) || !values.includes(String(literal.literal)))
      report.problems.push(
        `${path}: ours allows ${SchemaAST.isLiteral(literal) ? literal.literal : literal._tag}, not a value of ${name}`
      )
  }
}

/** Compares the spec definition `name` with our AST, recursively. */
const compare = (
  version: Version,
  spec: { components: Json; enums: Map<string, Json> },
  name: string,
  ours: AST,
  path: string,
  report: Report,
  seen: Set<string>
): void => {
  const definition = spec.components[name]
  const node = unwrap(ours)
  // google.protobuf.Any (error details): any JSON object with its type URL
  if (name === "protobufAny") return void report.checks++
  if (definition.enum !== undefined) {
    const e = enumOf(node)
    report.checks++
    if (e === undefined) return closedEnum(name, definition.enum, node, path, report)
    const numbers = spec.enums.get(e.protoName)
    for (const value of definition.enum as Array<string>) {
      report.checks++
      const number = numbers?.get(value)
      if (!(value in e.values)) report.problems.push(`${path}: ${e.protoName} lacks ${value} (${number})`)
      else if (number !== undefined && e.values[value] !== number)
        report.problems.push(`${path}: ${e.protoName}.${value} is ${e.values[value]}, the spec says ${number}`)
    }
    return
  }
  if (node._tag === "UnknownKeyword") return void report.opaque.add(`${name} at ${path}`)
  const key = `${name} ${path}`
  if (seen.has(key)) return
  seen.add(key)
  if (node._tag !== "TypeLiteral")
    return void report.problems.push(`${path}: ${name} is a message, ours is ${node._tag}`)
  const properties: Json = definition.properties ?? {}
  const byName = new Map(node.propertySignatures.map((ps) => [String(ps.name), ps]))
  for (const [member, schema] of Object.entries(properties)) {
    report.checks++
    const ps = byName.get(member)
    if (ps === undefined) {
      report.problems.push(`${path}.${member}: missing (${name})`)
      continue
    }
    compareMember(version, spec, schema, ps.type, `${path}.${member}`, report, seen)
  }
  for (const ps of node.propertySignatures) {
    if (String(ps.name) in properties) continue
    report.checks++
    if (!ps.isOptional) report.problems.push(`${path}.${String(ps.name)}: not in ${version}'s ${name}, yet required`)
  }
}

const compareMember = (
  version: Version,
  spec: { components: Json; enums: Map<string, Json> },
  schema: Json,
  ours: AST,
  path: string,
  report: Report,
  seen: Set<string>
): void => {
  const ref = (s: Json) => (s.$ref as string).split("/").pop()!
  if (schema.$ref !== undefined) return compare(version, spec, ref(schema), ours, path, report, seen)
  const node = unwrap(ours)
  if (node._tag === "UnknownKeyword") return void report.opaque.add(path)
  if (schema.type === "array") {
    if (node._tag !== "TupleType" || node.rest.length !== 1)
      return void report.problems.push(`${path}: an array in the spec, ours is ${node._tag}`)
    const items = schema.items as Json
    if (items.$ref !== undefined)
      return compare(version, spec, ref(items), node.rest[0].type, `${path}[]`, report, seen)
    return compareMember(version, spec, items, node.rest[0].type, `${path}[]`, report, seen)
  }
  if (schema.type === "object") return // google.protobuf.Value or a map: any JSON
  const want = specKind(schema)
  const have = jsonKind(node)
  // ours may accept more on decoding (e.g. a nonce as a string or a number)
  if (!have.split("|").includes(want))
    report.problems.push(
      `${path}: ${schema.type}${schema.format ? `(${schema.format})` : ""} in the spec, ours ${have}`
    )
}

const check = (version: Version): Report => {
  const data = read(version, "trading_data_v2.openapi.json")
  const core = read(version, "transaction.openapi.json")
  const components = { ...core.components.schemas, ...data.components.schemas }
  const enums = new Map<string, Json>()
  for (const file of read(version, "proto.json").files)
    for (const e of file.enums) enums.set(e.fullName, new Map(e.values.map((v: Json) => [v.name, Number(v.number)])))
  const report: Report = { checks: 0, opaque: new Set(), problems: [] }
  for (const [name, schema] of ROOTS) compare(version, { components, enums }, name, schema.ast, name, report, new Set())
  return report
}

describe("the schemas against Vega's OpenAPI specs", () => {
  for (const version of ["v0.75.0", "v0.79.0"] as const) {
    it(`${version}: every member and enum value of the spec is ours, every member the spec lacks is optional`, () => {
      const report = check(version)
      console.log(`${version}: ${report.checks} checks; kept as raw JSON: ${report.opaque.size} members`)
      expect(report.problems).toEqual(KNOWN[version])
    })
  }
})
