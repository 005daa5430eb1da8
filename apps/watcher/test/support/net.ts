import { connect } from "node:net"

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
