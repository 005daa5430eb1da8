/**
 * The operations endpoint: what an orchestrator and a monitoring system ask the watcher.
 *
 * - `GET /health`: 200 while the process runs (liveness);
 * - `GET /ready`: 200 once the first full sync is done and while cycles keep committing; 503
 *   before (`syncing`) and when the last good cycle is older than `staleAfter` (`stale`);
 * - `GET /metrics`: every metric of the process in the Prometheus text format;
 * - anything else: 404.
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { createServer } from "node:http"
import * as Metrics from "./Metrics.js"
import * as Prometheus from "./Prometheus.js"
import { Readiness, type ReadinessState } from "./Readiness.js"

export interface Options {
  readonly host: string
  /** 0 asks the system for a free port in `serve`, and disables the endpoint in `layer`. */
  readonly port: number
  /** How old the last good cycle may be before `/ready` says `stale`; see `staleAfterFor`. */
  readonly staleAfter: Duration.DurationInput
}

/** The default staleness limit: ten poll intervals without a good cycle. */
export const staleAfterFor = (interval: Duration.DurationInput): Duration.Duration => Duration.times(interval, 10)

export class OperationsError extends Data.TaggedError("OperationsError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

export type ReadinessReport =
  | { readonly status: "syncing" }
  | { readonly status: "ready" | "stale"; readonly height: number; readonly lastCycleAt: string }

/** What `/ready` says about a state at `now` (epoch milliseconds). */
export const assess = (state: ReadinessState, now: number, staleAfter: Duration.DurationInput): ReadinessReport => {
  if (!state.synced || Option.isNone(state.height) || Option.isNone(state.lastCycleAt)) return { status: "syncing" }
  const at = state.lastCycleAt.value
  const age = now - at.getTime()
  return {
    status: age > Duration.toMillis(Duration.decode(staleAfter)) ? "stale" : "ready",
    height: state.height.value,
    lastCycleAt: at.toISOString()
  }
}

const json = (body: unknown, status: number) =>
  HttpServerResponse.text(JSON.stringify(body), {
    status,
    contentType: "application/json",
    headers: { "cache-control": "no-store" }
  })

/** The endpoint's routes, as an app any `HttpServer` can serve. */
export const app = (staleAfter: Duration.DurationInput) =>
  HttpRouter.empty.pipe(
    HttpRouter.get("/health", Effect.succeed(json({ status: "ok" }, 200))),
    HttpRouter.get(
      "/ready",
      Effect.gen(function* () {
        const readiness = yield* Readiness
        const report = assess(yield* readiness.state, yield* Clock.currentTimeMillis, staleAfter)
        return json(report, report.status === "ready" ? 200 : 503)
      })
    ),
    HttpRouter.get(
      "/metrics",
      Effect.map(Effect.zipRight(Metrics.sampleMemory, Prometheus.scrape), (text) =>
        HttpServerResponse.text(text, { contentType: Prometheus.contentType, headers: { "cache-control": "no-store" } })
      )
    ),
    HttpRouter.all("*", Effect.succeed(json({ status: "not found" }, 404)))
  )

/**
 * Listens on `host:port` and serves the endpoint until the scope closes; the port actually bound
 * (the free one the system picked, for port 0) is returned.
 */
export const serve = (
  options: Options
): Effect.Effect<{ readonly port: number }, OperationsError, Scope.Scope | Readiness> =>
  Effect.gen(function* () {
    const server = yield* NodeHttpServer.make(() => createServer(), { host: options.host, port: options.port }).pipe(
      Effect.mapError(
        (error) =>
          new OperationsError({
            message: `operations endpoint: cannot listen on ${options.host}:${options.port}: ${describe(error.cause)}`,
            cause: error.cause
          })
      )
    )
    yield* HttpServer.serveEffect()(app(options.staleAfter)).pipe(Effect.provideService(HttpServer.HttpServer, server))
    return { port: server.address._tag === "TcpAddress" ? server.address.port : options.port }
  })

const describe = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

/** The endpoint, in the background for the life of the layer; port 0 disables it. */
export const layer = (options: Options): Layer.Layer<never, OperationsError, Readiness> =>
  options.port === 0 ? Layer.empty : Layer.scopedDiscard(serve(options))
