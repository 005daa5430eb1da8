/**
 * Log lines captured for assertions (that a secret never shows, say), as text: message,
 * annotations and cause.
 */
import * as HashMap from "effect/HashMap"
import * as Logger from "effect/Logger"

export const captureLogs = () => {
  const lines: Array<{ readonly level: string; readonly text: string }> = []
  const logger = Logger.make(({ annotations, cause, logLevel, message }) => {
    lines.push({
      level: logLevel.label,
      text: JSON.stringify({
        message,
        annotations: Object.fromEntries(HashMap.toEntries(annotations)),
        cause: String(cause)
      })
    })
  })
  return { lines, layer: Logger.replace(Logger.defaultLogger, logger) }
}
