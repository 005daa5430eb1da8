import { createHash } from "node:crypto"
import { Keys, ProofOfWork, Signature, TxEncoding } from "@vega-effect/crypto"
import { Commands, Transaction } from "@vega-effect/schema"
import { Either, Schema } from "effect"
import { request } from "./http.js"

/** A deterministic key pair per number. */
export const key = (n: number): Keys.KeyPair =>
  Either.getOrThrow(Keys.fromHex(createHash("sha256").update(`simulator test key ${n}`).digest("hex")))

/** The first nonce from 0 that solves the problem (fast at the low difficulties tests use). */
export const solve = (blockHash: string, tid: string, difficulty: number): bigint => {
  for (let nonce = 0n; ; nonce++) if (ProofOfWork.verify(blockHash, tid, nonce, difficulty)) return nonce
}

/** The first nonce from 0 whose hash has exactly `zeros` leading zero bits. */
export const solveExactly = (blockHash: string, tid: string, zeros: number): bigint => {
  for (let nonce = 0n; ; nonce++) {
    if (ProofOfWork.leadingZeroBits(ProofOfWork.hash(blockHash, tid, nonce)) === zeros) return nonce
  }
}

/** The first nonce from 0 that does not solve the problem. */
export const unsolve = (blockHash: string, tid: string, difficulty: number): bigint => {
  for (let nonce = 0n; ; nonce++) if (!ProofOfWork.verify(blockHash, tid, nonce, difficulty)) return nonce
}

/** A fresh transaction id per number. */
export const tid = (n: number | string): string => createHash("sha256").update(`tid ${n}`).digest("hex")

export interface Chain {
  readonly chainId: string
  readonly height: bigint
  readonly hash: string
  readonly difficulty: number
}

export interface Parts {
  readonly key: Keys.KeyPair
  readonly command: Commands.Command
  readonly nonce?: bigint
  readonly tid?: string
  /** Sign for this chain id instead. */
  readonly chainId?: string
  readonly version?: 2 | 3
  /** A proof-of-work nonce to use instead of solving. */
  readonly powNonce?: bigint
  /** Use a nonce that does not solve the proof of work. */
  readonly invalidPow?: boolean
  /** Solve at this difficulty instead of the chain's. */
  readonly difficulty?: number
  readonly blockHeight?: bigint
  readonly blockHash?: string
}

let counter = 0

/** A signed transaction with its proof of work, as a wallet builds it. */
export const buildTransaction = (chain: Chain, parts: Parts): Transaction.Transaction => {
  counter++
  const blockHeight = parts.blockHeight ?? chain.height
  const inputData = TxEncoding.encodeInputData({
    nonce: parts.nonce ?? BigInt(Date.now()) * 1000n + BigInt(counter),
    blockHeight,
    command: parts.command
  })
  const version = parts.version ?? 3
  const transactionId = parts.tid ?? tid(`${Date.now()} ${counter} ${Math.random()}`)
  const blockHash = parts.blockHash ?? chain.hash
  const difficulty = parts.difficulty ?? chain.difficulty
  const powNonce =
    parts.powNonce ??
    (parts.invalidPow === true
      ? unsolve(blockHash, transactionId, difficulty)
      : solve(blockHash, transactionId, difficulty))
  return {
    inputData,
    signature: Signature.signInputData(parts.key, inputData, parts.chainId ?? chain.chainId, version),
    pubKey: parts.key.publicKey,
    version: version === 3 ? "TX_VERSION_V3" : "TX_VERSION_V2",
    pow: { tid: transactionId, nonce: powNonce }
  }
}

/** Go's bytes of a transaction: what `/transaction` hashes. */
export const bytesOf = (tx: Transaction.Transaction): Uint8Array => TxEncoding.encodeTransaction(tx)

export const hashOf = (bytes: Uint8Array): string => TxEncoding.txHash(bytes)

const encodeTransactionJson = Schema.encodeSync(Transaction.Transaction)

/** The JSON a client posts to `/transaction`. */
export const transactionJson = (tx: Transaction.Transaction): unknown => encodeTransactionJson(tx)

export const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64")

/** POSTs a JSON body and returns status and parsed body. */
export const post = async (
  url: string,
  path: string,
  body: unknown
): Promise<{ readonly status: number; readonly text: string; readonly json: any }> => {
  const response = await request(url, path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })
  return { status: response.status, text: response.text, json: JSON.parse(response.text) }
}

/** Reads `/blockchain/height` into what a wallet needs. */
export const chainOf = async (url: string): Promise<Chain> => {
  const response = await request(url, "/blockchain/height")
  const body = JSON.parse(response.text)
  return { chainId: body.chainId, height: BigInt(body.height), hash: body.hash, difficulty: body.spamPowDifficulty }
}

/** A profile update: a command every party may send and no market is involved in. */
export const profile = (alias: string): Commands.Command =>
  Commands.command("updatePartyProfile", { alias, metadata: [] })

/** A limit order on a market. */
export const order = (marketId: string): Commands.Command =>
  Commands.command("orderSubmission", {
    marketId,
    price: "100",
    size: 1n,
    side: "SIDE_BUY",
    timeInForce: "TIME_IN_FORCE_GTC",
    expiresAt: 0n,
    type: "TYPE_LIMIT",
    reference: "",
    postOnly: false,
    reduceOnly: false
  })
