/**
 * `Simulator.make`'s options checked as they arrive: JavaScript callers and hand-built
 * configuration can pass anything, and an unusable option should be a `ConfigError` naming it,
 * not a `TypeError` from deep inside the world or a port Node refuses.
 */
import { Input } from "@vega-effect/schema"
import * as ConfigError from "effect/ConfigError"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { NodeOptions, Options } from "../Simulator.js"
import { NODE_VERSIONS } from "./api/nodeVersion.js"

type Problem = readonly [path: string, message: string]
type Fields = Readonly<Record<string, unknown>>

const QUIRKS: ReadonlyArray<unknown> = ["none", "v0.75"]

const isDuration = (u: unknown): boolean => Option.isSome(Duration.decodeUnknown(u))
const isCount = (u: unknown, min = 0): boolean => typeof u === "number" && Number.isInteger(u) && u >= min
const isPort = (u: unknown): boolean => isCount(u) && (u as number) <= 65535
const isBoolean = (u: unknown): boolean => typeof u === "boolean"
const isText = Input.isNonEmptyString

/** The first member of `fields` present and not accepted by its check. */
const firstProblem = (
  fields: Fields,
  checks: ReadonlyArray<readonly [name: string, check: (u: unknown) => boolean, expected: string]>,
  prefix = ""
): Problem | undefined => {
  for (const [name, check, expected] of checks) {
    const value = fields[name]
    if (value !== undefined && !check(value))
      return [`${prefix}${name}`, `Expected ${expected}, got ${Input.show(value)}`]
  }
  return undefined
}

const worldProblem = (options: Fields): Problem | undefined =>
  firstProblem(options, [
    ["seed", (u) => typeof u === "number" || isText(u), "a number or a non-empty string"],
    ["scale", Input.isRecord, "an object"],
    ["activity", Input.isRecord, "an object"],
    ["blocksPerEpoch", (u) => isCount(u, 1), "an integer from 1"],
    ["genesis", (u) => isText(u) && !Number.isNaN(Date.parse(u)), "an RFC 3339 time"],
    ["chainId", isText, "a non-empty chain id"],
    ["fundingPeriodSeconds", (u) => isCount(u, 1), "an integer from 1"],
    ["quirks", (u) => QUIRKS.includes(u), `one of ${QUIRKS.join(", ")}`],
    ["nodeVersion", (u) => NODE_VERSIONS.includes(u as never), `one of ${NODE_VERSIONS.join(", ")}`],
    ["blockInterval", (u) => u === "manual" || isDuration(u), 'a duration or "manual"'],
    ["spam", Input.isRecord, "an object"],
    ["tradingEnabled", isBoolean, "a boolean"]
  ])

const nodeProblem = (node: unknown, index: number): Problem | undefined => {
  const prefix = `nodes.${index}.`
  if (!Input.isRecord(node)) return [`nodes.${index}`, `Expected a node's options (an object), got ${Input.show(node)}`]
  return firstProblem(
    node,
    [
      ["name", isText, "a non-empty name"],
      ["port", isPort, "a port from 0 to 65535"],
      ["host", isText, "a host name or address"],
      ["lag", isCount, "an integer from 0"],
      ["frozen", isBoolean, "a boolean"],
      ["faults", Input.isRecord, "an object"],
      ["rateLimit", (u) => isBoolean(u) || Input.isRecord(u), "a boolean or an object"],
      ["commitWindow", isDuration, "a duration"]
    ],
    prefix
  )
}

/** `options` (absent: none) when every member it has is usable, else what is wrong with the first that is not. */
export const checkOptions = (options: unknown): Either.Either<Options, ConfigError.ConfigError> => {
  const given = options === undefined ? {} : options
  const problem = !Input.isRecord(given)
    ? (["", `Expected the simulator's options (an object), got ${Input.show(given)}`] as const)
    : (worldProblem(given) ?? nodesProblem(given.nodes))
  if (problem === undefined) return Either.right(given as Options)
  const [path, message] = problem
  return Either.left(ConfigError.InvalidData(path === "" ? [] : path.split("."), message))
}

const nodesProblem = (nodes: unknown): Problem | undefined => {
  if (nodes === undefined) return undefined
  if (!Array.isArray(nodes) || nodes.length === 0) {
    return ["nodes", `Expected a non-empty array of nodes' options, got ${Input.show(nodes)}`]
  }
  return nodes.reduce<Problem | undefined>((found, node: NodeOptions, i) => found ?? nodeProblem(node, i), undefined)
}
