/**
 * A node between the report and a simulator that can misbehave on purpose: run something before a
 * request is passed on (move the chain during a read), or rewrite an answer (list a row twice).
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as http from "node:http"

export interface ProxyOptions {
  /** Runs before the request (path with query) is passed on. */
  readonly onRequest?: (path: string) => Effect.Effect<void>
  /** The answer body to send instead of the upstream one. */
  readonly rewrite?: (path: string, body: string) => string
  /** Another node for some requests (by path with query); `undefined` keeps the upstream. */
  readonly route?: (path: string) => string | undefined
}

/** Starts the proxy on a free loopback port; its URL. Closed with the scope. */
export const withProxy = (upstream: string, options: ProxyOptions): Effect.Effect<string, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<http.Server>((resolve) => {
          const server = http.createServer((req, res) => {
            const path = req.url ?? "/"
            void (async () => {
              try {
                if (options.onRequest !== undefined) await Effect.runPromise(options.onRequest(path))
                const answer = await fetch((options.route?.(path) ?? upstream) + path, {
                  headers: { accept: "application/json" }
                })
                const text = await answer.text()
                const body = options.rewrite === undefined ? text : options.rewrite(path, text)
                const headers: Record<string, string> = {}
                answer.headers.forEach((value, name) => {
                  if (!["content-length", "content-encoding", "transfer-encoding", "connection"].includes(name)) {
                    headers[name] = value
                  }
                })
                res.writeHead(answer.status, { ...headers, "content-length": Buffer.byteLength(body) })
                res.end(body)
              } catch (error) {
                res.writeHead(502).end(String(error))
              }
            })()
          })
          server.listen(0, "127.0.0.1", () => resolve(server))
        })
    ),
    (server) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
  ).pipe(
    Effect.map((server) => {
      const address = server.address()
      return `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
    })
  )
