import { describe, expect, it, vi } from "@effect/vitest"
import { Arbitrary, Either, FastCheck, Schema } from "effect"
import {
  DataNodeApi,
  Decoder,
  Encoder,
  Ids,
  LiquidityProvision,
  PartyProfile,
  Position,
  ReferralSetStats,
  Reward,
  RewardSummary,
  SignerBundle,
  StakeLinking,
  Transaction,
  Vega
} from "@vega-effect/schema"
import { decoding, FAIL, makeCompiler } from "../src/internal/compiled.js"
import * as FastDecode from "../src/internal/fastDecode.js"
import { fixture } from "./utils.js"

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

/** Every path to a value inside a JSON document. */
const paths = (json: Json, prefix: ReadonlyArray<string | number> = []): Array<ReadonlyArray<string | number>> => {
  const here = [prefix]
  if (Array.isArray(json)) return here.concat(json.flatMap((v, i) => paths(v, [...prefix, i])))
  if (json !== null && typeof json === "object") {
    return here.concat(Object.entries(json).flatMap(([k, v]) => paths(v as Json, [...prefix, k])))
  }
  return here
}

/** A copy of `json` with the value at `path` replaced (or removed when `value` is undefined). */
const mutate = (json: Json, path: ReadonlyArray<string | number>, value: Json | undefined): Json => {
  if (path.length === 0) return value ?? null
  const [head, ...rest] = path
  const copy: any = Array.isArray(json) ? [...json] : { ...(json as object) }
  if (rest.length === 0 && value === undefined) {
    if (Array.isArray(copy)) copy.splice(head as number, 1)
    else delete copy[head]
  } else {
    copy[head] = mutate(copy[head], rest, value)
  }
  return copy
}

const interesting: FastCheck.Arbitrary<Json | undefined> = FastCheck.oneof(
  FastCheck.constantFrom<Json | undefined>(
    undefined,
    null,
    "",
    "0",
    "-1",
    "1.5",
    "network",
    "NETWORK",
    "18446744073709551616",
    "9223372036854775808",
    "1" + "0".repeat(78),
    "-" + "1".repeat(78),
    "A".repeat(64),
    "POSITION_STATUS_UNSPECIFIED",
    "STATUS_NEW",
    0,
    3,
    -1,
    1.5,
    2 ** 60,
    true,
    [],
    {}
  ),
  FastCheck.jsonValue({ maxDepth: 1 }) as FastCheck.Arbitrary<Json>
)

/** The members of a decoded value, by path, in the order they come in (`toEqual` ignores it). */
const order = (value: unknown, prefix = ""): Array<string> => {
  if (Array.isArray(value)) return value.flatMap((v, i) => order(v, `${prefix}[${i}]`))
  if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return []
  return Object.entries(value).flatMap(([k, v]) => [`${prefix}.${k}`, ...order(v, `${prefix}.${k}`)])
}

/**
 * The compiled decoder agrees with Effect's parser on valid values and on every mutation of them:
 * the same values, members in the same order, and the same errors.
 */
const expectSameAsEffect = <A, I>(schema: Schema.Schema<A, I>, numRuns = 150) => {
  const fast = Decoder.decodeUnknownEither(schema)
  const effect = Schema.decodeUnknownEither(schema)
  const encode = Schema.encodeSync(schema)
  FastCheck.assert(
    FastCheck.property(Arbitrary.make(schema), FastCheck.nat(), interesting, (value, pick, replacement) => {
      const json = JSON.parse(JSON.stringify(encode(value))) as Json
      const decoded = fast(json)
      expect(decoded).toEqual(effect(json))
      expect(order(Either.getOrThrow(decoded))).toEqual(order(Either.getOrThrow(effect(json))))
      const all = paths(json)
      const mutated = mutate(json, all[pick % all.length], replacement)
      const expected = effect(mutated)
      const actual = fast(mutated)
      expect(actual._tag).toBe(expected._tag)
      if (Either.isRight(expected)) {
        expect(actual).toEqual(expected)
        expect(order(Either.getOrThrow(actual))).toEqual(order(expected.right))
      }
      if (Either.isLeft(expected) && Either.isLeft(actual)) expect(actual.left.message).toBe(expected.left.message)
    }),
    { numRuns }
  )
}

