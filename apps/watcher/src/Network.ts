/**
 * The network a state belongs to. A state is rows of one network, diffed against what its nodes
 * answer: resumed against another network, every row would differ and be reported as a change. So
 * the state records its network's chain id (`watcher_network`), and a watcher whose nodes are on
 * another chain refuses it before writing anything, unless told to start over (`--reset-state`).
 *
 * Only the chain id is recorded. It is what the data-node API says of the network a node is on
 * (`GET /blockchain/height` and `GET /statistics`, both from the CometBFT genesis document: core's
 * `core/api/core.go`, `getGenesisTimeAndChainID`). The API serves no genesis hash and no first
 * block's hash: `/blockchain/height` and `/statistics` carry the last block's hash only, and the
 * snapshots and network-history segments it lists are those the node still keeps (OpenAPI of
 * v0.75.0, `datanode-api-facts.md` §7). `/statistics` also has the genesis time, but core leaves
 * it empty while the chain replays, which would refuse a good node.
 *
 * A state written before the chain id was recorded takes the chain of the nodes it is first run
 * with, and says so in a log line.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { NodeChain } from "./ChainIds.js"
import { Leases } from "./Leases.js"

/** The flag that starts over on a state of another network (`resetState` in the configuration file). */
export const RESET_FLAG = "--reset-state"

/** The state belongs to another chain than the node's. */
export class OtherNetwork extends Schema.TaggedError<OtherNetwork>()("OtherNetwork", {
  /** The state, as the configuration names it (without a password). */
  state: Schema.String,
  recorded: Schema.String,
  node: Schema.String,
  chainId: Schema.String
}) {
  override get message(): string {
    return (
      `state ${this.state} belongs to chain "${this.recorded}"; the node at ${this.node} is on chain ` +
      `"${this.chainId}": use ${RESET_FLAG} to start over, or point --database elsewhere`
    )
  }
}

/** Starting over refused: other watchers still work on the shared state, for the old chain. */
export class SharedReset extends Schema.TaggedError<SharedReset>()("SharedReset", {
  state: Schema.String,
  members: Schema.Array(Schema.String)
}) {
  override get message(): string {
    return (
      `${RESET_FLAG}: ${this.members.length} other watcher(s) still work on state ${this.state} ` +
      `(${this.members.join(", ")}): stop them before starting over`
    )
  }
}

/** The chain id the state records, if any. */
export const recorded: Effect.Effect<Option.Option<string>, SqlError, SqlClient.SqlClient> = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    Effect.map(sql<{ chain_id: string }>`SELECT chain_id FROM watcher_network WHERE id = 1`, (rows) =>
      Option.fromNullable(rows[0]?.chain_id)
    )
)

/** Whether the state holds anything read from a network: a checkpoint or a row. */
const holdsState: Effect.Effect<boolean, SqlError, SqlClient.SqlClient> = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(
    sql<{ held: boolean | number }>`SELECT (EXISTS (SELECT 1 FROM watcher_slice)
      OR EXISTS (SELECT 1 FROM watcher_state)) AS held`,
    (rows) => rows[0].held === true || Number(rows[0].held) === 1
  )
)

/** Records the chain unless one already is (a watcher starting at the same time); the chain recorded. */
const record = (chainId: string): Effect.Effect<string, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO watcher_network ${sql.insert({ id: 1, chain_id: chainId })} ON CONFLICT (id) DO NOTHING`
    return Option.getOrElse(yield* recorded, () => chainId)
  })

/**
 * Forgets the old network's state and records the new chain, in one transaction: rows,
 * checkpoints, events not yet delivered, leases and members go; each sink's cursor moves to the
 * end of the outbox, whose seqs go on.
 */
const startOver = (chainId: string): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(
      Effect.gen(function* () {
        // first: on PostgreSQL, waits for a commit in flight, which holds its lease row
        yield* sql`DELETE FROM watcher_lease`
        yield* sql`DELETE FROM watcher_network`
        yield* sql`DELETE FROM watcher_member`
        yield* sql`DELETE FROM watcher_slice`
        yield* sql`DELETE FROM watcher_state`
        yield* sql`DELETE FROM watcher_outbox`
        yield* sql`UPDATE watcher_cursor SET seq = (SELECT next_seq - 1 FROM watcher_sequence WHERE id = 1)`
        yield* sql`INSERT INTO watcher_network ${sql.insert({ id: 1, chain_id: chainId })}`
      })
    )
  })

export interface EnsureOptions {
  /** The chain the nodes are on, and a node that said so. */
  readonly chain: NodeChain
  /** The state, as logs and errors name it. */
  readonly state: string
  /** Start over when the state is of another chain, instead of refusing it. */
  readonly resetState: boolean
}

/** Starts over on a state of another chain, unless other watchers still work on it. */
const resetFrom = (options: EnsureOptions, old: string) =>
  Effect.gen(function* () {
    const leases = yield* Leases
    // members on this host whose process is gone are not waited for
    yield* leases.reapDead
    const members = yield* leases.members
    if (members.length > 0) {
      return yield* new SharedReset({ state: options.state, members: members.map((m) => `${m.host}:${m.pid}`) })
    }
    yield* startOver(options.chain.chainId)
    yield* Effect.logWarning(
      `${RESET_FLAG}: state ${options.state} belonged to chain "${old}": cleared, now recorded for chain ` +
        `"${options.chain.chainId}" (${options.chain.url})`
    )
  })

/**
 * Makes sure the state is the nodes' chain's before anything is written to it: a state of another
 * chain is refused (nothing written) or, with `resetState`, started over; a state recording no
 * chain takes the nodes'.
 */
export const ensure = (
  options: EnsureOptions
): Effect.Effect<void, OtherNetwork | SharedReset | SqlError, SqlClient.SqlClient | Leases> =>
  Effect.gen(function* () {
    const { chain, state } = options
    const found = yield* recorded
    if (Option.isSome(found) && found.value === chain.chainId) {
      if (options.resetState) yield* Effect.logInfo(`${RESET_FLAG}: state ${state} is chain "${found.value}"'s already`)
      return
    }
    if (Option.isNone(found)) {
      const earlier = yield* holdsState
      const won = yield* record(chain.chainId)
      if (won === chain.chainId) {
        yield* earlier
          ? Effect.logInfo(
              `state ${state} recorded no network (written by an earlier version): taken as chain "${won}"'s, ` +
                `the chain of ${chain.url}`
            )
          : Effect.logDebug(`state ${state} recorded for chain "${won}"`)
        return
      }
      // another watcher recorded another chain meanwhile
      return yield* ensure(options)
    }
    if (options.resetState) return yield* resetFrom(options, found.value)
    return yield* new OtherNetwork({ state, recorded: found.value, node: chain.url, chainId: chain.chainId })
  })
