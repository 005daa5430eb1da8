import { describe, expect, it } from "@effect/vitest"
import { DataNode } from "@vega-effect/schema"
import { theoreticalFee } from "../src/internal/world/transfers.js"
import { call, cursorJson, decoded, nodeOf, smallWorld, walk } from "./harness.js"

// a world that has traded for a few epochs, with enough transfers for a page of 50 and more
const world = smallWorld({ blocksPerEpoch: 10, scale: { transfers: 60, recurringTransfers: 12 } })
const start = world.height
world.advance(100)
const node = nodeOf(world)

type Query = Parameters<typeof call>[2]

const transfers = (query: Query = {}, at = node) => call(at, "/api/v2/transfers", query)
const list = (query: Query = {}, at = node) => decoded(DataNode.ListTransfersResponse, transfers(query, at)).transfers
const ids = (query: Query = {}, at = node) => list(query, at).edges.map((e) => e.node.transfer!.id)
const all = (query: Query = {}, at = node) =>
  walk((after) => {
    const page = list(
      { ...query, "pagination.first": 7, ...(after === undefined ? {} : { "pagination.after": after }) },
      at
    )
    return { nodes: page.edges, next: page.pageInfo!.hasNextPage, end: page.pageInfo!.endCursor }
  })
const get = (transferId: string, at = node) => call(at, "/api/v2/transfer/{transferId}", {}, { transferId })
const inner = (body: string) => JSON.parse(body).details[0]

