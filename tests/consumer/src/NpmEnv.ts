/**
 * The environment npm and npx run in here: a user's shell's, which holds no `npm_config_*`
 * variables. pnpm passes its whole configuration to the scripts it runs as such variables
 * (`catalog`, `overrides`, `verify-deps-before-run`, ...), and npm warns of each one it does not
 * know on every command (`npm warn Unknown env config "catalog"`): lines that say nothing about the
 * packages, and that a user never sees. npm reads its own settings from its configuration files.
 */

/** `env` without the `npm_config_*` variables (names compared without case, as npm reads them). */
export const npmEnv = (env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(env).filter(([key]) => !key.toLowerCase().startsWith("npm_config_")))
