/**
 * One epoch's reward rows by cursor, each page checked to continue the pages before it.
 *
 * A correct node pages `GET /api/v2/rewards` inside an epoch like any other list. The v0.75 node,
 * as read from its source, orders these rows by epoch only, so a page that starts from a cursor
 * restarts at the first row of the cursor's epoch (see `DataNodeClient.Service.rewardsByEpoch`).
 * That was never observed on a real node, so it is assumed only where a node shows it:
 *
 * - {@link verdict} looks at one continuation page: a row already delivered by an earlier page of
 *   the same epoch (a restart at the epoch's first row is one) means the node restarted the epoch;
 *   a page that promises more but brings nothing new stalls.
 * - {@link readEpoch} follows the cursor to the end of the epoch and delivers the rows only when
 *   every page continued; otherwise it delivers none and fails with `PaginationLoopError`, so rows
 *   of a restarted attempt are never handed on (they cannot be de-duplicated: two rows can be
 *   identical).
 * - {@link Restarts} remembers, per node URL and for the life of the client, the nodes that
 *   restarted an epoch: they are not asked to page by cursor again, and the read fails at once.
 *
 * Two identical rows on either side of a page boundary look like a restart: the read then fails
 * and is remembered as if the node had the quirk, which costs requests but loses nothing.
 */
import * as Encoder from "@vega-effect/schema/Encoder"
import * as Pagination from "@vega-effect/schema/Pagination"
import * as Reward from "@vega-effect/schema/Reward"
import * as Effect from "effect/Effect"
import * as Errors from "../DataNodeError.js"

/** The nodes seen restarting an epoch at a cursor, by URL. */
export interface Restarts {
  readonly has: (node: string | undefined) => boolean
  readonly add: (node: string) => void
  readonly nodes: () => ReadonlyArray<string>
}

export const makeRestarts = (): Restarts => {
  const nodes = new Set<string>()
  return {
    has: (node) => node !== undefined && nodes.has(node),
    add: (node) => void nodes.add(node),
    nodes: () => [...nodes]
  }
}

type Page = Reward.ListRewardsResponse["rewards"]

/** What one continuation page shows. */
export type Verdict = "continues" | "restarts" | "stalls"

const encode = Encoder.stringify(Reward.Reward)

/** A row's whole content: equal keys are equal rows. */
export const rowKey = (row: Reward.Reward): string => encode(row)

/**
 * Whether `page`, read from the cursor of the page before, continues the rows in `seen` (the keys
 * of every row delivered so far for this epoch). Pure: the caller adds the page's keys.
 */
export const verdict = (seen: ReadonlySet<string>, page: Page): Verdict => {
  if (page.edges.some((edge) => seen.has(rowKey(edge.node)))) return "restarts"
  return page.edges.length === 0 && page.pageInfo.hasNextPage ? "stalls" : "continues"
}

/** How an epoch is read: one request of `epoch`'s rows after `cursor`, answered by the node the pin holds. */
export interface EpochRead {
  readonly endpoint: string
  readonly epoch: bigint
  readonly fetch: (after: string) => Effect.Effect<Page, Errors.DataNodeError>
  /** The node that answered the last request. */
  readonly node: () => string | undefined
  readonly restarts: Restarts
}

const loop = (read: EpochRead, reason: string, cursor?: string) =>
  new Errors.PaginationLoopError({ endpoint: read.endpoint, reason, ...(cursor === undefined ? {} : { cursor }) })

const restarted = (epoch: bigint, node: string | undefined, earlier: boolean) =>
  `${node ?? "the node"} ${earlier ? "restarted an epoch at a cursor earlier" : `restarted epoch ${epoch} at a cursor`} (it orders reward rows by epoch only): epoch ${epoch} has more than ${Pagination.MAX_PAGE_SIZE} reward rows, which this node cannot page; narrow the request (partyId, assetId)`

/**
 * Every row of `read.epoch`, given its first page (read without a cursor, with more to come):
 * the cursor followed to the end, each page checked by {@link verdict}. A node already known to
 * restart fails at once, without a request.
 */
export const readEpoch = (
  read: EpochRead,
  first: Page
): Effect.Effect<ReadonlyArray<Reward.Reward>, Errors.DataNodeError> =>
  Effect.gen(function* () {
    if (read.restarts.has(read.node())) return yield* loop(read, restarted(read.epoch, read.node(), true))
    const rows: Array<Reward.Reward> = first.edges.map((edge) => edge.node)
    const seen = new Set(rows.map(rowKey))
    let page = first
    while (page.pageInfo.hasNextPage) {
      const cursor = page.pageInfo.endCursor
      page = yield* read.fetch(cursor)
      const found = verdict(seen, page)
      if (found === "restarts") {
        const node = read.node()
        if (node !== undefined) read.restarts.add(node)
        return yield* loop(read, restarted(read.epoch, node, false), cursor)
      }
      if (found === "stalls") {
        return yield* loop(
          read,
          `epoch ${read.epoch}: the node promised more rows after a cursor but sent none`,
          cursor
        )
      }
      for (const edge of page.edges) {
        rows.push(edge.node)
        seen.add(rowKey(edge.node))
      }
    }
    return rows
  })
