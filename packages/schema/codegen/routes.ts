/**
 * The routes of the spec: every operation of the data node's document (`TradingDataService`) and
 * of the core's (`CoreService`, which the data node proxies), with the RPC behind it.
 */
import type { Descriptor, Operation, Parameter, ProtoMethod } from "./descriptor.js"

export interface Route {
  /** The RPC name (`ListOrders`); core routes whose name a data-node route also has are `Core…`. */
  readonly name: string
  readonly rpc: string
  readonly service: "TradingDataService" | "CoreService"
  readonly method: "GET" | "POST"
  readonly path: string
  /** The spec's tag, which groups the routes by domain (`Orders`, `Markets`, ...). */
  readonly domain: string
  readonly summary: string
  readonly parameters: ReadonlyArray<Parameter>
  readonly request: string
  readonly response: string
  /** Under `/stream/`: a WebSocket (or chunked HTTP) stream of messages. */
  readonly stream: boolean
  /** Answers a file (`google.api.HttpBody`), not a JSON message. */
  readonly file: boolean
}

const STREAM_PREFIXES = ["/api/v2/stream/", "/stream/"]

const routesOf = (descriptor: Descriptor, service: Route["service"], document: "tradingData" | "core") => {
  const out: Array<Route> = []
  for (const [path, operations] of Object.entries(descriptor[document].paths)) {
    for (const [method, operation] of Object.entries(operations) as Array<[string, Operation]>) {
      const rpc = operation.operationId.split("_")[1]
      const found: ProtoMethod | undefined = descriptor.methods.get(`${service}.${rpc}`)
      if (found === undefined) throw new Error(`${descriptor.version}: no RPC ${service}.${rpc} for ${path}`)
      out.push({
        name: rpc,
        rpc,
        service,
        method: method.toUpperCase() as Route["method"],
        path,
        domain: service === "CoreService" ? "Core" : (operation.tags?.[0] ?? "Other"),
        summary: operation.summary ?? rpc,
        parameters: operation.parameters ?? [],
        request: found.requestFullType,
        response: found.responseFullType,
        stream: STREAM_PREFIXES.some((prefix) => path.startsWith(prefix)),
        file: found.responseFullType === "google.api.HttpBody"
      })
    }
  }
  return out
}

/** Every route of the spec: the data node's, then the core's. */
export const routes = (descriptor: Descriptor): ReadonlyArray<Route> => {
  const data = routesOf(descriptor, "TradingDataService", "tradingData")
  const taken = new Set(data.map((r) => r.name))
  const core = routesOf(descriptor, "CoreService", "core").map((r) =>
    taken.has(r.name) ? { ...r, name: `Core${r.name}` } : r
  )
  return [...data, ...core]
}