describe("ListTransfers", () => {
  it("lists every transfer by its last status's time then id, newest first, 50 a page by default", () => {
    expect(world.transfers.all.length).toBeGreaterThan(60)
    const page = list()
    expect(page.edges.length).toBe(50)
    expect(page.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false })
    const oldest = all({ "pagination.newestFirst": false })
    expect(oldest.length).toBe(world.transfers.all.length)
    const keys = oldest.map((e) => [BigInt(e.node.transfer!.timestamp), e.node.transfer!.id] as const)
    const sorted = [...keys].sort((a, b) => (a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] < b[1] ? -1 : 1))
    expect(keys).toEqual(sorted)
    expect(all().map((e) => e.node.transfer!.id)).toEqual(oldest.map((e) => e.node.transfer!.id).reverse())
    // the cursor is the last status's time and the id
    const edge = oldest[0]
    expect(JSON.parse(cursorJson(edge.cursor))).toEqual({
      vegaTime: expect.stringMatching(/Z$/),
      id: edge.node.transfer!.id
    })
    // a transfer that changed status sorts by its last change: its timestamp is that block's time
    const cancelled = world.transfers.all.find((t) => t.versions.at(-1)!.status === "STATUS_CANCELLED")!
    const listed = oldest.find((e) => e.node.transfer!.id === cancelled.id)!.node.transfer!
    expect(listed.status).toBe("STATUS_CANCELLED")
    expect(BigInt(listed.timestamp)).toBe(BigInt(cancelled.versions.at(-1)!.vt) * 1000n)
  })

  it("pages backwards with last and before, and a cursor continues on the next page", () => {
    const every = ids({ "pagination.first": 1000 })
    const first = list({ "pagination.first": 5 })
    const next = list({ "pagination.first": 5, "pagination.after": first.pageInfo!.endCursor })
    expect(next.edges.map((e) => e.node.transfer!.id)).toEqual(every.slice(5, 10))
    expect(next.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true })
    const last = list({ "pagination.last": 4 })
    expect(last.edges.map((e) => e.node.transfer!.id)).toEqual(every.slice(-4))
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true })
    const before = list({ "pagination.last": 4, "pagination.before": last.pageInfo!.startCursor })
    expect(before.edges.map((e) => e.node.transfer!.id)).toEqual(every.slice(-8, -4))
  })

  it("filters by party and direction, status, reward, epochs and account types", () => {
    const every = all().map((e) => e.node.transfer!)
    const party = every.find((t) => t.fromAccountType === "ACCOUNT_TYPE_GENERAL")!.from
    const from = all({ pubkey: party, direction: "TRANSFER_DIRECTION_TRANSFER_FROM" }).map((e) => e.node.transfer!)
    expect(from.length).toBeGreaterThan(0)
    expect(from.map((t) => t.id)).toEqual(every.filter((t) => t.from === party).map((t) => t.id))
    const receiver = every.find((t) => t.toAccountType === "ACCOUNT_TYPE_GENERAL")!.to
    const to = all({ pubkey: receiver.toUpperCase(), direction: "TRANSFER_DIRECTION_TRANSFER_TO" })
    expect(to.map((e) => e.node.transfer!.id)).toEqual(every.filter((t) => t.to === receiver).map((t) => t.id))
    const either = all({ pubkey: party, direction: "TRANSFER_DIRECTION_TRANSFER_TO_OR_FROM" })
    expect(either.map((e) => e.node.transfer!.id)).toEqual(
      every.filter((t) => t.from === party || t.to === party).map((t) => t.id)
    )
    for (const status of ["STATUS_DONE", "STATUS_REJECTED", "STATUS_PENDING", "STATUS_CANCELLED"] as const) {
      const some = all({ status }).map((e) => e.node.transfer!)
      expect([status, some.length]).toEqual([status, every.filter((t) => t.status === status).length])
      expect(some.every((t) => t.status === status)).toBe(true)
    }
    expect(all({ status: "STATUS_REJECTED" }).length).toBeGreaterThan(0)
    // reward transfers: recurring ones to a global reward account
    const rewards = all({ isReward: true }).map((e) => e.node.transfer!)
    expect(rewards.length).toBeGreaterThan(0)
    expect(rewards.map((t) => t.id)).toEqual(
      every
        .filter((t) => t.recurring !== undefined && t.toAccountType === "ACCOUNT_TYPE_GLOBAL_REWARD")
        .map((t) => t.id)
    )
    // an epoch filter keeps recurring transfers starting or ending on its side, never one-offs
    const epoch = world.chain.epochOf(start) + 2
    const fromEpoch = all({ fromEpoch: BigInt(epoch) }).map((e) => e.node.transfer!)
    expect(fromEpoch.map((t) => t.id)).toEqual(
      every
        .filter(
          (t) =>
            t.recurring !== undefined &&
            (t.recurring.startEpoch >= BigInt(epoch) ||
              (t.recurring.endEpoch !== undefined && t.recurring.endEpoch >= BigInt(epoch)))
        )
        .map((t) => t.id)
    )
    const toEpoch = all({ toEpoch: BigInt(epoch) }).map((e) => e.node.transfer!)
    expect(toEpoch.length).toBeGreaterThan(0)
    expect(toEpoch.every((t) => t.recurring !== undefined && t.recurring.startEpoch <= BigInt(epoch))).toBe(true)
    const treasury = all({ toAccountType: "ACCOUNT_TYPE_NETWORK_TREASURY" }).map((e) => e.node.transfer!)
    expect(treasury.length).toBeGreaterThan(0)
    expect(treasury.every((t) => t.to === "network")).toBe(true)
    expect(all({ fromAccountType: "ACCOUNT_TYPE_GENERAL" }).length).toBe(every.length)
    expect(all({ fromAccountType: "ACCOUNT_TYPE_VESTED_REWARDS" }).length).toBe(0)
    // no transfer of the world has a dispatch strategy: no scope, no game
    expect(all({ scope: "SCOPE_INDIVIDUAL" }).length).toBe(0)
    expect(all({ gameId: "ab".repeat(32) }).length).toBe(0)
  })

  it("refuses a party without a direction, reward transfers to a party, bad ids and cursors", () => {
    const pubkey = "ab".repeat(32)
    const noDirection = transfers({ pubkey })
    expect(noDirection.status).toBe(500)
    expect(inner(noDirection.body)).toMatchObject({
      code: 220001,
      message: "failed to get transfer",
      inner: `pubkey: ${pubkey}: unknown transfer direction: TRANSFER_DIRECTION_UNSPECIFIED`
    })
    const reward = transfers({ pubkey, isReward: true, direction: "TRANSFER_DIRECTION_TRANSFER_TO" })
    expect(reward.status).toBe(500)
    expect(inner(reward.body).inner).toBe(
      `pubkey: ${pubkey}: invalid transfer direction for reward transfers: TRANSFER_DIRECTION_TRANSFER_TO`
    )
    const badParty = transfers({ pubkey: "xyz", direction: "TRANSFER_DIRECTION_TRANSFER_FROM" })
    expect(badParty.status).toBe(400)
    expect(inner(badParty.body)).toMatchObject({
      code: 220001,
      inner:
        "pubkey: xyz: could not get transfers from party: could not get transfers: scany: query multiple result rows: decoding 'xyz': not a valid hex id (or well known exception)"
    })
    expect(transfers({ gameId: "zz" }).status).toBe(400)
    expect(transfers({ "pagination.first": -1 }).status).toBe(400)
    const cursor = transfers({ "pagination.after": Buffer.from("[]").toString("base64") })
    expect(cursor.status).toBe(500)
    expect(inner(cursor.body).inner).toMatch(/^pubkey: : parsing cursor: parsing cursor: json: cannot unmarshal array/)
  })

  it("a lagging node sees the transfers and statuses of its own height", () => {
    const cancelled = world.transfers.all.find(
      (t) => t.versions.length > 1 && t.versions.at(-1)!.status === "STATUS_CANCELLED"
    )!
    const height = cancelled.versions.at(-1)!.from - 1
    const lagging = nodeOf(world, { height })
    const seen = all({}, lagging).map((e) => e.node.transfer!)
    expect(seen.length).toBe(world.transfers.all.filter((t) => t.versions[0].from <= height).length)
    expect(seen.find((t) => t.id === cancelled.id)!.status).toBe("STATUS_PENDING")
    const later = world.transfers.all.find((t) => t.versions[0].from > height)!
    expect(get(later.id, lagging).status).toBe(404)
  })
})

