import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Either, FastCheck, Schema } from "effect"
import {
  Encoder,
  Enum,
  LiquidityProvision,
  PartyProfile,
  Position,
  ReferralSetStats,
  Reward,
  RewardSummary,
  SignerBundle,
  StakeLinking,
  TransactionResult
} from "@vega-effect/schema"

const junk = FastCheck.oneof(
  FastCheck.constantFrom<unknown>(
    undefined,
    null,
    "",
    "network",
    "A".repeat(64),
    "a".repeat(64),
    -1n,
    2n ** 64n,
    2n ** 256n,
    0n,
    1.5,
    "POSITION_STATUS_UNSPECIFIED",
    Enum.unknownEnumValue("POSITION_STATUS_DISTRESSED"),
    Enum.unknownEnumValue(7),
    Enum.unknownEnumValue(1.5),
    { _tag: "UnknownEnumValue" },
    [],
    {}
  ),
  FastCheck.anything({ maxDepth: 1 })
)

/** Replaces one field (or element) somewhere in a value by `replacement`. */
const corrupt = (value: unknown, pick: number, replacement: unknown): unknown => {
  if (Array.isArray(value)) {
    if (value.length === 0) return value
    const copy = [...value]
    const i = pick % copy.length
    copy[i] = pick % 3 === 0 ? replacement : corrupt(copy[i], Math.floor(pick / 3), replacement)
    return copy
  }
  if (typeof value === "object" && value !== null && !("_id" in value)) {
    const keys = Object.keys(value)
    if (keys.length === 0) return value
    const key = keys[pick % keys.length]
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) }
    copy[key] = pick % 3 === 0 ? replacement : corrupt(copy[key], Math.floor(pick / 3), replacement)
    return copy
  }
  return replacement
}

/** The compiled encoder agrees with Effect's on valid values and on corrupted ones. */
const expectSameAsEffect = <A, I>(schema: Schema.Schema<A, I>, numRuns = 150) => {
  const fast = Encoder.encodeEither(schema)
  const effect = Schema.encodeEither(schema)
  FastCheck.assert(
    FastCheck.property(Arbitrary.make(schema), FastCheck.nat(), junk, (value, pick, replacement) => {
      expect(fast(value)).toEqual(effect(value))
      const bad = corrupt(value, pick, replacement) as A
      const expected = effect(bad)
      const actual = fast(bad)
      expect(actual._tag).toBe(expected._tag)
      if (Either.isRight(expected)) expect(actual).toEqual(expected)
      if (Either.isLeft(expected) && Either.isLeft(actual)) expect(actual.left.message).toBe(expected.left.message)
    }),
    { numRuns }
  )
}

describe("Encoder", () => {
  it("writes the same JSON as Schema", () => {
    const value = Schema.decodeUnknownSync(Position.Position)({
      marketId: "a08d564afb14acd3fa86b004f899b2639942cd7cb5e0c9bed8f92fdf15e4033b",
      partyId: "network",
      openVolume: "-5",
      realisedPnl: "0",
      unrealisedPnl: "1",
      averageEntryPrice: "2",
      updatedAt: "1711965012345678000",
      lossSocialisationAmount: "0",
      positionStatus: "POSITION_STATUS_DISTRESSED"
    })
    expect(Encoder.stringify(Position.Position)(value)).toBe(
      JSON.stringify(Schema.encodeSync(Position.Position)(value))
    )
  })

  it("throws Effect's own error for a value that does not fit", () => {
    const bad = { marketId: "nope" } as unknown as Position.Position
    expect(() => Encoder.encodeSync(Position.Position)(bad)).toThrow(/marketId/)
  })

  it("agrees with Effect's encoder on generated and corrupted values", () => {
    expectSameAsEffect(Position.Position, 400)
    expectSameAsEffect(StakeLinking.StakeLinking, 400)
    expectSameAsEffect(LiquidityProvision.LiquidityProvisionNode, 300)
    expectSameAsEffect(ReferralSetStats.ReferralSetStats, 300)
    expectSameAsEffect(SignerBundle.SignerAddedBundle, 300)
    expectSameAsEffect(PartyProfile.PartyProfile, 300)
    expectSameAsEffect(RewardSummary.ListRewardSummariesResponse, 200)
    expectSameAsEffect(Reward.Reward, 300)
    expectSameAsEffect(Position.Position.pipe(Schema.annotations({})), 50)
    expectSameAsEffect(TransactionResult.TransactionResultStream, 100)
  })
})

describe("error messages", () => {
  it("describe any actual value without throwing", () => {
    for (const odd of [{ toString: "" }, { a: 1n }, Object.create(null), Symbol("s"), [1n]]) {
      const result = Encoder.encodeEither(SignerBundle.SignerAddedBundle)({ newSigner: odd } as never)
      expect(Either.isLeft(result) && typeof result.left.message).toBe("string")
    }
  })
})
