/**
 * What a test can do to a node's open streams from outside: lose the next block's position
 * updates, or have every stream meet a slow-consumer cut-off at the next block. Each open stream
 * registers its {@link Watch} and looks at it when a block comes.
 */

/** One open stream's orders, set from outside and taken when its next block comes. */
export interface Watch {
  /** A positions stream: the next block with updates is not sent. */
  dropNextUpdates: boolean
  /** At the next block the stream ends as a slow consumer's does. */
  slowAtNextBlock: boolean
}

/** The kinds of stream the controls act on. */
export type WatchedKind =
  | "positions"
  | "provisions"
  | "orders"
  | "trades"
  | "bus"
  | "markets"
  | "candles"
  | "ledger"
  | "governance"
  | "votes"
  | "margins"

/** The watches of a node's open streams. */
export class StreamControls {
  private readonly open = new Map<Watch, WatchedKind>()

  /** Registers an open stream; `release` forgets it. */
  watch(kind: WatchedKind): { readonly watch: Watch; readonly release: () => void } {
    const watch: Watch = { dropNextUpdates: false, slowAtNextBlock: false }
    this.open.set(watch, kind)
    return { watch, release: () => this.open.delete(watch) }
  }

  /** The positions streams open now lose the updates of their next block that has any. */
  dropPositionsBlock(): void {
    for (const [watch, kind] of this.open) if (kind === "positions") watch.dropNextUpdates = true
  }

  /** Every stream open now ends at its next block as a slow consumer. */
  slowConsumerNext(): void {
    for (const watch of this.open.keys()) watch.slowAtNextBlock = true
  }
}
