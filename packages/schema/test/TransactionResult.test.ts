import { describe, expect, it } from "@effect/vitest"
import { Option, Schema } from "effect"
import { StreamForm, TransactionResult } from "@vega-effect/schema"
import { decodeError, expectByteIdentical, expectRoundTrips } from "./utils.js"

const PARTY = "b5fd9d3c4ad553cb3196303b6e6df7f484cf7f5331a572a45031239fd71ad8a0"
const MARKET = "a08d564afb14acd3fa86b004f899b2639942cd7cb5e0c9bed8f92fdf15e4033b"
const HASH = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
const order = `{"marketId":"${MARKET}","price":"123450000","size":"10","side":"SIDE_BUY","timeInForce":"TIME_IN_FORCE_GTC","expiresAt":"0","type":"TYPE_LIMIT","reference":"","peggedOrder":null,"postOnly":false,"reduceOnly":false}`

const restSuccess = `{"partyId":"${PARTY}","status":true,"hash":"${HASH}","statusDetail":"STATUS_SUCCESS","orderSubmission":${order},"success":{}}`
const restFailure = `{"partyId":"${PARTY}","status":false,"hash":"${HASH}","statusDetail":"STATUS_FAILURE","orderSubmission":${order},"failure":{"error":"margin check failed","errors":[]}}`

describe("TransactionResult", () => {
  it("decodes the REST form and writes it back byte for byte", () => {
    const ok = expectByteIdentical(TransactionResult.TransactionResult, restSuccess)
    expect(ok.status).toBe(true)
    expect(ok.statusDetail).toBe("STATUS_SUCCESS")
    expect(ok.orderSubmission?.size).toBe(10n)
    expect(Option.map(TransactionResult.command(ok), (c) => c._tag)).toEqual(Option.some("orderSubmission"))
    expect(TransactionResult.failureMessage(ok)).toEqual(Option.none())
    const failed = expectByteIdentical(TransactionResult.TransactionResult, restFailure)
    expect(TransactionResult.failureMessage(failed)).toEqual(Option.some("margin check failed"))
  })

  it("reads the stream form: enums as numbers, defaults and a false status omitted", () => {
    const streamed = {
      partyId: PARTY,
      hash: HASH,
      statusDetail: 3,
      orderSubmission: { marketId: MARKET, price: "123450000", size: "10", side: 1, timeInForce: 1, type: 1 },
      failure: { error: "margin check failed" }
    }
    const decoded = Schema.decodeUnknownSync(TransactionResult.TransactionResultStream)(streamed)
    // the REST form's empty `errors` is left out of the stream form
    const rest = Schema.decodeUnknownSync(TransactionResult.TransactionResult)(JSON.parse(restFailure))
    expect(decoded).toEqual({ ...rest, failure: { error: rest.failure!.error } })
    expect(JSON.parse(JSON.stringify(Schema.encodeSync(TransactionResult.TransactionResultStream)(decoded)))).toEqual(
      streamed
    )
  })

  it("reads a frame of the transaction-results stream", () => {
    const Frame = StreamForm.frame(TransactionResult.ObserveTransactionResultsResponse)
    const line = `{"result":{"transactionResults":[{"partyId":"${PARTY}","status":true,"hash":"${HASH}","statusDetail":1,"cancelTransfer":{"transferId":"${MARKET}"},"success":{}}]}}`
    const frame = Schema.decodeUnknownSync(Frame)(JSON.parse(line))
    expect("result" in frame && frame.result.transactionResults[0].cancelTransfer?.transferId).toBe(MARKET)
    expect(JSON.stringify(Schema.encodeSync(Frame)(frame))).toBe(line)
  })

  it("keeps the commands it does not model as received", () => {
    const json = JSON.parse(restSuccess)
    delete json.orderSubmission
    json.proposal = { reference: "p", terms: { closingTimestamp: "1" } }
    const decoded = Schema.decodeUnknownSync(TransactionResult.TransactionResult)(json)
    expect(decoded.proposal).toEqual({ reference: "p", terms: { closingTimestamp: "1" } })
    expect(TransactionResult.command(decoded)).toEqual(Option.none())
  })

  it("rejects a result that echoes two commands", () => {
    const json = JSON.parse(restSuccess)
    json.cancelTransfer = { transferId: MARKET }
    expect(decodeError(TransactionResult.TransactionResult, json)).toContain("oneof transaction may hold only one of")
  })

  it("round-trips generated results in both forms", () => {
    expectRoundTrips(TransactionResult.TransactionResult, 100)
    expectRoundTrips(TransactionResult.TransactionResultStream, 100)
  })
})
