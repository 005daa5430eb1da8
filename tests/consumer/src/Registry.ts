/**
 * A local npm registry for the `@vega-effect` scope, serving the packed tarballs as if they had been
 * published. A project points the scope at it in its `.npmrc` and runs the README's install command
 * verbatim; every other package comes from the public registry as for any user.
 *
 * It serves the two reads npm makes: a package's document (`GET /@vega-effect%2fhttp`) and a
 * tarball (`GET /-/<file>.tgz`).
 */
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { basename } from "node:path"
import type { Packed } from "./Pack.js"

export interface Registry {
  readonly url: string
  readonly close: () => Promise<void>
}

const packument = (packed: Packed, url: string) => {
  const bytes = readFileSync(packed.tarball)
  const version = packed.manifest.version
  return {
    name: packed.manifest.name,
    "dist-tags": { latest: version },
    versions: {
      [version]: {
        ...packed.manifest,
        _id: `${packed.manifest.name}@${version}`,
        dist: {
          tarball: `${url}-/${basename(packed.tarball)}`,
          shasum: createHash("sha1").update(bytes).digest("hex"),
          integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`
        }
      }
    }
  }
}

const listen = (server: Server) =>
  new Promise<number>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resolve(typeof address === "object" && address !== null ? address.port : 0)
    })
  })

/** Starts the registry on a free loopback port. */
export const start = async (packages: ReadonlyArray<Packed>): Promise<Registry> => {
  const byName = new Map(packages.map((p) => [p.manifest.name, p]))
  const byFile = new Map(packages.map((p) => [basename(p.tarball), p]))
  let url = ""
  const server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? "/").split("?")[0]).slice(1)
    const file = path.startsWith("-/") ? byFile.get(path.slice(2)) : undefined
    const named = byName.get(path)
    if (file !== undefined) {
      response.writeHead(200, { "content-type": "application/octet-stream" })
      response.end(readFileSync(file.tarball))
    } else if (named !== undefined) {
      response.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" })
      response.end(JSON.stringify(packument(named, url)))
    } else {
      response.writeHead(404, { "content-type": "application/json" })
      response.end(JSON.stringify({ error: "not found" }))
    }
  })
  url = `http://127.0.0.1:${await listen(server)}/`
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) }
}
