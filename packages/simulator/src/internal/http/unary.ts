/**
 * Unary calls: the request body read when the route takes one, the rate limiter consulted, the
 * route's handler called, and its reply sent with the limiter's and the block headers. A handler
 * that throws (or whose promise rejects) is answered as gRPC `Internal`.
 */
import { GatewayError } from "@vega-effect/schema"
import { gatewayErrorText } from "../gatewayJson.js"
import type { Reply, Route } from "../route.js"
import { type Exchange, type Gateway, sendError } from "./exchange.js"
import { readJsonBody } from "./requestBody.js"
import type { DecodedParams } from "./routing.js"

const failed = (error: unknown): Reply => ({
  status: 500,
  body: gatewayErrorText(GatewayError.GrpcCode.Internal, error instanceof Error ? error.message : String(error))
})

/** Calls the route once the limiter lets the request through, and sends its reply. */
const call = <Node>(
  gateway: Gateway<Node>,
  x: Exchange,
  route: Route<Node>,
  params: DecodedParams,
  body: unknown
): void => {
  const headers = gateway.admit(x)
  if (headers === undefined) return
  const answer = (reply: Reply): void => {
    if (reply.headers !== undefined) Object.assign(headers, reply.headers)
    gateway.send(x, reply.status, reply.body, gateway.blockHeaders(headers))
  }
  let reply: Reply | Promise<Reply>
  try {
    reply = route.handle({ query: params.query, path: params.path }, gateway.node, body)
  } catch (error) {
    reply = failed(error)
  }
  if (reply instanceof Promise) reply.then(answer, (error: unknown) => answer(failed(error)))
  else answer(reply)
}

/** Serves a unary route: reads its JSON body when it takes one (a 400 when it does not decode), then calls it. */
export const serveUnary = <Node>(gateway: Gateway<Node>, x: Exchange, route: Route<Node>, params: DecodedParams) => {
  if (route.body !== true) {
    // over a WebSocket the client's frames are the body, which this call does not read
    if (x.transport._tag === "WebSocket") x.transport.socket.ignore()
    return call(gateway, x, route, params, undefined)
  }
  readJsonBody(x, {
    onBody: (body) => call(gateway, x, route, params, body),
    onInvalid: (message) => sendError(gateway, x, 400, gatewayErrorText(GatewayError.GrpcCode.InvalidArgument, message))
  })
}
