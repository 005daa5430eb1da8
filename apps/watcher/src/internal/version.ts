/**
 * The watcher's version: its package.json's, the one place it is written. `scripts/bundle.mjs`
 * writes it into the bundle (`dist/bin.js` runs without a package.json beside it); the sources,
 * run through tsx, read it.
 */
import { createRequire } from "node:module"

/** Defined by `scripts/bundle.mjs` (esbuild `define`) as the version's text; absent in the sources. */
declare const VEGA_WATCHER_VERSION: string | undefined

export const VERSION: string =
  typeof VEGA_WATCHER_VERSION === "string"
    ? VEGA_WATCHER_VERSION
    : (createRequire(import.meta.url)("../../package.json") as { readonly version: string }).version
