import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import {
  compileParams,
  goQuote,
  parseBool,
  parseInt64,
  parseQuery,
  parseRawQuery,
  parseUint,
  unescapePath
} from "../src/internal/goQuery.js"
import { Commands } from "@vega-effect/schema"
import { enumParam, paginationParams, param } from "../src/internal/route.js"

const specs = [
  ...paginationParams,
  param("filter.partyIds", "string", true),
  param("filter.marketIds", "string", true),
  param("parties", "string", true),
  param("atEpoch", "uint64"),
  param("fromEpoch", "uint64"),
  param("epochSeq", "int64"),
  param("proportion", "uint32"),
  param("live", "bool"),
  param("referralSetId", "string"),
  enumParam("filter.statuses", { STATUS_UNSPECIFIED: 0, STATUS_ACTIVE: 1, STATUS_FILLED: 5 }, true),
  enumParam("side", { SIDE_UNSPECIFIED: 0, SIDE_BUY: 1 }),
  enumParam("filter.accountTypes", Commands.AccountType.values, true),
  enumParam("type", Commands.AccountType.values)
]

const ok = (query: string) => {
  const result = parseQuery(query, specs)
  if (Either.isLeft(result)) throw new Error(`unexpected error: ${result.left}`)
  return Object.fromEntries(result.right)
}

const err = (query: string) => {
  const result = parseQuery(query, specs)
  if (Either.isRight(result)) throw new Error(`expected an error, got ${JSON.stringify([...result.right.keys()])}`)
  return result.left
}

