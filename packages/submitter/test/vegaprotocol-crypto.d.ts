// The official wallet library ships no types; these cover what the tests and benchmarks use.
declare module "@vegaprotocol/crypto" {
  export const HARDENED: number
  export class VegaWallet {
    static fromMnemonic(mnemonic: string): Promise<VegaWallet>
    keyPair(index: number): Promise<{
      readonly publicKey: {
        toString(): string
        verify(signature: Uint8Array, message: Uint8Array, chainId?: string): Promise<boolean>
      }
      sign(message: Uint8Array, chainId?: string): Promise<Uint8Array>
    }>
  }
}
