/**
 * The network parameters: every key with its value, starting from a real network's set (Vega
 * testnet's, {@link TESTNET_NETWORK_PARAMETERS}) and changed by the network-parameter proposals
 * governance enacts. Each change is a new version of the parameter, visible from the height that
 * made it.
 */
import { TESTNET_NETWORK_PARAMETERS } from "./networkParameters.generated.js"
import { addVersion, latestVersion, versionAt, type Versioned } from "./versioned.js"

export interface NetworkParameterRow extends Versioned {
  readonly key: string
  readonly value: string
}

/** Byte order of UTF-8 text, as the node's store sorts keys (Postgres `C` collation). */
export const compareKeys = (a: string, b: string): number =>
  Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"))

export class NetworkParameters {
  /** Each key's versions, oldest first. */
  private readonly byKey = new Map<string, Array<NetworkParameterRow>>()
  /** Every key, in byte order. */
  readonly keys: Array<string> = []

  constructor() {
    for (const [key, value] of TESTNET_NETWORK_PARAMETERS) {
      this.byKey.set(key, [{ key, value, from: 0, to: Infinity }])
      this.keys.push(key)
    }
    this.keys.sort(compareKeys)
  }

  /** The parameter as a view at `height` sees it. */
  at(key: string, height: number): NetworkParameterRow | undefined {
    return versionAt(this.byKey.get(key), height)
  }

  /** The current value of a parameter. */
  current(key: string): string | undefined {
    return latestVersion(this.byKey.get(key))?.value
  }

  /** Sets a parameter from `height` on (a new key takes its place in the key order). */
  set(key: string, value: string, height: number): NetworkParameterRow {
    const row: NetworkParameterRow = { key, value, from: height, to: Infinity }
    const versions = this.byKey.get(key)
    if (versions === undefined) {
      this.byKey.set(key, [row])
      this.keys.push(key)
      this.keys.sort(compareKeys)
    } else addVersion(versions, row)
    return row
  }
}
