import { describe, expect, it } from "@effect/vitest"
import { DateTime, Schema } from "effect"
import * as ChainInfo from "@vega-effect/schema/ChainInfo"
import * as Enum from "@vega-effect/schema/Enum"
import * as Timestamp from "@vega-effect/schema/Timestamp"
import { decodeError, encodeText, expectByteIdentical, expectRoundTrips, fixture } from "./utils.js"

const statisticsJson = (): any => JSON.parse(fixture("statistics.json"))

/** The members every `/statistics` response has, and only those. */
const minimalStatistics = {
  blockHeight: "1",
  totalPeers: "0",
  genesisTime: "2024-01-01T00:00:00Z",
  currentTime: "2024-01-01T00:00:01Z",
  vegaTime: "2024-01-01T00:00:01Z",
  status: "CHAIN_STATUS_REPLAYING",
  appVersion: "v0.75.8",
  blockDuration: "0",
  chainId: "vega-testnet-0001",
  epochSeq: "0",
  epochStartTime: "0001-01-01T00:00:00Z",
  epochExpiryTime: "0001-01-01T00:00:00Z"
}

describe("ChainInfo", () => {
  it("decodes /api/v2/info", () => {
    expect(expectByteIdentical(ChainInfo.InfoResponse, fixture("info.json")).version).toBe("v0.75.8")
  })

  it("decodes /statistics and writes it back byte for byte", () => {
    const { statistics } = expectByteIdentical(ChainInfo.StatisticsResponse, fixture("statistics.json"))
    expect(statistics.blockHeight).toBe(27345678n)
    expect(statistics.chainId).toBe("vega-mainnet-0011")
    expect(statistics.status).toBe("CHAIN_STATUS_CONNECTED")
    expect(statistics.epochSeq).toBe(3712n)
    expect(statistics.totalPeers).toBe(24n)
    expect(statistics.blockDuration).toBe(1004567123n)
    expect(statistics.vegaTime).toBe("2024-04-01T09:30:11.998877665Z")
    expect(DateTime.toEpochMillis(Timestamp.rfc3339ToDateTime(statistics.epochStartTime))).toBe(
      Date.UTC(2024, 3, 1, 0, 0, 0, 123)
    )
    expect(statistics.orderSubscriptions).toBe(0)
  })

  it("decodes a /statistics without the optional members, and an unknown chain status", () => {
    const decoded = Schema.decodeUnknownSync(ChainInfo.Statistics)({ ...minimalStatistics, status: "CHAIN_STATUS_NEW" })
    expect(decoded.status).toEqual(Enum.unknownEnumValue("CHAIN_STATUS_NEW"))
    expect(decoded.blockHash).toBeUndefined()
    expect(JSON.parse(encodeText(ChainInfo.Statistics, decoded))).toEqual({
      ...minimalStatistics,
      status: "CHAIN_STATUS_NEW"
    })
  })

  it("knows the chain status table", () => {
    expect(ChainInfo.ChainStatus.values).toEqual({
      CHAIN_STATUS_UNSPECIFIED: 0,
      CHAIN_STATUS_DISCONNECTED: 1,
      CHAIN_STATUS_REPLAYING: 2,
      CHAIN_STATUS_CONNECTED: 3
    })
    expect(Schema.decodeUnknownSync(ChainInfo.ChainStatus.Number)(3)).toBe("CHAIN_STATUS_CONNECTED")
  })

  it("names the path and the expected type of a bad /statistics", () => {
    const height = statisticsJson()
    height.statistics.blockHeight = 27345678
    const heightMessage = decodeError(ChainInfo.StatisticsResponse, height)
    expect(heightMessage).toContain('["statistics"]')
    expect(heightMessage).toContain('["blockHeight"]')
    expect(heightMessage).toContain("Expected string, actual 27345678")

    const time = statisticsJson()
    time.statistics.vegaTime = "1711965012345678000"
    const timeMessage = decodeError(ChainInfo.StatisticsResponse, time)
    expect(timeMessage).toContain('["vegaTime"]')
    expect(timeMessage).toContain('Expected an RFC 3339 time, actual "1711965012345678000"')

    const missing = statisticsJson()
    delete missing.statistics.chainId
    expect(decodeError(ChainInfo.StatisticsResponse, missing)).toContain('["chainId"]')
  })

  it("decodes /blockchain/height with its exact member order and types", () => {
    const text = fixture("blockchain-height.json")
    const height = expectByteIdentical(ChainInfo.LastBlockHeightResponse, text)
    expect(height).toEqual({
      height: 27345678n,
      hash: "2e7a16d9ef690f0d2beed115fba13ba2aaa16c8f971910ad88c72b9db010c7d4",
      spamPowHashFunction: ChainInfo.SPAM_POW_HASH_FUNCTION,
      spamPowDifficulty: 15,
      spamPowNumberOfPastBlocks: 100,
      spamPowNumberOfTxPerBlock: 2,
      spamPowIncreasingDifficulty: true,
      chainId: "vega-mainnet-0011"
    })
    expect(Object.keys(JSON.parse(text))).toEqual([
      "height",
      "hash",
      "spamPowHashFunction",
      "spamPowDifficulty",
      "spamPowNumberOfPastBlocks",
      "spamPowNumberOfTxPerBlock",
      "spamPowIncreasingDifficulty",
      "chainId"
    ])
    const bad = { ...JSON.parse(text), spamPowDifficulty: "15" }
    const message = decodeError(ChainInfo.LastBlockHeightResponse, bad)
    expect(message).toContain('["spamPowDifficulty"]')
    expect(message).toContain('Expected number, actual "15"')
  })

  it("decodes the Vega time in nanoseconds", () => {
    const { timestamp } = expectByteIdentical(ChainInfo.GetVegaTimeResponse, fixture("vega-time.json"))
    expect(timestamp).toBe(1711965012345678901n)
    expect(Timestamp.vegaTimeToIsoString(timestamp)).toBe("2024-04-01T09:50:12.345678901Z")
  })

  it("round-trips generated values", () => {
    expectRoundTrips(ChainInfo.InfoResponse)
    expectRoundTrips(ChainInfo.StatisticsResponse, 100)
    expectRoundTrips(ChainInfo.LastBlockHeightResponse)
    expectRoundTrips(ChainInfo.GetVegaTimeResponse)
  })
})
