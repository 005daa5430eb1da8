/**
 * The chain each configured node is on, as `GET /blockchain/height` answers it (`chainId`), asked
 * of each node alone: the client's pool would ask whichever node it picks, and a failover node on
 * another network would go unnoticed until its answers were diffed against the state. Every node
 * must be on one chain, the state's (see `Network.ts`).
 *
 * A node that does not answer at start is asked again in the background until it does; one that
 * then names another chain stops the watcher. Until it answers the pool may already read from it
 * (it rejoins at its next health check): that is the check's one gap.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type { DataNodeError } from "@vega-effect/http"
import type * as ConfigError from "effect/ConfigError"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as DataNode from "./DataNode.js"

/** A node, and the chain it said it is on. */
export interface NodeChain {
  readonly url: string
  readonly chainId: string
}

/** Two configured nodes are on different chains. */
export class NodesDisagree extends Schema.TaggedError<NodesDisagree>()("NodesDisagree", {
  node: Schema.String,
  chainId: Schema.String,
  other: Schema.String,
  otherChainId: Schema.String
}) {
  override get message(): string {
    return (
      `the nodes are on different chains: ${this.node} is on chain "${this.chainId}", ${this.other} on chain ` +
      `"${this.otherChainId}": give nodes of one network`
    )
  }
}

/** A node answered without naming its chain (core does so while it cannot reach CometBFT). */
export class NoChainId extends Schema.TaggedError<NoChainId>()("NoChainId", { node: Schema.String }) {
  override get message(): string {
    return `${this.node} did not name its chain (an empty chainId in /blockchain/height)`
  }
}

type ChainError = DataNodeError.DataNodeError | ConfigError.ConfigError | NoChainId

/** The chain a node says it is on, asked of it alone (`retries` in place of the configured ones). */
export const chainOf = (
  url: string,
  paced: boolean,
  retries?: number
): Effect.Effect<NodeChain, ChainError, HttpClient.HttpClient> =>
  Effect.scoped(
    Effect.gen(function* () {
      const client = yield* DataNode.single(url, paced, retries)
      const { chainId } = yield* client.lastBlockHeight
      return chainId === "" ? yield* new NoChainId({ node: url }) : { url, chainId }
    })
  )

/** Fails naming two nodes on different chains, if there are. */
export const sameChain = (chains: ReadonlyArray<NodeChain>): Effect.Effect<void, NodesDisagree> => {
  const [first, ...rest] = chains
  const other = rest.find((chain) => chain.chainId !== first.chainId)
  return other === undefined
    ? Effect.void
    : new NodesDisagree({ node: first.url, chainId: first.chainId, other: other.url, otherChainId: other.chainId })
}

/** What the nodes said at start: the chain, a node that named it, and the nodes that did not answer. */
export interface Read {
  readonly chain: NodeChain
  readonly unanswered: ReadonlyArray<{ readonly url: string; readonly error: ChainError }>
}

/**
 * Every node's chain, asked at once: they must agree. Fails with the first node's failure when none
 * answers.
 */
export const readChains = (
  urls: ReadonlyArray<string>,
  paced: boolean
): Effect.Effect<Read, ChainError | NodesDisagree, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const answers = yield* Effect.forEach(urls, (url) => Effect.either(chainOf(url, paced)), {
      concurrency: "unbounded"
    })
    const answered = answers.flatMap((answer) => (Either.isRight(answer) ? [answer.right] : []))
    const unanswered = answers.flatMap((answer, i) =>
      Either.isLeft(answer) ? [{ url: urls[i], error: answer.left }] : []
    )
    if (answered.length === 0) return yield* Effect.fail(unanswered[0].error)
    yield* sameChain(answered)
    return { chain: answered[0], unanswered }
  })

/**
 * Asks the nodes that did not answer at start again, each `every` (without the client's retries),
 * until each has: succeeds when all are on `chain`, fails naming the first on another.
 */
export const checkLater = (
  urls: ReadonlyArray<string>,
  chain: NodeChain,
  paced: boolean,
  every: Duration.DurationInput
): Effect.Effect<void, NodesDisagree, HttpClient.HttpClient> => {
  const answerOf = (url: string): Effect.Effect<NodeChain, never, HttpClient.HttpClient> =>
    chainOf(url, paced, 0).pipe(Effect.orElse(() => Effect.zipRight(Effect.sleep(every), answerOf(url))))
  return Effect.forEach(
    urls,
    (url) =>
      answerOf(url).pipe(
        Effect.tap((answer) => Effect.logDebug(`${url} is on chain "${answer.chainId}"`)),
        Effect.flatMap((answer) => sameChain([chain, answer]))
      ),
    { concurrency: "unbounded", discard: true }
  )
}
