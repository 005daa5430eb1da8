import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import * as DataNodeApi from "@vega-effect/schema/DataNodeApi"
import * as SpamStatistics from "@vega-effect/schema/SpamStatistics"
import { decodeError, expectByteIdentical, expectRoundTrips } from "./utils.js"

const policy = (count: string) => ({ countForEpoch: count, maxForEpoch: "3", minTokensRequired: "0" })

/** A response as core writes it: every member present except unset proto3 optionals. */
const response = {
  chainId: "vega-mainnet-0011",
  statistics: {
    proposals: policy("0"),
    delegations: policy("1"),
    transfers: { countForEpoch: "3", maxForEpoch: "3", bannedUntil: "1711965600000000000", minTokensRequired: "0" },
    nodeAnnouncements: policy("0"),
    votes: {
      statistics: [{ proposal: "ab".repeat(32), countForEpoch: "2", minTokensRequired: "1" }],
      maxForEpoch: "3"
    },
    pow: {
      blockStates: [
        {
          blockHeight: "18446744073709551615",
          blockHash: "cd".repeat(32),
          transactionsSeen: "2",
          hashFunction: "sha3_24_rounds",
          difficulty: "15",
          txPerBlock: "2",
          increasingDifficulty: false
        },
        {
          blockHeight: "1001",
          blockHash: "ef".repeat(32),
          transactionsSeen: "1",
          expectedDifficulty: "15",
          hashFunction: "sha3_24_rounds",
          difficulty: "15",
          txPerBlock: "2",
          increasingDifficulty: false
        }
      ],
      numberOfPastBlocks: "100"
    },
    issueSignatures: policy("0"),
    epochSeq: "3712",
    createReferralSet: policy("0"),
    updateReferralSet: policy("0"),
    applyReferralCode: policy("0")
  }
}

describe("SpamStatistics", () => {
  it("reads and writes /statistics/spam/{partyId} byte for byte", () => {
    const decoded = expectByteIdentical(SpamStatistics.GetSpamStatisticsResponse, JSON.stringify(response))
    const pow = decoded.statistics?.pow
    expect(pow?.numberOfPastBlocks).toBe(100n)
    expect(pow?.blockStates[0].blockHeight).toBe(18446744073709551615n)
    // no expected difficulty: the height is used up
    expect(pow?.blockStates[0].expectedDifficulty).toBeUndefined()
    expect(pow?.blockStates[1].expectedDifficulty).toBe(15n)
    expect(decoded.statistics?.transfers?.bannedUntil).toBe(1711965600000000000n)
  })

  it("reads unset sub-messages written as null", () => {
    const decoded = Schema.decodeUnknownSync(SpamStatistics.GetSpamStatisticsResponse)({
      chainId: "c",
      statistics: null
    })
    expect(decoded.statistics).toBeUndefined()
  })

  it("rejects a block state without its height", () => {
    const { blockHeight: _, ...state } = response.statistics.pow.blockStates[0]
    expect(decodeError(SpamStatistics.PoWBlockState, state)).toContain("blockHeight")
  })

  it("round-trips generated values", () => {
    expectRoundTrips(SpamStatistics.GetSpamStatisticsResponse, 50)
  })

  it("is an endpoint of the API, with the party in the path", () => {
    expect(
      Either.getOrThrow(DataNodeApi.url(DataNodeApi.GetSpamStatistics, { partyId: "ab".repeat(32) } as never))
    ).toBe(`/statistics/spam/${"ab".repeat(32)}`)
  })
})
