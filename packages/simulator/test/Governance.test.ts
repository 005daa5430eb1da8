import { describe, expect, it } from "@effect/vitest"
import { DataNode, StreamForm, Vega } from "@vega-effect/schema"
import { Simulator } from "@vega-effect/simulator"
import { Effect, Schema } from "effect"
import { PROPOSAL_STATE_NUMBER, ratioText, TOTAL_SUPPLY, type ProposalRow } from "../src/internal/world/governance.js"
import { rfc3339ToMicros } from "../src/internal/goTime.js"
import { World } from "../src/World.js"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"
import { connect, type SocketClient, sleep } from "./support/streams.js"

const world = smallWorld()
world.advance(40)

type Query = Parameters<typeof call>[2]

const list = (query: Query = {}, w: World = world) =>
  decoded(DataNode.ListGovernanceDataResponse, call(nodeOf(w), "/api/v2/governances", query)).connection
const get = (query: Query) => call(nodeOf(world), "/api/v2/governance", query)
const votes = (query: Query) => decoded(DataNode.ListVotesResponse, call(nodeOf(world), "/api/v2/votes", query)).votes
const errorOf = (reply: { status: number; body: string }) => {
  const detail = JSON.parse(reply.body).details[0]
  return [reply.status, detail.code, detail.message, detail.inner]
}

const current = (w: World = world): Array<ProposalRow> => w.governance.placed.map((p) => w.governance.current(p.id)!)
const byTimeDesc = (a: ProposalRow, b: ProposalRow) => b.vt - a.vt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
/** The store's order: the open proposals first, then the others, each newest first. */
const expectedOrder = (rows: Array<ProposalRow>) => [
  ...rows.filter((r) => r.state === "STATE_OPEN").sort(byTimeDesc),
  ...rows.filter((r) => r.state !== "STATE_OPEN").sort(byTimeDesc)
]
const idsOf = (conn: { edges: ReadonlyArray<{ node: { proposal?: { id: string } } }> }) =>
  conn.edges.map((e) => e.node.proposal!.id)

