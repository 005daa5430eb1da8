import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { Transaction } from "@vega-effect/schema"
import { decodeError, expectByteIdentical, expectRoundTrips } from "./utils.js"

const pubKey = "b5fd9d3c4ad553cb3196303b6e6df7f484cf7f5331a572a45031239fd71ad8a0"
const sig =
  "d1c497702086b54f98821e6cbbd9b3f3390d9531b10a23dabf155f9b5a7f371b8e49210d21ef3a399700c6d407ec50edcf4cc3cefe1657213e479d32bbaa520f"
const tid = "3b8399cdffee2686d75d1a96d22cd49cd11f62c93da20e72239895bfdaf4b772"

const submitBody = `{"tx":{"inputData":"CNIJEMCEPdI+AwoBYQ==","signature":{"value":"${sig}","algo":"vega/ed25519","version":1},"pubKey":"${pubKey}","version":"TX_VERSION_V3","pow":{"tid":"${tid}","nonce":"23845"}},"type":"TYPE_SYNC"}`

describe("Transaction", () => {
  it("writes a submit body exactly as the node reads it", () => {
    const request = expectByteIdentical(Transaction.SubmitTransactionRequest, submitBody)
    expect(request.type).toBe("TYPE_SYNC")
    expect(request.tx?.version).toBe("TX_VERSION_V3")
    expect(request.tx?.pow?.nonce).toBe(23845n)
    expect(Array.from(request.tx!.inputData.subarray(0, 2))).toEqual([0x08, 0xd2])
    expect(request.tx?.signature?.algo).toBe(Transaction.SIGNATURE_ALGORITHM)
  })

  it("reads what the node's JSON reader accepts: numbers for enums and uint64, missing fields as zero", () => {
    const request = Schema.decodeUnknownSync(Transaction.SubmitTransactionRequest)({
      tx: { inputData: "AQI=", pubKey, version: 3, pow: { tid, nonce: 7 } }
    })
    expect(request.type).toBe("TYPE_UNSPECIFIED")
    expect(request.tx?.version).toBe("TX_VERSION_V3")
    expect(request.tx?.signature).toBeUndefined()
    expect(request.tx?.pow?.nonce).toBe(7n)
    const empty = Schema.decodeUnknownSync(Transaction.Transaction)({ signature: null })
    expect(empty).toEqual({ inputData: new Uint8Array(0), version: "TX_VERSION_UNSPECIFIED" })
  })

  it("rejects malformed input with the path", () => {
    expect(decodeError(Transaction.SubmitTransactionRequest, { tx: { inputData: "%%%" } })).toContain('["inputData"]')
    expect(decodeError(Transaction.SubmitTransactionRequest, { tx: { pow: { nonce: "-1" } } })).toContain('["nonce"]')
  })

  it("decodes submit responses with their real meanings", () => {
    const ok = expectByteIdentical(
      Transaction.SubmitTransactionResponse,
      '{"success":true,"txHash":"A1B2C3D4E5F60718293A4B5C6D7E8F90A1B2C3D4E5F60718293A4B5C6D7E8F90","code":0,"data":"","log":"","height":"0"}'
    )
    expect(ok.success).toBe(true)
    expect(Transaction.sameTxHash(ok.txHash, ok.txHash.toLowerCase())).toBe(true)
    const spam = expectByteIdentical(
      Transaction.SubmitTransactionResponse,
      '{"success":false,"txHash":"","code":89,"data":"proof of work tid already used","log":"","height":"0"}'
    )
    expect(spam.code).toBe(Transaction.ResultCode.SpamError)
  })

  it("decodes check responses", () => {
    const res = expectByteIdentical(
      Transaction.CheckTransactionResponse,
      '{"success":false,"code":60,"gasWanted":"0","gasUsed":"0","data":"tx.signature.value (invalid signature)","log":"","info":""}'
    )
    expect(res.code).toBe(Transaction.ResultCode.TxnDecodingFailure)
  })

  it("round-trips generated values", () => {
    expectRoundTrips(Transaction.SubmitTransactionRequest, 100)
    expectRoundTrips(Transaction.SubmitRawTransactionRequest, 50)
    expectRoundTrips(Transaction.SubmitTransactionResponse, 100)
  })
})
