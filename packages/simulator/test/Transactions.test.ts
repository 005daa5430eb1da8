import { describe, expect, it } from "@effect/vitest"
import { Signature, TxEncoding } from "@vega-effect/crypto"
import { Simulator } from "@vega-effect/simulator"
import type { Transaction } from "@vega-effect/schema"
import { Effect } from "effect"
import {
  base64,
  buildTransaction,
  bytesOf,
  type Chain,
  chainOf,
  hashOf,
  key,
  order,
  post,
  profile,
  transactionJson
} from "./support/tx.js"

const postE = (url: string, path: string, body: unknown) => Effect.promise(() => post(url, path, body))
const chainE = (url: string) => Effect.promise(() => chainOf(url))

/** A simulator with an easy proof of work, and the chain as a wallet reads it. */
const start = (options: Simulator.Options = {}) =>
  Effect.gen(function* () {
    const sim = yield* Simulator.make({ seed: 5, ...options, spam: { difficulty: 2, ...options.spam } })
    const chain = yield* chainE(sim.url)
    return { sim, chain }
  })

const submitted = (hash: string, code: number, data: string, height = "0") =>
  JSON.stringify({ success: code === 0, txHash: hash, code, data, log: "", height })

const hex = (text: string) => Buffer.from(text, "utf8").toString("hex").toUpperCase()

const varint = (n: number): Array<number> => {
  const out: Array<number> = []
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80)
    n >>>= 7
  }
  out.push(n)
  return out
}

/** Rebuilds a transaction around other input data bytes (signed for them, with a fresh proof of work). */
const withInputData = (chain: Chain, tx: Transaction.Transaction, inputData: Uint8Array): Transaction.Transaction => ({
  ...tx,
  inputData,
  signature: Signature.signInputData(key(1), inputData, chain.chainId)
})

