/**
 * What the command line says of each resource, in report order: its name, its label and the
 * shared filters (`--party`, `--market`) that apply to it. Each definition takes these from here
 * (see `Resources.ts`, whose order this is too), so that `--help` can say them without loading the
 * definitions, their readers and the client they read with.
 */
import type { SharedFilter } from "./ResourceDefinition.js"

export const catalog = {
  positions: { name: "positions", label: "positions", sharedFilters: ["parties", "markets"] },
  liquidity: { name: "liquidity", label: "liquidity", sharedFilters: ["parties", "markets"] },
  signerBundles: { name: "signerBundles", label: "signer bundles", sharedFilters: [] },
  profiles: { name: "profiles", label: "profiles", sharedFilters: ["parties"] },
  rewards: { name: "rewards", label: "rewards", sharedFilters: ["parties"] },
  referrals: { name: "referrals", label: "referrals", sharedFilters: [] },
  stake: { name: "stake", label: "stake", sharedFilters: ["parties"] }
} as const satisfies Record<
  string,
  { readonly name: string; readonly label: string; readonly sharedFilters: ReadonlyArray<SharedFilter> }
>

export type CatalogName = keyof typeof catalog

/** The entries in report order. */
export const entries = Object.values(catalog)

/** The names in report order. */
export const names: ReadonlyArray<CatalogName> = entries.map((entry) => entry.name)

/** The resources a shared filter applies to, in report order. */
export const filteredBy = (field: SharedFilter): ReadonlyArray<CatalogName> =>
  entries.filter((entry) => (entry.sharedFilters as ReadonlyArray<SharedFilter>).includes(field)).map((e) => e.name)
