import { readFileSync } from "node:fs"
import { Arbitrary, Either, FastCheck, ParseResult, Schema } from "effect"
import { expect } from "@effect/vitest"

/** The text of a fixture, without its trailing newline. */
export const fixture = (name: string): string =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8").trimEnd()

/** Decodes JSON text with a schema, throwing a readable error when it does not match. */
export const decodeText = <A, I>(schema: Schema.Schema<A, I>, text: string): A =>
  Schema.decodeUnknownSync(schema)(JSON.parse(text))

/** Encodes a value and prints it as compact JSON, as the node's gateway does. */
export const encodeText = <A, I>(schema: Schema.Schema<A, I>, value: A): string =>
  JSON.stringify(Schema.encodeSync(schema)(value))

/** Asserts that decoding then encoding reproduces the node's bytes. */
export const expectByteIdentical = <A, I>(schema: Schema.Schema<A, I>, text: string): A => {
  const decoded = decodeText(schema, text)
  expect(encodeText(schema, decoded)).toBe(text)
  return decoded
}

/** Property: every generated value survives encode → JSON → decode unchanged. */
export const expectRoundTrips = <A, I>(schema: Schema.Schema<A, I>, numRuns = 200): void => {
  const arbitrary = Arbitrary.make(schema)
  const encode = Schema.encodeSync(schema)
  const decode = Schema.decodeUnknownSync(schema)
  FastCheck.assert(
    FastCheck.property(arbitrary, (value) => {
      const wire = JSON.parse(JSON.stringify(encode(value)))
      expect(decode(wire)).toEqual(value)
    }),
    { numRuns }
  )
}

/** The formatted decode error of an input that must be rejected. */
export const decodeError = <A, I>(schema: Schema.Schema<A, I>, input: unknown): string => {
  const result = Schema.decodeUnknownEither(schema)(input, { errors: "all" })
  if (Either.isRight(result)) throw new Error(`expected a decode error, got ${JSON.stringify(result.right, replacer)}`)
  return ParseResult.TreeFormatter.formatErrorSync(result.left)
}

const replacer = (_: string, v: unknown) => (typeof v === "bigint" ? `${v}n` : v)
