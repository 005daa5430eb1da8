// Benchmark client, run in a worker thread so the server keeps the main thread (one core) to
// itself. Fetches the given paths in order over one keep-alive connection, reading every byte.
import * as http from "node:http"
import { parentPort, workerData } from "node:worker_threads"

// a connection per batch: one left idle while the server is busy advancing blocks outlives the
// server's keep-alive timeout, and is reset when reused
const get = (agent, path) =>
  new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    http
      .get({ host: "127.0.0.1", port: workerData.port, path, agent }, (res) => {
        let bytes = 0
        res.on("data", (chunk) => (bytes += chunk.length))
        res.on("end", () =>
          resolve({ status: res.statusCode, bytes, millis: Number(process.hrtime.bigint() - started) / 1e6 })
        )
        res.on("error", reject)
      })
      .on("error", reject)
  })

parentPort.on("message", async (paths) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const results = []
  for (const path of paths) results.push(await get(agent, path))
  agent.destroy()
  parentPort.postMessage(results)
})
