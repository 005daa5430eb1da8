/**
 * What the hand-written schemas (the messages modelled before the generator, which it reuses)
 * say of their members, read from their ASTs along the spec's definitions: the kind of each string
 * or 64-bit member (the exactness table covers only the generated messages) and which message
 * members they require set (the node always sets them; the gateway's rule would allow `null`).
 * The spec instances follow both, so that hand-written and generated schemas meet the same
 * instances for everything else: members, JSON types, enums, oneofs, lists.
 */
import * as Option from "effect/Option"
import * as AST from "effect/SchemaAST"
import type { Kind } from "../../codegen/exactness.js"
import { refName, type Spec } from "./spec.js"

/** The kinds of the table, and three that only hand-written schemas use. */
export type AnyKind =
  Kind | "Int64Text" | "Rfc3339" | "EthereumTxHash" | "Decimals" | "BundleSignatures" | "PercentageOfTotal"

const BY_IDENTIFIER: Readonly<Record<string, AnyKind>> = {
  Amount: "Amount",
  AmountOrEmpty: "AmountOrEmpty",
  SignedAmount: "SignedAmount",
  Decimal: "Decimal",
  DecimalOrEmpty: "DecimalOrEmpty",
  PartyId: "PartyId",
  EthereumAddress: "EthereumAddress",
  EthereumTxHash: "EthereumTxHash",
  VegaTimestamp: "Timestamp",
  EthereumTimestamp: "EthereumTimestamp",
  Rfc3339: "Rfc3339",
  AssetDecimals: "Decimals",
  PriceDecimals: "Decimals",
  PositionDecimals: "Decimals",
  BundleSignatures: "BundleSignatures",
  PercentageOfTotal: "PercentageOfTotal",
  ...Object.fromEntries(
    [
      "MarketId",
      "AssetId",
      "NodeId",
      "OrderId",
      "LiquidityProvisionId",
      "ReferralSetId",
      "StakeLinkingId",
      "BundleId",
      "BlockHash",
      "VegaId",
      "PublicKey",
      "TxHash"
    ].map((id) => [id, "Id" as const])
  )
}

export interface Handwritten {
  /** definition → member → kind */
  readonly kinds: Map<string, Map<string, AnyKind>>
  /** `definition.member` of the message members the schemas require set */
  readonly alwaysSet: Set<string>
  /** `definition.member` of the members the schemas let the node leave out */
  readonly optional: Set<string>
}

const identifierOf = (ast: AST.AST): string | undefined => Option.getOrUndefined(AST.getIdentifierAnnotation(ast))

const isNull = (ast: AST.AST) => AST.isLiteral(ast) && ast.literal === null
const isEmpty = (ast: AST.AST) => AST.isLiteral(ast) && ast.literal === ""

/** The kind a member's schema gives it, given the spec's JSON type of the member. */
const kindOf = (ast: AST.AST, specMember: Record<string, any>): AnyKind | undefined => {
  if (AST.isUnion(ast)) {
    const others = ast.types.filter((t) => !isNull(t) && !isEmpty(t))
    if (others.length !== 1) return undefined
    const inner = kindOf(others[0]!, specMember)
    const empty = ast.types.some(isEmpty)
    return inner === undefined || !empty ? inner : (`${inner}OrEmpty` as AnyKind)
  }
  if (AST.isTupleType(ast))
    return ast.rest[0] === undefined ? undefined : kindOf(ast.rest[0].type, specMember.items ?? {})
  const identifier = identifierOf(ast)
  if (identifier !== undefined) {
    const kind = BY_IDENTIFIER[identifier]
    if (kind !== undefined) return kind
    const textual = specMember.type === "string" && specMember.format === undefined
    if (identifier === "Int64" && textual) return "Int64Text"
    if (identifier === "Uint64" && textual) return "Uint64Text"
  }
  if (AST.isRefinement(ast) || AST.isTransformation(ast)) return kindOf(ast.from, specMember)
  return undefined
}

/** The struct a schema is, its encoded side where a transformation renames or defaults members. */
const structOf = (ast: AST.AST): AST.TypeLiteral | undefined => {
  for (;;) {
    if (AST.isTypeLiteral(ast)) return ast
    // a stream form: JSON of any shape, made into the REST form
    if (AST.isTransformation(ast) && ast.from._tag === "UnknownKeyword") ast = ast.to
    else if (AST.isRefinement(ast) || AST.isTransformation(ast)) ast = ast.from
    else if (AST.isSuspend(ast)) ast = ast.f()
    else if (AST.isUnion(ast)) {
      const others = ast.types.filter((t) => !isNull(t))
      if (others.length !== 1) return undefined
      ast = others[0]!
    } else if (AST.isTupleType(ast) && ast.rest[0] !== undefined) ast = ast.rest[0].type
    else return undefined
  }
}

const mapValueOf = (literal: AST.TypeLiteral): AST.AST | undefined => literal.indexSignatures[0]?.type

/** Reads a hand-written schema along the spec definition it describes. */
export const read = (spec: Spec, definition: string, ast: AST.AST, out: Handwritten, seen = new Set<string>()) => {
  const literal = structOf(ast)
  const schema = spec.components[definition]
  if (literal === undefined || schema?.properties === undefined || seen.has(definition)) return
  seen.add(definition)
  const kinds = out.kinds.get(definition) ?? new Map<string, AnyKind>()
  out.kinds.set(definition, kinds)
  for (const ps of literal.propertySignatures) {
    const member = String(ps.name)
    const specMember = schema.properties[member]
    if (specMember === undefined) continue
    if (ps.isOptional) out.optional.add(`${definition}.${member}`)
    const target: string | undefined =
      specMember.$ref ?? specMember.items?.$ref ?? specMember.additionalProperties?.$ref
    const isMessage = target !== undefined && spec.components[refName(target)]?.enum === undefined
    if (!isMessage) {
      const kind = kindOf(ps.type, specMember)
      if (kind !== undefined) kinds.set(member, kind)
      continue
    }
    const nullable = AST.isUnion(ps.type) && ps.type.types.some(isNull)
    if (specMember.$ref !== undefined && !nullable && !ps.isOptional) out.alwaysSet.add(`${definition}.${member}`)
    const inner = structOf(ps.type)
    const element = specMember.additionalProperties !== undefined && inner !== undefined ? mapValueOf(inner) : ps.type
    if (element !== undefined) read(spec, refName(target), element, out, seen)
  }
}