/**
 * The fast path made from JavaScript source and the one made of shared loops give the same
 * outputs, `FAIL` included, on valid values and on a mutation of each.
 */
const expectSameForms = <A, I>(schema: Schema.Schema<A, I>, numRuns = 150) => {
  const generated = makeCompiler(decoding)(schema.ast)
  const loops = makeCompiler(decoding, { generate: false })(schema.ast)
  const encode = Schema.encodeSync(schema)
  FastCheck.assert(
    FastCheck.property(Arbitrary.make(schema), FastCheck.nat(), interesting, (value, pick, replacement) => {
      const json = JSON.parse(JSON.stringify(encode(value))) as Json
      const all = paths(json)
      for (const input of [json, mutate(json, all[pick % all.length], replacement)]) {
        const fromSource = generated(input)
        expect(fromSource).toEqual(loops(input))
        if (input === json) expect(fromSource).not.toBe(FAIL)
        if (fromSource !== FAIL) expect(order(fromSource)).toEqual(order(loops(input)))
      }
    }),
    { numRuns }
  )
}

/** Members whose names must be written with escapes in source, or that objects inherit. */
const OddNames = Schema.Struct({
  'quote"d': Schema.String,
  "back\\slash": Schema.optionalWith(Schema.Finite, { exact: true }),
  "line\nbreak\u2028": Schema.NullOr(Schema.Boolean),
  "": Schema.Array(Schema.String),
  constructor: Schema.String,
  "${x}`": Schema.optionalWith(Position.Position, { exact: true, nullable: true })
})