describe("submitting transactions", () => {
  it.scoped("/transaction accepts a wallet's transaction; the next block includes it and publishes its result", () =>
    Effect.gen(function* () {
      const { chain, sim } = yield* start()
      const tx = buildTransaction(chain, { key: key(1), command: profile("alice") })
      const hash = hashOf(bytesOf(tx))
      const blocks: Array<Simulator.BlockResults> = []
      sim.feed.subscribe((block) => blocks.push(block))

      const res = yield* postE(sim.url, "/transaction", { tx: transactionJson(tx), type: "TYPE_SYNC" })
      expect(res.status).toBe(200)
      expect(res.text).toBe(submitted(hash.toUpperCase(), 0, ""))
      expect(yield* sim.mempoolSize).toBe(1)

      yield* sim.advance(1)
      expect(yield* sim.mempoolSize).toBe(0)
      expect(blocks).toHaveLength(1)
      const [block] = blocks
      expect(block.height).toBe(Number(chain.height) + 1)
      expect(block.blockHash).toBe(sim.world.chain.blockHash(block.height))
      expect(block.timeMicros).toBe(sim.world.chain.blockTime(block.height))
      expect(block.results).toHaveLength(1)
      const { result, transaction } = block.results[0]
      expect(transaction).toEqual({
        hash,
        partyId: key(1).publicKey,
        command: profile("alice"),
        signature: tx.signature!.value,
        height: block.height,
        index: 0
      })
      expect(result.hash).toBe(hash)
      expect(result.partyId).toBe(key(1).publicKey)

      // a block without transactions is published too
      yield* sim.advance(1)
      expect(blocks.map((b) => b.results.length)).toEqual([1, 0])
    })
  )

  it.scoped("every node forwards to the one core", () =>
    Effect.gen(function* () {
      const sim = yield* Simulator.make({ seed: 5, spam: { difficulty: 2 }, nodes: [{}, { lag: 3 }] })
      const chain = yield* chainE(sim.urls[1])
      // the lagging node reports the core's height, not its own
      expect(chain.height).toBe(BigInt(sim.world.height))
      const tx = buildTransaction(chain, { key: key(1), command: profile("bob") })
      const first = yield* postE(sim.urls[1], "/transaction/raw", { tx: base64(bytesOf(tx)), type: "TYPE_SYNC" })
      expect(first.json.code).toBe(0)
      // the same bytes at the other node meet the same mempool
      const second = yield* postE(sim.urls[0], "/transaction/raw", { tx: base64(bytesOf(tx)), type: "TYPE_SYNC" })
      expect(second.status).toBe(500)
      expect(yield* sim.mempoolSize).toBe(1)
    })
  )

  it.scoped("the hash is of Go's re-marshalling for /transaction and of the bytes sent for /transaction/raw", () =>
    Effect.gen(function* () {
      const { chain, sim } = yield* start()
      const tx = buildTransaction(chain, { key: key(1), command: profile("carol") })
      const goBytes = bytesOf(tx)
      // JSON in another key order, with snake_case names: the core re-marshals it in field order
      const json = transactionJson(tx) as Record<string, unknown>
      const reordered = {
        pow: json.pow,
        version: json.version,
        pub_key: json.pubKey,
        signature: json.signature,
        input_data: json.inputData
      }
      const check = yield* postE(sim.url, "/transaction", { type: "TYPE_UNSPECIFIED", tx: reordered })
      expect(check.json.txHash).toBe(hashOf(goBytes).toUpperCase())

      // the raw route hashes the client's bytes: here Go's bytes plus a field the node skips (9999)
      const other = buildTransaction(chain, { key: key(1), command: profile("carol2") })
      const padded = Uint8Array.from([...bytesOf(other), ...varint((9999 << 3) | 0), 1])
      const raw = yield* postE(sim.url, "/transaction/raw", { tx: base64(padded), type: "TYPE_SYNC" })
      expect(raw.json.code).toBe(0)
      expect(raw.json.txHash).toBe(hashOf(padded).toUpperCase())
      expect(raw.json.txHash).not.toBe(hashOf(bytesOf(other)).toUpperCase())
    })
  )

  it.scoped("/transaction/raw honours its type", () =>
    Effect.gen(function* () {
      const { chain, sim } = yield* start()
      const raw = (tx: Transaction.Transaction, type?: string) =>
        postE(sim.url, "/transaction/raw", { tx: base64(bytesOf(tx)), ...(type === undefined ? {} : { type }) })

      // no type, or an unknown one: InvalidArgument, nothing submitted
      const good = buildTransaction(chain, { key: key(1), command: profile("dave") })
      for (const type of [undefined, "TYPE_UNSPECIFIED", 7 as unknown as string]) {
        const res = yield* raw(good, type)
        expect(res.status).toBe(400)
        expect(res.text).toBe(
          '{"code":3,"message":"InvalidArgument error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10000,"message":"Invalid TX Type","inner":""}]}'
        )
      }
      expect(yield* sim.mempoolSize).toBe(0)

      // ASYNC: code 0 without waiting, even for a transaction the checks then drop
      const badPow = buildTransaction(chain, { key: key(1), command: profile("eve"), invalidPow: true })
      const async = yield* raw(badPow, "TYPE_ASYNC")
      expect(async.text).toBe(submitted(hashOf(bytesOf(badPow)).toUpperCase(), 0, ""))
      expect(yield* sim.mempoolSize).toBe(0)
      const asyncGood = yield* raw(good, "TYPE_ASYNC")
      expect(asyncGood.json.code).toBe(0)
      expect(yield* sim.mempoolSize).toBe(1)

      // SYNC: the check's code, with `data` as uppercase hex of the text
      const other = buildTransaction(chain, { key: key(2), command: profile("frank"), invalidPow: true })
      const sync = yield* raw(other, "TYPE_SYNC")
      expect(sync.text).toBe(
        submitted(TxEncoding.txHash(bytesOf(other)).toUpperCase(), 89, hex("failed to verify proof of work"))
      )

      // COMMIT: answers once a block includes the transaction, with that block's height
      const committed = buildTransaction(chain, { key: key(3), command: profile("grace") })
      const pending = Effect.runPromise(raw(committed, "TYPE_COMMIT"))
      let settled = false
      void pending.then(() => (settled = true))
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 50)))
      expect(settled).toBe(false)
      yield* sim.advance(1)
      const commit = yield* Effect.promise(() => pending)
      expect(commit.text).toBe(
        submitted(hashOf(bytesOf(committed)).toUpperCase(), 0, "", String(Number(chain.height) + 1))
      )
      // a COMMIT that fails its check answers at once, height 0
      const rejected = buildTransaction(chain, { key: key(3), command: profile("heidi"), chainId: "other-chain" })
      const commitRejected = yield* raw(rejected, "TYPE_COMMIT")
      expect(commitRejected.text).toBe(
        submitted(hashOf(bytesOf(rejected)).toUpperCase(), 60, hex("tx.signature.value (invalid signature)"))
      )
    })
  )

  it.scoped("the same bytes while in the mempool: HTTP 500 from the cache; once committed: hash already used", () =>
    Effect.gen(function* () {
      const { chain, sim } = yield* start()
      const tx = buildTransaction(chain, { key: key(1), command: profile("ivan") })
      const body = { tx: transactionJson(tx) }
      expect((yield* postE(sim.url, "/transaction", body)).json.code).toBe(0)
      for (const [path, request] of [
        ["/transaction", body],
        ["/transaction/raw", { tx: base64(bytesOf(tx)), type: "TYPE_SYNC" }],
        ["/transaction/raw", { tx: base64(bytesOf(tx)), type: "TYPE_ASYNC" }]
      ] as const) {
        const again = yield* postE(sim.url, path, request)
        expect(again.status).toBe(500)
        expect(again.text).toBe(
          '{"code":13,"message":"Internal error","details":[{"@type":"type.googleapis.com/vega.ErrorDetail","code":10000,"message":"tx already exists in cache","inner":""}]}'
        )
      }
      // a check does not consult the cache
      expect((yield* postE(sim.url, "/transaction/check", body)).json.data).toBe(
        "proof of work tid already seen by the node"
      )
      yield* sim.advance(1)
      const replay = yield* postE(sim.url, "/transaction", body)
      expect(replay.text).toBe(submitted(hashOf(bytesOf(tx)).toUpperCase(), 89, "transaction hash already used"))
    })
  )

  it.scoped("checks answer without entering the mempool, but the transaction id counts as seen", () =>
    Effect.gen(function* () {
      const { chain, sim } = yield* start()
      const tx = buildTransaction(chain, { key: key(1), command: profile("judy") })
      const check = yield* postE(sim.url, "/transaction/check", { tx: transactionJson(tx) })
      expect(check.text).toBe('{"success":true,"code":0,"gasWanted":"1","gasUsed":"0","data":"","log":"","info":""}')
      expect(yield* sim.mempoolSize).toBe(0)
      const submit = yield* postE(sim.url, "/transaction", { tx: transactionJson(tx) })
      expect(submit.json.data).toBe("proof of work tid already seen by the node")
      // the seen ids are forgotten at the next block
      yield* sim.advance(1)
      expect((yield* postE(sim.url, "/transaction", { tx: transactionJson(tx) })).json.code).toBe(0)

      const raw = buildTransaction(chain, { key: key(2), command: profile("ken") })
      const rawCheck = yield* postE(sim.url, "/transaction/raw/check", { tx: base64(bytesOf(raw)) })
      expect(rawCheck.json).toEqual({
        success: true,
        code: 0,
        gasWanted: "1",
        gasUsed: "0",
        data: "",
        log: "",
        info: ""
      })
      const bad = buildTransaction(chain, { key: key(2), command: profile("ken"), chainId: "elsewhere" })
      const badCheck = yield* postE(sim.url, "/transaction/raw/check", { tx: base64(bytesOf(bad)) })
      // the check routes write `data` as plain text
      expect(badCheck.text).toBe(
        '{"success":false,"code":60,"gasWanted":"0","gasUsed":"0","data":"tx.signature.value (invalid signature)","log":"","info":""}'
      )
    })
  )
})