describe("GetTransfer", () => {
  it("answers the transfer and its fees, as the listing shows them", () => {
    const edge = all().find((e) => e.node.fees.length > 0)!
    const reply = get(edge.node.transfer!.id.toUpperCase())
    const node1 = decoded(DataNode.GetTransferResponse, reply).transferNode!
    expect(node1).toEqual(edge.node)
    expect(JSON.parse(reply.body).transferNode).toEqual(
      JSON.parse(transfers({ "pagination.first": 1000 }).body).transfers.edges.find(
        (e: any) => e.node.transfer.id === edge.node.transfer!.id
      ).node
    )
    // a rejected transfer paid nothing and has no fees; the gateway writes them as []
    const rejected = all({ status: "STATUS_REJECTED" })[0].node
    expect(rejected.transfer!.reason).toMatch(/^could not /)
    expect(JSON.parse(get(rejected.transfer!.id).body).transferNode.fees).toEqual([])
  })

  it("answers unknown and undecodable ids as the store fails them", () => {
    const unknown = get("cd".repeat(32))
    expect(unknown.status).toBe(404)
    expect(inner(unknown.body)).toEqual({
      "@type": "type.googleapis.com/vega.ErrorDetail",
      code: 10000,
      message: "no resource corresponding to this id",
      inner: ""
    })
    const bad = get("xyz")
    expect(bad.status).toBe(400)
    expect(inner(bad.body).message).toBe("not a valid hex id (or well known exception)")
  })
})

