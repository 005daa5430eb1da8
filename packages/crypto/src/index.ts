/**
 * @since 0.1.0
 */
export * as Ethereum from "./Ethereum.js"
export * as Keys from "./Keys.js"
export * as ProofOfWork from "./ProofOfWork.js"
export * as Signature from "./Signature.js"
export * as TxEncoding from "./TxEncoding.js"
