import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { prettyJson, scanJsonBody } from "../src/internal/gatewayJson.js"
import { type Route, paginationParams, param } from "../src/internal/route.js"
import * as Exit from "effect/Exit"
import { makeHandler } from "../src/internal/http/handler.js"
import { ListenError, listen } from "../src/internal/http/listen.js"
import { request } from "./support/http.js"

interface FakeNode {
  readonly height: number
}

const jsonOf = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v))

const routes: ReadonlyArray<Route<FakeNode>> = [
  {
    method: "GET",
    path: "/api/v2/things",
    params: [...paginationParams, param("filter.partyIds", "string", true), param("atEpoch", "uint64")],
    handle: (params) => ({ status: 200, body: jsonOf({ query: Object.fromEntries(params.query), edges: [] }) })
  },
  {
    method: "GET",
    path: "/api/v2/parties/{partyId}/stake",
    params: paginationParams,
    handle: (params) => ({ status: 200, body: jsonOf({ partyId: params.path.get("partyId") ?? null }) })
  },
  {
    method: "GET",
    path: "/api/v2/parties/{partyId}",
    params: [],
    handle: (params) => ({ status: 200, body: jsonOf({ party: params.path.get("partyId") ?? null }) })
  },
  // registered after the template above, so it wins for /api/v2/parties/profiles (grpc-gateway order)
  {
    method: "GET",
    path: "/api/v2/parties/profiles",
    params: [param("parties", "string", true)],
    handle: () => ({ status: 200, body: '{"profiles":[]}' })
  },
  {
    method: "POST",
    path: "/transaction",
    params: [],
    body: true,
    handle: (_, __, body) => ({ status: 200, body: jsonOf({ got: body }) })
  },
  {
    method: "GET",
    path: "/api/v2/failing",
    params: [],
    handle: () => ({
      status: 404,
      body: '{"code":5,"message":"NotFound error","details":[]}',
      headers: { "X-Extra": "yes" }
    })
  },
  {
    method: "GET",
    path: "/api/v2/throwing",
    params: [],
    handle: () => {
      throw new Error("boom")
    }
  }
]

class Url extends Context.Tag("test/Gateway/Url")<Url, string>() {}

const ServerLive = Layer.scoped(
  Url,
  listen(
    makeHandler({
      routes,
      node: { height: 1234 },
      block: (node) => ({ height: node.height, timestampNanos: "1700000000123456789" })
    })
  ).pipe(Effect.map((listening) => listening.url))
)

const serve = Url