describe("goQuery", () => {
  describe("names", () => {
    it("accepts lowerCamel JSON names and snake_case proto names per segment", () => {
      expect(ok("pagination.newestFirst=true")).toEqual({ "pagination.newestFirst": true })
      expect(ok("pagination.newest_first=false")).toEqual({ "pagination.newestFirst": false })
      expect(ok("filter.party_ids=a")).toEqual({ "filter.partyIds": ["a"] })
      expect(ok("filter.partyIds=a")).toEqual({ "filter.partyIds": ["a"] })
      expect(ok("at_epoch=7")).toEqual({ atEpoch: 7n })
      expect(ok("referral_set_id=abc")).toEqual({ referralSetId: "abc" })
    })

    it("ignores unknown keys, unknown nested keys and keys naming a message", () => {
      expect(ok("foo=1&pagination.foo=2&pagination=3&filter=x&first=1")).toEqual({})
      expect(ok("Pagination.first=1")).toEqual({})
    })

    it("rejects a path through a scalar field", () => {
      expect(err("pagination.first.x=1")).toBe('invalid path: "first" is not a message')
      expect(err("filter.partyIds.x=1")).toBe('invalid path: "partyIds" is not a message')
      expect(err("live.x=1")).toBe('invalid path: "live" is not a message')
    })
  })

  describe("repeated and singular fields", () => {
    it("collects repeated keys in order, without splitting commas", () => {
      expect(ok("parties=a&parties=b,c&parties=d")).toEqual({ parties: ["a", "b,c", "d"] })
    })

    it("merges a repeated field given by both of its names", () => {
      expect(ok("filter.partyIds=a&filter.party_ids=b&filter.partyIds=c")).toEqual({
        "filter.partyIds": ["a", "c", "b"]
      })
    })

    it("rejects a singular field given twice, naming the proto field", () => {
      expect(err("pagination.first=1&pagination.first=2")).toBe('too many values for field "first": 1, 2')
      expect(err("pagination.newestFirst=true&pagination.newestFirst=x")).toBe(
        'too many values for field "newest_first": true, x'
      )
      expect(err("referralSetId=&referralSetId=")).toBe('too many values for field "referral_set_id": , ')
    })

    it("lets the later of a field's two names win for a singular field", () => {
      expect(ok("atEpoch=1&at_epoch=2")).toEqual({ atEpoch: 2n })
      expect(ok("at_epoch=2&atEpoch=1")).toEqual({ atEpoch: 1n })
    })

    it("rewrites map syntax key[k]=v into two values", () => {
      expect(err("pagination.first[a]=1")).toBe('too many values for field "first": a, 1')
      expect(ok("parties[x]=y")).toEqual({ parties: ["x", "y"] })
    })
  })

  describe("values", () => {
    it("reads enums by name or by number, as their names", () => {
      expect(ok("filter.statuses=STATUS_ACTIVE&filter.statuses=5&filter.statuses=0")).toEqual({
        "filter.statuses": ["STATUS_ACTIVE", "STATUS_FILLED", "STATUS_UNSPECIFIED"]
      })
      expect(ok("side=%2B1")).toEqual({ side: "SIDE_BUY" })
      // Atoi's int is converted to the enum's int32 number
      expect(ok("side=4294967297")).toEqual({ side: "SIDE_BUY" })
    })

    it("rejects an enum value by neither name nor number", () => {
      expect(err("filter.statuses=active")).toBe('"active" is not a valid value')
      expect(err("filter.statuses=7")).toBe('"7" is not a valid value')
      expect(err("side=")).toBe('"" is not a valid value')
      expect(err("side=1.0")).toBe('"1.0" is not a valid value')
    })

    it("parses each type", () => {
      expect(
        ok(
          "pagination.first=-5&pagination.after=abc&atEpoch=18446744073709551615&epochSeq=-9223372036854775808&proportion=4294967295&live=T"
        )
      ).toEqual({
        "pagination.first": -5,
        "pagination.after": "abc",
        atEpoch: 18446744073709551615n,
        epochSeq: -9223372036854775808n,
        proportion: 4294967295,
        live: true
      })
    })

    it("accepts exactly strconv.ParseBool's spellings", () => {
      for (const t of ["1", "t", "T", "true", "TRUE", "True"]) expect(ok(`live=${t}`)).toEqual({ live: true })
      for (const f of ["0", "f", "F", "false", "FALSE", "False"]) expect(ok(`live=${f}`)).toEqual({ live: false })
      expect(err("live=yes")).toBe('strconv.ParseBool: parsing "yes": invalid syntax')
      expect(err("live=tRUE")).toBe('strconv.ParseBool: parsing "tRUE": invalid syntax')
      expect(err("live=")).toBe('strconv.ParseBool: parsing "": invalid syntax')
    })

    it("reports int32 errors with strconv.ParseInt's texts", () => {
      expect(err("pagination.first=abc")).toBe('strconv.ParseInt: parsing "abc": invalid syntax')
      expect(err("pagination.first=")).toBe('strconv.ParseInt: parsing "": invalid syntax')
      expect(err("pagination.first=2147483648")).toBe('strconv.ParseInt: parsing "2147483648": value out of range')
      expect(ok("pagination.first=-2147483648")).toEqual({ "pagination.first": -2147483648 })
      expect(err("pagination.first=-2147483649")).toBe('strconv.ParseInt: parsing "-2147483649": value out of range')
      expect(err("pagination.first=1.5")).toBe('strconv.ParseInt: parsing "1.5": invalid syntax')
      expect(err("pagination.first=0x10")).toBe('strconv.ParseInt: parsing "0x10": invalid syntax')
      expect(err("pagination.first=1_000")).toBe('strconv.ParseInt: parsing "1_000": invalid syntax')
      expect(err("pagination.first=-")).toBe('strconv.ParseInt: parsing "-": invalid syntax')
      expect(err("pagination.first=%2B")).toBe('strconv.ParseInt: parsing "+": invalid syntax')
      expect(err("pagination.first=+")).toBe('strconv.ParseInt: parsing " ": invalid syntax')
      expect(ok("pagination.first=%2B7")).toEqual({ "pagination.first": 7 })
      expect(ok("pagination.first=007")).toEqual({ "pagination.first": 7 })
    })

    it("stops at the first overflowing digit, as Go's loop does", () => {
      // 3000000000 fits in 32 bits unsigned, so the bad byte is seen first
      expect(err("pagination.first=3000000000x")).toBe('strconv.ParseInt: parsing "3000000000x": invalid syntax')
      // 5000000000 overflows 32 bits before the bad byte is reached
      expect(err("pagination.first=5000000000x")).toBe('strconv.ParseInt: parsing "5000000000x": value out of range')
    })

    it("reports uint errors with strconv.ParseUint's texts; a sign is a syntax error", () => {
      expect(err("atEpoch=x")).toBe('strconv.ParseUint: parsing "x": invalid syntax')
      expect(err("atEpoch=-1")).toBe('strconv.ParseUint: parsing "-1": invalid syntax')
      expect(err("atEpoch=%2B1")).toBe('strconv.ParseUint: parsing "+1": invalid syntax')
      expect(err("atEpoch=18446744073709551616")).toBe(
        'strconv.ParseUint: parsing "18446744073709551616": value out of range'
      )
      expect(err("proportion=4294967296")).toBe('strconv.ParseUint: parsing "4294967296": value out of range')
    })

    it("parses int64 with ParseInt 64-bit", () => {
      expect(ok("epochSeq=9223372036854775807")).toEqual({ epochSeq: 9223372036854775807n })
      expect(err("epochSeq=9223372036854775808")).toBe(
        'strconv.ParseInt: parsing "9223372036854775808": value out of range'
      )
    })

    it("keeps an empty string parameter as set", () => {
      expect(ok("pagination.after=")).toEqual({ "pagination.after": "" })
      expect(ok("pagination.after")).toEqual({ "pagination.after": "" })
      expect(ok("parties=")).toEqual({ parties: [""] })
    })

    it("quotes odd values the way strconv.Quote does", () => {
      expect(err("pagination.first=%22%5C")).toBe('strconv.ParseInt: parsing "\\"\\\\": invalid syntax')
      expect(err("pagination.first=%0A%09%00%7F")).toBe('strconv.ParseInt: parsing "\\n\\t\\x00\\x7f": invalid syntax')
      expect(err("pagination.first=%C3%A9")).toBe('strconv.ParseInt: parsing "é": invalid syntax')
      expect(err("pagination.first=%FF")).toBe('strconv.ParseInt: parsing "\\xff": invalid syntax')
      expect(err("pagination.first=%C2%A0")).toBe('strconv.ParseInt: parsing "\\u00a0": invalid syntax')
      expect(err("pagination.first=%F0%9F%98%80")).toBe('strconv.ParseInt: parsing "😀": invalid syntax')
    })
  })

  describe("decoding", () => {
    it("decodes percent escapes and + as a space, in keys and values", () => {
      expect(ok("pagination.after=a%2Bb%2F%3D%3D+c")).toEqual({ "pagination.after": "a+b/== c" })
      expect(ok("pagination%2Eafter=x")).toEqual({ "pagination.after": "x" })
      expect(ok("parties=%E2%82%AC")).toEqual({ parties: ["€"] })
      expect(ok("parties=a=b")).toEqual({ parties: ["a=b"] })
    })

    it("reports a malformed escape with Go's text", () => {
      expect(err("pagination.after=%zz")).toBe('invalid URL escape "%zz"')
      expect(err("pagination.after=abc%4")).toBe('invalid URL escape "%4"')
      expect(err("pagination.after=abc%")).toBe('invalid URL escape "%"')
      expect(err("%zzfoo=1")).toBe('invalid URL escape "%zz"')
      // even on a key nobody asked for: Go's ParseQuery fails first
      expect(err("unknown=%g1")).toBe('invalid URL escape "%g1"')
      // the first escape error wins
      expect(err("a=%zz&b=%yy")).toBe('invalid URL escape "%zz"')
    })

    it("rejects semicolons, which override an earlier escape error", () => {
      expect(err("a=1;b=2")).toBe("invalid semicolon separator in query")
      expect(err("a=%zz&b=1;c")).toBe("invalid semicolon separator in query")
    })

    it("skips empty pairs", () => {
      expect(ok("&&parties=a&&")).toEqual({ parties: ["a"] })
      expect(ok("")).toEqual({})
    })

    it("parseRawQuery keeps the pairs that decoded beside the error", () => {
      const raw = parseRawQuery("pretty&a=%zz&b=2")
      expect(raw.error).toBe('invalid URL escape "%zz"')
      expect([...raw.values]).toEqual([
        ["pretty", [""]],
        ["b", ["2"]]
      ])
    })
  })

  describe("path parameters", () => {
    const compiled = compileParams(paginationParams, ["partyId"])

    it("skips the proto name of a path parameter and parses its JSON name", () => {
      expect(Either.getOrThrow(parseQuery("party_id=x", compiled))).toEqual(new Map())
      expect(Either.getOrThrow(parseQuery("partyId=x", compiled))).toEqual(new Map([["partyId", "x"]]))
      expect(parseQuery("partyId=x&partyId=y", compiled)).toEqual(
        Either.left('too many values for field "party_id": x, y')
      )
    })

    it("unescapePath has url.PathUnescape semantics", () => {
      expect(unescapePath("/a%2Fb+c%20d")).toEqual(Either.right("/a/b+c d"))
      expect(unescapePath("/a%zz")).toEqual(Either.left('invalid URL escape "%zz"'))
      expect(unescapePath("/a%2")).toEqual(Either.left('invalid URL escape "%2"'))
    })
  })

  describe("strconv", () => {
    it("parseInt64, parseUint and parseBool return Go's texts", () => {
      expect(parseInt64("12", 32)).toBe(12n)
      expect(parseInt64("abc", 32)).toEqual({ error: 'strconv.ParseInt: parsing "abc": invalid syntax' })
      expect(parseUint("12", 64)).toBe(12n)
      expect(parseBool("x")).toEqual({ error: 'strconv.ParseBool: parsing "x": invalid syntax' })
    })

    it("goQuote", () => {
      expect(goQuote("a\u0007\u0008\u000b\u000c\r")).toBe('"a\\a\\b\\v\\f\\r"')
    })
  })

  it("reads an enum by name or by known number, as runtime/query.go does", () => {
    expect(ok("filter.account_types=ACCOUNT_TYPE_GENERAL&filter.accountTypes=3&type=%2B4")).toEqual({
      "filter.accountTypes": ["ACCOUNT_TYPE_GENERAL", "ACCOUNT_TYPE_MARGIN"],
      type: "ACCOUNT_TYPE_GENERAL"
    })
    expect(err("type=ACCOUNT_TYPE_NOPE")).toBe('"ACCOUNT_TYPE_NOPE" is not a valid value')
    expect(err("type=8")).toBe('"8" is not a valid value')
    expect(err("type=4.0")).toBe('"4.0" is not a valid value')
    expect(err("type=account_type_general")).toBe('"account_type_general" is not a valid value')
  })
})
