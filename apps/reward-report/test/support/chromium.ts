/**
 * Headless Chromium for tests that look at a rendered page: finds a binary (the `CHROMIUM`
 * variable, else `chromium`, `chromium-browser` or `google-chrome` on the PATH) and takes
 * screenshots. Where there is none the tests are skipped, with a message saying so.
 */
import { spawn } from "node:child_process"
import { accessSync, constants, existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { delimiter, isAbsolute, join } from "node:path"
import { pathToFileURL } from "node:url"

const candidates = ["chromium", "chromium-browser", "google-chrome"]

const executable = (file: string): boolean => {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

const onPath = (name: string): string | undefined =>
  (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => dir !== "")
    .map((dir) => join(dir, name))
    .find(executable)

/** The Chromium binary to use, or undefined when there is none. */
export const findChromium = (): string | undefined => {
  const configured = process.env.CHROMIUM
  if (configured !== undefined && configured !== "") {
    return isAbsolute(configured) ? (executable(configured) ? configured : undefined) : onPath(configured)
  }
  for (const name of candidates) {
    const found = onPath(name)
    if (found !== undefined) return found
  }
  return undefined
}

export const chromium: string | undefined = findChromium()

/** Whether screenshots can be taken; when not, says why and how to get Chromium. */
export const chromiumAvailable: boolean = (() => {
  if (chromium !== undefined) return true
  // CI installs Chromium and sets this: there a missing browser fails rather than skips the tests
  if (process.env.VEGA_EFFECT_REQUIRE_SERVICES === "1") {
    throw new Error("Chromium is not installed, and VEGA_EFFECT_REQUIRE_SERVICES=1 requires it")
  }
  const configured = process.env.CHROMIUM
  console.warn(
    configured !== undefined && configured !== ""
      ? `CHROMIUM=${configured} is not an executable: browser tests skipped`
      : "Chromium is not installed (no chromium, chromium-browser or google-chrome on the PATH): browser tests " +
          "skipped. CI runs them with Debian's package (`apt-get install -y chromium`); elsewhere install " +
          "Chromium or set CHROMIUM to a Chromium or Chrome binary."
  )
  return false
})()

export interface Size {
  readonly width: number
  readonly height: number
}

const timeoutMs = 60_000

/**
 * Renders `htmlFile` in a `width`×`height` window at device scale 1 and writes the visible part
 * to `pngFile`. Rejects when Chromium fails, writes nothing, or takes over 60 s (it is then killed).
 */
export const screenshot = (htmlFile: string, pngFile: string, size: Size): Promise<void> => {
  if (chromium === undefined) return Promise.reject(new Error("Chromium is not available"))
  const profile = mkdtempSync(join(tmpdir(), "reward-report-chromium-"))
  const args = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    // small /dev/shm in containers makes the renderer crash
    "--disable-dev-shm-usage",
    `--user-data-dir=${profile}`,
    `--window-size=${size.width},${size.height}`,
    `--screenshot=${pngFile}`,
    pathToFileURL(htmlFile).href
  ]
  return new Promise<void>((resolve, reject) => {
    // its own process group, so that a timeout kills its helper processes with it
    const child = spawn(chromium, args, { stdio: ["ignore", "pipe", "pipe"], detached: true })
    let output = ""
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000)
    }
    child.stdout.on("data", collect)
    child.stderr.on("data", collect)
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
      } catch {
        child.kill("SIGKILL")
      }
    }, timeoutMs)
    let done = false
    const finish = (error: Error | undefined) => {
      if (done) return
      done = true
      clearTimeout(timer)
      rmSync(profile, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 })
      if (error === undefined) resolve()
      else reject(error)
    }
    child.on("error", (error) => finish(error))
    child.on("close", (code, signal) => {
      if (timedOut) finish(new Error(`Chromium took over ${timeoutMs / 1000} s and was killed\n${output}`))
      else if (code !== 0) finish(new Error(`Chromium exited with ${code ?? signal}\n${output}`))
      else if (!existsSync(pngFile)) finish(new Error(`Chromium wrote no screenshot\n${output}`))
      else finish(undefined)
    })
  })
}
