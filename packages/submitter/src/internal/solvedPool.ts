/**
 * Proofs of work solved ahead of time for block heights the key still has base-difficulty slots
 * at, so that a burst of submissions does not wait for the solver.
 */

export interface Solved {
  readonly tid: string
  readonly nonce: bigint
}

export class SolvedPool {
  private readonly byHeight = new Map<bigint, { readonly hash: string; readonly solutions: Array<Solved> }>()

  constructor(readonly capacity: number) {}

  get size(): number {
    let n = 0
    for (const entry of this.byHeight.values()) n += entry.solutions.length
    return n
  }

  /** Solutions kept for a height. */
  at(height: bigint): number {
    return this.byHeight.get(height)?.solutions.length ?? 0
  }

  has(height: bigint): boolean {
    return this.at(height) > 0
  }

  add(height: bigint, hash: string, solution: Solved): void {
    const entry = this.byHeight.get(height)
    if (entry === undefined) this.byHeight.set(height, { hash, solutions: [solution] })
    else if (entry.hash === hash) entry.solutions.push(solution)
  }

  /** A solution for this block, if one is ready (each is handed out once). */
  take(height: bigint, hash: string): Solved | undefined {
    const entry = this.byHeight.get(height)
    if (entry === undefined || entry.hash !== hash) return undefined
    const solution = entry.solutions.shift()
    if (entry.solutions.length === 0) this.byHeight.delete(height)
    return solution
  }

  /** Drops solutions for heights no longer usable. */
  retain(usable: ReadonlySet<bigint>): void {
    for (const height of this.byHeight.keys()) if (!usable.has(height)) this.byHeight.delete(height)
  }
}
