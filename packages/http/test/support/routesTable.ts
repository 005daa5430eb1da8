/**
 * The README's table of every route by domain, made from the endpoint table, so that it lists
 * what the client reaches and nothing else.
 */
import * as DataNodeApi from "@vega-effect/schema/DataNodeApi"
import type * as Endpoint from "@vega-effect/schema/Endpoint"
import * as RouteFacts from "@vega-effect/schema/RouteFacts"

export const BEGIN = "<!-- routes: written by test/ReadmeRoutes.test.ts -->"
export const END = "<!-- /routes -->"

const table = DataNodeApi as unknown as Readonly<Record<string, unknown>>

/** A route's name as the table shows it: marked when the node pages it in a way of its own, or it is a POST. */
const shown = (name: string): string => {
  const facts = RouteFacts.ROUTES[name]
  const special = facts !== undefined && (facts.paging._tag !== "Cursor" || facts.forwardOnly === true)
  const post = (table[name] as Endpoint.Any | undefined)?.method === "POST"
  return `\`${name}\`${special ? "\\*" : ""}${post ? "†" : ""}`
}

export const render = (): string => {
  const rows = Object.entries(DataNodeApi.domains).map(([domain, names]) => {
    const kinds = {
      one: [] as Array<string>,
      paged: [] as Array<string>,
      live: [] as Array<string>,
      file: [] as Array<string>
    }
    for (const name of names) {
      const endpoint = table[name] as Endpoint.Any | Endpoint.AnyStream | Endpoint.AnyFile
      if (DataNodeApi.streams.includes(endpoint as Endpoint.AnyStream)) kinds.live.push(shown(name))
      else if (DataNodeApi.files.includes(endpoint as Endpoint.AnyFile)) kinds.file.push(shown(name))
      else if ((endpoint as Endpoint.Any).connection !== undefined) kinds.paged.push(shown(name))
      else kinds.one.push(shown(name))
    }
    return `| ${domain} | ${kinds.one.join(", ")} | ${kinds.paged.join(", ")} | ${kinds.live.join(", ")} | ${kinds.file.join(", ")} |`
  })
  return [
    BEGIN,
    "",
    "| Domain | One answer (`query`) | Paged (`query`, `paginate`) | Live (`observe`) | File (`download`) |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
    END
  ].join("\n")
}
