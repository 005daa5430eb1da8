import { connect } from "node:net"

/**
 * Whether every service-dependent test must run (CI sets `VEGA_EFFECT_REQUIRE_SERVICES=1`, where
 * PostgreSQL and NATS are always there): a missing service then fails the suite instead of
 * skipping it, so a green run proves those tests ran.
 */
export const servicesRequired = process.env.VEGA_EFFECT_REQUIRE_SERVICES === "1"

/** `ok`; when not, says what is skipped, or throws when {@link servicesRequired}. */
export const availableOrSkipped = (ok: boolean, missing: string, skipped: string): boolean => {
  if (ok) return true
  if (servicesRequired) throw new Error(`${missing}, and VEGA_EFFECT_REQUIRE_SERVICES=1 requires it`)
  console.warn(`${missing}: ${skipped} skipped`)
  return false
}

/** Whether something listens at the URL's host and port (`defaultPort` when the URL names none). */
export const reachable = (url: string, defaultPort = 5432): Promise<boolean> =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url)
    const socket = connect({ host: hostname, port: Number(port || defaultPort) })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1000)
    socket.once("connect", () => done(true))
    socket.once("error", () => done(false))
    socket.once("timeout", () => done(false))
  })
