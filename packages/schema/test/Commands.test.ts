import { describe, expect, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"
import * as C from "../src/Commands.js"
import * as Enum from "../src/Enum.js"

const MARKET = "e9ec6d5c46a7e7bcabf9ba7a893fa5a5eeeec08b731f06f7a6eb7bf0e605b829"
const ORDER = "5b0b3c3c6e1d4b5c96a0f2b7f0a0a0a47b3bd3b6d8ccf4e5a1a5a6f9c9e0d1e2"
const ASSET = "fdf0ec118d98393a7702cf72e46fc87ad680b152f64b2aac59e093ac2d688fbb"
const PARTY = "0a2d3c5a1e4d2c3b4a59687766554433221100ffeeddccbbaa99887766554433"
const PARTY2 = "b5fd9d3c4ad553cb3196303b6e6df7f484cf7f5331a572a45031239fd71ad8a0"
const NODE = "6b3e197785a6f7614f52c07a0e3e7807a4dfbde3db828ed6f716261269974772"
const ZERO = "0".repeat(64)

const limitOrder = `{"marketId":"${MARKET}","price":"123450000","size":"10","side":"SIDE_BUY","timeInForce":"TIME_IN_FORCE_GTT","expiresAt":"1731000000000000000","type":"TYPE_LIMIT","reference":"my-order","peggedOrder":null,"postOnly":true,"reduceOnly":false,"icebergOpts":{"peakSize":"5","minimumVisibleSize":"2"}}`
const peggedOrder = `{"marketId":"${MARKET}","price":"","size":"3","side":"SIDE_SELL","timeInForce":"TIME_IN_FORCE_GTC","expiresAt":"0","type":"TYPE_LIMIT","reference":"","peggedOrder":{"reference":"PEGGED_REFERENCE_BEST_ASK","offset":"100"},"postOnly":false,"reduceOnly":false}`
const stopOrder = `{"marketId":"${MARKET}","price":"","size":"1","side":"SIDE_SELL","timeInForce":"TIME_IN_FORCE_IOC","expiresAt":"0","type":"TYPE_MARKET","reference":"","peggedOrder":null,"postOnly":false,"reduceOnly":true}`
const dispatchStrategy = `{"assetForMetric":"${ASSET}","metric":"DISPATCH_METRIC_MAKER_FEES_PAID","markets":["${MARKET}"],"entityScope":"ENTITY_SCOPE_INDIVIDUALS","individualScope":"INDIVIDUAL_SCOPE_ALL","teamScope":[],"nTopPerformers":"","stakingRequirement":"","notionalTimeWeightedAveragePositionRequirement":"","windowLength":"1","lockPeriod":"0","distributionStrategy":"DISTRIBUTION_STRATEGY_RANK","rankTable":[{"startRank":1,"shareRatio":10},{"startRank":2,"shareRatio":5}],"capRewardFeeMultiple":"3","transferInterval":2,"eligibleKeys":[]}`

// REST JSON as the gateway writes it: every field in proto declaration order, no spaces.
const fixtures: ReadonlyArray<readonly [string, string]> = [
  ["limit order with iceberg", `{"orderSubmission":${limitOrder}}`],
  ["pegged order", `{"orderSubmission":${peggedOrder}}`],
  ["order cancellation", `{"orderCancellation":{"orderId":"","marketId":"${MARKET}"}}`],
  [
    "order amendment, optionals unset",
    `{"orderAmendment":{"orderId":"${ORDER}","marketId":"${MARKET}","price":"1000","sizeDelta":"-2","timeInForce":"TIME_IN_FORCE_UNSPECIFIED","peggedOffset":"","peggedReference":"PEGGED_REFERENCE_UNSPECIFIED"}}`
  ],
  [
    "order amendment, optionals set",
    `{"orderAmendment":{"orderId":"${ORDER}","marketId":"${MARKET}","price":"1000","sizeDelta":"0","expiresAt":"1731000000000000000","timeInForce":"TIME_IN_FORCE_GTT","peggedOffset":"5","peggedReference":"PEGGED_REFERENCE_MID","size":"7"}}`
  ],
  [
    "withdrawal to an ERC-20 address",
    `{"withdrawSubmission":{"amount":"1000000","asset":"${ASSET}","ext":{"erc20":{"receiverAddress":"0x2f4c1aA6a5E2d0C9b0e0e0a3B4c5D6e7F8091a2b"}}}}`
  ],
  ["withdrawal without extension", `{"withdrawSubmission":{"amount":"1","asset":"${ASSET}","ext":null}}`],
  ["vote", `{"voteSubmission":{"proposalId":"${ORDER}","value":"VALUE_YES"}}`],
  [
    "liquidity provision submission",
    `{"liquidityProvisionSubmission":{"marketId":"${MARKET}","commitmentAmount":"5000000000","fee":"0.001","reference":"lp"}}`
  ],
  ["delegation", `{"delegateSubmission":{"nodeId":"${NODE}","amount":"1000000000000000000"}}`],
  ["undelegation", `{"undelegateSubmission":{"nodeId":"${NODE}","amount":"","method":"METHOD_NOW"}}`],
  ["liquidity provision cancellation", `{"liquidityProvisionCancellation":{"marketId":"${MARKET}"}}`],
  [
    "liquidity provision amendment",
    `{"liquidityProvisionAmendment":{"marketId":"${MARKET}","commitmentAmount":"6000000000","fee":"","reference":""}}`
  ],
  [
    "one-off transfer",
    `{"transfer":{"fromAccountType":"ACCOUNT_TYPE_GENERAL","to":"${PARTY}","toAccountType":"ACCOUNT_TYPE_GENERAL","asset":"${ASSET}","amount":"1","reference":"gift","oneOff":{"deliverOn":"0"}}}`
  ],
  [
    "one-off transfer from vested rewards on behalf of a party",
    `{"transfer":{"fromAccountType":"ACCOUNT_TYPE_VESTED_REWARDS","to":"${PARTY}","toAccountType":"ACCOUNT_TYPE_GENERAL","asset":"${ASSET}","amount":"5","reference":"","from":"${PARTY2}","oneOff":{"deliverOn":"1731000000000000000"}}}`
  ],
  [
    "recurring reward transfer with a dispatch strategy",
    `{"transfer":{"fromAccountType":"ACCOUNT_TYPE_GENERAL","to":"${ZERO}","toAccountType":"ACCOUNT_TYPE_REWARD_MAKER_PAID_FEES","asset":"${ASSET}","amount":"10000","reference":"","recurring":{"startEpoch":"100","endEpoch":"200","factor":"1","dispatchStrategy":${dispatchStrategy}}}}`
  ],
  [
    "recurring transfer without a dispatch strategy",
    `{"transfer":{"fromAccountType":"ACCOUNT_TYPE_GENERAL","to":"${ZERO}","toAccountType":"ACCOUNT_TYPE_NETWORK_TREASURY","asset":"${ASSET}","amount":"10000","reference":"","recurring":{"startEpoch":"1","factor":"0.5","dispatchStrategy":null}}}`
  ],
  ["transfer cancellation", `{"cancelTransfer":{"transferId":"${ORDER}"}}`],
  [
    "batch",
    `{"batchMarketInstructions":{"cancellations":[{"orderId":"","marketId":"${MARKET}"}],"amendments":[],"submissions":[${limitOrder},${peggedOrder}],"stopOrdersCancellation":[],"stopOrdersSubmission":[],"updateMarginMode":[{"marketId":"${MARKET}","mode":"MODE_ISOLATED_MARGIN","marginFactor":"0.5"}]}}`
  ],
  [
    "one-cancels-other stop orders",
    `{"stopOrdersSubmission":{"risesAbove":{"orderSubmission":${stopOrder},"expiresAt":"1731000000000000000","expiryStrategy":"EXPIRY_STRATEGY_CANCELS","price":"150000"},"fallsBelow":{"orderSubmission":${stopOrder},"sizeOverrideSetting":"SIZE_OVERRIDE_SETTING_POSITION","sizeOverrideValue":{"percentage":"0.5"},"trailingPercentOffset":"0.05"}}}`
  ],
  ["stop orders cancellation of one market", `{"stopOrdersCancellation":{"marketId":"${MARKET}"}}`],
  ["stop orders cancellation of everything", `{"stopOrdersCancellation":{}}`],
  [
    "team creation",
    `{"createReferralSet":{"isTeam":true,"team":{"name":"Team A","teamUrl":"https://a.example","closed":true,"allowList":["${PARTY}"]},"doNotCreateReferralSet":false}}`
  ],
  ["referral set creation", `{"createReferralSet":{"isTeam":false,"doNotCreateReferralSet":false}}`],
  [
    "referral set update",
    `{"updateReferralSet":{"id":"${ORDER}","isTeam":true,"team":{"name":"B","closed":false,"allowList":[]}}}`
  ],
  ["referral code", `{"applyReferralCode":{"id":"${ORDER}","doNotJoinTeam":true}}`],
  ["cross margin", `{"updateMarginMode":{"marketId":"${MARKET}","mode":"MODE_CROSS_MARGIN"}}`],
  ["join team", `{"joinTeam":{"id":"${ORDER}"}}`],
  [
    "party profile",
    `{"updatePartyProfile":{"alias":"satoshi","metadata":[{"key":"twitter","value":"@s"},{"key":"github","value":""}]}}`
  ]
]

const decodeCommand = Schema.decodeUnknownSync(C.Command)
const encodeCommand = Schema.encodeSync(C.Command)
const roundTrip = (json: string): string => JSON.stringify(encodeCommand(decodeCommand(JSON.parse(json))))

describe("Commands REST JSON", () => {
  it.each(fixtures)("%s decodes and re-encodes byte for byte", (_, json) => {
    expect(roundTrip(json)).toBe(json)
  })

  it("every supported command has a fixture", () => {
    const covered = new Set(fixtures.map(([, json]) => Object.keys(JSON.parse(json))[0]))
    expect([...covered].sort()).toEqual([...C.commandNames].sort())
  })

  it("decodes to a tagged command mirroring the proto", () => {
    expect(decodeCommand(JSON.parse(`{"orderSubmission":${limitOrder}}`))).toEqual({
      _tag: "orderSubmission",
      value: {
        marketId: MARKET,
        price: "123450000",
        size: 10n,
        side: "SIDE_BUY",
        timeInForce: "TIME_IN_FORCE_GTT",
        expiresAt: 1731000000000000000n,
        type: "TYPE_LIMIT",
        reference: "my-order",
        postOnly: true,
        reduceOnly: false,
        icebergOpts: { peakSize: 5n, minimumVisibleSize: 2n }
      }
    })
  })

  it("unset message fields are absent once decoded, proto3 optionals stay absent", () => {
    const decoded = decodeCommand(JSON.parse(fixtures[3][1]))
    expect(decoded._tag).toBe("orderAmendment")
    expect(Object.keys(decoded.value)).not.toContain("expiresAt")
    expect(Object.keys(decoded.value)).not.toContain("size")
    const withdrawal = decodeCommand(JSON.parse(fixtures[6][1]))
    expect(Object.keys(withdrawal.value)).toEqual(["amount", "asset"])
  })

  it("keeps 64-bit integers exact", () => {
    const json = `{"orderSubmission":${limitOrder.replace('"size":"10"', '"size":"18446744073709551615"')}}`
    const decoded = decodeCommand(JSON.parse(json))
    expect(decoded._tag === "orderSubmission" && decoded.value.size).toBe(18446744073709551615n)
    expect(roundTrip(json)).toBe(json)
  })

  it("keeps enum values it does not know, by name or by number", () => {
    const byName = `{"voteSubmission":{"proposalId":"${ORDER}","value":"VALUE_ABSTAIN"}}`
    const byNumber = `{"voteSubmission":{"proposalId":"${ORDER}","value":7}}`
    expect(decodeCommand(JSON.parse(byName)).value).toEqual({
      proposalId: ORDER,
      value: Enum.unknownEnumValue("VALUE_ABSTAIN")
    })
    expect(roundTrip(byName)).toBe(byName)
    expect(roundTrip(byNumber)).toBe(byNumber)
  })

  it("re-encodes in declaration order whatever the input order", () => {
    const shuffled = `{"cancelTransfer":{"transferId":"${ORDER}"},"ignored":1}`
    expect(roundTrip(shuffled)).toBe(`{"cancelTransfer":{"transferId":"${ORDER}"}}`)
    const reordered = `{"orderCancellation":{"marketId":"${MARKET}","orderId":""}}`
    expect(roundTrip(reordered)).toBe(`{"orderCancellation":{"orderId":"","marketId":"${MARKET}"}}`)
  })

  const rejects = (json: string) =>
    expect(Either.isLeft(Schema.decodeUnknownEither(C.Command)(JSON.parse(json)))).toBe(true)

  it("rejects a missing non-optional field (the gateway always emits it)", () => {
    rejects(`{"orderSubmission":${limitOrder.replace('"peggedOrder":null,', "")}}`)
    rejects(`{"orderSubmission":${limitOrder.replace('"reference":"my-order",', "")}}`)
    rejects(`{"batchMarketInstructions":{"cancellations":[],"amendments":[],"submissions":[]}}`)
  })

  it("rejects 64-bit integers written as JSON numbers and 32-bit ones written as strings", () => {
    rejects(`{"orderSubmission":${limitOrder.replace('"size":"10"', '"size":10')}}`)
    rejects(fixtures[15][1].replace('"transferInterval":2', '"transferInterval":"2"'))
  })

  it("rejects two members of one oneof", () => {
    rejects(
      `{"transfer":{"fromAccountType":"ACCOUNT_TYPE_GENERAL","to":"${PARTY}","toAccountType":"ACCOUNT_TYPE_GENERAL","asset":"${ASSET}","amount":"1","reference":"","oneOff":{"deliverOn":"0"},"recurring":{"startEpoch":"1","factor":"1","dispatchStrategy":null}}}`
    )
    rejects(
      `{"stopOrdersSubmission":{"risesAbove":{"orderSubmission":${stopOrder},"price":"1","trailingPercentOffset":"0.1"}}}`
    )
  })

  it("reads the command out of an InputData object; the lowest field number wins", () => {
    const inputData = `{"nonce":"1","blockHeight":"2","joinTeam":{"id":"${ORDER}"},"orderCancellation":{"orderId":"","marketId":""}}`
    expect(decodeCommand(JSON.parse(inputData))._tag).toBe("orderCancellation")
  })

  it("rejects an object without a known command", () => {
    rejects(`{}`)
    rejects(`{"proposalSubmission":{}}`)
  })

  it("decodes a dispatch strategy without eligibleKeys (older nodes) to an empty list", () => {
    const old = fixtures[15][1].replace(',"eligibleKeys":[]', "")
    const decoded = decodeCommand(JSON.parse(old))
    expect(decoded._tag === "transfer" && decoded.value.recurring?.dispatchStrategy?.eligibleKeys).toEqual([])
  })
})

describe("Commands property round trips", () => {
  const roundTrips = <A, I>(schema: Schema.Schema<A, I>, numRuns: number) => {
    const encode = Schema.encodeSync(schema)
    const decode = Schema.decodeUnknownSync(schema)
    FastCheck.assert(
      FastCheck.property(Arbitrary.make(schema), (value) => {
        const json = JSON.stringify(encode(value))
        const back = decode(JSON.parse(json))
        expect(back).toEqual(value)
        expect(JSON.stringify(encode(back))).toBe(json)
      }),
      { numRuns }
    )
  }

  it.each(C.commandNames)("%s", (name) => {
    roundTrips(C.commands[name].schema as Schema.Schema<unknown, unknown>, 100)
  })

  it("Command", () => {
    roundTrips(C.Command, 200)
  })
})

describe("Commands constructors", () => {
  it("fill proto defaults, so the JSON has every field", () => {
    const order = C.orderSubmission({
      marketId: MARKET,
      size: 1n,
      side: "SIDE_BUY",
      type: "TYPE_MARKET",
      timeInForce: "TIME_IN_FORCE_IOC"
    })
    expect(JSON.stringify(encodeCommand(C.command("orderSubmission", order)))).toBe(
      `{"orderSubmission":{"marketId":"${MARKET}","price":"","size":"1","side":"SIDE_BUY","timeInForce":"TIME_IN_FORCE_IOC","expiresAt":"0","type":"TYPE_MARKET","reference":"","peggedOrder":null,"postOnly":false,"reduceOnly":false}}`
    )
  })

  it("build nested messages", () => {
    const transfer = C.transfer({
      fromAccountType: "ACCOUNT_TYPE_GENERAL",
      to: ZERO,
      toAccountType: "ACCOUNT_TYPE_REWARD_MAKER_PAID_FEES",
      asset: ASSET,
      amount: "10000",
      recurring: C.recurringTransfer({
        startEpoch: 100n,
        endEpoch: 200n,
        factor: "1",
        dispatchStrategy: C.dispatchStrategy({
          assetForMetric: ASSET,
          metric: "DISPATCH_METRIC_MAKER_FEES_PAID",
          markets: [MARKET],
          entityScope: "ENTITY_SCOPE_INDIVIDUALS",
          individualScope: "INDIVIDUAL_SCOPE_ALL",
          windowLength: 1n,
          distributionStrategy: "DISTRIBUTION_STRATEGY_RANK",
          rankTable: [C.rank({ startRank: 1, shareRatio: 10 }), C.rank({ startRank: 2, shareRatio: 5 })],
          capRewardFeeMultiple: "3",
          transferInterval: 2
        })
      })
    })
    expect(JSON.stringify(encodeCommand(C.command("transfer", transfer)))).toBe(fixtures[15][1])
  })

  it("withdrawSubmission takes the receiver address directly", () => {
    const withdrawal = C.withdrawSubmission({ amount: "1000000", asset: ASSET, receiverAddress: "0xabc" })
    expect(withdrawal).toEqual({ amount: "1000000", asset: ASSET, ext: { erc20: { receiverAddress: "0xabc" } } })
    expect(C.withdrawSubmission()).toEqual({ amount: "", asset: "" })
  })

  it("every constructor yields a value of its schema", () => {
    const made: ReadonlyArray<readonly [Schema.Schema<any, any>, unknown]> = [
      [C.OrderSubmission, C.orderSubmission()],
      [C.OrderCancellation, C.orderCancellation()],
      [C.OrderAmendment, C.orderAmendment()],
      [C.StopOrdersSubmission, C.stopOrdersSubmission({ risesAbove: C.stopOrderSetup() })],
      [C.StopOrdersCancellation, C.stopOrdersCancellation()],
      [C.UpdateMarginMode, C.updateMarginMode()],
      [C.BatchMarketInstructions, C.batchMarketInstructions()],
      [C.LiquidityProvisionSubmission, C.liquidityProvisionSubmission()],
      [C.LiquidityProvisionAmendment, C.liquidityProvisionAmendment()],
      [C.LiquidityProvisionCancellation, C.liquidityProvisionCancellation()],
      [C.Transfer, C.transfer({ oneOff: C.oneOffTransfer() })],
      [C.CancelTransfer, C.cancelTransfer()],
      [C.WithdrawSubmission, C.withdrawSubmission()],
      [C.VoteSubmission, C.voteSubmission()],
      [C.DelegateSubmission, C.delegateSubmission()],
      [C.UndelegateSubmission, C.undelegateSubmission()],
      [C.UpdatePartyProfile, C.updatePartyProfile()],
      [C.CreateReferralSet, C.createReferralSet({ team: C.createReferralSetTeam() })],
      [C.UpdateReferralSet, C.updateReferralSet({ team: C.updateReferralSetTeam() })],
      [C.ApplyReferralCode, C.applyReferralCode()],
      [C.JoinTeam, C.joinTeam()],
      [C.PeggedOrder, C.peggedOrder()],
      [C.IcebergOpts, C.icebergOpts()]
    ]
    for (const [schema, value] of made) {
      expect(Schema.is(Schema.typeSchema(schema))(value)).toBe(true)
    }
  })
})

describe("Commands InputData table", () => {
  it("numbers every supported command as InputData does", () => {
    expect(C.commandNames.map((name) => [name, C.commands[name].protoName, C.commands[name].fieldNumber])).toEqual([
      ["orderSubmission", "order_submission", 1001],
      ["orderCancellation", "order_cancellation", 1002],
      ["orderAmendment", "order_amendment", 1003],
      ["withdrawSubmission", "withdraw_submission", 1004],
      ["voteSubmission", "vote_submission", 1006],
      ["liquidityProvisionSubmission", "liquidity_provision_submission", 1007],
      ["delegateSubmission", "delegate_submission", 1008],
      ["undelegateSubmission", "undelegate_submission", 1009],
      ["liquidityProvisionCancellation", "liquidity_provision_cancellation", 1010],
      ["liquidityProvisionAmendment", "liquidity_provision_amendment", 1011],
      ["transfer", "transfer", 1012],
      ["cancelTransfer", "cancel_transfer", 1013],
      ["batchMarketInstructions", "batch_market_instructions", 1015],
      ["stopOrdersSubmission", "stop_orders_submission", 1016],
      ["stopOrdersCancellation", "stop_orders_cancellation", 1017],
      ["createReferralSet", "create_referral_set", 1018],
      ["updateReferralSet", "update_referral_set", 1019],
      ["applyReferralCode", "apply_referral_code", 1020],
      ["updateMarginMode", "update_margin_mode", 1021],
      ["joinTeam", "join_team", 1022],
      ["updatePartyProfile", "update_party_profile", 1024]
    ])
  })

  it("agrees with the full oneof table", () => {
    for (const name of C.commandNames) {
      const info = C.commands[name]
      const field = C.inputDataCommandFields.find((f) => f.fieldNumber === info.fieldNumber)
      expect(field).toEqual({ fieldNumber: info.fieldNumber, protoName: info.protoName, name, message: info.message })
    }
    expect(C.inputDataCommandFields).toHaveLength(38)
    expect(C.inputDataCommandFields.find((f) => f.fieldNumber === 1025)?.name).toBe("submitAmm")
    expect(C.commands.transfer.message).toBe("vega.commands.v1.Transfer")
  })
})

describe("Commands enums", () => {
  it("carry the proto numbers", () => {
    expect(C.TimeInForce.values.TIME_IN_FORCE_GFN).toBe(6)
    expect(C.OrderType.values.TYPE_NETWORK).toBe(3)
    expect(C.AccountType.values.ACCOUNT_TYPE_BOND).toBe(9)
    expect(C.AccountType.values.ACCOUNT_TYPE_REWARD_RELATIVE_RETURN).toBe(25)
    expect(C.AccountType.values.ACCOUNT_TYPE_LOCKED_FOR_STAKING).toBe(34)
    expect(C.AccountType.nameOf(8)).toBeUndefined()
    expect(C.UndelegateMethod.values.METHOD_AT_END_OF_EPOCH).toBe(2)
    expect(C.MarginMode.values.MODE_ISOLATED_MARGIN).toBe(2)
    expect(C.VoteValue.values.VALUE_YES).toBe(2)
    expect(C.Side.protoName).toBe("vega.Side")
  })

  it("stream form uses numbers", () => {
    expect(Schema.encodeSync(C.AccountType.Number)("ACCOUNT_TYPE_VESTED_REWARDS")).toBe(23)
    expect(Schema.decodeSync(C.PeggedReference.Number)(3)).toBe("PEGGED_REFERENCE_BEST_ASK")
  })
})