describe("the world's governance", () => {
  it("is the same for a seed however the blocks are batched", () => {
    const a = new World({ seed: 11 })
    const b = new World({ seed: 11 })
    a.advance(60)
    for (let i = 0; i < 6; i++) b.advance(10)
    const summary = (w: World) =>
      current(w).map((p) => [p.id, p.state, p.vt, w.governance.votesByProposal.get(p.id)?.length ?? 0])
    expect(summary(a)).toEqual(summary(b))
    expect(summary(a)).not.toEqual(summary(new World({ seed: 12 })))
    expect(current(new World({ seed: 11, activity: { proposalChance: 0 } }))).toEqual([])
  })

  it("moves proposals from open to passed, declined or enacted as their times come", () => {
    const rows = current()
    const states = new Set(rows.map((r) => r.state))
    expect([...states].sort()).toEqual(["STATE_DECLINED", "STATE_ENACTED", "STATE_OPEN"])
    for (const first of world.governance.placed) {
      const versions = world.governance.byId.get(first.id)!
      const path = versions.map((v) => v.state).join(">")
      expect([
        "STATE_OPEN",
        "STATE_OPEN>STATE_DECLINED",
        "STATE_OPEN>STATE_ENACTED",
        "STATE_OPEN>STATE_PASSED",
        "STATE_OPEN>STATE_PASSED>STATE_ENACTED"
      ]).toContain(path)
      const last = versions.at(-1)!
      const closedAt = versions[1]?.from
      if (closedAt !== undefined) {
        // closed at the first block past the closing second
        expect(Math.floor(world.chain.blockTime(closedAt) / 1e6)).toBeGreaterThan(last.closingSecs)
        expect(Math.floor(world.chain.blockTime(closedAt - 1) / 1e6)).toBeLessThanOrEqual(last.closingSecs)
      }
      if (last.state === "STATE_DECLINED") expect(last.reason).toBeDefined()
      else expect(last.reason).toBeUndefined()
      const cast = world.governance.votesByProposal.get(first.id) ?? []
      if (cast.length === 0 && closedAt !== undefined) {
        expect(last.reason).toBe("PROPOSAL_ERROR_PARTICIPATION_THRESHOLD_NOT_REACHED")
      }
      if (last.state === "STATE_ENACTED" && last.change !== undefined) {
        const enactedAt = last.from
        const params = world.networkParameters
        expect(
          params.at(last.change.key, enactedAt)?.value === last.change.value ||
            params.at(last.change.key, enactedAt)!.from > enactedAt
        ).toBe(true)
      }
    }
  })

  it("passes a proposal on the majority and participation of the tokens that voted", () => {
    const reasons = new Set<string>()
    for (const row of current()) {
      if (row.state === "STATE_OPEN") continue
      const closedAt = world.governance.byId.get(row.id)![1].from
      const data = JSON.parse(
        call(nodeOf(world, { height: closedAt }), "/api/v2/governance", { proposalId: row.id }).body
      ).data
      const sum = (vs: Array<any>) => vs.reduce((n: bigint, v: any) => n + BigInt(v.totalGovernanceTokenBalance), 0n)
      const yes = sum(data.yes)
      const total = yes + sum(data.no)
      const [whole, decimals = ""] = row.requiredMajority.split(".")
      const scale = 10n ** BigInt(decimals.length)
      const majority = total > 0n && yes * scale >= total * BigInt(whole + decimals)
      const passed = row.state === "STATE_ENACTED" || row.state === "STATE_PASSED"
      expect(passed, row.id).toBe(majority)
      if (!passed) reasons.add(total === 0n ? "participation" : "majority")
      if (!passed) {
        expect(row.reason).toBe(
          total === 0n
            ? "PROPOSAL_ERROR_PARTICIPATION_THRESHOLD_NOT_REACHED"
            : "PROPOSAL_ERROR_MAJORITY_THRESHOLD_NOT_REACHED"
        )
      }
    }
    expect([...reasons].sort()).toEqual(["majority", "participation"])
  })

  it("weighs each vote at the close, to 16 places", () => {
    expect(ratioText(1n, 3n)).toBe("0.3333333333333333")
    expect(ratioText(2n, 3n)).toBe("0.6666666666666667")
    expect(ratioText(5n, 5n)).toBe("1")
    expect(ratioText(1n, 4n)).toBe("0.25")
    const closed = current().find(
      (p) => p.state !== "STATE_OPEN" && (world.governance.votesByProposal.get(p.id)?.length ?? 0) > 1
    )!
    const data = JSON.parse(get({ proposalId: closed.id }).body).data
    const all = [...data.yes, ...data.no]
    const total = all.reduce((n: bigint, v: any) => n + BigInt(v.totalGovernanceTokenBalance), 0n)
    expect(total).toBeLessThan(TOTAL_SUPPLY)
    const closedAt = BigInt(world.chain.blockTime(world.governance.byId.get(closed.id)![1].from)) * 1000n
    for (const v of all) {
      expect(v.totalGovernanceTokenWeight).toBe(ratioText(BigInt(v.totalGovernanceTokenBalance), total))
      // the close weighs the votes but keeps the times they were cast
      expect(BigInt(v.timestamp)).toBeLessThan(closedAt)
    }
  })
})

