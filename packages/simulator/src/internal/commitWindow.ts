/**
 * A node's commit window: the node shows a block's height as soon as it reaches the block (its
 * `X-Block-Height`, its streams), but the block's data is readable only once the block is
 * committed, `millis` later. With a window of 0 every block is readable at once.
 */
export class CommitWindow {
  private committed: number
  private last: number
  /** Heights reached and not yet committed, oldest first. */
  private readonly steps: Array<{ readonly height: number; readonly at: number }> = []

  constructor(
    private readonly millis: number,
    start: number
  ) {
    this.committed = start
    this.last = start
  }

  /** The node's height is `height` now. */
  reach(height: number, now: number = Date.now()): void {
    if (height === this.last) return
    if (this.millis <= 0) {
      this.committed = height
    } else if (height > this.last) {
      this.steps.push({ height, at: now })
    } else {
      // the node went back (a longer lag): what it has not reached is not committed either
      while (this.steps.length > 0 && this.steps[this.steps.length - 1].height > height) this.steps.pop()
      this.committed = Math.min(this.committed, height)
    }
    this.last = height
  }

  /** The highest committed height: the last one reached at least `millis` ago. */
  readable(now: number = Date.now()): number {
    while (this.steps.length > 0 && this.steps[0].at + this.millis <= now) {
      this.committed = this.steps[0].height
      this.steps.shift()
    }
    return this.committed
  }
}
