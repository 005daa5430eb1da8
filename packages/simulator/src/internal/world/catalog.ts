/**
 * What exists from genesis: parties, assets, markets and validators, with realistic ids and
 * decimals (VEGA at 18 decimals, dollar tokens at 6).
 */
import { Ethereum } from "@vega-effect/crypto"
import { Ids } from "@vega-effect/schema"
import type { Random } from "../random.js"
import type { FundingSchedule } from "./funding.js"
import { idSortKey } from "./versioned.js"

export interface Party {
  /**
   * Position in `Catalog.parties` (the network party is 0); parties first seen in a transaction
   * (`Catalog.joined`) continue the numbering.
   */
  readonly index: number
  /** `network` or 64 lowercase hex characters. */
  readonly id: string
  /** Sort key in the node's byte order. */
  readonly key: string
}

export interface AssetInfo {
  readonly id: string
  readonly name: string
  readonly symbol: string
  readonly decimals: number
  readonly quantum: string
  readonly contractAddress: string
  readonly lifetimeLimit: bigint
  readonly withdrawThreshold: bigint
}

export interface MarketInfo {
  /** Position in `Catalog.markets`. */
  readonly index: number
  readonly id: string
  readonly code: string
  readonly name: string
  readonly settlementAsset: AssetInfo
  readonly product: "future" | "perpetual"
  /** Price decimals (`decimalPlaces`). */
  readonly priceDecimals: number
  /** Position decimals (`positionDecimalPlaces`), may be negative. */
  readonly positionDecimals: number
  /** A typical price in market units. */
  readonly referencePrice: number
  readonly tickSize: bigint
  readonly proposedMicros: number
  readonly openMicros: number
  /** A perpetual's funding schedule (`funding.ts`); none for a future. */
  readonly funding: FundingSchedule | undefined
}

export interface Validator {
  readonly nodeId: string
  readonly pubKey: string
  /** Lowercase `0x` address, as multisig bundles write it. */
  readonly ethereumAddress: string
  readonly name: string
}

export interface Catalog {
  /** The network party first, then the generated parties. */
  readonly parties: ReadonlyArray<Party>
  /**
   * Parties first seen in a transaction, in the order they appeared (see {@link joinParty}). The
   * world's own activity only involves `parties`.
   */
  readonly joined: ReadonlyArray<Party>
  readonly network: Party
  readonly assets: ReadonlyArray<AssetInfo>
  /** The governance asset (VEGA, 18 decimals) in which stake and staking rewards are paid. */
  readonly vega: AssetInfo
  readonly markets: ReadonlyArray<MarketInfo>
  readonly validators: ReadonlyArray<Validator>
  /** Checksummed Ethereum addresses that parties link stake from. */
  readonly stakeAddresses: ReadonlyArray<string>
  readonly partyById: ReadonlyMap<string, Party>
  readonly marketById: ReadonlyMap<string, MarketInfo>
  readonly assetById: ReadonlyMap<string, AssetInfo>
}

const ASSET_SPECS: ReadonlyArray<readonly [string, string, number]> = [
  ["Vega", "VEGA", 18],
  ["Tether USD", "USDT", 6],
  ["USDC", "USDC", 6],
  ["Wrapped Ether", "WETH", 18],
  ["Dai Stablecoin", "DAI", 18]
]

const BASES = ["BTC", "ETH", "SOL", "LINK", "AVAX", "DOGE", "ARB", "OP", "INJ", "TIA", "SNX", "LDO"]

export interface CatalogScale {
  readonly parties: number
  readonly assets: number
  readonly markets: number
  readonly validators: number
}

export const makeCatalog = (
  random: Random,
  scale: CatalogScale,
  genesisMicros: number,
  fundingPeriodSeconds: number
): Catalog => {
  const network: Party = { index: 0, id: Ids.NETWORK_PARTY, key: idSortKey(Ids.NETWORK_PARTY) }
  const parties: Array<Party> = [network]
  for (let i = 0; i < scale.parties; i++) {
    const id = random.hex(32)
    parties.push({ index: i + 1, id, key: id })
  }
  const assets: Array<AssetInfo> = []
  for (let i = 0; i < Math.max(2, scale.assets); i++) {
    const [name, symbol, decimals] = ASSET_SPECS[i % ASSET_SPECS.length]
    const suffix = i < ASSET_SPECS.length ? "" : ` ${Math.floor(i / ASSET_SPECS.length) + 1}`
    assets.push({
      id: random.hex(32),
      name: name + suffix,
      symbol: symbol + suffix.trim(),
      decimals,
      quantum: decimals === 18 ? "1000000000000000000" : "1000000",
      contractAddress: `0x${random.hex(20)}`,
      lifetimeLimit: 10n ** BigInt(decimals + 7),
      withdrawThreshold: 10n ** BigInt(decimals + 4)
    })
  }
  const settlement = assets.filter((a) => a.symbol !== "VEGA")
  const markets: Array<MarketInfo> = []
  for (let i = 0; i < Math.max(1, scale.markets); i++) {
    const base = BASES[i % BASES.length]
    const asset = settlement[i % settlement.length]
    const perpetual = i % 3 !== 2
    const priceDecimals = 1 + (i % 5)
    const positionDecimals = (i % 6) - 2
    const proposedMicros = genesisMicros - (30 + i) * 86_400_000_000
    markets.push({
      index: i,
      id: random.hex(32),
      code: `${base}${asset.symbol}${perpetual ? ".PERP" : ".MAR25"}`,
      name: `${base} / ${asset.symbol} ${perpetual ? "Perpetual" : "Futures March 2025"}`,
      settlementAsset: asset,
      product: perpetual ? "perpetual" : "future",
      priceDecimals,
      positionDecimals,
      referencePrice: (1000 + random.int(60_000)) * 10 ** priceDecimals,
      tickSize: 1n,
      proposedMicros,
      openMicros: proposedMicros + 2 * 86_400_000_000,
      funding: perpetual ? { initialMicros: genesisMicros, everyMicros: fundingPeriodSeconds * 1_000_000 } : undefined
    })
  }
  const validators: Array<Validator> = []
  for (let i = 0; i < Math.max(1, scale.validators); i++) {
    validators.push({
      nodeId: random.hex(32),
      pubKey: random.hex(32),
      ethereumAddress: `0x${random.hex(20)}`,
      name: `validator-${i + 1}`
    })
  }
  const stakeAddresses = Array.from({ length: Math.min(4096, Math.max(16, scale.parties)) }, () =>
    Ethereum.checksumAddress(random.hex(20))
  )
  return {
    parties,
    joined: [],
    network,
    assets,
    vega: assets[0],
    markets,
    validators,
    stakeAddresses,
    partyById: new Map(parties.map((p) => [p.id, p])),
    marketById: new Map(markets.map((m) => [m.id, m])),
    assetById: new Map(assets.map((a) => [a.id, a]))
  }
}

/**
 * The party with id `id`, added (after every generated party, indexed in `partyById`) when the
 * world has not seen it before. `id` is lowercase hex.
 */
export const joinParty = (catalog: Catalog, id: string): Party => {
  const known = catalog.partyById.get(id)
  if (known !== undefined) return known
  const party: Party = { index: catalog.parties.length + catalog.joined.length, id, key: idSortKey(id) }
  // both collections are created mutable by makeCatalog; only this function adds to them
  ;(catalog.joined as Array<Party>).push(party)
  ;(catalog.partyById as Map<string, Party>).set(id, party)
  return party
}
