/**
 * The environment npm and npx run in here: this process's, without the settings pnpm passes to
 * the scripts it runs as `npm_config_*` variables that npm does not know. npm warns of each on
 * every command (`npm warn Unknown env config "verify-deps-before-run"`), which filled the log of
 * CI's consumer step with lines that say nothing about the packages.
 */

/** pnpm's own settings among the `npm_config_*` variables it sets for scripts (pnpm 10). */
const PNPM_ONLY: ReadonlySet<string> = new Set(["npm_config_verify_deps_before_run", "npm_config__jsr_registry"])

/** `env` without pnpm's own settings (names compared without case, as npm reads them). */
export const npmEnv = (env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(env).filter(([key]) => !PNPM_ONLY.has(key.toLowerCase())))