describe("transfers and the ledger", () => {
  it("each payment moves the amount through the pending transfers account, and the fee to the infrastructure", () => {
    const ledger = world.accounts.ledger
    for (const transfer of world.transfers.all) {
      const status = transfer.versions.at(-1)!.status
      const entries = ledger.filter((l) => l.from === transfer.from && l.type === "TRANSFER_TYPE_TRANSFER_FUNDS_SEND")
      if (transfer.kind._tag === "OneOff" && status === "STATUS_DONE") {
        const fee = transfer.fees[0]
        const sent = entries.find((l) => l.amount === transfer.amount && l.height === fee.height)
        expect(sent?.to.type).toBe("ACCOUNT_TYPE_PENDING_TRANSFERS")
        const delivered = ledger.find(
          (l) => l.type === "TRANSFER_TYPE_TRANSFER_FUNDS_DISTRIBUTE" && l.to === transfer.to && l.seq === sent!.seq + 1
        )
        expect(delivered?.amount).toBe(transfer.amount)
      }
      if (status === "STATUS_REJECTED") expect(transfer.fees).toEqual([])
    }
    // the pending transfers accounts only pass money on
    const pending = [...world.accounts.byKey.values()].filter((a) => a.type === "ACCOUNT_TYPE_PENDING_TRANSFERS")
    expect(pending.length).toBeGreaterThan(0)
    for (const account of pending) expect(world.accounts.balance(account)).toBe(0n)
    const sends = ledger
      .filter((l) => l.type === "TRANSFER_TYPE_TRANSFER_FUNDS_SEND")
      .reduce((n, l) => n + l.amount, 0n)
    const paid = world.transfers.all.flatMap((t) => t.fees).length
    expect(ledger.filter((l) => l.type === "TRANSFER_TYPE_TRANSFER_FUNDS_SEND").length).toBe(paid)
    expect(sends).toBeGreaterThan(0n)
    // recurring payments: amount × factor^(epoch − start)
    const recurring = world.transfers.all.find(
      (t) => t.kind._tag === "Recurring" && t.kind.factor === "0.5" && t.fees.length > 1
    )
    if (recurring !== undefined && recurring.kind._tag === "Recurring") {
      const amounts = ledger
        .filter((l) => l.from === recurring.from && l.type === "TRANSFER_TYPE_TRANSFER_FUNDS_SEND")
        .filter((l) => recurring.fees.some((f) => f.height === l.height))
        .map((l) => l.amount)
      expect(amounts).toContain(recurring.amount / 2n ** BigInt(recurring.fees[1].epoch - recurring.kind.startEpoch))
    }
  })

  it("a transfer's amount shows in the receiver's general balance as the accounts route answers it", () => {
    const transfer = world.transfers.all.find(
      (t) =>
        t.kind._tag === "OneOff" &&
        t.versions[0].status === "STATUS_DONE" &&
        t.to.type === "ACCOUNT_TYPE_GENERAL" &&
        t.versions[0].from > start
    )!
    const height = transfer.versions[0].from
    const balance = (h: number) =>
      BigInt(
        JSON.parse(
          call(nodeOf(world, { height: h }), "/api/v2/accounts", {
            "filter.partyIds": [transfer.to.owner],
            "filter.assetId": transfer.asset.id,
            "filter.accountTypes": ["ACCOUNT_TYPE_GENERAL"]
          }).body
        ).accounts.edges[0].node.balance
      )
    const moves = world.accounts.ledger
      .filter((l) => l.height === height && (l.to === transfer.to || l.from === transfer.to))
      .reduce((n, l) => n + (l.to === transfer.to ? l.amount : -l.amount), 0n)
    expect(balance(height) - balance(height - 1)).toBe(moves)
    expect(moves >= transfer.amount || transfer.to.owner === transfer.from.owner).toBe(true)
  })
})