describe("ListGovernanceData", () => {
  it("lists the open proposals first, then the others, newest first, over pages both ways", () => {
    const expected = expectedOrder(current()).map((r) => r.id)
    expect(idsOf(list())).toEqual(expected)
    const forward = walk((after) => {
      const page = list({ "pagination.first": 3, ...(after === undefined ? {} : { "pagination.after": after }) })
      return { nodes: idsOf(page), next: page.pageInfo.hasNextPage, end: page.pageInfo.endCursor }
    })
    expect(forward).toEqual(expected)
    const last = list({ "pagination.last": 3 })
    expect(idsOf(last)).toEqual(expected.slice(-3))
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true })
    const before = list({ "pagination.last": 3, "pagination.before": last.pageInfo.startCursor })
    expect(idsOf(before)).toEqual(expected.slice(-6, -3))
    const backward: Array<string> = []
    let cursor: string | undefined
    for (let guard = 0; guard < 100; guard++) {
      const page = list({ "pagination.last": 2, ...(cursor === undefined ? {} : { "pagination.before": cursor }) })
      backward.unshift(...idsOf(page))
      if (!page.pageInfo.hasPreviousPage) break
      cursor = page.pageInfo.startCursor
    }
    expect(backward).toEqual(expected)
    // oldest first: still the open ones first
    const rows = current()
    const oldest = [
      ...rows
        .filter((r) => r.state === "STATE_OPEN")
        .sort(byTimeDesc)
        .reverse(),
      ...rows
        .filter((r) => r.state !== "STATE_OPEN")
        .sort(byTimeDesc)
        .reverse()
    ].map((r) => r.id)
    expect(idsOf(list({ "pagination.newestFirst": false }))).toEqual(oldest)
  })

  it("writes the node's cursor and the proposal as the node does", () => {
    const page = list({ "pagination.first": 1 })
    const row = world.governance.current(page.edges[0].node.proposal!.id)!
    expect(JSON.parse(cursorJson(page.edges[0].cursor))).toEqual({
      state: PROPOSAL_STATE_NUMBER[row.state],
      vega_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      id: row.id
    })
    const node = page.edges[0].node
    expect(node.proposalType).toBe("TYPE_SINGLE_OR_UNSPECIFIED")
    expect(node.proposal!.partyId).toBe(row.party.id)
    expect(String(node.proposal!.terms!.closingTimestamp)).toBe(String(row.closingSecs))
    // a freeform proposal has no enactment time; a parameter change's comes after its close
    for (const r of current()) {
      const terms = JSON.parse(get({ proposalId: r.id }).body).data.proposal.terms
      if (r.kind === "newFreeform") expect([terms.enactmentTimestamp, terms.newFreeform]).toEqual(["0", {}])
      else expect(BigInt(terms.enactmentTimestamp)).toBeGreaterThan(BigInt(terms.closingTimestamp))
    }
  })

  it("filters by state, type and proposer, or answers one proposal by reference", () => {
    const rows = current()
    expect(idsOf(list({ proposalState: "STATE_DECLINED" }))).toEqual(
      rows
        .filter((r) => r.state === "STATE_DECLINED")
        .sort(byTimeDesc)
        .map((r) => r.id)
    )
    expect(idsOf(list({ proposalState: "STATE_OPEN" }))).toEqual(
      rows
        .filter((r) => r.state === "STATE_OPEN")
        .sort(byTimeDesc)
        .map((r) => r.id)
    )
    expect(idsOf(list({ proposalType: "TYPE_NEW_FREE_FORM" }))).toEqual(
      expectedOrder(rows.filter((r) => r.kind === "newFreeform")).map((r) => r.id)
    )
    expect(idsOf(list({ proposalType: "TYPE_ALL" }))).toEqual(expectedOrder(rows).map((r) => r.id))
    expect(idsOf(list({ proposalType: "TYPE_UNSPECIFIED" }))).toEqual([])
    expect(idsOf(list({ proposalType: "TYPE_NEW_MARKET" }))).toEqual([])
    const party = rows[0].party.id
    expect(idsOf(list({ proposerPartyId: party.toUpperCase() }))).toEqual(
      expectedOrder(rows.filter((r) => r.party.id === party)).map((r) => r.id)
    )
    expect(idsOf(list({ proposerPartyId: "xyz" }))).toEqual([])

    const one = list({ proposalReference: rows[2].reference })
    expect(idsOf(one)).toEqual([rows[2].id])
    expect(one.pageInfo.startCursor).toBe(one.edges[0].cursor)
    expect(errorOf(call(nodeOf(world), "/api/v2/governances", { proposalReference: "nope" }))).toEqual([
      404,
      170001,
      "failed to get proposal",
      "proposalReference: nope: no resource corresponding to this id"
    ])
  })

  it("answers a cursor that does not decode with the store's error", () => {
    const after = Buffer.from('{"state":"open"}').toString("base64")
    expect(errorOf(call(nodeOf(world), "/api/v2/governances", { "pagination.after": after }))).toEqual([
      500,
      170002,
      "failed to get proposals",
      "ProposerPartyId: : json: cannot unmarshal string into Go struct field ProposalCursor.state of type entities.ProposalState"
    ])
  })
})

