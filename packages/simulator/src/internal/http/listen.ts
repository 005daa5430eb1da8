/**
 * Listening: a node's handler served on a host and port for the life of a scope.
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { Handler } from "./handler.js"

/** The server could not listen (address in use, no permission, …). */
export class ListenError extends Data.TaggedError("ListenError")<{
  readonly host: string
  readonly port: number
  readonly cause: unknown
}> {}

/** A listening server. */
export interface Listening {
  readonly server: http.Server
  readonly host: string
  readonly port: number
  /** `http://host:port`, without a trailing slash. */
  readonly url: string
  /**
   * Stops listening (new connections are refused) and drops every open connection, streams and
   * WebSockets included.
   */
  readonly stop: Effect.Effect<void>
  /** Listens again on the same host and port. */
  readonly start: Effect.Effect<void, ListenError>
}

const isHandler = (listener: http.RequestListener | Handler): listener is Handler => "upgrade" in listener

/**
 * Listens on `host` (default 127.0.0.1) and `port` (default 0: any free port) for the life of the
 * scope; closing the scope closes the server, its open connections (streams included) and its
 * WebSockets.
 */
export const listen = (
  listener: http.RequestListener | Handler,
  options: { readonly host?: string | undefined; readonly port?: number | undefined } = {}
): Effect.Effect<Listening, ListenError, Scope.Scope> => {
  const host = options.host ?? "127.0.0.1"
  const port = options.port ?? 0
  const closeSockets = (): void => {
    if (isHandler(listener)) listener.closeSockets()
  }
  const shown = host.includes(":") ? `[${host}]` : host
  // closing a server that is not listening only reports that it is not
  const close = (server: http.Server): Effect.Effect<void> =>
    Effect.async<void>((resume) => {
      closeSockets()
      server.close(() => resume(Effect.void))
      server.closeAllConnections()
    })
  return Effect.acquireRelease(
    Effect.gen(function* () {
      const server = http.createServer(listener)
      if (isHandler(listener)) server.on("upgrade", listener.upgrade)
      const bound = yield* listenOn(server, host, port)
      return {
        server,
        host,
        port: bound,
        url: `http://${shown}:${bound}`,
        stop: close(server),
        start: Effect.asVoid(listenOn(server, host, bound))
      }
    }),
    ({ server }) => close(server)
  )
}

/** Has `server` listen on `host` and `port`; gives the port bound. */
const listenOn = (server: http.Server, host: string, port: number): Effect.Effect<number, ListenError> =>
  Effect.async<number, ListenError>((resume) => {
    const onError = (cause: unknown) => resume(Effect.fail(new ListenError({ host, port, cause })))
    server.once("error", onError)
    server.listen(port, host, () => {
      server.off("error", onError)
      resume(Effect.succeed((server.address() as AddressInfo).port))
    })
    return Effect.sync(() => {
      server.off("error", onError)
      server.close()
      server.closeAllConnections()
    })
  })
