import { describe, expect, it } from "@effect/vitest"
import { BigDecimal, Schema } from "effect"
import * as Asset from "@vega-effect/schema/Asset"
import * as Enum from "@vega-effect/schema/Enum"
import * as QueryString from "@vega-effect/schema/QueryString"
import * as Scaling from "@vega-effect/schema/Scaling"
import { decodeError, decodeText, encodeText, expectByteIdentical, expectRoundTrips, fixture } from "./utils.js"

const USDT = "bf1e88d19db4b3ca0d1d5bdb73718a01686b18cf731ca26adedf3c8b83802bba"

const assetJson = (details: Record<string, unknown>, status: unknown = "STATUS_ENABLED") => ({
  id: USDT,
  details: { name: "Tether USD", symbol: "USDT", decimals: "6", quantum: "1000000", ...details },
  status
})
const erc20 = {
  contractAddress: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
  lifetimeLimit: "1",
  withdrawThreshold: "0"
}

describe("Asset", () => {
  it("decodes a list of assets and writes it back byte for byte", () => {
    const text = fixture("assets.json")
    const { assets } = expectByteIdentical(Asset.ListAssetsResponse, text)
    expect(assets.edges.map((e) => e.node.details.symbol)).toEqual(["VEGA", "USDT", "tDAI"])
    const [vega, usdt, tdai] = assets.edges.map((e) => e.node)
    expect(vega.details.decimals).toBe(18)
    expect(vega.details.erc20?.lifetimeLimit).toBe(2n ** 256n - 1n)
    expect(vega.details.builtinAsset).toBeUndefined()
    expect(usdt.details.erc20?.withdrawThreshold).toBe(1000000000n)
    expect(usdt.details.erc20?.chainId).toBeUndefined()
    expect(tdai.details.builtinAsset?.maxFaucetAmountMint).toBe(1000000000n)
    expect(tdai.details.erc20).toBeUndefined()
    expect(tdai.details.quantum).toEqual(BigDecimal.make(5n, 1))
    expect(tdai.status).toBe("STATUS_PENDING_LISTING")
    expect(assets.pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: assets.edges[0].cursor,
      endCursor: assets.edges[2].cursor
    })
  })

  it("decodes a single asset, and the v0.76 chainId of an ERC20 asset", () => {
    const { asset } = expectByteIdentical(Asset.GetAssetResponse, fixture("asset.json"))
    expect(asset.id).toBe(USDT)
    const v076 = expectByteIdentical(Asset.ListAssetsResponse, fixture("assets-v076.json"))
    expect(v076.assets.edges[0].node.details.erc20).toEqual({
      contractAddress: "0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9",
      lifetimeLimit: 5000000000000n,
      withdrawThreshold: 1000000000n,
      chainId: "42161"
    })
  })

  it("types decimals as asset decimals, so amounts scale exactly", () => {
    const { asset } = decodeText(Asset.GetAssetResponse, fixture("asset.json"))
    const decimals: Scaling.AssetDecimals = Asset.decimals(asset)
    expect(Scaling.fromAssetUnits(1234567n, decimals)).toEqual(BigDecimal.make(1234567n, 6))
  })

  it("keeps unknown statuses and ignores unknown fields", () => {
    const decoded = Schema.decodeUnknownSync(Asset.Asset)({
      ...assetJson({ erc20: { ...erc20, futureField: 1 }, futureDetail: "x" }, "STATUS_FROZEN"),
      futureTopLevel: { a: 1 }
    })
    expect(decoded.status).toEqual(Enum.unknownEnumValue("STATUS_FROZEN"))
    expect(encodeText(Asset.Asset, decoded)).toBe(
      '{"id":"bf1e88d19db4b3ca0d1d5bdb73718a01686b18cf731ca26adedf3c8b83802bba","details":{"name":"Tether USD","symbol":"USDT","decimals":"6","quantum":"1000000","erc20":{"contractAddress":"0xdAC17F958D2ee523a2206206994597C13D831ec7","lifetimeLimit":"1","withdrawThreshold":"0"}},"status":"STATUS_FROZEN"}'
    )
    // a number the node had no name for
    expect(Schema.decodeUnknownSync(Asset.Asset)(assetJson({ erc20 }, 9)).status).toEqual(Enum.unknownEnumValue(9))
  })

  it("decodes an asset whose source kind is unknown here, and rejects two sources", () => {
    const decoded = Schema.decodeUnknownSync(Asset.Asset)(assetJson({ newBridge: { x: 1 } }))
    expect(decoded.details.erc20).toBeUndefined()
    expect(decoded.details.builtinAsset).toBeUndefined()
    const both = decodeError(Asset.Asset, assetJson({ erc20, builtinAsset: { maxFaucetAmountMint: "1" } }))
    expect(both).toContain('["details"]')
    expect(both).toContain("oneof source may hold only one of builtinAsset, erc20, got builtinAsset, erc20")
  })

  it("names the path and the expected type of a bad value", () => {
    const badDecimals = decodeError(Asset.Asset, assetJson({ erc20, decimals: 6 }))
    expect(badDecimals).toContain('["details"]')
    expect(badDecimals).toContain('["decimals"]')
    expect(badDecimals).toContain("Expected string, actual 6")

    const badQuantum = decodeError(Asset.Asset, assetJson({ erc20, quantum: "1e6" }))
    expect(badQuantum).toContain('["quantum"]')
    expect(badQuantum).toContain('Expected a decimal number in plain notation, actual "1e6"')

    const badAddress = decodeError(Asset.Asset, assetJson({ erc20: { ...erc20, contractAddress: "0x123" } }))
    expect(badAddress).toContain('["erc20"]')
    expect(badAddress).toContain('["contractAddress"]')
    expect(badAddress).toContain("Expected an Ethereum address")

    const badLimit = decodeError(Asset.Asset, assetJson({ erc20: { ...erc20, lifetimeLimit: "-1" } }))
    expect(badLimit).toContain('["lifetimeLimit"]')
    expect(badLimit).toContain("Amount")
    expect(badLimit).toContain("Expected an unsigned integer amount in base units")
    expect(badLimit).toContain('actual "-1"')

    const badId = decodeError(Asset.GetAssetResponse, { asset: { ...assetJson({ erc20 }), id: "USDT" } })
    expect(badId).toContain('["asset"]')
    expect(badId).toContain('["id"]')
    expect(badId).toContain('Expected an asset id (64 hexadecimal characters), actual "USDT"')

    expect(decodeError(Asset.Asset, { ...assetJson({ erc20 }), status: undefined })).toContain('["status"]')
  })

  it("encodes list requests with the gateway's query names", () => {
    const encode = Schema.encodeSync(Asset.ListAssetsRequest)
    const request = Schema.decodeUnknownSync(Asset.ListAssetsRequest)({
      assetId: USDT.toUpperCase(),
      pagination: { first: 10, newestFirst: false }
    })
    expect(encode(request)).toEqual({ assetId: USDT, pagination: { first: 10, newestFirst: false } })
    expect(QueryString.encode(Asset.ListAssetsRequest)(request)).toBe(
      `assetId=${USDT}&pagination.first=10&pagination.newestFirst=false`
    )
    expect(encode({})).toEqual({})
    expect(decodeError(Asset.ListAssetsRequest, { pagination: { first: 0 } })).toContain('["first"]')
  })

  it("round-trips generated values", () => {
    expectRoundTrips(Asset.Asset)
    expectRoundTrips(Asset.ListAssetsResponse, 50)
    expectRoundTrips(Asset.ListAssetsRequest)
  })
})
