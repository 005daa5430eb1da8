import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { FetchHttpClient } from "@effect/platform"
import { DataNodeClient } from "@vega-effect/http"
import { Effect } from "effect"
import { type WebSocket, WebSocketServer } from "ws"

/** One connection a played node accepted: the request path and every frame the client sent. */
export interface Connection {
  readonly socket: WebSocket
  readonly path: string
  readonly received: Array<string>
  /** Sends one text frame. */
  readonly send: (frame: string) => void
  /** Drops the connection without a close frame (the client sees 1006). */
  readonly drop: () => void
}

export interface PlayedNode {
  readonly url: string
  readonly connections: Array<Connection>
  /** Stops accepting connections (the port is closed). */
  readonly stop: Effect.Effect<void>
}

/**
 * A WebSocket server that plays a data node's side of a live stream: `play` runs for each
 * connection (its number from 1) and scripts what the node sends.
 */
export const playNode = (play: (connection: Connection, n: number) => void) =>
  Effect.acquireRelease(
    Effect.async<PlayedNode>((resume) => {
      const server = new WebSocketServer({ host: "127.0.0.1", port: 0 })
      const connections: Array<Connection> = []
      server.on("connection", (socket, request) => {
        const connection: Connection = {
          socket,
          path: request.url ?? "",
          received: [],
          send: (frame) => socket.send(frame),
          drop: () => socket.terminate()
        }
        socket.on("message", (data) => connection.received.push(String(data)))
        connections.push(connection)
        play(connection, connections.length)
      })
      const stop = Effect.async<void>((done) => {
        for (const client of server.clients) client.terminate()
        server.close(() => done(Effect.void))
      })
      server.on("listening", () =>
        resume(Effect.succeed({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections, stop }))
      )
    }),
    (node) => node.stop
  )

/** An HTTP server that answers every upgrade with `status` and `body`. */
export const refuseUpgrades = (status: number, body: string) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly server: http.Server }>((resume) => {
      const server = http.createServer((_, response) => response.writeHead(status).end(body))
      server.on("upgrade", (_request, socket) => {
        socket.end(
          `HTTP/1.1 ${status} Refused\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`
        )
      })
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }))
      )
    }),
    ({ server }) => Effect.async<void>((done) => void server.close(() => done(Effect.void)))
  )

/** A URL on which nothing listens. */
export const closedPort = Effect.async<string>((resume) => {
  const server = http.createServer()
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo
    server.close(() => resume(Effect.succeed(`http://127.0.0.1:${port}`)))
  })
})

/** A client of these nodes (node health not probed during a test). */
export const clientOf = (urls: ReadonlyArray<string>, options: Partial<DataNodeClient.Options> = {}) =>
  DataNodeClient.make({ urls, healthInterval: "1 hour", ...options }).pipe(Effect.provide(FetchHttpClient.layer))

/** Waits until `check` holds (polling), at most `millis`. */
export const eventually = (check: () => boolean, millis = 2_000) =>
  Effect.gen(function* () {
    const until = Date.now() + millis
    while (!check()) {
      if (Date.now() > until) return yield* Effect.dieMessage("condition not met in time")
      yield* Effect.sleep("10 millis")
    }
  })
