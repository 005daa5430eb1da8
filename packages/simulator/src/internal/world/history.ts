/**
 * The network's own history: the core's checkpoints and state snapshots, the protocol upgrade
 * proposals of its validators, and the data node's network history (its segments and its IPFS
 * peer), all derived from the chain and the world's own random streams.
 *
 * - **Checkpoints** (core/checkpoint/engine.go, core/processor/abci.go `Finalize`, v0.75.8): at
 *   the end of every block the core asks for a checkpoint. The first block only sets the next
 *   checkpoint time (its time plus `network.checkpoint.timeElapsedBetweenCheckpoints`); after that
 *   the first block whose time is not before that time takes one and sets the next from its own
 *   time. Each is the checkpoint's hash (hex), the block's hash and height. Withdrawals also take
 *   checkpoints in the core; the world's withdrawals do not.
 * - **Core snapshots** (core/snapshot/engine.go, v0.75.8): a snapshot when the count of commits
 *   before the next one reaches zero. The engine starts with an interval of 1 and one commit left,
 *   and the genesis value of `snapshot.interval.length` adds its difference to the count, so with
 *   an interval of N the snapshots are at every multiple of N; a later change of the parameter
 *   moves the count as the engine's update does.
 * - **Network history segments** (datanode/networkhistory, v0.75.8): the data node publishes a
 *   segment for each block the core snapshots, from the block after the previous segment (from the
 *   node's oldest block, 1, for the first) to that block, with the database's schema version (of
 *   the node's release) and the chain id; its id is the IPFS content id of the segment's zip (CIDv0, `Qm…`), and each names
 *   the one before it.
 * - **Protocol upgrade proposals** (core/protocolupgrade/engine.go, v0.75.8): a validator proposes
 *   a release tag for an upgrade block; others approve it over the following blocks (each a new
 *   event with the sorted approvers, `PENDING`); at the upgrade block, a proposal whose approvers
 *   do not hold the required majority is `REJECTED`. The world's proposals never reach the
 *   majority (the validators are taken to hold equal voting power), so the chain never stops for an
 *   upgrade; they follow one another, so no validator's approval moves between proposals.
 */
import { makeRandom, mix, type Random } from "../random.js"
import type { Validator } from "./catalog.js"
import type { Chain } from "./chain.js"
import type { NetworkParameters } from "./networkParameters.js"
import type { Versioned } from "./versioned.js"

/** The per-block random streams of checkpoint hashes and segment ids. */
const CHECKPOINT_STREAM = 250
const SEGMENT_STREAM = 251

const CHECKPOINT_KEY = "network.checkpoint.timeElapsedBetweenCheckpoints"
const SNAPSHOT_KEY = "snapshot.interval.length"
/** `validators.vote.required`'s default: the share of voting power an upgrade needs. */
const REQUIRED_MAJORITY = 2 / 3 + 1e-4

/**
 * The version of the data node's database schema, its last migration, by the release the node
 * imitates (datanode/sqlstore/migrations: 0099 at v0.75.8, 0123 at v0.79.0).
 */
export const DATABASE_VERSIONS = { "v0.75": 99, "v0.79": 123 } as const

export interface CheckpointRow {
  readonly height: number
  readonly hash: string
  readonly blockHash: string
}

export interface CoreSnapshotRow {
  readonly height: number
  readonly blockHash: string
  /** Block time, unix microseconds. */
  readonly vt: number
}

export interface SegmentRow {
  readonly from: number
  readonly to: number
  readonly id: string
  readonly previousId: string
}

export const UpgradeStatus = { PENDING: 1, APPROVED: 2, REJECTED: 3 } as const

export interface UpgradeProposalRow extends Versioned {
  readonly upgradeHeight: number
  readonly tag: string
  /** Validator public keys, sorted. */
  readonly approvers: ReadonlyArray<string>
  readonly status: number
  /** The time of the block of the event that wrote this state, unix microseconds. */
  readonly vt: number
}

/** The base order of the proposals' store: upgrade height, then release tag. */
export const compareUpgradeKey = (
  row: UpgradeProposalRow,
  key: { readonly upgradeHeight: number; readonly tag: string }
): number => row.upgradeHeight - key.upgradeHeight || (row.tag < key.tag ? -1 : row.tag > key.tag ? 1 : 0)

