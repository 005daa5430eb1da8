/**
 * The ERC-20 bridge's bundles, the notary's signatures and the validators' key rotations: lists
 * over pages, filters, single bundles, and their error bodies.
 */
import type { Recorder } from "./exchanges.js"

export const bridge = async (r: Recorder) => {
  const removed = "/api/v2/erc20/multisigcontrol/signer/removed/bundles"
  await r.pages(removed, "bundles")
  const first = (await r.query(removed, { "pagination.first": "1" }))?.bundles?.edges?.[0]?.node
  if (first !== undefined) {
    await r.query(removed, { submitter: first.submitter, epochSeq: first.epochSeq })
  }
  await r.query(removed, { nodeId: "xyz" })
  await r.query(removed, { epochSeq: "x" })

  const assets = (await r.query("/api/v2/assets"))?.assets?.edges ?? []
  const assetId: string = assets[0]?.node?.id ?? "ab".repeat(32)
  await r.query("/api/v2/erc20/asset/list/bundle", { assetId })
  await r.query("/api/v2/erc20/asset/list/bundle", { assetId: "cd".repeat(32) })
  await r.query("/api/v2/erc20/asset/list/bundle", {})

  const signatures = "/api/v2/node/signatures"
  await r.pages(signatures, "signatures", { id: assetId })
  await r.query(signatures, {})
  await r.query(signatures, { id: "zz" })

  const withdrawals = (await r.query("/api/v2/withdrawals"))?.withdrawals?.edges ?? []
  const withdrawalId: string | undefined = withdrawals[0]?.node?.id
  if (withdrawalId !== undefined) {
    await r.query("/api/v2/erc20/asset/withdrawal/bundle", { withdrawalId })
    await r.query(signatures, { id: withdrawalId })
  }
  await r.query("/api/v2/erc20/asset/withdrawal/bundle", { withdrawalId: "ef".repeat(32) })
  await r.query("/api/v2/erc20/asset/withdrawal/bundle", { withdrawalId: "xyz" })

  const rotations = "/api/v2/vega/keys/rotations"
  await r.pages(rotations, "rotations")
  const rotation = (await r.query(rotations, { "pagination.first": "1" }))?.rotations?.edges?.[0]?.node
  if (rotation !== undefined) await r.pages(rotations, "rotations", { nodeId: rotation.nodeId })
  await r.query(rotations, { nodeId: "xyz" })
  const ethereum = "/api/v2/vega/keys/ethereum/rotations"
  await r.pages(ethereum, "keyRotations")
  const ethRotation = (await r.query(ethereum, { "pagination.first": "1" }))?.keyRotations?.edges?.[0]?.node
  if (ethRotation !== undefined) await r.query(ethereum, { nodeId: ethRotation.nodeId })
  await r.query(ethereum, { nodeId: "q" })
}
