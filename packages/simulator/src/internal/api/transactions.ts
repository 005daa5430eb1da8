/**
 * The core's transaction routes, which the data node forwards to the core unchanged: submit
 * (`/transaction`, `/transaction/raw`), check (`/transaction/check`, `/transaction/raw/check`) and
 * a party's spam statistics (`/statistics/spam/{partyId}`).
 *
 * `/transaction` ignores `type` and always waits for the mempool check; its hash is that of the
 * core's own re-marshalling of the JSON. `/transaction/raw` hashes the bytes as sent and honours
 * `type`: ASYNC answers code 0 at once (the transaction is still checked, and dropped silently if
 * it fails), SYNC waits for the check, COMMIT for the block (or the data node's 5 s deadline).
 */
import { ChainInfo, DataNodeApi, GatewayError, type Ids, SpamStatistics, Transaction } from "@vega-effect/schema"
import * as Duration from "effect/Duration"
import * as Schema from "effect/Schema"
import type { Checked, Core } from "../core/core.js"
import { Code } from "../core/core.js"
import { TX_IN_CACHE } from "../core/mempool.js"
import { gatewayErrorText } from "../gatewayJson.js"
import type { Reply, Route } from "../route.js"
import type { NodeView } from "./node.js"
import { error, ok } from "./reply.js"
import {
  readCheckRawTransaction,
  readCheckTransaction,
  readSubmitRawTransaction,
  readSubmitTransaction
} from "./txRequests.js"

const encodeSubmit = Schema.encodeSync(Transaction.SubmitTransactionResponse)
const encodeCheck = Schema.encodeSync(Transaction.CheckTransactionResponse)
const encodeSpamStatistics = Schema.encodeSync(SpamStatistics.GetSpamStatisticsResponse)

/** How long the data node waits for the core to answer a forwarded call. */
export const FORWARD_TIMEOUT: Duration.Duration = Duration.seconds(5)

const { GrpcCode } = GatewayError
const TYPE = Transaction.SubmitType.values

/** A body jsonpb could not read: the gateway's own 400. */
const badRequest = (message: string): Reply => ({
  status: 400,
  body: gatewayErrorText(GrpcCode.InvalidArgument, message)
})

/** CometBFT's cache refusal, which the core wraps as an Internal API error (HTTP 500). */
const IN_CACHE: Reply = error(GatewayError.internal(GatewayError.ErrorDetailCode.Unmapped, TX_IN_CACHE))

/** The core's answer to a raw submission with no (or an unknown) type. */
const INVALID_TYPE: Reply = error(
  GatewayError.invalidArgument(GatewayError.ErrorDetailCode.Unmapped, "Invalid TX Type")
)

/** The data node's forwarding deadline passed before the core answered. */
const DEADLINE_EXCEEDED: Reply = {
  status: 504,
  body: gatewayErrorText(GrpcCode.DeadlineExceeded, "context deadline exceeded")
}

/** `data` of the raw route: the same text as uppercase hex. */
const hexText = (text: string): string => Buffer.from(text, "utf8").toString("hex").toUpperCase()

const submitted = (hash: string, code: number, data: string, height = 0n): Reply =>
  ok(
    JSON.stringify(encodeSubmit({ success: code === Code.OK, txHash: hash.toUpperCase(), code, data, log: "", height }))
  )

const checked = (result: Checked): Reply =>
  ok(
    JSON.stringify(
      encodeCheck({
        success: result.code === Code.OK,
        code: result.code,
        gasWanted: result.gasWanted,
        gasUsed: 0n,
        data: result.data,
        log: "",
        info: ""
      })
    )
  )

const submitTransaction: Route<NodeView> = {
  method: DataNodeApi.SubmitTransaction.method,
  path: DataNodeApi.SubmitTransaction.path,
  params: [],
  body: true,
  handle: (_, node, body) => {
    const request = readSubmitTransaction(body)
    if (!request.ok) return badRequest(request.error)
    const result = node.core.submitTransaction(request.value.tx)
    if (result._tag === "InCache") return IN_CACHE
    return submitted(result.hash, result.code, result.data)
  }
}

const checkTransaction: Route<NodeView> = {
  method: DataNodeApi.CheckTransaction.method,
  path: DataNodeApi.CheckTransaction.path,
  params: [],
  body: true,
  handle: (_, node, body) => {
    const request = readCheckTransaction(body)
    if (!request.ok) return badRequest(request.error)
    return checked(node.core.checkTransaction(request.value.tx))
  }
}

