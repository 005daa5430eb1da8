/**
 * A temporary file of text, appended and read back by byte range. Its name is removed as soon as it
 * is open where the system allows it (the file lives until it is closed, and nothing is left behind
 * even if the process is killed); elsewhere it is removed on `close`.
 *
 * Another thread of the process can append to it through its descriptor ({@link SpillFile.writer});
 * the file stays the opener's, open until it closes it. Appended text is gathered before it is
 * written: a thread that appends flushes before another reads.
 */
import * as fs from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { StringDecoder } from "node:string_decoder"

/** Bytes read at a time. */
const CHUNK = 1 << 20

/** Appended text is gathered up to this many bytes before it is written: few calls to the system. */
const GATHER = 1 << 20

export class SpillFile {
  readonly fd: number
  private readonly dir: string | undefined
  private removed = false
  private closed = false
  /** Bytes appended so far: where the next text goes. */
  size = 0
  /** Appended bytes not yet written, the last `gathered` of `size`. */
  private gather: Buffer | undefined
  private gathered = 0

  /** A new file, its name starting with `prefix`; or another thread's file by its descriptor `fd`. */
  private constructor(source: { readonly prefix: string } | { readonly fd: number }) {
    if ("fd" in source) {
      this.fd = source.fd
      this.dir = undefined
      return
    }
    this.dir = fs.mkdtempSync(path.join(tmpdir(), source.prefix))
    this.fd = fs.openSync(path.join(this.dir, "spill"), "w+", 0o600)
    try {
      fs.rmSync(this.dir, { recursive: true })
      this.removed = true
    } catch {
      // an open file cannot be removed on every system: it is removed on close
    }
  }

  /** A new temporary file, its name starting with `prefix`. */
  static create(prefix: string): SpillFile {
    return new SpillFile({ prefix })
  }

  /** Appends to the file open as `fd` (another thread's); closing it is left to that thread. */
  static writer(fd: number): SpillFile {
    return new SpillFile({ fd })
  }

  /** Appends `text`; returns where it starts and ends. Written once {@link GATHER} bytes are gathered. */
  append(text: string): { readonly start: number; readonly end: number } {
    const start = this.size
    // a UTF-16 unit is at most three bytes of UTF-8
    if (3 * text.length > GATHER) {
      this.flush()
      const bytes = Buffer.from(text, "utf8")
      this.writeAt(bytes, bytes.length, start)
      this.size += bytes.length
      return { start, end: this.size }
    }
    if (this.gathered + 3 * text.length > GATHER) this.flush()
    this.gather ??= Buffer.allocUnsafe(GATHER)
    const length = this.gather.write(text, this.gathered, "utf8")
    this.gathered += length
    this.size += length
    return { start, end: this.size }
  }

  /** Writes what was gathered. */
  flush(): void {
    if (this.gathered === 0 || this.gather === undefined) return
    this.writeAt(this.gather, this.gathered, this.size - this.gathered)
    this.gathered = 0
  }

  private writeAt(bytes: Buffer, length: number, position: number): void {
    let written = 0
    while (written < length) written += fs.writeSync(this.fd, bytes, written, length - written, position + written)
  }

  /** The bytes between `start` and `end`, after `room` bytes left as they are. */
  bytes(start: number, end: number, room = 0): Buffer {
    this.flush()
    const buffer = Buffer.allocUnsafe(room + end - start)
    let position = start
    while (position < end) {
      const read = fs.readSync(this.fd, buffer, room + position - start, end - position, position)
      if (read === 0) throw new Error(`the spill file ended at ${position} bytes, before ${end}`)
      position += read
    }
    return buffer
  }

  /** The lines between `start` and `end` (which must be line boundaries), without their line ends. */
  *lines(start: number, end: number): Generator<string> {
    this.flush()
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
    if (this.closed || this.dir === undefined) return
    this.closed = true
    fs.closeSync(this.fd)
    if (!this.removed) fs.rmSync(this.dir, { recursive: true, force: true })
  }
}
