import { it } from "@effect/vitest"
import { Encoder, SignerBundle } from "@vega-effect/schema"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import type { Row } from "../../src/Event.js"
import { bundleKey, diff, make, signatureCount } from "../../src/resources/signerBundles.js"
import { applied, simulated, stored, contextOf } from "./support.js"

const signature = (byte: string) => byte.repeat(65)
const bundle = (overrides: Partial<Record<string, string>> = {}): Row => ({
  nodeId: "ab".repeat(32),
  newSigner: "0x" + "1".repeat(40),
  submitter: "0x" + "2".repeat(40),
  nonce: "1711965001",
  timestamp: "1711965012345678000",
  signatures: "0x" + signature("aa") + signature("bb") + signature("cc"),
  epochSeq: "42",
  ...overrides
})

describe("signer bundle changes", () => {
  it.each([
    ["empty", "", 0],
    ["one", "0x" + signature("01"), 1],
    ["three", "0x" + signature("01") + signature("02") + signature("03"), 3],
    ["a trailing partial signature is not one", "0x" + signature("01") + "ff", 1]
  ])("counts 65-byte signatures: %s", (_, signatures, count) => {
    expect(signatureCount(signatures)).toBe(count)
  })

  const cases: ReadonlyArray<readonly [string, Row | undefined, Row | undefined, ReadonlyArray<unknown>]> = [
    [
      "a new bundle is added, with its node, epoch, signature count and addresses",
      undefined,
      bundle(),
      [
        {
          kind: "signer_bundle.added",
          details: {
            node: "ab".repeat(32),
            epoch: "42",
            signatures: 3,
            newSigner: "0x" + "1".repeat(40),
            submitter: "0x" + "2".repeat(40)
          }
        }
      ]
    ],
    [
      "an unknown node is reported as empty",
      undefined,
      bundle({ nodeId: "", signatures: "" }),
      [
        {
          kind: "signer_bundle.added",
          details: {
            node: "",
            epoch: "42",
            signatures: 0,
            newSigner: "0x" + "1".repeat(40),
            submitter: "0x" + "2".repeat(40)
          }
        }
      ]
    ],
    ["the same bundle read again is no event", bundle(), bundle(), []],
    [
      "signatures gained later are a change",
      bundle({ signatures: "0x" + signature("aa") }),
      bundle(),
      [
        {
          kind: "signer_bundle.changed",
          details: {
            node: "ab".repeat(32),
            epoch: "42",
            signatures: 3,
            newSigner: "0x" + "1".repeat(40),
            submitter: "0x" + "2".repeat(40),
            signaturesBefore: 1,
            fields: ["signatures"]
          }
        }
      ]
    ],
    ["nothing before and after is nothing", undefined, undefined, []]
  ]
  it.each(cases)("%s", (_, before, after, expected) => {
    expect(diff(before, after)).toEqual(expected)
  })

  it("keys are node, epoch and nonce; an unknown node is '-'", () => {
    expect(bundleKey("", { epochSeq: "7", nonce: "100" })).toBe("-/7/100")
    expect(bundleKey("cd".repeat(32), { epochSeq: "7", nonce: "100" })).toBe(`${"cd".repeat(32)}/7/100`)
  })
})

const encodeBundle = Encoder.encodeSync(SignerBundle.SignerAddedBundle)

const setup = Effect.gen(function* () {
  return yield* simulated({
    seed: 11,
    blocksPerEpoch: 5,
    scale: {
      parties: 20,
      assets: 2,
      markets: 2,
      validators: 4,
      positions: 20,
      stakeLinkings: 10,
      liquidityProvisions: 2,
      referralSets: 1,
      refereesPerSet: 2,
      signerBundles: 6,
      epochs: 4
    },
    activity: { bundleEveryEpochs: 1 }
  })
})

describe("reading signer bundles from a simulator", () => {
  it.scopedLive("a first read holds every bundle the node serves, with the node unknown", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* setup
      const snapshot = yield* make(client, { enabled: true }).read(contextOf(new Map()))
      const served = (yield* client.listSignerAddedBundles({ pagination: { first: 5000 } })).bundles.edges
      expect(served.length).toBeGreaterThanOrEqual(6)
      expect(served.length).toBe(sim.world.signerBundles.rows.filter((r) => r.from <= sim.world.height).length)
      expect(snapshot.complete).toBe(false)
      expect(snapshot.rows.size).toBe(served.length)
      for (const { node } of served) {
        const row = { nodeId: "", ...encodeBundle(node) }
        expect(snapshot.rows.get(`-/${row.epochSeq}/${row.nonce}`)).toEqual(row)
      }
    })
  )

  it.scopedLive("an incremental read stops at the first held bundle; merged, it equals a full read", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* setup
      const resource = make(client, { enabled: true })
      const first = yield* resource.read(contextOf(new Map()))
      const previous = stored(first.rows)
      yield* sim.advance(5 * 4)
      const incremental = yield* resource.read(contextOf(previous))
      const full = yield* resource.read(contextOf(new Map()))
      const added = [...full.rows.keys()].filter((key) => !previous.has(key))
      expect(added.length).toBeGreaterThanOrEqual(4)
      // the new bundles plus the newest held one, which shows late signatures; nothing older
      expect(incremental.rows.size).toBe(added.length + 1)
      expect(incremental.rows.size).toBeLessThan(full.rows.size)
      const merged = applied(previous, incremental)
      expect(merged).toEqual(stored(full.rows))
      // the boundary bundle is unchanged: no event for it, one `added` per new bundle
      const events = [...incremental.rows].flatMap(([key, row]) =>
        resource.diff(first.rows.get(key), row, { asset: () => undefined })
      )
      expect(events.map((e) => e.kind)).toEqual(added.map(() => "signer_bundle.added"))
    })
  )

  it.scopedLive("with nodes configured, each bundle is read for its node and keyed by it", () =>
    Effect.gen(function* () {
      const { client, sim } = yield* setup
      const nodes = sim.world.catalog.validators.map((v) => v.nodeId)
      const snapshot = yield* make(client, { enabled: true, nodes }).read(contextOf(new Map()))
      const all = yield* make(client, { enabled: true }).read(contextOf(new Map()))
      expect(snapshot.rows.size).toBe(all.rows.size)
      for (const nodeId of nodes) {
        const served = (yield* client.listSignerAddedBundles({ nodeId, pagination: { first: 5000 } })).bundles.edges
        const mine = [...snapshot.rows].filter(([, row]) => row.nodeId === nodeId)
        expect(mine.length).toBe(served.length)
        for (const [key, row] of mine) expect(key).toBe(`${nodeId}/${row.epochSeq}/${row.nonce}`)
      }
      const one = yield* make(client, { enabled: true, nodes: [nodes[0]] }).read(contextOf(new Map()))
      expect([...one.rows.values()].every((row) => row.nodeId === nodes[0])).toBe(true)
    })
  )
})