describe("fee discounts and estimates", () => {
  const [key, rows] = [...world.transfers.discounts.entries()].find(([, r]) => r.at(-1)!.amount > 0n)!
  const [party, asset] = key.split("/")
  const info = world.catalog.assets.find((a) => a.id === asset)!
  const discount = (query: Query, at = node) => call(at, "/api/v2/transfers/total-fee-discount", query)
  const estimate = (query: Query) => call(node, "/api/v2/transfers/estimate-fee", query)

  it("answers the party's latest discount for the asset, as of the node's height", () => {
    expect(decoded(DataNode.GetTotalTransferFeeDiscountResponse, discount({ partyId: party, assetId: asset }))).toEqual(
      {
        totalDiscount: rows.at(-1)!.amount
      }
    )
    const first = rows[0]
    const lagging = nodeOf(world, { height: first.height })
    expect(JSON.parse(discount({ partyId: party, assetId: asset }, lagging).body)).toEqual({
      totalDiscount: String(first.amount)
    })
    const none = discount({ partyId: party, assetId: asset }, nodeOf(world, { height: first.height - 1 }))
    expect(none.status).toBe(404)
    expect(inner(none.body)).toMatchObject({
      code: 10000,
      message: "failed to get current transfer fee discount",
      inner: "no resource corresponding to this id"
    })
    expect(discount({ partyId: "xyz", assetId: asset }).status).toBe(400)
  })

  it("decays each epoch by the decay fraction and grows with the trading fees paid", () => {
    // a trader that made no transfer: its discount is its own trading fees, decayed by 0.8
    const senders = new Set(world.transfers.all.map((t) => t.from.owner))
    const tradingTypes = new Set([
      "TRANSFER_TYPE_MAKER_FEE_PAY",
      "TRANSFER_TYPE_INFRASTRUCTURE_FEE_PAY",
      "TRANSFER_TYPE_LIQUIDITY_FEE_PAY"
    ])
    const [traderKey, traderRows] = [...world.transfers.discounts.entries()].find(
      ([k, r]) => !senders.has(k.split("/")[0]) && r.length > 2
    )!
    const [trader, traderAsset] = traderKey.split("/")
    const paidIn = (epoch: number) =>
      world.accounts.ledger
        .filter(
          (l) =>
            tradingTypes.has(l.type) &&
            l.from.owner === trader &&
            l.from.asset.id === traderAsset &&
            world.chain.epochOf(l.height) === epoch
        )
        .reduce((n, l) => n + l.amount, 0n)
    const quantum = BigInt(world.catalog.assets.find((a) => a.id === traderAsset)!.quantum)
    let held = 0n
    for (const row of traderRows) {
      const fees = paidIn(row.epoch)
      // decay × 0.8 (as tenths), the fees added, truncated; under 0.01 quantum is 0
      const tenths = held * 8n + fees * 10n
      held = tenths < quantum / 10n ? 0n : tenths / 10n
      expect([row.epoch, row.amount]).toEqual([row.epoch, held])
    }
  })

  it("shows the discount from before a transfer spends it until the epoch ends, as the core publishes it", () => {
    const spends = world.transfers.all.flatMap((t) =>
      t.fees.filter((f) => f.discountApplied > 0n).map((f) => ({ fee: f, owner: t.from.owner, asset: t.asset.id }))
    )
    expect(spends.length).toBeGreaterThan(0)
    let checked = 0
    for (const { asset: spentAsset, fee, owner } of spends) {
      const history = world.transfers.discounts.get(`${owner}/${spentAsset}`)!
      const at = history.findIndex((r) => r.height === fee.height)
      // the first spend after an epoch's row: the node still answers that row's amount
      if (at > 0 && world.chain.epochLastBlock(world.chain.epochOf(fee.height)) !== fee.height) {
        if (history[at - 1].epoch !== world.chain.epochOf(fee.height) - 1) continue
        expect(history[at].amount).toBe(history[at - 1].amount)
        const seen = JSON.parse(
          discount({ partyId: owner, assetId: spentAsset }, nodeOf(world, { height: fee.height })).body
        )
        expect(seen.totalDiscount).toBe(String(history[at - 1].amount))
        checked++
      }
    }
    expect(checked).toBeGreaterThan(0)
  })

  it("estimates the fee of an amount less the party's discount", () => {
    const quantum = info.quantum
    const big = 10n ** 30n
    const full = theoreticalFee(quantum, "1", "0.001", big)
    expect(full).toBe(BigInt(quantum))
    expect(theoreticalFee(quantum, "1", "0.001", 12345n)).toBe(12n)
    // a party with no discount pays the whole fee
    const stranger = "ef".repeat(32)
    expect(
      decoded(
        DataNode.EstimateTransferFeeResponse,
        estimate({ fromAccount: stranger, amount: "12345", assetId: asset })
      )
    ).toEqual({ fee: 12n, discount: 0n })
    const accumulated = rows.at(-1)!.amount
    const own = JSON.parse(estimate({ fromAccount: party, amount: String(big), assetId: asset }).body)
    const left = full > accumulated ? full - accumulated : 0n
    expect(own).toEqual({ fee: String(left), discount: String(full - left) })
    // no fee from one's own vested rewards to oneself
    expect(
      JSON.parse(
        estimate({
          fromAccount: stranger,
          toAccount: stranger,
          fromAccountType: "ACCOUNT_TYPE_VESTED_REWARDS",
          amount: "12345",
          assetId: asset
        }).body
      )
    ).toEqual({ fee: "0", discount: "0" })
  })

  it("refuses amounts that are not integers, and unknown or undecodable assets", () => {
    for (const amount of ["", "1.5", "x", (1n << 256n).toString()]) {
      const reply = estimate({ amount, assetId: asset })
      expect([amount, reply.status]).toEqual([amount, 400])
      expect(inner(reply.body).message).toBe("invalid transfer amount")
    }
    const unknown = estimate({ amount: "10", assetId: "cd".repeat(32) })
    expect(unknown.status).toBe(404)
    expect(inner(unknown.body)).toMatchObject({
      code: 200002,
      message: "failed to get asset for ID",
      inner: "no resource corresponding to this id"
    })
    expect(estimate({ amount: "10", assetId: "xyz" }).status).toBe(400)
  })
})
