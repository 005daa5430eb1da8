/**
 * The watcher's version: its package.json's, the one place it is written. `scripts/bundle-app.mjs`
 * (at the repository root) writes it into the bundle (`dist/bin.js` runs without a package.json
 * beside it); the sources, run through tsx, read it.
 */
import { createRequire } from "node:module"

/** Defined by `scripts/bundle-app.mjs` (esbuild `define`) as the version's text; absent in the sources. */
declare const VEGA_EFFECT_APP_VERSION: string | undefined

export const VERSION: string =
  typeof VEGA_EFFECT_APP_VERSION === "string"
    ? VEGA_EFFECT_APP_VERSION
    : (createRequire(import.meta.url)("../../package.json") as { readonly version: string }).version
