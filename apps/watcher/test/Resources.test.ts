/**
 * The tables derived from the definitions (`Resources.ts`): each follows the registry, so a
 * resource listed there is named, configured, sharded, read, fed live and shown everywhere.
 */
import type { DataNodeClient } from "@vega-effect/http"
import type { EventBus } from "@vega-effect/schema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { describe, expect, it } from "vitest"
import { Watch, WatcherConfig } from "../src/Config.js"
import { makeEvent } from "../src/Event.js"
import { liveItems } from "../src/live/Sources.js"
import * as Catalog from "../src/ResourceCatalog.js"
import { SHARED_BUS } from "../src/ResourceDefinition.js"
import { allDefinitions, definitionOf, resourceNames } from "../src/Resources.js"
import { shardOf } from "../src/Shard.js"
import * as ConsoleSink from "../src/sinks/ConsoleSink.js"
import { resourceSlices, shardCounts, sliceName, sliceOfRow } from "../src/Slice.js"
import { slicesOf } from "../src/Work.js"

const A = "a".repeat(64)
const B = "b".repeat(64)

describe("the resource definitions", () => {
  it("list the resources in report order", () => {
    expect(resourceNames).toEqual([
      "positions",
      "liquidity",
      "signerBundles",
      "profiles",
      "rewards",
      "referrals",
      "stake"
    ])
  })

  it("are the catalog's resources, in its order, each with its label and shared filters", () => {
    expect(Catalog.names).toEqual(resourceNames)
    expect(allDefinitions.map(({ label, name, sharedFilters }) => ({ name, label, sharedFilters }))).toEqual(
      Catalog.entries
    )
  })

  it("make the watch configuration: one section per resource, in report order, each enabled by default", () => {
    expect(Object.keys(Watch.fields)).toEqual(resourceNames)
    const watch = Schema.decodeSync(Watch)({})
    expect(Object.keys(watch)).toEqual(resourceNames)
    for (const name of resourceNames) expect(watch[name]).toEqual({ enabled: true })
  })

  it("make each section's fields: enabled, then the definition's options", () => {
    for (const definition of allDefinitions) {
      const section = Watch.fields[definition.name].from as unknown as Schema.Struct<Schema.Struct.Fields>
      expect(Object.keys(section.fields)).toEqual(["enabled", ...Object.keys(definition.options)])
    }
  })

  it("give the shard counts, which the stored state depends on", () => {
    expect(shardCounts).toEqual({
      positions: 16,
      stake: 16,
      liquidity: 1,
      signerBundles: 1,
      profiles: 1,
      rewards: 1,
      referrals: 1
    })
  })

  it("say which slice a stored row belongs to: positions by the market of the key, stake by the row's party", () => {
    expect(sliceOfRow("positions", `${A}/${B}`, {})).toBe(`positions:${shardOf(A, 16)}`)
    expect(sliceOfRow("stake", "available/x", { partyId: B })).toBe(`stake:${shardOf(B, 16)}`)
    expect(sliceOfRow("stake", "1".repeat(64), { party: A })).toBe(`stake:${shardOf(A, 16)}`)
    expect(sliceOfRow("profiles", A, { partyId: A })).toBe("profiles")
  })

  it("make a reader for every slice of every enabled resource", async () => {
    const config = Schema.decodeSync(WatcherConfig)({ watch: { rewards: { enabled: false } } })
    // the id lists are read only when a slice is read
    const client = { markets: () => Stream.empty, partiesProfiles: () => Stream.empty }
    const specs = await Effect.runPromise(slicesOf(client as unknown as DataNodeClient.Service, config))
    const enabled = resourceNames.filter((name) => name !== "rewards")
    expect(specs.map((spec) => spec.slice)).toEqual(resourceSlices(enabled))
    expect(specs.map((spec) => spec.resource)).toEqual(
      enabled.flatMap((name) => Array.from({ length: shardCounts[name] }, () => name))
    )
    expect(specs.filter((spec) => spec.slice === sliceName("profiles", 0)).map((spec) => spec.make().name)).toEqual([
      "profiles"
    ])
  })

  it("give the console each resource's main fields, best first", () => {
    const at = { height: 1, time: "2024-04-01T00:00:00Z", node: "n" }
    for (const definition of allDefinitions) {
      const row = Object.fromEntries([["zz", "9"], ...definition.mainFields.map((field) => [field, "7"] as const)])
      const line = ConsoleSink.render(makeEvent(definition.name, "k", { kind: "x.created" }, at, null, row), {
        colors: false
      })
      expect(line).toContain(`${definition.mainFields[0]} 7`)
      expect(line).not.toContain("zz 9")
    }
    expect(definitionOf.positions.mainFields[0]).toBe("openVolume")
  })

  it("subscribe every bus event type and open every stream a watched resource needs", () => {
    const subscriptions: Array<ReadonlyArray<EventBus.BusEventType>> = []
    const opened: Array<string> = []
    const client = {
      observeEventBus: (request: { readonly types: ReadonlyArray<EventBus.BusEventType> }) => {
        subscriptions.push(request.types)
        return Stream.empty
      },
      observePositions: () => {
        opened.push("positions")
        return Stream.empty
      },
      observeLiquidityProvisions: () => {
        opened.push("liquidity")
        return Stream.empty
      }
    } as unknown as DataNodeClient.Service
    // nothing ends here: no outage is told
    const outages = { failed: () => Effect.void, answered: () => Effect.void, readFailed: () => Effect.void }
    liveItems(client, { resources: resourceNames, idleTimeout: "15 seconds", outages })
    const buses = new Set(allDefinitions.flatMap((d) => (d.live._tag === "Bus" ? [d.live.subscription] : [])))
    expect(subscriptions).toHaveLength(buses.size)
    expect(buses.has(SHARED_BUS)).toBe(true)
    const subscribed = new Set(subscriptions.flat())
    for (const definition of allDefinitions) {
      if (definition.live._tag === "Bus") {
        for (const type of definition.live.types) expect(subscribed.has(type)).toBe(true)
      } else {
        expect(opened).toContain(definition.live.stream)
      }
    }
    expect(subscribed.has("BUS_EVENT_TYPE_TIME_UPDATE")).toBe(true)
  })
})