const get = (path: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(Url, (url) => Effect.promise(() => request(url, path, { headers })))

it.layer(ServerLive)("Gateway", (it) => {
  describe("routing", () => {
    it.effect("answers 404 with the mux body for an unknown path", () =>
      Effect.gen(function* () {
        const res = yield* get("/api/v2/nothing")
        expect(res.status).toBe(404)
        expect(res.text).toBe('{"code":5,"message":"Not Found","details":[]}')
        expect(res.headers["content-type"]).toBe("application/json")
        expect(res.headers["content-length"]).toBe(String(res.body.length))
        // routing errors never reach the node: no block headers
        expect(res.headers["x-block-height"]).toBeUndefined()
      })
    )

    it.effect("answers 501 Method Not Allowed for a known path with the wrong method", () =>
      Effect.gen(function* () {
        const url = yield* serve
        const post = yield* Effect.promise(() => request(url, "/api/v2/things", { method: "POST", body: "{}" }))
        expect(post.status).toBe(501)
        expect(post.text).toBe('{"code":12,"message":"Method Not Allowed","details":[]}')
        const head = yield* Effect.promise(() => request(url, "/api/v2/things", { method: "HEAD" }))
        expect(head.status).toBe(501)
        const get = yield* Effect.promise(() => request(url, "/transaction"))
        expect(get.status).toBe(501)
      })
    )

    it.effect("treats a trailing slash, an extra segment and a leading ':' verb as unknown", () =>
      Effect.gen(function* () {
        expect((yield* get("/api/v2/things/")).status).toBe(404)
        expect((yield* get("/api/v2/parties/a/stake/x")).status).toBe(404)
        expect((yield* get("/api/v2/parties/:abc")).status).toBe(404)
        const verb = yield* get("/api/v2/parties/a:b")
        expect(verb.text).toBe('{"party":"a:b"}')
      })
    )

    it.effect("decodes path parameters, and a decoded '/' splits the path", () =>
      Effect.gen(function* () {
        expect((yield* get("/api/v2/parties/a%20b%2Bc+d/stake")).text).toBe('{"partyId":"a b+c+d"}')
        expect((yield* get("/api/v2/parties/%E2%82%AC/stake")).text).toBe('{"partyId":"€"}')
        expect((yield* get("/api/v2/parties/a%2Fb/stake")).status).toBe(404)
        expect((yield* get("/api/v2/parties//stake")).text).toBe('{"partyId":""}')
      })
    )

    it.effect("lets the last registered template win", () =>
      Effect.gen(function* () {
        expect((yield* get("/api/v2/parties/profiles")).text).toBe('{"profiles":[]}')
        expect((yield* get("/api/v2/parties/someone")).text).toBe('{"party":"someone"}')
      })
    )

    it.effect("routes an absolute-form target on its path; a target that is not a path is a bad request", () =>
      Effect.gen(function* () {
        const url = yield* Url
        expect((yield* get(`${url}/api/v2/parties/x`)).text).toBe('{"party":"x"}')
        const noPath = yield* get(`${url}?a=1`)
        expect(noPath.status).toBe(400)
        expect(noPath.text).toBe('{"code":3,"message":"Bad Request","details":[]}')
      })
    )

    it.effect("answers a path Go cannot unescape with net/http's plain 400", () =>
      Effect.gen(function* () {
        const res = yield* get("/api/v2/parties/%zz/stake")
        expect(res.status).toBe(400)
        expect(res.text).toBe("400 Bad Request")
        expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8")
      })
    )
  })

  describe("query parameters", () => {
    it.effect("passes parsed parameters to the handler", () =>
      Effect.gen(function* () {
        const res = yield* get(
          "/api/v2/things?pagination.first=5&pagination.newest_first=false&filter.partyIds=a&filter.party_ids=b&atEpoch=7&unknown=1"
        )
        expect(res.status).toBe(200)
        expect(JSON.parse(res.text)).toEqual({
          query: {
            "pagination.first": 5,
            "pagination.newestFirst": false,
            "filter.partyIds": ["a", "b"],
            atEpoch: "7"
          },
          edges: []
        })
      })
    )

    it.effect("answers decoding errors with 400, code 3 and Go's text", () =>
      Effect.gen(function* () {
        const bad = yield* get("/api/v2/things?pagination.first=abc")
        expect(bad.status).toBe(400)
        expect(bad.text).toBe('{"code":3,"message":"strconv.ParseInt: parsing \\"abc\\": invalid syntax","details":[]}')
        expect(bad.headers["x-block-height"]).toBeUndefined()
        const twice = yield* get("/api/v2/things?pagination.first=1&pagination.first=2")
        expect(twice.text).toBe('{"code":3,"message":"too many values for field \\"first\\": 1, 2","details":[]}')
        const escape = yield* get("/api/v2/things?pagination.after=%zz")
        expect(escape.status).toBe(400)
        expect(escape.text).toBe('{"code":3,"message":"invalid URL escape \\"%zz\\"","details":[]}')
        const empty = yield* get("/api/v2/things?pagination.first=")
        expect(JSON.parse(empty.text).message).toBe('strconv.ParseInt: parsing "": invalid syntax')
      })
    )

    it.effect("escapes <, > and & in messages as Go does", () =>
      Effect.gen(function* () {
        const res = yield* get("/api/v2/things?atEpoch=%3Ca%3E%26")
        expect(res.text).toBe(
          '{"code":3,"message":"strconv.ParseUint: parsing \\"\\u003ca\\u003e\\u0026\\": invalid syntax","details":[]}'
        )
      })
    )

    it.effect("does not decode the query of a request without query parameters", () =>
      Effect.gen(function* () {
        expect((yield* get("/api/v2/parties/x?a=%zz")).status).toBe(200)
      })
    )

    it.effect("lets the JSON name of a path parameter in the query override the path", () =>
      Effect.gen(function* () {
        expect((yield* get("/api/v2/parties/a/stake?partyId=b")).text).toBe('{"partyId":"b"}')
        expect((yield* get("/api/v2/parties/a/stake?party_id=b")).text).toBe('{"partyId":"a"}')
      })
    )
  })

  describe("request bodies", () => {
    const post = (body: string) =>
      Effect.flatMap(serve, (url) => Effect.promise(() => request(url, "/transaction", { method: "POST", body })))

    it.effect("passes the decoded JSON body; an empty body is an empty message", () =>
      Effect.gen(function* () {
        expect((yield* post('{"tx":{"a":1}} trailing')).text).toBe('{"got":{"tx":{"a":1}}}')
        expect((yield* post("  ")).text).toBe('{"got":{}}')
      })
    )

    it.effect("answers syntax errors with encoding/json's texts", () =>
      Effect.gen(function* () {
        const cases: ReadonlyArray<readonly [string, string]> = [
          ["x", "invalid character 'x' looking for beginning of value"],
          ['{"a":1', "unexpected EOF"],
          ['{"a" 1}', "invalid character '1' after object key"],
          ['{"a":1 "b":2}', "invalid character '\"' after object key:value pair"],
          ["[1 2]", "invalid character '2' after array element"],
          ["{a:1}", "invalid character 'a' looking for beginning of object key string"],
          ["tru ", "invalid character ' ' in literal true (expecting 'e')"],
          ['"\\q"', "invalid character 'q' in string escape code"],
          ["-x", "invalid character 'x' in numeric literal"],
          ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"]
        ]
        for (const [body, message] of cases) {
          const res = yield* post(body)
          expect(res.status).toBe(400)
          expect(JSON.parse(res.text)).toEqual({ code: 3, message, details: [] })
        }
      })
    )
  })

  describe("headers and encoding", () => {
    it.effect("adds the block headers, content type and length to node answers", () =>
      Effect.gen(function* () {
        const res = yield* get("/api/v2/things")
        expect(res.status).toBe(200)
        expect(res.headers["x-block-height"]).toBe("1234")
        expect(res.headers["x-block-timestamp"]).toBe("1700000000123456789")
        expect(res.headers["content-type"]).toBe("application/json")
        expect(res.headers["content-length"]).toBe(String(res.body.length))
        expect(res.headers["content-encoding"]).toBeUndefined()
        expect(res.rawHeaders).toContain("X-Block-Height")
      })
    )

    it.effect("passes a handler's status and headers, with the block headers", () =>
      Effect.gen(function* () {
        const res = yield* get("/api/v2/failing")
        expect(res.status).toBe(404)
        expect(res.headers["x-extra"]).toBe("yes")
        expect(res.headers["x-block-height"]).toBe("1234")
      })
    )

    it.effect("answers a handler that throws with 500", () =>
      Effect.gen(function* () {
        const res = yield* get("/api/v2/throwing")
        expect(res.status).toBe(500)
        expect(JSON.parse(res.text)).toEqual({ code: 13, message: "boom", details: [] })
      })
    )

    it.effect("gzips when the client accepts it", () =>
      Effect.gen(function* () {
        const plain = yield* get("/api/v2/things")
        const res = yield* get("/api/v2/things", { "Accept-Encoding": "deflate, gzip;q=0.5" })
        expect(res.headers["content-encoding"]).toBe("gzip")
        expect(res.headers.vary).toBe("Origin, Accept-Encoding")
        expect(res.headers["content-length"]).toBe(String(res.body.length))
        expect(res.text).toBe(plain.text)
        const refused = yield* get("/api/v2/things", { "Accept-Encoding": "gzip;q=0" })
        expect(refused.headers["content-encoding"]).toBeUndefined()
        const error = yield* get("/nope", { "Accept-Encoding": "gzip" })
        expect(error.headers["content-encoding"]).toBe("gzip")
        expect(error.text).toBe('{"code":5,"message":"Not Found","details":[]}')
      })
    )

    it.effect("indents with one space under ?pretty, errors included", () =>
      Effect.gen(function* () {
        const res = yield* get("/api/v2/things?pretty&atEpoch=1")
        expect(res.text).toBe('{\n "query": {\n  "atEpoch": "1"\n },\n "edges": [\n ]\n}')
        expect(res.headers["content-length"]).toBe(String(res.body.length))
        const error = yield* get("/nope?pretty=false")
        expect(error.text).toBe('{\n "code": 5,\n "message": "Not Found",\n "details": [\n ]\n}')
        const gz = yield* get("/api/v2/things?pretty", { "Accept-Encoding": "gzip" })
        expect(gz.text).toBe('{\n "query": {},\n "edges": [\n ]\n}')
      })
    )

    it.effect("answers /health with plain ok", () =>
      Effect.gen(function* () {
        const res = yield* get("/health")
        expect(res.status).toBe(200)
        expect(res.text).toBe("ok")
        expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8")
      })
    )
  })

  describe("CORS", () => {
    const options = (headers: Record<string, string>) =>
      Effect.flatMap(serve, (url) =>
        Effect.promise(() => request(url, "/api/v2/things", { method: "OPTIONS", headers }))
      )

    it.effect("answers a preflight with 204 and a max age of 7200", () =>
      Effect.gen(function* () {
        const res = yield* options({
          Origin: "https://example.org",
          "Access-Control-Request-Method": "get",
          "Access-Control-Request-Headers": "content-type, x-requested-with"
        })
        expect(res.status).toBe(204)
        expect(res.body.length).toBe(0)
        expect(res.headers["access-control-allow-origin"]).toBe("*")
        expect(res.headers["access-control-allow-methods"]).toBe("GET")
        expect(res.headers["access-control-allow-headers"]).toBe("Content-Type, X-Requested-With")
        expect(res.headers["access-control-max-age"]).toBe("7200")
      })
    )

    it.effect("refuses a preflight for other headers or methods without an error status", () =>
      Effect.gen(function* () {
        const header = yield* options({
          Origin: "https://example.org",
          "Access-Control-Request-Method": "GET",
          "Access-Control-Request-Headers": "authorization"
        })
        expect(header.status).toBe(204)
        expect(header.headers["access-control-allow-origin"]).toBeUndefined()
        const method = yield* options({ Origin: "https://example.org", "Access-Control-Request-Method": "DELETE" })
        expect(method.headers["access-control-allow-origin"]).toBeUndefined()
      })
    )

    it.effect("routes an OPTIONS that is not a preflight like any other method", () =>
      Effect.gen(function* () {
        expect((yield* options({ Origin: "https://example.org" })).status).toBe(501)
      })
    )

    it.effect("allows any origin on actual requests", () =>
      Effect.gen(function* () {
        const res = yield* get("/api/v2/things", { Origin: "https://example.org" })
        expect(res.headers["access-control-allow-origin"]).toBe("*")
        const noOrigin = yield* get("/api/v2/things")
        expect(noOrigin.headers["access-control-allow-origin"]).toBeUndefined()
        expect(noOrigin.headers.vary).toBe("Origin, Accept-Encoding")
      })
    )

    it.effect("works with fetch", () =>
      Effect.gen(function* () {
        const url = yield* serve
        const res = yield* Effect.promise(() => fetch(`${url}/api/v2/things?pagination.first=2`))
        expect(res.status).toBe(200)
        expect(res.headers.get("content-encoding")).toBe("gzip")
        expect(yield* Effect.promise(() => res.json())).toEqual({ query: { "pagination.first": 2 }, edges: [] })
      })
    )
  })
})

describe("gateway JSON text", () => {
  it("prettyJson keeps strings verbatim and breaks empty lists like jsonpb", () => {
    expect(prettyJson('{"a":"x,\\"{[:","b":[{"c":[]},{}],"d":-1.5e3,"e":true}')).toBe(
      '{\n "a": "x,\\"{[:",\n "b": [\n  {\n   "c": [\n   ]\n  },\n  {}\n ],\n "d": -1.5e3,\n "e": true\n}'
    )
  })

  it("scanJsonBody stops after the first value", () => {
    const scan = scanJsonBody(Buffer.from('{"a":[1,2]}{"b":1}'))
    expect(scan).toEqual({ _tag: "Value", end: 11 })
    expect(scanJsonBody(Buffer.from(" \n"))).toEqual({ _tag: "Empty" })
    expect(scanJsonBody(Buffer.from("123x"))).toEqual({ _tag: "Value", end: 3 })
    expect(scanJsonBody(Buffer.from("\u00e9"))).toEqual({
      _tag: "Error",
      message: "invalid character 'Ã' looking for beginning of value"
    })
    expect(scanJsonBody(Buffer.from('"a\u0001"'))).toEqual({
      _tag: "Error",
      message: "invalid character '\\x01' in string literal"
    })
  })
})

describe("listen", () => {
  it.scoped("binds port 0 to a free port and fails with ListenError on a taken one", () =>
    Effect.gen(function* () {
      const handler = makeHandler({ routes: [], node: null, block: () => ({ height: 0, timestampNanos: "0" }) })
      const first = yield* listen(handler, { host: "127.0.0.1", port: 0 })
      expect(first.port).toBeGreaterThan(0)
      expect(first.url).toBe(`http://127.0.0.1:${first.port}`)
      const second = yield* Effect.exit(listen(handler, { port: first.port }))
      expect(Exit.isFailure(second)).toBe(true)
      if (Exit.isFailure(second)) expect(second.cause._tag === "Fail" && second.cause.error).toBeInstanceOf(ListenError)
    })
  )

  it.effect("closes the server when the scope closes", () =>
    Effect.gen(function* () {
      const handler = makeHandler({ routes: [], node: null, block: () => ({ height: 0, timestampNanos: "0" }) })
      const server = yield* Effect.scoped(listen(handler).pipe(Effect.map((l) => l.server)))
      expect(server.listening).toBe(false)
    })
  )
})
