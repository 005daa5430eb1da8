import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { EventBus, StreamForm } from "@vega-effect/schema"
import { expectByteIdentical, expectRoundTrips } from "./utils.js"

const PARTY = "b5fd9d3c4ad553cb3196303b6e6df7f484cf7f5331a572a45031239fd71ad8a0"
const HASH = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"

describe("EventBus", () => {
  it("writes the subscription request with enum names", () => {
    const request = expectByteIdentical(
      EventBus.ObserveEventBusRequest,
      `{"type":["BUS_EVENT_TYPE_TRANSACTION_RESULT"],"marketId":"","partyId":"${PARTY}","batchSize":"0"}`
    )
    expect(request.type).toEqual(["BUS_EVENT_TYPE_TRANSACTION_RESULT"])
  })

  it("reads an event bus frame in stream form", () => {
    const Frame = StreamForm.frame(EventBus.ObserveEventBusResponse)
    const line = `{"result":{"events":[{"id":"1234-7","block":"${HASH}","type":53,"transactionResult":{"partyId":"${PARTY}","status":true,"hash":"${HASH}","statusDetail":1,"joinTeam":{"id":"${HASH}"},"success":{}},"version":1,"chainId":"vega-mainnet-0011","txHash":"${HASH}"},{"id":"1235-0","block":"${HASH}","type":2,"timeUpdate":{"timestamp":"1711965012345678000"},"version":1,"chainId":"vega-mainnet-0011"}]}}`
    const frame = Schema.decodeUnknownSync(Frame)(JSON.parse(line))
    if (!("result" in frame)) throw new Error("expected a result")
    const [result, time] = frame.result.events
    expect(result.type).toBe("BUS_EVENT_TYPE_TRANSACTION_RESULT")
    expect(result.transactionResult?.joinTeam?.id).toBe(HASH)
    expect(time.timeUpdate?.timestamp).toBe(1711965012345678000n)
    expect(time.txHash).toBe("")
    expect(JSON.stringify(Schema.encodeSync(Frame)(frame))).toBe(line)
  })

  it("round-trips generated events", () => {
    expectRoundTrips(EventBus.BusEvent, 50)
  })
})

describe("EventBus events of the watched resources", () => {
  const Frame = StreamForm.frame(EventBus.ObserveEventBusResponse)
  const SET = "c0ffee".padEnd(64, "0")

  it("reads the payloads a watcher subscribes to, in stream form, and writes them back unchanged", () => {
    const events = [
      `{"id":"9-1","block":"${HASH}","type":49,"beginBlock":{"height":"9","timestamp":"1711965012345678000","hash":"${HASH}"},"version":1,"chainId":"c"}`,
      `{"id":"9-4","block":"${HASH}","type":34,"rewardPayout":{"party":"${PARTY}","epochSeq":"12","asset":"${HASH}","amount":"1000","percentOfTotalReward":"0.25","timestamp":"1711965012345678000","rewardType":"ACCOUNT_TYPE_GLOBAL_REWARD","lockedUntilEpoch":"12","quantumAmount":"1"},"version":1,"chainId":"c"}`,
      `{"id":"9-5","block":"${HASH}","type":13,"nodeSignature":{"id":"${SET}","sig":"AAEC","kind":3},"version":1,"chainId":"c"}`,
      `{"id":"9-6","block":"${HASH}","type":44,"erc20MultisigSignerAdded":{"signatureId":"${SET}","validatorId":"${PARTY}","timestamp":"1711965012345678000","newSigner":"0x${"1".repeat(40)}","submitter":"0x${"2".repeat(40)}","nonce":"77","epochSeq":"12"},"version":1,"chainId":"c"}`,
      `{"id":"9-7","block":"${HASH}","type":76,"referralSetStatsUpdated":{"setId":"${SET}","atEpoch":"12","referralSetRunningNotionalTakerVolume":"5","refereesStats":[{"partyId":"${PARTY}","discountFactor":"0.1","epochNotionalTakerVolume":"3"}],"rewardFactor":"0.2","rewardsMultiplier":"1","rewardsFactorMultiplier":"0.2","wasEligible":true,"referrerTakerVolume":"9"},"version":1,"chainId":"c"}`,
      `{"id":"9-8","block":"${HASH}","type":86,"partyProfileUpdated":{"updatedProfile":{"partyId":"${PARTY}","alias":"whale","metadata":[{"key":"a","value":"b"}]}},"version":1,"chainId":"c","txHash":"${HASH}"}`,
      `{"id":"9-9","block":"${HASH}","type":31,"epochEvent":{"seq":"12","action":2,"startTime":"1","expireTime":"2","endTime":"3"},"version":1,"chainId":"c"}`,
      `{"id":"9-10","block":"${HASH}","type":7,"party":{"id":"${PARTY}"},"version":1,"chainId":"c"}`,
      `{"id":"9-11","block":"${HASH}","type":50,"endBlock":{"height":"9"},"version":1,"chainId":"c"}`
    ]
    const line = `{"result":{"events":[${events.join(",")}]}}`
    const frame = Schema.decodeUnknownSync(Frame)(JSON.parse(line))
    if (!("result" in frame)) throw new Error("expected a result")
    const [begin, payout, signature, bundle, referral, profile, epoch, party, end] = frame.result.events
    expect(begin.beginBlock?.height).toBe(9n)
    expect(payout.rewardPayout?.amount).toBe(1000n)
    expect(signature.nodeSignature?.kind).toBe("NODE_SIGNATURE_KIND_ERC20_MULTISIG_SIGNER_ADDED")
    expect(bundle.erc20MultisigSignerAdded?.epochSeq).toBe(12n)
    expect(referral.referralSetStatsUpdated?.refereesStats[0].partyId).toBe(PARTY)
    expect(profile.partyProfileUpdated?.updatedProfile.alias).toBe("whale")
    expect(epoch.epochEvent?.action).toBe("EPOCH_ACTION_END")
    expect(party.party).toEqual({ id: PARTY, alias: "", metadata: [] })
    expect(end.endBlock?.height).toBe(9n)
    expect(JSON.stringify(Schema.encodeSync(Frame)(frame))).toBe(line)
  })

  it("orders events by (height, sequence), not by the text of their ids", () => {
    const ids = ["10-1", "9-5", "9-12", "10-0"].map((id) => ({ id }))
    expect([...ids].sort(EventBus.comparePosition).map((e) => e.id)).toEqual(["9-5", "9-12", "10-0", "10-1"])
    expect(EventBus.heightOf({ id: "123-4" })).toBe(123n)
    expect(EventBus.position({ id: "x" })).toEqual([-1n, -1n])
  })
})
