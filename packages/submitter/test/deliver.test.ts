import { describe, expect, it } from "@effect/vitest"
import { HttpClient, HttpClientError, HttpClientResponse } from "@effect/platform"
import { Clock, Duration, Effect, Fiber, HashMap, Logger, TestClock } from "effect"
import { DataNodeClient, RetryPolicy } from "@vega-effect/http"
import { IN_CACHE, post, type Signed } from "../src/internal/deliver.js"
import { deliver, HASH_USED, isStaleHeight, type Offering, PROBE_BACKOFF, probe } from "../src/internal/offer.js"
import type { ResultWatcher } from "../src/internal/resultWatcher.js"

const signed: Signed = {
  transaction: {
    inputData: new Uint8Array([8, 1]),
    signature: { value: "ab".repeat(64), algo: "vega/ed25519", version: 1 },
    pubKey: "cd".repeat(32),
    version: "TX_VERSION_V3",
    pow: { tid: "ef".repeat(32), nonce: 7n }
  },
  bytes: new Uint8Array([1, 2, 3]),
  txHash: "01".repeat(32),
  powHeight: 10n,
  deterministicId: "23".repeat(32)
}

/** A client answering every request with one response (or failure), recording what was sent. */
const clientOf = (answer: () => Response | { readonly code: string } | { readonly cause: unknown }) => {
  const sent: Array<{ url: string; body: unknown }> = []
  const client = HttpClient.make((request) => {
    const body = request.body._tag === "Uint8Array" ? JSON.parse(new TextDecoder().decode(request.body.body)) : null
    sent.push({ url: request.url, body })
    const a = answer()
    if (a instanceof Response) return Effect.succeed(HttpClientResponse.fromWeb(request, a))
    const cause = "cause" in a ? a.cause : Object.assign(new Error("connect"), a)
    return Effect.fail(
      new HttpClientError.RequestError({
        request,
        reason: "Transport",
        cause: new TypeError("fetch failed", { cause })
      })
    )
  })
  return { client, sent }
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

const submitted = (code: number, data = "") =>
  json(200, { success: code === 0, txHash: "01".repeat(32).toUpperCase(), code, data, log: "", height: "0" })

/** `post` through a data-node client over `http` (one node, no pacing). */
const postWith = (
  http: HttpClient.HttpClient,
  mode: "sync" | "async" | "commit" | "check",
  timeout: Duration.Duration
) =>
  Effect.gen(function* () {
    const client = yield* DataNodeClient.make({ urls: "http://node", rateLimit: false })
    return yield* post(client.execute, signed, mode, timeout)
  }).pipe(Effect.provideService(HttpClient.HttpClient, http), Effect.scoped)

const run = (
  answer: () => Response | { readonly code: string } | { readonly cause: unknown },
  mode: "sync" | "async" | "commit" | "check" = "sync"
) => {
  const { client, sent } = clientOf(answer)
  return Effect.runPromise(postWith(client, mode, Duration.seconds(1))).then((a) => ({ a, sent }))
}

describe("deliver.post", () => {
  it("sends the JSON transaction to /transaction in sync mode", async () => {
    const { a, sent } = await run(() => submitted(0))
    expect(a).toEqual({ _tag: "Accepted", node: "http://node", height: 0n, gasWanted: 0n })
    expect(sent[0].url).toBe("http://node/transaction")
    expect(sent[0].body).toEqual({
      tx: {
        inputData: "CAE=",
        signature: { value: "ab".repeat(64), algo: "vega/ed25519", version: 1 },
        pubKey: "cd".repeat(32),
        version: "TX_VERSION_V3",
        pow: { tid: "ef".repeat(32), nonce: "7" }
      },
      type: "TYPE_SYNC"
    })
  })

  it("sends the bytes to /transaction/raw in async and commit modes, and reads hex data", async () => {
    const asyncMode = await run(() => submitted(0), "async")
    expect(asyncMode.sent[0]).toEqual({ url: "http://node/transaction/raw", body: { tx: "AQID", type: "TYPE_ASYNC" } })
    const text = "tx.signature.value (invalid signature)"
    const commit = await run(() => submitted(60, Buffer.from(text).toString("hex").toUpperCase()), "commit")
    expect(commit.sent[0].body).toEqual({ tx: "AQID", type: "TYPE_COMMIT" })
    expect(commit.a).toEqual({ _tag: "Rejected", node: "http://node", code: 60, message: text })
  })

  it("keeps the node's text for a rejection", async () => {
    const { a } = await run(() => submitted(89, "proof of work tid already used"))
    expect(a).toEqual({ _tag: "Rejected", node: "http://node", code: 89, message: "proof of work tid already used" })
  })

  it("tells the mempool cache from other internal errors", async () => {
    const cache = await run(() =>
      json(500, {
        code: 13,
        message: "Internal error",
        details: [
          {
            "@type": "type.googleapis.com/vega.ErrorDetail",
            code: 10000,
            message: "tx already exists in cache",
            inner: ""
          }
        ]
      })
    )
    expect(cache.a._tag).toBe("InCache")
    const other = await run(() => json(500, { code: 13, message: "Internal error", details: [] }))
    expect(other.a._tag).toBe("Unknown")
  })

  it("counts a refused connection and a gateway 429 as not delivered, a reset as unknown", async () => {
    expect((await run(() => ({ code: "ECONNREFUSED" }))).a._tag).toBe("NotSent")
    expect((await run(() => json(429, { code: 8, message: "rate limited", details: [] }))).a._tag).toBe("NotSent")
    expect((await run(() => ({ code: "ECONNRESET" }))).a._tag).toBe("Unknown")
    expect((await run(() => json(503, { code: 14, message: "Unavailable", details: [] }))).a._tag).toBe("Unknown")
  })

  it("counts every socket error raised before a connection exists as not delivered", async () => {
    for (const code of ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]) {
      expect({ code, tag: (await run(() => ({ code }))).a._tag }).toEqual({ code, tag: "NotSent" })
    }
  })

  it("reports a refused request (400) as such", async () => {
    const { a } = await run(() => json(400, { code: 3, message: "Invalid TX Type", details: [] }))
    expect(a).toEqual({ _tag: "Refused", node: "http://node", status: 400, message: "Invalid TX Type" })
  })

  it("times out into an unknown outcome", async () => {
    const client = HttpClient.make(() => Effect.never)
    const a = await Effect.runPromise(postWith(client, "sync", Duration.millis(20)))
    expect(a._tag).toBe("Unknown")
  })

  it("reads a check answer with its gas", async () => {
    const { a, sent } = await run(
      () => json(200, { success: true, code: 0, gasWanted: "42", gasUsed: "0", data: "", log: "", info: "" }),
      "check"
    )
    expect(sent[0].url).toBe("http://node/transaction/check")
    expect(a).toEqual({ _tag: "Accepted", node: "http://node", height: 0n, gasWanted: 42n })
  })

  it("reads every rejection text of a check and of a raw submission, and keeps text that is not hex", async () => {
    const check = (data: string, log: string, info: string) =>
      run(() => json(200, { success: false, code: 60, gasWanted: "0", gasUsed: "0", data, log, info }), "check")
    expect((await check("the data", "the log", "the info")).a).toEqual({
      _tag: "Rejected",
      node: "http://node",
      code: 60,
      message: "the data"
    })
    expect((await check("", "the log", "the info")).a).toMatchObject({ message: "the log" })
    expect((await check("", "", "the info")).a).toMatchObject({ message: "the info" })
    for (const data of ["not hex", "ABC"]) {
      expect((await run(() => submitted(60, data), "async")).a).toMatchObject({ message: data })
    }
  })

  it("calls an answer it cannot read unknown, with its start", async () => {
    const text = `{"unexpected":"${"x".repeat(200)}"}`
    for (const mode of ["sync", "check"] as const) {
      const { a } = await run(() => new Response(text, { status: 200 }), mode)
      expect(a).toEqual({
        _tag: "Unknown",
        node: "http://node",
        description: `unexpected answer: ${text.slice(0, 120)}`
      })
    }
    const page = `<html>${"y".repeat(300)}</html>`
    const { a } = await run(() => new Response(page, { status: 502 }))
    expect(a).toEqual({ _tag: "Unknown", node: "http://node", description: `HTTP 502: ${page.slice(0, 200)}` })
  })

  it("joins the node's words without empty parts, and sorts statuses", async () => {
    const error = (status: number, message: string) =>
      json(status, {
        code: 3,
        message: "Invalid TX",
        details: [{ "@type": "type.googleapis.com/vega.ErrorDetail", code: 1, message, inner: "" }]
      })
    expect((await run(() => error(400, "bad"))).a).toEqual({
      _tag: "Refused",
      node: "http://node",
      status: 400,
      message: "Invalid TX: bad"
    })
    // only a 500 is the mempool cache
    expect((await run(() => error(400, "tx already exists in cache"))).a._tag).toBe("Refused")
    expect((await run(() => error(403, "banned"))).a).toEqual({
      _tag: "NotSent",
      node: "http://node",
      description: "HTTP 403: Invalid TX: banned"
    })
    expect((await run(() => error(408, "late"))).a).toEqual({
      _tag: "Unknown",
      node: "http://node",
      description: "HTTP 408: Invalid TX: late"
    })
    expect((await run(() => error(302, "moved"))).a._tag).toBe("Unknown")
  })

  it("looks into a connection's causes: every address refused, not too deep, never round in circles", async () => {
    const refused = () => Object.assign(new Error("refused"), { code: "ECONNREFUSED" })
    const every = new AggregateError([refused(), refused()], "connect")
    expect((await run(() => ({ cause: every }))).a._tag).toBe("NotSent")
    const some = new AggregateError([refused(), new Error("reset")], "connect")
    expect((await run(() => ({ cause: some }))).a._tag).toBe("Unknown")
    expect((await run(() => ({ cause: new AggregateError([], "connect") }))).a._tag).toBe("Unknown")
    // the code 8 causes down (the request error and fetch's TypeError are the first two)
    let deep: unknown = refused()
    for (let i = 0; i < 6; i++) deep = new Error("wrapped", { cause: deep })
    expect((await run(() => ({ cause: deep }))).a._tag).toBe("Unknown")
    const loop: { cause?: unknown } = new Error("loop")
    loop.cause = loop
    expect((await run(() => ({ cause: loop }))).a._tag).toBe("Unknown")
  })

  it("says how long it waited for an answer that did not come", async () => {
    const a = await Effect.runPromise(
      postWith(
        HttpClient.make(() => Effect.never),
        "sync",
        Duration.millis(20)
      )
    )
    expect(a).toEqual({ _tag: "Unknown", node: "http://node", description: "no answer within 20ms" })
  })
})