describe("decoding (code 60)", () => {
  const expectRejected = (sim: Simulator.Service, tx: unknown, data: string): Effect.Effect<void> =>
    Effect.gen(function* () {
      const res = yield* postE(sim.url, "/transaction", { tx })
      expect(res.status).toBe(200)
      // the node could not marshal what it never accepted: no hash
      expect(res.text).toBe(submitted("", 60, data))
      const check = yield* postE(sim.url, "/transaction/check", { tx })
      expect(check.json.code).toBe(60)
      expect(check.json.data).toBe(data)
    })

  it.scoped("reports each decoding failure with the node's text, in the node's order", () =>
    Effect.gen(function* () {
      const { chain, sim } = yield* start()
      const tx = buildTransaction(chain, { key: key(1), command: profile("leo") })
      const json = transactionJson(tx) as Record<string, any>
      const { pubKey, version, ...rest } = json
      void pubKey
      void version

      yield* expectRejected(sim, undefined, "tx (is required)")
      yield* expectRejected(sim, { ...json, version: undefined }, "tx.version (is required)")
      yield* expectRejected(sim, { ...json, version: "TX_VERSION_UNSPECIFIED" }, "tx.version (is required)")
      yield* expectRejected(sim, { ...json, version: 1 }, "tx.version (is not supported)")
      yield* expectRejected(sim, { ...json, version: 4 }, "tx.version (is not supported)")
      // version comes before the sender
      yield* expectRejected(sim, rest, "tx.version (is required)")
      yield* expectRejected(sim, { ...json, pubKey: undefined }, "tx.from (is required)")
      // a nested `from` is an unknown key, ignored
      yield* expectRejected(sim, { ...json, pubKey: undefined, from: { pubKey: json.pubKey } }, "tx.from (is required)")
      yield* expectRejected(sim, { ...json, pubKey: undefined, address: "0xabc" }, "tx.from.pub_key (is required)")
      yield* expectRejected(sim, { ...json, pubKey: "" }, "tx.from.pub_key (is required)")
      yield* expectRejected(sim, { ...json, pubKey: "abc" }, "tx.from.pub_key (should be a valid Vega public key)")
      yield* expectRejected(sim, { ...json, inputData: "" }, "tx.input_data (is required)")
      yield* expectRejected(
        sim,
        { ...json, inputData: base64(Uint8Array.from([0x0a, 0x05, 0x01])) },
        "tx.input_data (proto: cannot parse invalid wire-format data)"
      )
      const input = (bytes: Array<number>) =>
        transactionJson(withInputData(chain, tx, Uint8Array.from(bytes))) as Record<string, unknown>
      const height = varint(Number(chain.height))
      // no command, nonce 0: both reported, sorted
      yield* expectRejected(
        sim,
        input([0x10, ...height]),
        "tx.input_data.command (is required), tx.input_data.nonce (must be positive)"
      )
      // an unknown member of the oneof is skipped: no command
      yield* expectRejected(
        sim,
        input([0x08, 0x07, 0x10, ...height, ...varint((1500 << 3) | 2), 0]),
        "tx.input_data.command (is required)"
      )
      // a proposal: a command this simulator does not take
      yield* expectRejected(
        sim,
        input([0x08, 0x07, 0x10, ...height, ...varint((1005 << 3) | 2), 0]),
        "tx.input_data.command (is not supported)"
      )
      // a nonce of 0 with a valid command
      const zeroNonce = buildTransaction(chain, { key: key(1), command: profile("leo"), nonce: 0n })
      yield* expectRejected(sim, transactionJson(zeroNonce), "tx.input_data.nonce (must be positive)")
      // an invalid command, and a bad signature: the command is reported
      const badOrder = buildTransaction(chain, { key: key(1), command: order("nothex"), chainId: "elsewhere" })
      yield* expectRejected(sim, transactionJson(badOrder), "order_submission.market_id (should be a valid Vega ID)")

      yield* expectRejected(sim, { ...json, signature: undefined }, "tx.signature (is required)")
      yield* expectRejected(
        sim,
        { ...json, signature: { ...json.signature, value: "zz" } },
        "tx.signature.value (should be hex encoded)"
      )
      yield* expectRejected(
        sim,
        { ...json, signature: { ...json.signature, value: "abc" } },
        "tx.signature.value (should be hex encoded)"
      )
      const unsupported = "tx.signature.algo (unsupported algorithm), tx.signature.version (unsupported algorithm)"
      yield* expectRejected(sim, { ...json, signature: { ...json.signature, algo: "vega/ed448" } }, unsupported)
      yield* expectRejected(sim, { ...json, signature: { ...json.signature, version: 2 } }, unsupported)
      const other = buildTransaction(chain, { key: key(2), command: profile("leo") })
      yield* expectRejected(
        sim,
        { ...json, signature: (transactionJson(other) as any).signature },
        "tx.signature.value (invalid signature)"
      )
      yield* expectRejected(
        sim,
        { ...json, signature: { ...json.signature, value: "" } },
        "tx.signature.value (invalid signature)"
      )
      expect(yield* sim.mempoolSize).toBe(0)
      // the untouched transaction still passes
      expect((yield* postE(sim.url, "/transaction", { tx: json })).json.code).toBe(0)
    })
  )

  it.scoped("binds version 3 to the chain id; version 2 is not bound", () =>
    Effect.gen(function* () {
      const { chain, sim } = yield* start()
      const foreign = buildTransaction(chain, { key: key(1), command: profile("mia"), chainId: "vega-mainnet-0011" })
      const res = yield* postE(sim.url, "/transaction", { tx: transactionJson(foreign) })
      expect(res.text).toBe(submitted("", 60, "tx.signature.value (invalid signature)"))
      const v2 = buildTransaction(chain, { key: key(1), command: profile("mia"), version: 2, chainId: "any-chain" })
      const accepted = yield* postE(sim.url, "/transaction", { tx: transactionJson(v2) })
      expect(accepted.json.code).toBe(0)
      // but a version 2 signature presented as version 3 does not verify
      const relabelled = { ...v2, version: "TX_VERSION_V3" as const }
      const wrong = yield* postE(sim.url, "/transaction", { tx: transactionJson(relabelled) })
      expect(wrong.json.data).toBe("tx.signature.value (invalid signature)")
    })
  )

  it.scoped("raw bytes that do not unmarshal, and raw rejections, carry the hash of the bytes", () =>
    Effect.gen(function* () {
      const { chain, sim } = yield* start()
      const garbage = Uint8Array.from([0x0a, 0xff])
      const res = yield* postE(sim.url, "/transaction/raw", { tx: base64(garbage), type: "TYPE_SYNC" })
      expect(res.text).toBe(
        submitted(
          hashOf(garbage).toUpperCase(),
          60,
          hex("unable to unmarshal transaction: proto: cannot parse invalid wire-format data")
        )
      )
      // no bytes at all unmarshal to an empty transaction
      const empty = yield* postE(sim.url, "/transaction/raw", { type: "TYPE_SYNC" })
      expect(empty.json.txHash).toBe(hashOf(new Uint8Array(0)).toUpperCase())
      expect(Buffer.from(empty.json.data, "hex").toString()).toBe("tx.version (is required)")
      const foreign = buildTransaction(chain, { key: key(1), command: profile("nia"), chainId: "elsewhere" })
      const raw = yield* postE(sim.url, "/transaction/raw", { tx: base64(bytesOf(foreign)), type: "TYPE_SYNC" })
      expect(raw.json.txHash).toBe(hashOf(bytesOf(foreign)).toUpperCase())
    })
  )
})