describe("Decoder", () => {
  it("decodes the fixtures to the same values as Schema", () => {
    const cases: Array<[Schema.Schema<any, any>, string]> = [
      [StakeLinking.GetStakeResponse, "stake.json"],
      [LiquidityProvision.ListLiquidityProvisionsResponse, "liquidity-provisions.json"],
      [Position.ListPositionsResponse, "positions.json"],
      [Position.ListPositionsResponse, "positions-v079.json"],
      [ReferralSetStats.GetReferralSetStatsResponse, "referral-set-stats-v078.json"],
      [SignerBundle.ListSignerAddedBundlesResponse, "signer-bundles.json"],
      [PartyProfile.ListPartiesProfilesResponse, "profiles.json"],
      [RewardSummary.ListRewardSummariesResponse, "reward-summaries.json"],
      [Reward.ListRewardsResponse, "rewards.json"]
    ]
    for (const [schema, name] of cases) {
      const json = JSON.parse(fixture(name))
      expect(Decoder.decodeUnknownSync(schema)(json)).toEqual(Schema.decodeUnknownSync(schema)(json))
    }
  })

  it("reports Effect's own error, path included", () => {
    const json = JSON.parse(fixture("positions.json"))
    json.positions.edges[1].node.openVolume = "x"
    const fast = Decoder.decodeUnknownEither(Position.ListPositionsResponse)(json)
    expect(Either.isLeft(fast)).toBe(true)
    expect(String(Either.isLeft(fast) && fast.left)).toContain('["openVolume"]')
    expect(() => Decoder.decodeUnknownSync(Position.ListPositionsResponse)(json)).toThrow(/openVolume/)
  })

  it("honours parse options by deferring to Effect", () => {
    const json = JSON.parse(fixture("reward-summaries.json"))
    json.extra = 1
    const strict = Decoder.decodeUnknownEither(RewardSummary.ListRewardSummariesResponse)(json, {
      onExcessProperty: "error"
    })
    expect(Either.isLeft(strict)).toBe(true)
  })

  it("agrees with Effect's parser on generated and mutated inputs", () => {
    expectSameAsEffect(Position.Position, 400)
    expectSameAsEffect(StakeLinking.StakeLinking, 400)
    expectSameAsEffect(LiquidityProvision.LiquidityProvisionNode, 300)
    expectSameAsEffect(ReferralSetStats.ReferralSetStats, 300)
    expectSameAsEffect(SignerBundle.SignerAddedBundle, 300)
    expectSameAsEffect(PartyProfile.PartyProfile, 300)
    expectSameAsEffect(RewardSummary.ListRewardSummariesResponse, 200)
    expectSameAsEffect(Reward.Reward, 300)
    expectSameAsEffect(Transaction.SubmitTransactionRequest, 200)
  })

  it("checks ids as Effect's parser does, character by character", () => {
    const id = "0123456789abcdef".repeat(4)
    const inputs = [id, id.toUpperCase(), id.slice(1), `${id}0`, "", "network", "NETWORK", " ".repeat(64)]
    // around every boundary of 0-9a-f, and past the ASCII range, at every position
    for (let i = 0; i < 64; i++)
      for (const c of ["/", ":", "@", "G", "`", "g", "\u00e0", "\u0130", "\u{1F600}"])
        inputs.push(id.slice(0, i) + c + id.slice(i + 1))
    const schemas: ReadonlyArray<Schema.Schema<any, string>> = [Ids.MarketId, Ids.PartyId]
    for (const schema of schemas) {
      const fast = Decoder.decodeUnknownEither(schema)
      const effect = Schema.decodeUnknownEither(schema)
      const fastEncode = Encoder.encodeEither(schema)
      const effectEncode = Schema.encodeEither(schema)
      const direct = FastDecode.compile(schema.ast)
      for (const input of inputs) {
        const expected = effect(input)
        expect(fast(input)).toEqual(expected)
        // the fast path itself decides, rather than leaving valid ids to Effect's parser
        expect(direct(input) !== FastDecode.FAIL).toBe(Either.isRight(expected))
        expect(fastEncode(input)).toEqual(effectEncode(input))
      }
    }
  })

  it("makes the same fast path from source as from its shared loops", () => {
    // made from source: the members' names are written in
    expect(String(makeCompiler(decoding)(OddNames.ast))).toContain(JSON.stringify('quote"d'))
    expectSameForms(OddNames)
    expectSameForms(Position.ListPositionsResponse, 100)
    expectSameForms(Vega.Order)
    expectSameForms(Vega.Trade)
    expectSameForms(Transaction.SubmitTransactionRequest)
    expectSameAsEffect(OddNames, 300)
    // an optional member present as `undefined` (not JSON, but an input all the same) is not absent
    const input = { 'quote"d': "", "back\\slash": undefined, "line\nbreak\u2028": null, "": [], constructor: "" }
    expect(Either.isLeft(Schema.decodeUnknownEither(OddNames)(input))).toBe(true)
    expect(makeCompiler(decoding)(OddNames.ast)(input)).toBe(FAIL)
    expect(makeCompiler(decoding, { generate: false })(OddNames.ast)(input)).toBe(FAIL)
    expect(Decoder.decodeUnknownEither(OddNames)(input)).toEqual(Schema.decodeUnknownEither(OddNames)(input))
  })

  it("uses its shared loops where the platform refuses code from strings", () => {
    vi.stubGlobal("Function", function () {
      throw new EvalError("Code generation from strings disallowed for this context")
    })
    try {
      const json = JSON.parse(fixture("positions.json"))
      const fast = makeCompiler(decoding)(Position.ListPositionsResponse.ast)
      expect(fast(json)).toEqual(Schema.decodeUnknownSync(Position.ListPositionsResponse)(json))
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it("keeps Effect's order of members around a message unset on the wire (`null`, absent once decoded)", () => {
    // generated rows with such members: an order's peggedOrder, a trade's buyerFee and sellerFee
    expectSameAsEffect(Vega.Order, 200)
    expectSameAsEffect(Vega.Trade, 200)
  })
})

describe("a connection whose page info is null", () => {
  it("reads as an empty page's (ListTeams answers it for a team that matches nothing)", () => {
    const answer = { teams: { edges: [], pageInfo: null } }
    const schema = DataNodeApi.ListTeams.response
    const empty = { hasNextPage: false, hasPreviousPage: false, startCursor: "", endCursor: "" }
    expect(Schema.decodeUnknownSync(schema)(answer).teams.pageInfo).toEqual(empty)
    expect(Decoder.decodeUnknownSync(schema)(answer).teams.pageInfo).toEqual(empty)
  })
})
