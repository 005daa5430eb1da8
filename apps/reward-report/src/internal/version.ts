/**
 * The reward report's version: its package.json's, the one place it is written, read when the
 * sources run.
 */
import { createRequire } from "node:module"

export const VERSION: string = (createRequire(import.meta.url)("../../package.json") as { readonly version: string })
  .version