/**
 * An offering whose node gives the scripted answers in turn (the last one again when they run out),
 * recording the path and the test clock's time of each request.
 */
const scripted = (
  answers: ReadonlyArray<{ readonly status: number; readonly body: unknown }>,
  seen = false,
  probes = 3
) => {
  let calls = 0
  const paths: Array<string> = []
  const times: Array<number> = []
  const execute: Offering["execute"] = (request) =>
    Effect.map(Clock.currentTimeMillis, (now) => {
      paths.push(request.url)
      times.push(now)
      const { body, status } = answers[Math.min(calls++, answers.length - 1)]
      return { node: "http://node", path: "/transaction", status, headers: {}, text: JSON.stringify(body) }
    })
  const watcher = { seen: () => seen } as unknown as ResultWatcher
  const offering: Offering = { execute, watcher, probes, timeout: Duration.seconds(1), nodes: 2 }
  return { offering, calls: () => calls, paths, times }
}

const answer = (code: number, data = "") => ({
  status: 200,
  body: { success: code === 0, txHash: "01", code, data, log: "", height: "12" }
})
const rateLimited = { status: 429, body: { code: 8, message: "rate limited", details: [] } }
const unavailable = { status: 503, body: { code: 14, message: "Unavailable", details: [] } }
const inCache = {
  status: 500,
  body: {
    code: 13,
    message: "Internal error",
    details: [{ "@type": "type.googleapis.com/vega.ErrorDetail", code: 10000, message: IN_CACHE, inner: "" }]
  }
}
const refused = { status: 400, body: { code: 3, message: "Invalid TX Type", details: [] } }