describe("GetGovernanceData", () => {
  it("answers a proposal by id or reference, with its votes", () => {
    const row = current().find((r) => (world.governance.votesByProposal.get(r.id)?.length ?? 0) > 2)!
    const byId = get({ proposalId: row.id })
    const data = decoded(DataNode.GetGovernanceDataResponse, byId).data!
    expect(data.proposal!.id).toBe(row.id)
    expect(get({ reference: row.reference }).body).toBe(byId.body)
    const all = [...data.yes, ...data.no]
    expect(all.length).toBe(new Set(world.governance.votesByProposal.get(row.id)!.map((v) => v.party.id)).size)
    expect(data.yes.every((v) => v.value === "VALUE_YES")).toBe(true)
    const parties = data.yes.map((v) => v.partyId as string)
    expect(parties).toEqual([...parties].sort())
  })

  it("answers the node's errors", () => {
    expect(errorOf(get({}))).toEqual([400, 10022, "missing proposal ID or reference", ""])
    expect(errorOf(get({ proposalId: "ab".repeat(32) }))).toEqual([
      404,
      170001,
      "failed to get proposal",
      `proposalID: ${"ab".repeat(32)}, reference: : no resource corresponding to this id`
    ])
    expect(errorOf(get({ proposalId: "xyz" }))).toEqual([
      400,
      170001,
      "failed to get proposal",
      "proposalID: xyz, reference: : not a valid hex id (or well known exception)"
    ])
  })
})

describe("ListVotes", () => {
  it("lists each party's latest vote on a proposal or by a party, by the vote's time", () => {
    // an open proposal: its votes have a block each (the close writes them all at one time, and
    // the node's cursor, by time only, cannot page through such ties)
    const row = current().find(
      (r) => r.state === "STATE_OPEN" && (world.governance.votesByProposal.get(r.id)?.length ?? 0) > 4
    )!
    const all = votes({ proposalId: row.id, "pagination.first": 1000 })
    const times = all.edges.map((e) => JSON.parse(cursorJson(e.cursor)).vega_time as string)
    expect(times).toEqual([...times].sort().reverse())
    const paged = walk((after) => {
      const page = votes({
        proposalId: row.id,
        "pagination.first": 2,
        ...(after === undefined ? {} : { "pagination.after": after })
      })
      return {
        nodes: page.edges.map((e) => e.node.partyId),
        next: page.pageInfo.hasNextPage,
        end: page.pageInfo.endCursor
      }
    })
    expect(new Set(paged)).toEqual(new Set(all.edges.map((e) => e.node.partyId)))
    // before the close, each vote's time is when it was cast: the time its cursor has
    for (const e of all.edges) {
      const micros = rfc3339ToMicros(JSON.parse(cursorJson(e.cursor)).vega_time)!
      expect(String(e.node.timestamp)).toBe(String(BigInt(micros) * 1000n))
    }
    const party = all.edges[0].node.partyId
    const mine = votes({ partyId: party, "pagination.first": 1000 })
    expect(mine.edges.every((e) => e.node.partyId === party)).toBe(true)
    expect(mine.edges.map((e) => e.node.proposalId)).toContain(row.id)
    expect(votes({ partyId: party, proposalId: row.id }).edges.length).toBe(1)
  })

  it("needs a party or a proposal", () => {
    expect(errorOf(call(nodeOf(world), "/api/v2/votes", {}))).toEqual([
      400,
      10023,
      "missing proposal id and party id",
      ""
    ])
    expect(errorOf(call(nodeOf(world), "/api/v2/votes", { partyId: "xyz" }))[0]).toBe(400)
  })
})

