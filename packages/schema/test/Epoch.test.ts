import { describe, expect, it } from "@effect/vitest"
import { BigDecimal, Schema } from "effect"
import * as Enum from "@vega-effect/schema/Enum"
import * as Epoch from "@vega-effect/schema/Epoch"
import * as QueryString from "@vega-effect/schema/QueryString"
import { decodeError, encodeText, expectByteIdentical, expectRoundTrips, fixture } from "./utils.js"

const PARTY = "7d30838be180ddf0c9d31e3cf3b8a06bb3738d19bc3b61f6ed5b20a57bcb3dfc"
const NODE2 = "74023df02b8afc9eaf3e3e2e8b07eab1d2122ac3e74b1b0222538bf9683ade1a"

const epochJson = (): any => JSON.parse(fixture("epoch.json"))

describe("Epoch", () => {
  it("decodes an epoch and writes it back byte for byte", () => {
    const { epoch } = expectByteIdentical(Epoch.GetEpochResponse, fixture("epoch.json"))
    expect(epoch.seq).toBe(3712n)
    expect(epoch.timestamps).toEqual({
      startTime: 1711929600123456000n,
      expiryTime: 1712016000123456000n,
      endTime: 0n,
      firstBlock: 27341512n,
      lastBlock: 0n
    })
    expect(epoch.delegations).toHaveLength(3)
    expect(epoch.delegations[2]).toEqual({ party: PARTY, nodeId: NODE2, amount: 5000000000000000000n, epochSeq: 3712n })

    const [greenfield, pending] = epoch.validators
    expect(greenfield.status).toBe("NODE_STATUS_VALIDATOR")
    expect(greenfield.stakedTotal).toBe(1260000000000000000000000n)
    expect(greenfield.epochData).toBeNull()
    expect(greenfield.rewardScore?.normalisedScore).toEqual(BigDecimal.make(715n, 4))
    expect(greenfield.rankingScore?.votingPower).toBe(715)
    expect(greenfield.delegations).toHaveLength(2)
    expect(pending.rewardScore).toBeNull()
    expect(pending.epochData).toEqual({ total: 40, offline: 1, online: 39 })
    expect(pending.rankingScore?.status).toBe("VALIDATOR_NODE_STATUS_ERSATZ")
  })

  it("decodes unknown enum values and ignores unknown members", () => {
    const json = epochJson()
    json.epoch.validators[0].status = "NODE_STATUS_RETIRED"
    json.epoch.validators[0].rewardScore.validatorStatus = 7
    json.epoch.validators[0].newMember = "x"
    json.epoch.somethingNew = []
    const { epoch } = Schema.decodeUnknownSync(Epoch.GetEpochResponse)(json)
    expect(epoch.validators[0].status).toEqual(Enum.unknownEnumValue("NODE_STATUS_RETIRED"))
    expect(epoch.validators[0].rewardScore?.validatorStatus).toEqual(Enum.unknownEnumValue(7))
    const again = JSON.parse(encodeText(Epoch.GetEpochResponse, { epoch }))
    expect(again.epoch.validators[0].status).toBe("NODE_STATUS_RETIRED")
    expect(again.epoch.validators[0].rewardScore.validatorStatus).toBe(7)
    expect(again.epoch.somethingNew).toBeUndefined()
  })

  it("names the path and the expected type of a bad value", () => {
    const seq = epochJson()
    seq.epoch.seq = 3712
    const seqMessage = decodeError(Epoch.GetEpochResponse, seq)
    expect(seqMessage).toContain('["epoch"]')
    expect(seqMessage).toContain('["seq"]')
    expect(seqMessage).toContain("Expected string, actual 3712")

    const amount = epochJson()
    amount.epoch.delegations[1].amount = "1.5"
    const amountMessage = decodeError(Epoch.GetEpochResponse, amount)
    expect(amountMessage).toContain('["delegations"]')
    expect(amountMessage).toContain("[1]")
    expect(amountMessage).toContain('["amount"]')
    expect(amountMessage).toContain('actual "1.5"')

    const node = epochJson()
    node.epoch.validators[1].id = "not-a-node"
    const nodeMessage = decodeError(Epoch.GetEpochResponse, node)
    expect(nodeMessage).toContain('["validators"]')
    expect(nodeMessage).toContain('["id"]')
    expect(nodeMessage).toContain('Expected a node id (64 hexadecimal characters), actual "not-a-node"')

    const timestamps = epochJson()
    delete timestamps.epoch.timestamps.expiryTime
    const tsMessage = decodeError(Epoch.GetEpochResponse, timestamps)
    expect(tsMessage).toContain('["expiryTime"]')
    expect(tsMessage).toContain("is missing")
  })

  it("encodes the request with the gateway's query names", () => {
    expect(Schema.encodeSync(Epoch.GetEpochRequest)({ id: 3712n })).toEqual({ id: "3712" })
    expect(QueryString.encode(Epoch.GetEpochRequest)({ block: 27341512n })).toBe("block=27341512")
    expect(QueryString.encode(Epoch.GetEpochRequest)({})).toBe("")
    expect(decodeError(Epoch.GetEpochRequest, { id: "-1" })).toContain('["id"]')
  })

  it("round-trips generated values", () => {
    expectRoundTrips(Epoch.Epoch, 50)
    expectRoundTrips(Epoch.GetEpochRequest)
  })
})
