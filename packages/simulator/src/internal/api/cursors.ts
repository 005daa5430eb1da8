/**
 * Cursor JSON, byte for byte as the node writes each endpoint's cursor struct with Go's
 * encoding/json, and read back the way Go would (unknown keys ignored, missing keys zero).
 */
import { goString } from "../goJson.js"
import { microsToRfc3339, rfc3339ToMicros } from "../goTime.js"

/** A field of a cursor struct: its JSON key and Go type. */
interface FieldSpec {
  readonly key: string
  readonly type: "time" | "string" | "int" | "any"
  readonly goType: string
}

export interface CursorSpec {
  readonly struct: string
  readonly fields: ReadonlyArray<FieldSpec>
}

/** Go's zero `time.Time` (0001-01-01T00:00:00Z) in unix microseconds. */
const ZERO_TIME = -62135596800000000

export type CursorValues = ReadonlyMap<string, string | number | unknown>

/** Decodes cursor JSON like Go's `json.Unmarshal` into the cursor struct; an error text otherwise. */
export const readCursor = (spec: CursorSpec, text: string): CursorValues | { readonly error: string } => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return { error: goSyntaxError(text) }
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    if (json === null) return new Map(spec.fields.map((f) => [f.key, zeroOf(f)]))
    return { error: `json: cannot unmarshal ${goKind(json)} into Go value of type entities.${spec.struct}` }
  }
  const values = new Map<string, string | number | unknown>()
  for (const field of spec.fields) {
    const value = (json as Record<string, unknown>)[field.key]
    if (value === undefined || value === null) {
      values.set(field.key, zeroOf(field))
      continue
    }
    switch (field.type) {
      case "time": {
        if (typeof value !== "string") return { error: "Time.UnmarshalJSON: input is not a JSON string" }
        const micros = rfc3339ToMicros(value)
        if (micros === undefined) {
          // Go quotes both the input and the layout, each with its JSON quotes
          const quoted = JSON.stringify(`"${value}"`)
          return {
            error: `parsing time ${quoted} as "\\"2006-01-02T15:04:05Z07:00\\"": cannot parse ${JSON.stringify(`${value}"`)} as "2006"`
          }
        }
        values.set(field.key, micros)
        break
      }
      case "string":
        if (typeof value !== "string") return { error: typeError(spec, field, value) }
        values.set(field.key, value)
        break
      case "int":
        if (typeof value !== "number" || !Number.isInteger(value)) return { error: typeError(spec, field, value) }
        values.set(field.key, value)
        break
      default:
        values.set(field.key, value)
    }
  }
  return values
}

const zeroOf = (field: FieldSpec): string | number | unknown =>
  field.type === "time" ? ZERO_TIME : field.type === "string" ? "" : field.type === "int" ? 0 : null

const goKind = (u: unknown): string =>
  typeof u === "string"
    ? "string"
    : typeof u === "number"
      ? "number"
      : typeof u === "boolean"
        ? "bool"
        : Array.isArray(u)
          ? "array"
          : "object"

/**
 * Go's `UnmarshalTypeError` text. A number that does not fit an integer field (a fraction, an
 * exponent, out of range) is named with its literal (`number 1.5`), any other mismatch by its kind
 * alone (encoding/json `literalStore`, Go 1.21).
 */
const typeError = (spec: CursorSpec, field: FieldSpec, value: unknown): string => {
  const what = typeof value === "number" && field.type === "int" ? `number ${String(value)}` : goKind(value)
  return `json: cannot unmarshal ${what} into Go struct field ${spec.struct}.${field.key} of type ${field.goType}`
}

