import { it } from "@effect/vitest"
import { Encoder, PartyProfile } from "@vega-effect/schema"
import { Effect, Stream } from "effect"
import { describe, expect } from "vitest"
import type { Row } from "../../src/Event.js"
import { diff, make } from "../../src/resources/profiles.js"
import { simulated, contextOf } from "./support.js"

const party = "a1".repeat(32)
const profile = (alias: string, metadata: ReadonlyArray<readonly [string, string]>): Row => ({
  partyId: party,
  alias,
  metadata: metadata.map(([key, value]) => ({ key, value }))
})

describe("profile changes", () => {
  const cases: ReadonlyArray<readonly [string, Row | undefined, Row | undefined, ReadonlyArray<unknown>]> = [
    [
      "a new party's profile is created",
      undefined,
      profile("whale", [["twitter", "@w"]]),
      [{ kind: "profile.created", details: { alias: "whale", metadata: ["twitter"] } }]
    ],
    [
      "a party with no profile yet is created too",
      undefined,
      profile("", []),
      [{ kind: "profile.created", details: { alias: "", metadata: [] } }]
    ],
    ["the same profile is no event", profile("whale", [["a", "1"]]), profile("whale", [["a", "1"]]), []],
    [
      "metadata merely reordered is no event",
      profile("whale", [
        ["a", "1"],
        ["b", "2"]
      ]),
      profile("whale", [
        ["b", "2"],
        ["a", "1"]
      ]),
      []
    ],
    [
      "an alias set for the first time",
      profile("", []),
      profile("maker-01", []),
      [{ kind: "profile.alias_changed", details: { from: "", to: "maker-01" } }]
    ],
    [
      "an alias cleared",
      profile("maker-01", []),
      profile("", []),
      [{ kind: "profile.alias_changed", details: { from: "maker-01", to: "" } }]
    ],
    [
      "metadata keys added, removed and changed, each sorted",
      profile("x", [
        ["website", "a"],
        ["discord", "d"],
        ["github", "g"]
      ]),
      profile("x", [
        ["website", "b"],
        ["twitter", "t"],
        ["github", "g"],
        ["telegram", "tg"]
      ]),
      [
        {
          kind: "profile.metadata_changed",
          details: { added: ["telegram", "twitter"], removed: ["discord"], changed: ["website"] }
        }
      ]
    ],
    [
      "alias and metadata at once: two events",
      profile("a", []),
      profile("b", [["k", "v"]]),
      [
        { kind: "profile.alias_changed", details: { from: "a", to: "b" } },
        { kind: "profile.metadata_changed", details: { added: ["k"], removed: [], changed: [] } }
      ]
    ],
    [
      "another field of a newer node",
      profile("a", []),
      { ...profile("a", []), derivedKeys: ["ff".repeat(32)] },
      [{ kind: "profile.changed", details: { fields: ["derivedKeys"] } }]
    ],
    [
      "a party gone from a complete read",
      profile("a", [["k", "v"]]),
      undefined,
      [{ kind: "profile.removed", details: { alias: "a", metadata: ["k"] } }]
    ]
  ]
  it.each(cases)("%s", (_, before, after, expected) => {
    expect(diff(before, after)).toEqual(expected)
  })
})

const encodeProfile = Encoder.encodeSync(PartyProfile.PartyProfile)

const setup = (quirks: "none" | "v0.75" = "none") =>
  Effect.gen(function* () {
    return yield* simulated({
      seed: 5,
      blocksPerEpoch: 5,
      quirks,
      scale: {
        parties: 120,
        assets: 2,
        markets: 2,
        validators: 3,
        positions: 20,
        stakeLinkings: 10,
        liquidityProvisions: 2,
        referralSets: 1,
        refereesPerSet: 2,
        signerBundles: 1,
        profileShare: 0.4,
        epochs: 3
      },
      activity: { profileChanges: 10 }
    })
  })

describe("reading profiles from a simulator", () => {
  it.scopedLive("a complete read holds every party the node lists, keyed by party id", () =>
    Effect.gen(function* () {
      const { client } = yield* setup()
      const snapshot = yield* make(client, { enabled: true }).read(contextOf(new Map()))
      const served = (yield* client.listPartiesProfiles({ pagination: { first: 5000 } })).profiles.edges
      expect(served.length).toBeGreaterThan(120)
      expect(snapshot.complete).toBe(true)
      expect(snapshot.rows.size).toBe(served.length)
      for (const { node } of served) expect(snapshot.rows.get(node.partyId)).toEqual(encodeProfile(node))
      expect(snapshot.rows.get("network")).toMatchObject({ alias: "network" })
      expect([...snapshot.rows.values()].some((row) => row.alias !== "" && row.alias !== "network")).toBe(true)
    })
  )

  it.scopedLive("a parties filter longer than one request reads exactly those parties", () =>
    Effect.gen(function* () {
      const { client } = yield* setup()
      const all = yield* make(client, { enabled: true }).read(contextOf(new Map()))
      const parties = [...all.rows.keys()].filter((id) => id !== "network").slice(0, 73)
      const some = yield* make(client, { enabled: true, parties }).read(contextOf(new Map()))
      expect([...some.rows.keys()].sort()).toEqual([...parties].sort())
      for (const id of parties) expect(some.rows.get(id)).toEqual(all.rows.get(id))
    })
  )

  it.scopedLive("profiles changed by later blocks show as alias and metadata changes", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* setup()
      const resource = make(client, { enabled: true })
      const before = yield* resource.read(contextOf(new Map()))
      yield* sim.advance(15)
      const after = yield* resource.read(contextOf(new Map()))
      const changed = [...after.rows].filter(
        ([key, row]) => JSON.stringify(before.rows.get(key)) !== JSON.stringify(row)
      )
      expect(changed.length).toBeGreaterThan(0)
      const kinds = new Set(
        changed
          .flatMap(([key, row]) => resource.diff(before.rows.get(key), row, { asset: () => undefined }))
          .map((e) => e.kind)
      )
      expect([...kinds].every((k) => k === "profile.alias_changed" || k === "profile.metadata_changed")).toBe(true)
      expect(kinds.has("profile.alias_changed")).toBe(true)
    })
  )

  it.scopedLive("a v0.75 node, which cannot page profiles by cursor, is read in one page", () =>
    Effect.gen(function* () {
      const { client } = yield* setup("v0.75")
      const snapshot = yield* make(client, { enabled: true }).read(contextOf(new Map()))
      expect(snapshot.rows.size).toBeGreaterThan(120)
      // paging by cursor fails there: the single page is what makes the read work
      const paged = yield* Effect.either(Stream.runCount(client.partiesProfiles({}, { pageSize: 50 })))
      expect(paged._tag === "Left" && paged.left._tag).toBe("InternalError")
    })
  )
})
