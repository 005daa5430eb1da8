/**
 * The README's table of the routes the simulated node serves, by domain, made from the simulator's
 * own route registry against the endpoint table: what it lists is what a request can reach.
 */
import * as DataNodeApi from "@vega-effect/schema/DataNodeApi"
import type * as Endpoint from "@vega-effect/schema/Endpoint"
import { routes, streamRoutes } from "../../src/internal/api/routes.js"

export const BEGIN = "<!-- served routes: written by test/ReadmeRoutes.test.ts -->"
export const END = "<!-- /served routes -->"

const table = DataNodeApi as unknown as Readonly<Record<string, Endpoint.Any>>

const served = new Set([...routes, ...streamRoutes].map((route) => route.path))

export const counts = (): { readonly served: number; readonly all: number } => {
  const names = Object.values(DataNodeApi.domains).flat()
  return { served: names.filter((name) => served.has(table[name].path)).length, all: names.length }
}

export const render = (): string => {
  const rows = Object.entries(DataNodeApi.domains).map(([domain, names]) => {
    const [yes, no] = [names.filter((n) => served.has(table[n].path)), names.filter((n) => !served.has(table[n].path))]
    return `| ${domain} | ${yes.map((n) => `\`${n}\``).join(", ")} | ${no.map((n) => `\`${n}\``).join(", ")} |`
  })
  const { all, served: count } = counts()
  return [
    BEGIN,
    "",
    `${count} of the ${all} routes are served; the others answer 404, as a path the gateway does not know.`,
    "",
    "| Domain | Served | Not yet served |",
    "| --- | --- | --- |",
    ...rows,
    "",
    END
  ].join("\n")
}