/**
 * The code of an included transaction's block result: 0, 71 for a batch that partly failed, 70
 * with the error for a failure.
 */
const blockResultCode = (result: {
  readonly statusDetail?: unknown
  readonly failure?: { readonly error: string } | undefined
}): { readonly code: number; readonly data: string } =>
  result.statusDetail === "STATUS_SUCCESS"
    ? { code: Code.OK, data: "" }
    : result.statusDetail === "STATUS_PARTIAL_SUCCESS"
      ? { code: Code.PartialProcessingError, data: result.failure?.error ?? "" }
      : { code: Code.InternalError, data: result.failure?.error ?? "" }

const commit = async (core: Core, result: Checked): Promise<Reply> => {
  if (result.code !== Code.OK) return submitted(result.hash, result.code, hexText(result.data))
  const inclusion = await core.waitForInclusion(result.hash, FORWARD_TIMEOUT)
  if (inclusion === undefined) return DEADLINE_EXCEEDED
  const outcome = blockResultCode(inclusion.included.result)
  return submitted(result.hash, outcome.code, hexText(outcome.data), BigInt(inclusion.block.height))
}

const submitRawTransaction: Route<NodeView> = {
  method: DataNodeApi.SubmitRawTransaction.method,
  path: DataNodeApi.SubmitRawTransaction.path,
  params: [],
  body: true,
  handle: (_, node, body) => {
    const request = readSubmitRawTransaction(body)
    if (!request.ok) return badRequest(request.error)
    const { tx, type } = request.value
    if (type !== TYPE.TYPE_ASYNC && type !== TYPE.TYPE_SYNC && type !== TYPE.TYPE_COMMIT) {
      return INVALID_TYPE
    }
    const result = node.core.submitRaw(tx)
    if (result._tag === "InCache") return IN_CACHE
    if (type === TYPE.TYPE_ASYNC) return submitted(result.hash, Code.OK, "")
    if (type === TYPE.TYPE_SYNC) return submitted(result.hash, result.code, hexText(result.data))
    return commit(node.core, result)
  }
}

const checkRawTransaction: Route<NodeView> = {
  method: DataNodeApi.CheckRawTransaction.method,
  path: DataNodeApi.CheckRawTransaction.path,
  params: [],
  body: true,
  handle: (_, node, body) => {
    const request = readCheckRawTransaction(body)
    if (!request.ok) return badRequest(request.error)
    return checked(node.core.checkRaw(request.value.tx))
  }
}

/**
 * The core's answer for an empty party id (its `ErrEmptyMissingPartyID`; text and code as read
 * from the node's error table, not confirmed by its facts).
 */
const MISSING_PARTY: Reply = error(GatewayError.invalidArgument(10006, "empty or missing party ID"))

/**
 * A party's spam statistics. The proof-of-work state is the core's; the per-epoch policies
 * (proposals, votes, transfers, …) are not modelled and come out `null`, as from a core without
 * a spam engine.
 */
const spamStatistics: Route<NodeView> = {
  method: DataNodeApi.GetSpamStatistics.method,
  path: DataNodeApi.GetSpamStatistics.path,
  params: [],
  handle: (params, node) => {
    const partyId = params.path.get("partyId") ?? ""
    if (partyId === "") return MISSING_PARTY
    const { core, world } = node
    const pow = core.powStatistics(partyId)
    const response: SpamStatistics.GetSpamStatisticsResponse = {
      chainId: world.chain.chainId,
      statistics: {
        pow: {
          blockStates: pow.blockStates.map((state) => ({
            blockHeight: BigInt(state.blockHeight),
            blockHash: state.blockHash as Ids.BlockHash,
            transactionsSeen: BigInt(state.transactionsSeen),
            ...(state.expectedDifficulty === undefined ? {} : { expectedDifficulty: BigInt(state.expectedDifficulty) }),
            hashFunction: ChainInfo.SPAM_POW_HASH_FUNCTION,
            difficulty: BigInt(state.params.difficulty),
            txPerBlock: BigInt(state.params.numberOfTxPerBlock),
            increasingDifficulty: state.params.increasingDifficulty
          })),
          numberOfPastBlocks: BigInt(pow.numberOfPastBlocks)
        },
        epochSeq: BigInt(world.chain.epochOf(core.height))
      }
    }
    return ok(JSON.stringify(encodeSpamStatistics(response)))
  }
}

export const routes: ReadonlyArray<Route<NodeView>> = [
  submitTransaction,
  checkTransaction,
  submitRawTransaction,
  checkRawTransaction,
  spamStatistics
]