describe("request bodies", () => {
  it.scoped("are read like the gateway's jsonpb: errors are its 400s, unknown keys are ignored", () =>
    Effect.gen(function* () {
      const { chain, sim } = yield* start()
      const tx = transactionJson(buildTransaction(chain, { key: key(1), command: profile("olga") })) as Record<
        string,
        any
      >
      const gatewayError = (message: string) => JSON.stringify({ code: 3, message, details: [] })
      const cases: ReadonlyArray<readonly [string, string, unknown]> = [
        ["/transaction", "unexpected EOF", '{"tx":'],
        ["/transaction", "invalid character 'x' looking for beginning of value", "x"],
        ["/transaction", "json: cannot unmarshal array into Go value of type map[string]json.RawMessage", "[]"],
        ["/transaction", "json: cannot unmarshal array into Go value of type map[string]json.RawMessage", { tx: [] }],
        [
          "/transaction",
          'unknown value "\\"TX_VERSION_V9\\"" for enum vega.commands.v1.TxVersion',
          { tx: { ...tx, version: "TX_VERSION_V9" } }
        ],
        ["/transaction", "illegal base64 data at input byte 0", { tx: { ...tx, inputData: "!!!!" } }],
        ["/transaction", "illegal base64 data at input byte 4", { tx: { ...tx, inputData: "AAAAA" } }],
        ["/transaction", "json: cannot unmarshal number into Go value of type string", { tx: { ...tx, pubKey: 12 } }],
        [
          "/transaction",
          "invalid character 'a' looking for beginning of value",
          { tx: { ...tx, pow: { ...tx.pow, nonce: "abc" } } }
        ],
        [
          "/transaction",
          "json: cannot unmarshal number -1 into Go value of type uint64",
          { tx: { ...tx, pow: { ...tx.pow, nonce: -1 } } }
        ],
        [
          "/transaction",
          "json: cannot unmarshal number 18446744073709551616 into Go value of type uint64",
          { tx: { ...tx, pow: { ...tx.pow, nonce: "18446744073709551616" } } }
        ],
        [
          "/transaction",
          "json: cannot unmarshal number 1.5 into Go value of type uint32",
          { tx: { ...tx, signature: { ...tx.signature, version: 1.5 } } }
        ],
        [
          "/transaction",
          'unknown value "\\"TYPE_NOW\\"" for enum vega.api.v1.SubmitTransactionRequest.Type',
          { tx, type: "TYPE_NOW" }
        ],
        ["/transaction/raw", "illegal base64 data at input byte 0", { tx: "A", type: "TYPE_SYNC" }],
        ["/transaction/raw", "illegal base64 data at input byte 2", { tx: "AA=A", type: "TYPE_SYNC" }],
        [
          "/transaction/raw",
          'unknown value "\\"SYNC\\"" for enum vega.api.v1.SubmitRawTransactionRequest.Type',
          { tx: "", type: "SYNC" }
        ],
        ["/transaction/raw/check", "json: cannot unmarshal bool into Go value of type []uint8", { tx: true }],
        [
          "/transaction/check",
          "json: cannot unmarshal string into Go value of type map[string]json.RawMessage",
          { tx: "x" }
        ]
      ]
      for (const [path, message, body] of cases) {
        const res = yield* postE(sim.url, path, body)
        expect([path, res.status, res.text]).toEqual([path, 400, gatewayError(message)])
      }
      expect(yield* sim.mempoolSize).toBe(0)

      // unknown keys are ignored, the nonce may be a number, the version a number, null is absent
      const lenient = {
        tx: { ...tx, pow: { ...tx.pow, nonce: Number(tx.pow.nonce) }, version: 3, address: null, extra: [1] },
        type: 2,
        more: { deep: true }
      }
      const res = yield* postE(sim.url, "/transaction", lenient)
      expect(res.json.code).toBe(0)
    })
  )
})