/** Runs an offer to its end on the test clock (probes wait 100 ms, 200 ms, ... up to 1 s). */
const settle = <A>(effect: Effect.Effect<A>) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.fork(effect)
    yield* TestClock.adjust("1 minute")
    return yield* Fiber.join(fiber)
  })

describe("offer", () => {
  it("knows a stale proof-of-work height by its code and text", () => {
    const rejected = (code: number, message: string) => ({ _tag: "TransactionRejected", code, message })
    expect(isStaleHeight(rejected(89, "unknown block height for tx pow"))).toBe(true)
    expect(isStaleHeight(rejected(89, "transaction too old"))).toBe(true)
    expect(isStaleHeight(rejected(89, "transaction hash already used"))).toBe(false)
    expect(isStaleHeight(rejected(60, "transaction too old"))).toBe(false)
    expect(isStaleHeight({ _tag: "OutcomeUnknown", code: 89, message: "transaction too old" })).toBe(false)
  })

  it.effect("tries each node once while nothing was delivered, then probes", () =>
    Effect.gen(function* () {
      const { offering, paths } = scripted([rateLimited, rateLimited, answer(0)])
      const settled = yield* settle(deliver(offering, signed, "async"))
      // two first offers (one per node) in the asked mode, then a probe through /transaction
      expect(paths).toEqual(["/transaction/raw", "/transaction/raw", "/transaction"])
      expect(settled._tag === "Accepted" && settled.accepted).toMatchObject({ height: 12n, alreadyKnown: false })
      const first = scripted([rateLimited, answer(0)])
      const direct = yield* settle(deliver(first.offering, signed, "sync"))
      expect(first.calls()).toBe(2)
      expect(direct._tag === "Accepted" && direct.accepted.alreadyKnown).toBe(false)
    })
  )

  it.effect("an accepted first offer or probe is new, not already known", () =>
    Effect.gen(function* () {
      const once = scripted([answer(0)])
      const accepted = yield* deliver(once.offering, signed, "sync")
      expect(once.calls()).toBe(1)
      expect(accepted._tag === "Accepted" && accepted.accepted).toMatchObject({ height: 12n, alreadyKnown: false })
      const probed = yield* settle(deliver(scripted([unavailable, answer(0)]).offering, signed, "sync"))
      expect(probed._tag === "Accepted" && probed.accepted).toMatchObject({ height: 12n, alreadyKnown: false })
    })
  )

  it.effect("probes again while the tid was seen, and gives up after its probes with the last words", () =>
    Effect.gen(function* () {
      const tidSeen = answer(89, "proof of work tid already seen by the node")
      const again = scripted([unavailable, tidSeen, answer(0)])
      const settled = yield* settle(deliver(again.offering, signed, "sync"))
      expect(settled._tag).toBe("Accepted")
      expect(again.calls()).toBe(3)
      const never = scripted([unavailable])
      const unknown = yield* settle(deliver(never.offering, signed, "sync"))
      expect(never.calls()).toBe(4)
      expect(unknown._tag === "Failed" && unknown.error.message).toBe(
        "could not find out whether the transaction reached a node: HTTP 503: Unavailable"
      )
      const silent = yield* settle(probe(scripted([{ status: 502, body: "" }]).offering, signed, "the first answer"))
      expect(silent._tag === "Failed" && silent.error.message).toContain("HTTP 502")
    })
  )

  it.effect("after a stale height, the results stream decides whether it was included", () =>
    Effect.gen(function* () {
      const stale = answer(89, "transaction too old")
      const known = yield* settle(deliver(scripted([unavailable, stale], true).offering, signed, "sync"))
      expect(known._tag === "Accepted" && known.accepted.alreadyKnown).toBe(true)
      const lost = yield* settle(deliver(scripted([unavailable, stale]).offering, signed, "sync"))
      expect(lost._tag === "Failed" && lost.error).toMatchObject({
        _tag: "OutcomeUnknown",
        message: "the node no longer knows whether it included the transaction: transaction too old"
      })
      const other = yield* settle(deliver(scripted([unavailable, answer(89, "spam policy")]).offering, signed, "sync"))
      expect(other._tag === "Failed" && other.error._tag).toBe("TransactionRejected")
    })
  )
  it.effect("offers once per node while nothing is delivered, then probes: exactly that many requests", () =>
    Effect.gen(function* () {
      // were the first offers not counted, the node's acceptance after 20 refusals would end them
      const never = scripted([...Array.from({ length: 20 }, () => rateLimited), answer(0)])
      const settled = yield* settle(deliver(never.offering, signed, "async"))
      expect(never.paths).toEqual([
        "/transaction/raw",
        "/transaction/raw",
        "/transaction",
        "/transaction",
        "/transaction"
      ])
      expect(settled._tag === "Failed" && settled.error).toMatchObject({
        _tag: "OutcomeUnknown",
        txHash: signed.txHash,
        message: "could not find out whether the transaction reached a node: HTTP 429: rate limited"
      })
    })
  )

  it.effect("gives up with the words of the last probe, not of the first offer", () =>
    Effect.gen(function* () {
      const lastWords = (probeAnswer: { readonly status: number; readonly body: unknown }) =>
        settle(deliver(scripted([unavailable, probeAnswer]).offering, signed, "sync")).pipe(
          Effect.map((settled) => settled._tag === "Failed" && settled.error.message)
        )
      const said = "could not find out whether the transaction reached a node"
      expect(yield* lastWords(rateLimited)).toBe(`${said}: HTTP 429: rate limited`)
      expect(yield* lastWords(answer(89, "proof of work tid already seen by the node"))).toBe(
        `${said}: proof of work tid already seen by the node`
      )
    })
  )

  it.effect("spaces probes by the doubling backoff up to its cap, without jitter, and stops after the last", () =>
    Effect.gen(function* () {
      const probes = 7
      const node = scripted([unavailable], false, probes)
      yield* settle(deliver(node.offering, signed, "sync"))
      // the n-th probe waits the n-th ceiling of the probe backoff after the answer before it
      let now = 0
      const expected = [now]
      for (let n = 0; n < probes; n++) expected.push((now += Duration.toMillis(RetryPolicy.ceiling(n, PROBE_BACKOFF))))
      expect(expected.at(-1)! - expected.at(-2)!).toBe(Duration.toMillis(PROBE_BACKOFF.max))
      expect(node.times).toEqual(expected)
    })
  )

  it.effect("warns, with the hash, the node and its words, before probing after an unknown outcome", () =>
    Effect.gen(function* () {
      const logs: Array<{ level: string; message: string; annotations: Record<string, unknown> }> = []
      const capture = Logger.make(({ annotations, logLevel, message }) => {
        const text = Array.isArray(message) ? message.join(" ") : String(message)
        logs.push({
          level: logLevel.label,
          message: text,
          annotations: Object.fromEntries(HashMap.toEntries(annotations))
        })
      })
      yield* settle(deliver(scripted([unavailable, answer(0)]).offering, signed, "sync")).pipe(
        Effect.provide(Logger.replace(Logger.defaultLogger, capture))
      )
      expect(logs).toEqual([
        {
          level: "WARN",
          message: "submission outcome unknown; offering the same transaction again",
          annotations: { txHash: signed.txHash, node: "http://node", description: "HTTP 503: Unavailable" }
        }
      ])
      // no warning when the first offer settles it
      yield* deliver(scripted([answer(0)]).offering, signed, "sync").pipe(
        Effect.provide(Logger.replace(Logger.defaultLogger, capture))
      )
      expect(logs).toHaveLength(1)
    })
  )

  it.effect("settles a first offer's answer exactly: accepted, in the mempool, rejected, refused", () =>
    Effect.gen(function* () {
      const first = (node: { readonly status: number; readonly body: unknown }) =>
        deliver(scripted([node]).offering, signed, "sync")
      expect(yield* first(answer(0))).toEqual({
        _tag: "Accepted",
        accepted: {
          txHash: signed.txHash,
          powHeight: signed.powHeight,
          height: 12n,
          node: "http://node",
          alreadyKnown: false,
          deterministicId: signed.deterministicId
        }
      })
      const cached = yield* first(inCache)
      expect(cached._tag === "Failed" && cached.error).toMatchObject({
        _tag: "AlreadyInMempool",
        txHash: signed.txHash,
        node: "http://node"
      })
      const rejected = yield* first(answer(60, "tx.signature.value (invalid signature)"))
      expect(rejected._tag === "Failed" && rejected.error).toMatchObject({
        _tag: "TransactionRejected",
        code: 60,
        reason: "Decoding",
        message: "tx.signature.value (invalid signature)",
        txHash: signed.txHash,
        node: "http://node"
      })
      const refusedOffer = yield* first(refused)
      expect(refusedOffer._tag === "Failed" && refusedOffer.error).toMatchObject({
        _tag: "RequestRefused",
        status: 400,
        message: "Invalid TX Type",
        node: "http://node"
      })
    })
  )

  it.effect("settles a probe's answer exactly: already known, rejected, refused", () =>
    Effect.gen(function* () {
      const probed = (node: { readonly status: number; readonly body: unknown }) =>
        settle(deliver(scripted([unavailable, node]).offering, signed, "sync"))
      const known = {
        _tag: "Accepted",
        accepted: {
          txHash: signed.txHash,
          powHeight: signed.powHeight,
          height: 0n,
          node: "http://node",
          alreadyKnown: true,
          deterministicId: signed.deterministicId
        }
      }
      expect(yield* probed(inCache)).toEqual(known)
      expect(yield* probed(answer(89, HASH_USED))).toEqual(known)
      const rejected = yield* probed(answer(60, "tx.signature.value (invalid signature)"))
      expect(rejected._tag === "Failed" && rejected.error).toMatchObject({
        _tag: "TransactionRejected",
        code: 60,
        reason: "Decoding",
        message: "tx.signature.value (invalid signature)",
        txHash: signed.txHash,
        node: "http://node"
      })
      // only code 89 with its text proves the transaction known
      const other = yield* probed(answer(70, HASH_USED))
      expect(other._tag === "Failed" && other.error).toMatchObject({ _tag: "TransactionRejected", code: 70 })
      const spam = yield* probed(answer(89, "spam policy"))
      expect(spam._tag === "Failed" && spam.error).toMatchObject({
        _tag: "TransactionRejected",
        code: 89,
        message: "spam policy",
        txHash: signed.txHash,
        node: "http://node"
      })
      const refusedProbe = yield* probed(refused)
      expect(refusedProbe._tag === "Failed" && refusedProbe.error).toMatchObject({
        _tag: "RequestRefused",
        status: 400,
        message: "Invalid TX Type",
        node: "http://node"
      })
    })
  )
})