const streamed = <A, I>(schema: Schema.Schema<A, I>, rest: unknown): unknown =>
  JSON.parse(JSON.stringify(Schema.encodeSync(StreamForm.make(schema))(Schema.decodeUnknownSync(schema)(rest))))

const drain = async (client: SocketClient, ms = 400): Promise<Array<any>> => {
  await sleep(ms)
  const out: Array<any> = []
  while (client.frames.pending.length > 0) out.push(JSON.parse(await client.frames.next()))
  return out
}

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

describe("the governance streams", () => {
  it.scopedLive(
    "send each proposal change and each vote, in stream form",
    () =>
      Effect.gen(function* () {
        const sim = yield* Simulator.make({
          seed: 5,
          scale: { epochs: 2, positions: 100, stakeLinkings: 50 },
          activity: { proposalChance: 0.5 }
        })
        const governance = yield* promise(() => connect(sim.url, "/api/v2/stream/governance"))
        const allVotes = current(sim.world).filter((r) => r.state === "STATE_OPEN")
        const voter = sim.world.catalog.parties[1].id
        const mine = yield* promise(() => connect(sim.url, `/api/v2/stream/votes?partyId=${voter}`))
        const missing = yield* promise(() => connect(sim.url, "/api/v2/stream/votes"))
        yield* promise(() => sleep(100))
        const start = sim.world.height
        yield* sim.advance(30)
        const frames = yield* promise(() => drain(governance))
        const changes = sim.world.governance.placed.flatMap((p) =>
          sim.world.governance.byId.get(p.id)!.filter((v) => v.from > start)
        )
        expect(frames.length).toBeGreaterThanOrEqual(changes.length)
        expect(frames.length).toBeGreaterThan(0)
        const ids = new Set(frames.map((f) => f.result.data.proposal.id))
        for (const change of changes) expect(ids.has(change.id)).toBe(true)
        // each frame is the REST governance data of that state, in stream form
        const last = frames.at(-1).result.data
        const rest = JSON.parse(
          call(nodeOf(sim.world), "/api/v2/governance", { proposalId: last.proposal.id }).body
        ).data
        if (sim.world.governance.current(last.proposal.id)!.from <= sim.world.height) {
          expect(last).toEqual(streamed(Vega.GovernanceData, rest))
        }
        const votesSeen = (yield* promise(() => drain(mine))).map((f) => f.result.vote)
        expect(votesSeen.every((v) => v.partyId === voter)).toBe(true)
        const missed = yield* promise(() => drain(missing, 50))
        expect(missed[0]?.error?.details?.[0]?.message ?? missed[0]?.error?.message).toMatch(
          /missing proposal id or party id/
        )
        expect(allVotes).toBeDefined()
      }),
    30_000
  )

  it.scopedLive(
    "follow a proposal's votes, or none as the v0.75 node with its quirks",
    () =>
      Effect.gen(function* () {
        for (const quirks of ["none", "v0.75"] as const) {
          const sim = yield* Simulator.make({
            seed: 5,
            quirks,
            scale: { epochs: 2, positions: 100, stakeLinkings: 50 },
            activity: { proposalChance: 0.5 }
          })
          const open = current(sim.world).filter((r) => r.state === "STATE_OPEN")
          const clients = yield* promise(() =>
            Promise.all(open.map((p) => connect(sim.url, `/api/v2/stream/votes?proposalId=${p.id}`)))
          )
          yield* promise(() => sleep(100))
          yield* sim.advance(20)
          const got = yield* promise(() => Promise.all(clients.map((c) => drain(c, 200))))
          const total = got.flat().length
          if (quirks === "none") {
            expect(total).toBeGreaterThan(0)
            got.forEach((frames, i) => expect(frames.every((f) => f.result.vote.proposalId === open[i].id)).toBe(true))
          } else expect(total).toBe(0)
        }
      }),
    30_000
  )
})