describe("network limits (51) and command handlers (70)", () => {
  it.scoped("trading disabled: order commands fail with 51 after the proof of work is checked", () =>
    Effect.gen(function* () {
      const { chain, sim } = yield* start({ tradingEnabled: false })
      const market = sim.world.catalog.markets[0].id
      const tx = buildTransaction(chain, { key: key(1), command: order(market) })
      const res = yield* postE(sim.url, "/transaction", { tx: transactionJson(tx) })
      expect(res.text).toBe(submitted(hashOf(bytesOf(tx)).toUpperCase(), 51, "trading disabled"))
      // spam checks come first
      const badPow = buildTransaction(chain, { key: key(1), command: order(market), invalidPow: true })
      const spam = yield* postE(sim.url, "/transaction/check", { tx: transactionJson(badPow) })
      expect(spam.json).toMatchObject({ code: 89, data: "failed to verify proof of work" })
      // other commands are not limited
      const other = buildTransaction(chain, { key: key(1), command: profile("pia") })
      expect((yield* postE(sim.url, "/transaction", { tx: transactionJson(other) })).json.code).toBe(0)
      yield* sim.setTradingEnabled(true)
      const again = buildTransaction(chain, { key: key(1), command: order(market) })
      expect((yield* postE(sim.url, "/transaction", { tx: transactionJson(again) })).json.code).toBe(0)
    })
  )

  it.scoped("an order or a liquidity provision on a market that does not exist fails with 70", () =>
    Effect.gen(function* () {
      const { chain, sim } = yield* start()
      const unknown = "ab".repeat(32)
      const orderTx = buildTransaction(chain, { key: key(1), command: order(unknown) })
      const res = yield* postE(sim.url, "/transaction", { tx: transactionJson(orderTx) })
      expect(res.text).toBe(submitted(hashOf(bytesOf(orderTx)).toUpperCase(), 70, "invalid market ID"))
      const lp = buildTransaction(chain, {
        key: key(1),
        command: {
          _tag: "liquidityProvisionSubmission",
          value: { marketId: unknown, commitmentAmount: "1000", fee: "0.01", reference: "" }
        }
      })
      expect((yield* postE(sim.url, "/transaction/check", { tx: transactionJson(lp) })).json).toMatchObject({
        code: 70,
        data: "invalid market ID",
        gasWanted: "0"
      })
      const amend = buildTransaction(chain, {
        key: key(1),
        command: {
          _tag: "liquidityProvisionAmendment",
          value: { marketId: unknown, commitmentAmount: "1000", fee: "0.01", reference: "" }
        }
      })
      expect((yield* postE(sim.url, "/transaction", { tx: transactionJson(amend) })).json.data).toBe(
        "invalid market ID"
      )
      // the market's id as the catalog has it passes; the engine's lookup is case-sensitive
      const market = sim.world.catalog.markets[0].id
      const known = buildTransaction(chain, { key: key(1), command: order(market) })
      expect((yield* postE(sim.url, "/transaction", { tx: transactionJson(known) })).json.code).toBe(0)
      const upper = buildTransaction(chain, { key: key(1), command: order(market.toUpperCase()) })
      const upperRes = yield* postE(sim.url, "/transaction", { tx: transactionJson(upper) })
      expect(upperRes.json).toMatchObject({ code: 70, data: "invalid market ID" })
      // a cancellation has no CheckTx handler: an unknown order is only refused in its block
      const cancel = buildTransaction(chain, {
        key: key(1),
        command: { _tag: "orderCancellation", value: { orderId: "cd".repeat(32), marketId: unknown } }
      })
      expect((yield* postE(sim.url, "/transaction", { tx: transactionJson(cancel) })).json.code).toBe(0)
    })
  )
})