/** A Go duration of the forms the network parameters use (`1m`, `30s`, `1h30m`, `500ms`), in µs. */
export const durationMicros = (text: string): number => {
  const units: Record<string, number> = { h: 3_600_000_000, m: 60_000_000, s: 1_000_000, ms: 1000, us: 1, µs: 1 }
  let total = 0
  for (const [, n, unit] of text.matchAll(/(\d+(?:\.\d+)?)(h|ms|us|µs|m|s)/g)) {
    total += Number(n) * units[unit]
  }
  return Math.round(total)
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

/** Bitcoin base58 of bytes given as hex (leading zero bytes as `1`s), as multiformats write it. */
export const base58 = (hex: string): string => {
  let n = BigInt(`0x${hex || "0"}`)
  let out = ""
  while (n > 0n) {
    out = BASE58[Number(n % 58n)] + out
    n /= 58n
  }
  for (let i = 0; i + 1 < hex.length && hex.slice(i, i + 2) === "00"; i += 2) out = `1${out}`
  return out
}

/** A CIDv0 (`Qm…`): the base58 of a sha2-256 multihash (`0x12 0x20` and the digest). */
const cidV0 = (digestHex: string): string => base58(`1220${digestHex}`)

/**
 * A libp2p peer id of an Ed25519 key (`12D3KooW…`): the base58 of the identity multihash of the
 * protobuf public key (`0x00 0x24`, then `0x08 0x01 0x12 0x20` and the 32 key bytes).
 */
export const peerIdOf = (publicKeyHex: string): string => base58(`002408011220${publicKeyHex}`)

/** The data node's IPFS peer: its id and address, the peers it is connected to, its bootstrap peers. */
export interface HistoryPeer {
  readonly peerId: string
  /** `/ip4/…/tcp/4001`, the local address of its swarm connections. */
  readonly address: string
  /** Remote addresses with their peer ids (`/ip4/…/tcp/…/p2p/…`). */
  readonly connected: ReadonlyArray<string>
  /** The configured bootstrap peers (`/ip4/…/tcp/4001/ipfs/…`). */
  readonly bootstrap: ReadonlyArray<string>
}

const ip = (random: Random, first: number): string =>
  `${first}.${random.between(0, 255)}.${random.between(0, 255)}.${random.between(1, 254)}`

export class History {
  private readonly checkpoints: Array<CheckpointRow> = []
  private readonly snapshots: Array<CoreSnapshotRow> = []
  private readonly segments: Array<SegmentRow> = []
  /** Every state of every proposal, in the order the core wrote them. */
  private readonly proposalStates: Array<UpgradeProposalRow> = []
  /** The last block the checkpoint and snapshot engines have been run through. */
  private scanned = 0
  private nextCheckpoint: number | undefined
  private snapshotInterval = 1
  private commitsLeft = 1
  readonly peer: HistoryPeer

  constructor(
    private readonly seed: number,
    private readonly chain: Chain,
    private readonly parameters: NetworkParameters
  ) {
    // the world's initial stream 31
    const random = makeRandom(mix(seed, 0, 31))
    const peers = Array.from({ length: 4 }, () => `${ip(random, 10)}`)
    const ids = peers.map(() => peerIdOf(random.hex(32)))
    this.peer = {
      peerId: peerIdOf(random.hex(32)),
      address: `/ip4/${ip(random, 10)}/tcp/4001`,
      connected: peers.map(
        (p, i) => `/ip4/${p}/tcp/${random.chance(0.5) ? 4001 : random.between(30000, 60000)}/p2p/${ids[i]}`
      ),
      bootstrap: peers.slice(0, 2).map((p, i) => `/ip4/${p}/tcp/4001/ipfs/${ids[i]}`)
    }
  }

  /**
   * Schedules the validators' upgrade proposals from a stream of their own: a few, one after the
   * other, from early in the chain to some blocks past `height`.
   */
  generateProposals(random: Random, validators: ReadonlyArray<Validator>, height: number): void {
    // the most approvers that stay short of the majority, with equal voting power
    let most = 0
    while ((most + 1) / validators.length < REQUIRED_MAJORITY && most + 1 <= validators.length) most++
    if (most === 0) return
    let at = random.between(2, Math.max(2, Math.floor(height / 4)))
    const count = random.between(2, 4)
    for (let i = 0; i < count; i++) {
      const upgradeHeight =
        at + random.between(Math.max(20, Math.floor(height / 6)), Math.max(40, Math.floor(height / 2)))
      // tags past both releases the nodes imitate, so the proposals are valid for either core
      const tag = `v0.79.${i + 1}`
      const keys = [...validators.map((v) => v.pubKey)]
      const approvals = random.between(1, most)
      const joined: Array<string> = []
      let h = at
      for (let a = 0; a < approvals; a++) {
        joined.push(keys.splice(random.int(keys.length), 1)[0])
        this.write(upgradeHeight, tag, [...joined].sort(), UpgradeStatus.PENDING, h)
        h = Math.min(
          upgradeHeight - 1,
          h + random.between(1, Math.max(2, Math.floor((upgradeHeight - at) / approvals)))
        )
      }
      this.write(upgradeHeight, tag, [...joined].sort(), UpgradeStatus.REJECTED, upgradeHeight)
      at = upgradeHeight + random.between(5, 50)
    }
  }

  private write(upgradeHeight: number, tag: string, approvers: Array<string>, status: number, height: number): void {
    let last: UpgradeProposalRow | undefined
    for (const r of this.proposalStates) if (r.upgradeHeight === upgradeHeight && r.tag === tag) last = r
    const row: UpgradeProposalRow = {
      upgradeHeight,
      tag,
      approvers,
      status,
      vt: this.chain.blockTime(height),
      from: height,
      to: Infinity
    }
    if (last !== undefined) last.to = height
    this.proposalStates.push(row)
  }

  /** Runs the checkpoint and snapshot engines through block `height`. */
  private scan(height: number): void {
    for (let h = this.scanned + 1; h <= height; h++) {
      const time = this.chain.blockTime(h)
      const delta = durationMicros(this.parameters.at(CHECKPOINT_KEY, h)?.value ?? "1m")
      if (this.nextCheckpoint === undefined) {
        this.nextCheckpoint = time + delta
      } else if (this.nextCheckpoint <= time) {
        this.nextCheckpoint = time + delta
        this.checkpoints.push({
          height: h,
          hash: makeRandom(mix(this.seed, h, CHECKPOINT_STREAM)).hex(32),
          blockHash: this.chain.blockHash(h)
        })
      }
      const interval = Math.max(1, Number(this.parameters.at(SNAPSHOT_KEY, h)?.value ?? "1"))
      if (interval !== this.snapshotInterval) {
        // the engine's OnSnapshotIntervalUpdate
        if (interval < this.commitsLeft || this.commitsLeft === 0) this.commitsLeft = interval
        else if (interval > this.snapshotInterval) this.commitsLeft += interval - this.snapshotInterval
        this.snapshotInterval = interval
      }
      this.commitsLeft--
      if (this.commitsLeft <= 0) {
        this.commitsLeft = this.snapshotInterval
        const blockHash = this.chain.blockHash(h)
        this.snapshots.push({ height: h, blockHash, vt: time })
        const previous = this.segments[this.segments.length - 1]
        this.segments.push({
          from: previous === undefined ? 1 : previous.to + 1,
          to: h,
          id: cidV0(makeRandom(mix(this.seed, h, SEGMENT_STREAM)).hex(32)),
          previousId: previous?.id ?? ""
        })
      }
    }
    if (height > this.scanned) this.scanned = height
  }

  /** The checkpoints taken up to `height`, oldest first. */
  checkpointsAt(height: number): ReadonlyArray<CheckpointRow> {
    this.scan(height)
    return this.checkpoints.slice(
      0,
      countTo(this.checkpoints, height, (r) => r.height)
    )
  }

  /** The core snapshots taken up to `height`, oldest first. */
  snapshotsAt(height: number): ReadonlyArray<CoreSnapshotRow> {
    this.scan(height)
    return this.snapshots.slice(
      0,
      countTo(this.snapshots, height, (r) => r.height)
    )
  }

  /** The network history segments published up to `height`, oldest first. */
  segmentsAt(height: number): ReadonlyArray<SegmentRow> {
    this.scan(height)
    return this.segments.slice(
      0,
      countTo(this.segments, height, (r) => r.to)
    )
  }

  /** Each proposal's state as of `height`, in the store's base order. */
  proposalsAt(height: number): Array<UpgradeProposalRow> {
    return this.proposalStates.filter((r) => r.from <= height && height < r.to).sort((a, b) => compareUpgradeKey(a, b))
  }

  /** Every state the proposals went through, in the order written. */
  get proposalHistory(): ReadonlyArray<UpgradeProposalRow> {
    return this.proposalStates
  }
}

/** How many rows (sorted by `heightOf`) are at or below `height`. */
const countTo = <A>(rows: ReadonlyArray<A>, height: number, heightOf: (row: A) => number): number => {
  let lo = 0
  let hi = rows.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (heightOf(rows[mid]) <= height) lo = mid + 1
    else hi = mid
  }
  return lo
}
