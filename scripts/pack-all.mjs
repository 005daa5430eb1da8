#!/usr/bin/env node
/**
 * The packages from a clone, for as long as they are not on the npm registry (or to try a change
 * before it is released): builds every published package (those under packages/ and apps/ that
 * are not private), packs each into `packed/` as `pnpm publish` would pack it (`workspace:` ranges
 * turned into versions), and, given arguments, installs with npm.
 *
 *   npx -y pnpm@10 pack:all                        # build and pack only: the tarballs in packed/
 *   npx -y pnpm@10 pack:install <npm install arguments>
 *
 * `pack:install` runs `npm install` with the arguments given, each `@vega-effect/<name>` replaced
 * by its tarball and the tarballs of the `@vega-effect` packages it depends on: a packed package
 * names its siblings by version, and npm would look for those on the registry. Everything else is
 * passed to npm as it is (`--prefix ../my-app`, `-g`, `effect@^3.22`, ...), npm running in the
 * clone's root with the user's own npm configuration, not the one pnpm passes to its scripts.
 *
 *   npx -y pnpm@10 pack:install --prefix ../my-app @vega-effect/http effect@^3.22 @effect/platform@^0.97
 *   npx -y pnpm@10 pack:install -g @vega-effect/watcher
 */
import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { basename, delimiter, dirname, join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const packed = join(root, "packed")
const scope = "@vega-effect/"

const fail = (message) => {
  console.error(`pack-all: ${message}`)
  process.exit(1)
}

/** Every package under packages/ and apps/ that is published (not private), by name. */
const published = new Map(
  ["packages", "apps"]
    .flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name)))
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }))
    .filter(({ manifest }) => manifest.private !== true)
    .map((workspace) => [workspace.manifest.name, workspace])
)

/** The package and, depth first, every `@vega-effect` package it depends on (a tarball's own dependencies). */
const closure = (name, into = new Set()) => {
  if (into.has(name)) return into
  into.add(name)
  const { dependencies = {}, peerDependencies = {}, optionalDependencies = {} } = published.get(name).manifest
  for (const dependency of Object.keys({ ...dependencies, ...peerDependencies, ...optionalDependencies }))
    if (dependency.startsWith(scope)) closure(dependency, into)
  return into
}

/** pnpm as it was started (`npx -y pnpm@10 pack:all`), or fetched on demand when run by node. */
const pnpm = (args, options) => {
  const execpath = process.env.npm_execpath
  return execpath !== undefined && basename(execpath).startsWith("pnpm")
    ? execFileSync(process.execPath, [execpath, ...args], options)
    : execFileSync("npx", ["-y", "pnpm@10", ...args], { ...options, shell: process.platform === "win32" })
}

const build = () => {
  const require = createRequire(join(root, "package.json"))
  let turbo
  try {
    turbo = require.resolve("turbo/bin/turbo")
  } catch {
    fail("the clone's dependencies are not installed: run `npx -y pnpm@10 install --frozen-lockfile` first")
  }
  const filters = [...published.keys()].map((name) => `--filter=${name}`)
  // turbo's report on stderr: stdout is the list of tarballs
  execFileSync(process.execPath, [turbo, "run", "build", ...filters, "--output-logs=errors-only"], {
    cwd: root,
    stdio: ["ignore", process.stderr, "inherit"]
  })
}

/** Packs every published package into packed/ (emptied first); returns the tarball of each, by name. */
const pack = () => {
  rmSync(packed, { recursive: true, force: true })
  mkdirSync(packed)
  const filters = [...published.keys()].flatMap((name) => ["--filter", name])
  // built above: packing runs no scripts (prepack would build each package once more)
  const output = pnpm(
    ["-r", ...filters, "pack", "--pack-destination", packed, "--json", "--config.ignore-scripts=true"],
    { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }
  )
  const tarballs = new Map(JSON.parse(output).map((p) => [p.name, p.filename]))
  for (const name of published.keys()) if (!tarballs.has(name)) fail(`pnpm pack did not pack ${name}`)
  return tarballs
}

/**
 * The npm install arguments, each package of ours replaced by the packages whose tarballs it needs
 * (checked before anything is built): `{ packages: [...] }` in place of the name.
 */
const plan = (args) => {
  const seen = new Set()
  return args.map((arg) => {
    if (!arg.startsWith(scope)) return arg
    if (arg.lastIndexOf("@") > 0) fail(`${arg}: name the package without a version, the clone's is the one packed`)
    if (!published.has(arg)) fail(`${arg} is not a published package (${[...published.keys()].join(", ")})`)
    const packages = [...closure(arg)].filter((name) => !seen.has(name))
    for (const name of packages) seen.add(name)
    return { packages }
  })
}

/**
 * The environment npm runs in: pnpm passes its own configuration to scripts as `npm_config_*`
 * (its global config file among them) and puts the clone's `node_modules/.bin` on the PATH; npm
 * gets neither, only what the user's shell had (`NPM_CONFIG_*` set there included).
 */
const npmEnvironment = () => {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^(npm|pnpm)_/.test(key) && key !== "PNPM_SCRIPT_SRC_DIR" && key !== "INIT_CWD"
    )
  )
  const path = Object.keys(env).find((key) => key.toUpperCase() === "PATH")
  if (path !== undefined)
    env[path] = env[path]
      .split(delimiter)
      .filter((entry) => !entry.startsWith(root + sep) && !entry.endsWith(join("pnpm", "dist", "node-gyp-bin")))
      .join(delimiter)
  return env
}

const [mode, ...args] = process.argv.slice(2)
if (mode !== undefined && mode !== "--install") fail(`unknown option ${mode} (pack:all takes none)`)
if (mode === "--install" && args.length === 0)
  fail("name what to install, as to npm install: pack:install --prefix ../my-app @vega-effect/http effect@^3.22")
const install = plan(args)

build()
const tarballs = pack()
for (const name of published.keys()) console.log(relative(root, tarballs.get(name)))

if (mode === "--install") {
  const npmArgs = [
    "install",
    ...install.flatMap((arg) => (typeof arg === "string" ? [arg] : arg.packages.map((name) => tarballs.get(name))))
  ]
  console.error(`npm ${npmArgs.map((arg) => (arg.startsWith(packed) ? relative(root, arg) : arg)).join(" ")}`)
  const npm = spawnSync("npm", npmArgs, {
    cwd: root,
    env: npmEnvironment(),
    stdio: "inherit",
    shell: process.platform === "win32"
  })
  process.exitCode = npm.status ?? 1
}