/** Go's encoding/json syntax error for the usual ways a cursor is not JSON (best effort). */
const goSyntaxError = (text: string): string => {
  const trimmed = text.trimStart()
  if (trimmed === "") return "unexpected end of JSON input"
  const first = trimmed[0]
  for (const literal of ["null", "true", "false"]) {
    if (first !== literal[0]) continue
    for (let i = 1; i < literal.length; i++) {
      if (i >= trimmed.length) return "unexpected end of JSON input"
      if (trimmed[i] !== literal[i])
        return `invalid character '${trimmed[i]}' in literal ${literal} (expecting '${literal[i]}')`
    }
    return `invalid character '${trimmed[literal.length]}' after top-level value`
  }
  if (!/[{["\-0-9]/.test(first)) return `invalid character '${first}' looking for beginning of value`
  return "unexpected end of JSON input"
}

/** Writes a cursor struct: keys in declaration order, Go's string escaping and time format. */
export const writeCursor = (spec: CursorSpec, values: ReadonlyArray<string | number | unknown>): string => {
  let out = "{"
  for (let i = 0; i < spec.fields.length; i++) {
    const field = spec.fields[i]
    const value = values[i]
    const text =
      field.type === "time"
        ? value === null
          ? "null"
          : `"${microsToRfc3339(value as number)}"`
        : field.type === "string"
          ? goString(value as string)
          : field.type === "int"
            ? String(value)
            : goValue(value)
    out += `${i === 0 ? "" : ","}"${field.key}":${text}`
  }
  return out + "}"
}

/** A JSON value with Go's string escaping (used for profile metadata). */
const goValue = (value: unknown): string => {
  if (value === null || value === undefined) return "null"
  if (typeof value === "string") return goString(value)
  if (Array.isArray(value)) return `[${value.map(goValue).join(",")}]`
  if (typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${goString(k)}:${goValue(v)}`)
      .join(",")}}`
  }
  return JSON.stringify(value)
}

const time = (key: string): FieldSpec => ({ key, type: "time", goType: "time.Time" })
const id = (key: string, goType: string): FieldSpec => ({ key, type: "string", goType })

export const StakeCursor: CursorSpec = {
  struct: "StakeLinkingCursor",
  fields: [time("vegaTime"), id("id", "entities.StakeLinkingID")]
}

export const LiquidityProvisionCursor: CursorSpec = {
  struct: "LiquidityProvisionCursor",
  fields: [time("vegaTime"), id("id", "entities.LiquidityProvisionID")]
}

export const PositionCursor: CursorSpec = {
  struct: "PositionCursor",
  fields: [time("vega_time"), id("party_id", "entities.PartyID"), id("market_id", "entities.MarketID")]
}

export const ReferralSetStatsCursor: CursorSpec = {
  struct: "ReferralSetStatsCursor",
  fields: [
    time("VegaTime"),
    { key: "AtEpoch", type: "int", goType: "uint64" },
    id("SetID", "entities.ReferralSetID"),
    id("PartyID", "string")
  ]
}

export const SignerBundleCursor: CursorSpec = {
  struct: "ERC20MultiSigSignerEventCursor",
  fields: [time("vega_time"), id("id", "entities.ERC20MultiSigSignerEventID")]
}

export const ProfileCursor: CursorSpec = {
  struct: "PartyProfile",
  fields: [
    id("PartyID", "entities.PartyID"),
    id("Alias", "string"),
    { key: "Metadata", type: "any", goType: "[]*vega.Metadata" }
  ]
}

export const AssetCursor: CursorSpec = { struct: "AssetCursor", fields: [id("id", "entities.AssetID")] }

export const MarketCursor: CursorSpec = {
  struct: "MarketCursor",
  fields: [time("vegaTime"), id("id", "entities.MarketID")]
}

export const RewardCursor: CursorSpec = {
  struct: "RewardCursor",
  fields: [id("party_id", "string"), id("asset_id", "string"), { key: "epoch_id", type: "int", goType: "int64" }]
}

/**
 * `entities.OrderCursor` (datanode/entities/order.go, v0.75.8). Its id is an `entities.OrderID`,
 * an alias of the generic `ID[_Order]`, which Go's reflection names with its type argument's
 * package path.
 */
export const OrderCursor: CursorSpec = {
  struct: "OrderCursor",
  fields: [
    time("createdAt"),
    id("id", "entities.ID[code.vegaprotocol.io/vega/datanode/entities._Order]"),
    time("vegaTime")
  ]
}

/**
 * `entities.StopOrderCursor` (datanode/entities/stop_orders.go, v0.75.8): as the order cursor, its
 * id an `entities.StopOrderID` (`ID[_StopOrder]`).
 */
export const StopOrderCursor: CursorSpec = {
  struct: "StopOrderCursor",
  fields: [
    time("createdAt"),
    id("id", "entities.ID[code.vegaprotocol.io/vega/datanode/entities._StopOrder]"),
    time("vegaTime")
  ]
}

/** `entities.TradeCursor` (datanode/entities/trade.go, v0.75.8): the trade's synthetic time only. */
export const TradeCursor: CursorSpec = { struct: "TradeCursor", fields: [time("synthetic_time")] }
/** entities/account_balance.go (v0.75.8): `AccountCursor`, the account id only. */
export const AccountCursor: CursorSpec = {
  struct: "AccountCursor",
  fields: [id("account_id", "entities.AccountID")]
}

/**
 * entities/aggregated_ledgerentries.go (v0.75.8): `AggregatedLedgerEntriesCursor`, the entry's
 * ledger time only (its block time plus its index in the block, in microseconds).
 */
export const LedgerEntryCursor: CursorSpec = {
  struct: "AggregatedLedgerEntriesCursor",
  fields: [time("vega_time")]
}

/**
 * entities/aggregated_balance.go (v0.75.8): `AggregatedBalanceCursor`. Only `vega_time` has a
 * JSON tag; the others are pointers written under their Go names, `AccountID` always `null` (the
 * query never groups by it) and `Type` the account type's number.
 */
export const AggregatedBalanceCursor: CursorSpec = {
  struct: "AggregatedBalanceCursor",
  fields: [
    time("vega_time"),
    { key: "AccountID", type: "any", goType: "entities.AccountID" },
    id("PartyID", "entities.PartyID"),
    id("AssetID", "entities.AssetID"),
    id("MarketID", "entities.MarketID"),
    { key: "Type", type: "int", goType: "vega.AccountType" }
  ]
}

/** entities/deposit.go (v0.75.8): `DepositCursor`. */
export const DepositCursor: CursorSpec = {
  struct: "DepositCursor",
  fields: [time("vegaTime"), id("id", "entities.DepositID")]
}

/** entities/transfer.go (v0.75.8): `TransferCursor`, the block time of the transfer's last status and its id. */
export const TransferCursor: CursorSpec = {
  struct: "TransferCursor",
  fields: [time("vegaTime"), id("id", "entities.TransferID")]
}

/** entities/withdrawal.go (v0.75.8): `WithdrawalCursor`. */
export const WithdrawalCursor: CursorSpec = {
  struct: "WithdrawalCursor",
  fields: [time("vegaTime"), id("id", "entities.WithdrawalID")]
}

/** entities/marketdata.go `MarketDataCursor` (v0.75.8). */
export const MarketDataCursor: CursorSpec = { struct: "MarketDataCursor", fields: [time("synthetic_time")] }

/** entities/candle.go `CandleCursor` (v0.75.8). */
export const CandleCursor: CursorSpec = { struct: "CandleCursor", fields: [time("periodStart")] }

/**
 * `entities.ProposalCursor` (datanode/entities/proposal.go, v0.75.8): the proposal's state (a
 * number: `entities.ProposalState` has no JSON methods), the time of that state and the id.
 */
export const ProposalCursor: CursorSpec = {
  struct: "ProposalCursor",
  fields: [
    { key: "state", type: "int", goType: "entities.ProposalState" },
    time("vega_time"),
    id("id", "entities.ID[code.vegaprotocol.io/vega/datanode/entities._Proposal]")
  ]
}

/** `entities.VoteCursor` (datanode/entities/vote.go, v0.75.8): the party and the vote's time. */
export const VoteCursor: CursorSpec = {
  struct: "VoteCursor",
  fields: [id("party_id", "entities.ID[code.vegaprotocol.io/vega/datanode/entities._Party]"), time("vega_time")]
}
/** entities/margin_levels.go (v0.75.8): `MarginCursor`, no JSON tags, the account id an `ID[_Account]`. */
export const MarginCursor: CursorSpec = {
  struct: "MarginCursor",
  fields: [time("VegaTime"), id("AccountID", "entities.ID[code.vegaprotocol.io/vega/datanode/entities._Account]")]
}

/** entities/margin_mode.go (v0.75.8): `PartyMarginModeCursor`, no JSON tags. */
export const PartyMarginModeCursor: CursorSpec = {
  struct: "PartyMarginModeCursor",
  fields: [
    id("MarketID", "entities.ID[code.vegaprotocol.io/vega/datanode/entities._Market]"),
    id("PartyID", "entities.ID[code.vegaprotocol.io/vega/datanode/entities._Party]")
  ]
}

/**
 * entities/party.go (v0.75.8): the cursor is the whole `entities.Party`, without JSON tags; its
 * `VegaTime` a `*time.Time`, `null` for the built-in `network` party (a time field written with
 * `null` writes `null`; read back, `null` and a missing time are the zero time).
 */
export const PartyCursor: CursorSpec = {
  struct: "Party",
  fields: [
    id("ID", "entities.ID[code.vegaprotocol.io/vega/datanode/entities._Party]"),
    id("TxHash", "entities.TxHash"),
    time("VegaTime")
  ]
}

/**
 * entities/successor_markets.go (v0.75.8): `SuccessorMarketCursor`, the market's time only; the
 * edges carry the market's own cursor ({@link MarketCursor}), which reads as one.
 */
export const SuccessorMarketCursor: CursorSpec = { struct: "SuccessorMarketCursor", fields: [time("vegaTime")] }

/** entities/data_source_spec.go (v0.75.8): `DataSourceSpecCursor`, the spec's time and id. */
export const OracleSpecCursor: CursorSpec = {
  struct: "DataSourceSpecCursor",
  fields: [time("vegaTime"), id("id", "entities.ID[code.vegaprotocol.io/vega/datanode/entities._Spec]")]
}

/** entities/oracle_data.go (v0.75.8): `OracleDataCursor`, the data's time and signers. */
export const OracleDataCursor: CursorSpec = {
  struct: "OracleDataCursor",
  fields: [time("vegaTime"), { key: "signers", type: "any", goType: "entities.Signers" }]
}

/** entities/node.go (v0.75.8): `NodeCursor`, the node id. */
export const NodeCursor: CursorSpec = {
  struct: "NodeCursor",
  fields: [id("id", "entities.ID[code.vegaprotocol.io/vega/datanode/entities._Node]")]
}

/** entities/delegation.go (v0.75.8): `DelegationCursor`. */
export const DelegationCursor: CursorSpec = {
  struct: "DelegationCursor",
  fields: [
    time("vegaTime"),
    id("partyId", "entities.ID[code.vegaprotocol.io/vega/datanode/entities._Party]"),
    id("nodeId", "entities.ID[code.vegaprotocol.io/vega/datanode/entities._Node]"),
    { key: "epochId", type: "int", goType: "int64" }
  ]
}

/** entities/reward_summary.go (v0.75.8): `EpochRewardSummaryCursor`, the amount a decimal string. */
export const EpochRewardSummaryCursor: CursorSpec = {
  struct: "EpochRewardSummaryCursor",
  fields: [
    { key: "epoch_id", type: "int", goType: "uint64" },
    id("asset_id", "string"),
    id("market_id", "string"),
    id("reward_type", "string"),
    id("amount", "string")
  ]
}

/** `entities.PaidLiquidityFeesStatsCursor` (untagged fields: Go's field names as keys). */
export const PaidLiquidityFeesStatsCursor: CursorSpec = {
  struct: "PaidLiquidityFeesStatsCursor",
  fields: [
    { key: "Epoch", type: "int", goType: "uint64" },
    { key: "MarketID", type: "string", goType: "string" },
    { key: "AssetID", type: "string", goType: "string" }
  ]
}

/** `entities.LiquidityProviderCursor`: the node fills only `partyId`. */
export const LiquidityProviderCursor: CursorSpec = {
  struct: "LiquidityProviderCursor",
  fields: [
    id("marketId", "entities.MarketID"),
    id("partyId", "entities.PartyID"),
    { key: "ordinality", type: "int", goType: "int64" }
  ]
}

export const FundingPeriodCursor: CursorSpec = {
  struct: "FundingPeriodCursor",
  fields: [
    time("startTime"),
    id("marketID", "entities.MarketID"),
    { key: "fundingPeriodSeq", type: "int", goType: "uint64" }
  ]
}

export const FundingPaymentCursor: CursorSpec = {
  struct: "FundingPaymentCursor",
  fields: [time("vegaTime"), id("marketID", "entities.MarketID"), id("partyID", "entities.PartyID")]
}

export const FundingPeriodDataPointCursor: CursorSpec = {
  struct: "FundingPeriodDataPointCursor",
  fields: [
    time("timestamp"),
    id("marketID", "entities.MarketID"),
    { key: "fundingPeriodSeq", type: "int", goType: "uint64" },
    { key: "dataPointType", type: "int", goType: "entities.FundingPeriodDataPointSource" }
  ]
}

export const ReferralSetCursor: CursorSpec = {
  struct: "ReferralSetCursor",
  fields: [time("CreatedAt"), id("ID", "entities.ReferralSetID")]
}

export const ReferralSetRefereeCursor: CursorSpec = {
  struct: "ReferralSetRefereeCursor",
  fields: [time("JoinedAt"), id("Referee", "entities.PartyID")]
}

export const VolumeDiscountStatsCursor: CursorSpec = {
  struct: "VolumeDiscountStatsCursor",
  fields: [time("VegaTime"), { key: "AtEpoch", type: "int", goType: "uint64" }, id("PartyID", "string")]
}

/**
 * entities/node_signature.go (v0.75.8): `NodeSignatureCursor`, the resource id and the signature
 * (bytes, which Go writes as base64).
 */
export const NodeSignatureCursor: CursorSpec = {
  struct: "NodeSignatureCursor",
  fields: [
    id("resource_id", "entities.ID[code.vegaprotocol.io/vega/datanode/entities._NodeSignature]"),
    id("sig", "[]uint8")
  ]
}

/** entities/key_rotation.go (v0.75.8): `KeyRotationCursor`. */
export const KeyRotationCursor: CursorSpec = {
  struct: "KeyRotationCursor",
  fields: [
    time("vega_time"),
    id("node_id", "entities.ID[code.vegaprotocol.io/vega/datanode/entities._Node]"),
    id("old_pub_key", "entities.VegaPublicKey"),
    id("new_pub_key", "entities.VegaPublicKey")
  ]
}

/** entities/ethereum_key_rotation.go (v0.75.8): `EthereumKeyRotationCursor`, camel-case keys. */
export const EthereumKeyRotationCursor: CursorSpec = {
  struct: "EthereumKeyRotationCursor",
  fields: [
    time("vegaTime"),
    id("nodeID", "entities.ID[code.vegaprotocol.io/vega/datanode/entities._Node]"),
    id("oldAddress", "entities.EthereumAddress"),
    id("newAddress", "entities.EthereumAddress")
  ]
}

/** `entities.CheckpointCursor` (datanode/entities/checkpoint.go, v0.75.8). */
export const CheckpointCursor: CursorSpec = {
  struct: "CheckpointCursor",
  fields: [{ key: "blockHeight", type: "int", goType: "int64" }]
}

/** `entities.CoreSnapshotDataCursor`, with Go's field names (datanode/entities/snapshot_data.go, v0.75.8). */
export const CoreSnapshotCursor: CursorSpec = {
  struct: "CoreSnapshotDataCursor",
  fields: [
    time("VegaTime"),
    { key: "BlockHeight", type: "int", goType: "uint64" },
    id("BlockHash", "string"),
    id("VegaCoreVersion", "string")
  ]
}

/**
 * `entities.ProtocolUpgradeProposalCursor`, with Go's field names
 * (datanode/entities/protocol_upgrade_proposal.go, v0.75.8).
 */
export const ProtocolUpgradeProposalCursor: CursorSpec = {
  struct: "ProtocolUpgradeProposalCursor",
  fields: [
    time("VegaTime"),
    { key: "UpgradeBlockHeight", type: "int", goType: "uint64" },
    id("VegaReleaseTag", "string")
  ]
}

/**
 * Whether a cursor read back is the struct's zero value: the store then adds no cursor predicate
 * (`paginateQueryInternal`, datanode/sqlstore/cursor.go, v0.75.8), though the page is still read
 * as one with a cursor.
 */
export const isZeroCursor = (spec: CursorSpec, values: CursorValues): boolean =>
  spec.fields.every((field) => values.get(field.key) === zeroOf(field))

/** The team cursors have no JSON tags: Go writes the field names (datanode/entities/teams.go, v0.75.8). */
export const TeamCursor: CursorSpec = {
  struct: "TeamCursor",
  fields: [time("CreatedAt"), id("ID", "entities.TeamID")]
}

export const TeamRefereeCursor: CursorSpec = { struct: "RefereeCursor", fields: [id("PartyID", "entities.PartyID")] }

export const TeamRefereeHistoryCursor: CursorSpec = {
  struct: "RefereeHistoryCursor",
  fields: [{ key: "JoinedAtEpoch", type: "int", goType: "uint64" }]
}

export const TeamsStatisticsCursor: CursorSpec = {
  struct: "TeamsStatisticsCursor",
  fields: [id("ID", "entities.TeamID")]
}

export const TeamMemberStatisticsCursor: CursorSpec = {
  struct: "TeamMemberStatisticsCursor",
  fields: [id("ID", "entities.PartyID")]
}

export const GameCursor: CursorSpec = {
  struct: "GameCursor",
  fields: [{ key: "EpochID", type: "int", goType: "uint64" }, id("GameID", "entities.GameID")]
}
