/**
 * A temporary file of text lines, appended and read back by byte range. Its name is removed as soon
 * as it is open where the system allows it (the file lives until it is closed, and nothing is left
 * behind even if the process is killed); elsewhere it is removed on `close`.
 */
import * as fs from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { StringDecoder } from "node:string_decoder"

/** Bytes read at a time. */
const CHUNK = 1 << 20

export class SpillFile {
  private readonly fd: number
  private readonly dir: string
  private removed = false
  private closed = false
  /** Bytes written so far: where the next text goes. */
  size = 0

  constructor(prefix: string) {
    this.dir = fs.mkdtempSync(path.join(tmpdir(), prefix))
    this.fd = fs.openSync(path.join(this.dir, "spill"), "w+", 0o600)
    try {
      fs.rmSync(this.dir, { recursive: true })
      this.removed = true
    } catch {
      // an open file cannot be removed on every system: it is removed on close
    }
  }

  /** Appends `text`; returns where it starts and ends. */
  append(text: string): { readonly start: number; readonly end: number } {
    const bytes = Buffer.from(text, "utf8")
    const start = this.size
    let written = 0
    while (written < bytes.length) {
      written += fs.writeSync(this.fd, bytes, written, bytes.length - written, start + written)
    }
    this.size += bytes.length
    return { start, end: this.size }
  }

  /** The lines between `start` and `end` (which must be line boundaries), without their line ends. */
  *lines(start: number, end: number): Generator<string> {
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(1, end - start)))
    const decoder = new StringDecoder("utf8")
    let position = start
    let rest = ""
    while (position < end) {
      const read = fs.readSync(this.fd, buffer, 0, Math.min(buffer.length, end - position), position)
      if (read === 0) throw new Error(`the spill file ended at ${position} bytes, before ${end}`)
      position += read
      const text = rest + decoder.write(buffer.subarray(0, read))
      let from = 0
      for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", from)) {
        yield text.slice(from, at)
        from = at + 1
      }
      rest = text.slice(from)
    }
    rest += decoder.end()
    if (rest !== "") yield rest
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    fs.closeSync(this.fd)
    if (!this.removed) fs.rmSync(this.dir, { recursive: true, force: true })
  }
}
