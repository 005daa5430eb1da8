/**
 * Where the gateway applies a node's {@link RateLimit.RateLimiter}: each request that reaches the
 * node (past routing and request decoding) is counted against its client's bucket; a refused one
 * is answered with the limiter's status, body and headers plus the block headers, an admitted one
 * carries the limiter's `Ratelimit-*` headers.
 */
import type * as RateLimit from "../../RateLimit.js"
import type { Exchange, Gateway, Headers } from "./exchange.js"

/** The gateway's `admit` for a limiter, or letting everything through when there is none. */
export const makeAdmission = <Node>(
  rateLimiter: RateLimit.RateLimiter | undefined,
  gateway: Pick<Gateway<Node>, "send" | "blockHeaders">
): Gateway<Node>["admit"] => {
  if (rateLimiter === undefined) return () => ({})
  return (x: Exchange): Headers | undefined => {
    const client = rateLimiter.clientAddress(x.req.socket.remoteAddress, x.req.headers["x-forwarded-for"])
    const decision = rateLimiter.take(client)
    if (decision._tag === "Rejected") {
      gateway.send(x, decision.status, decision.body, gateway.blockHeaders({ ...decision.headers }))
      return undefined
    }
    return { ...decision.headers }
  }
}
