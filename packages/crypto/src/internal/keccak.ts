/**
 * Keccak-f[1600] and the proof-of-work search kernel, as a WebAssembly module assembled here from
 * its instructions (no toolchain, no build step). The 25 lanes live in i64 locals, each round is
 * unrolled, and nothing is allocated per hash. The same module runs on the main thread and, compiled
 * once and cloned, in every worker: there is one implementation of the permutation.
 *
 * Memory layout (one 64 KiB page, little-endian lanes):
 *
 * | offset | size | content |
 * | --- | --- | --- |
 * | 0 | 200 | MID: the state after absorbing every full block before the nonce |
 * | 200 | 272 | TAIL: the last one or two blocks (bytes after MID, nonce slot, SHA3 padding) |
 * | 472 | 32 | MASK: the digest bits that must be zero for the difficulty |
 * | 504 | 4 | R: offset of the nonce in TAIL |
 * | 508 | 4 | TWO: 1 when TAIL holds two blocks |
 * | 512 | 32 | OUT: the digest of the nonce `search` found |
 * | 544 | 200 | STATE: in/out of `permute` |
 * | 744 | 192 | RC: the round constants (data segment) |
 *
 * Bytes 0..512 are the "context" of one (blockHash, tid, difficulty); workers receive a copy of it.
 *
 * @internal
 */

const MID = 0
const TAIL = 200
const MASK = 472
const R = 504
const TWO = 508
const OUT = 512
const STATE = 544
const RC = 744

/** Size of the context image (MID, TAIL, MASK, R, TWO). */
export const CONTEXT_SIZE = 512

const RATE = 136

const ROUND_CONSTANTS: ReadonlyArray<bigint> = [
  0x0000000000000001n,
  0x0000000000008082n,
  0x800000000000808an,
  0x8000000080008000n,
  0x000000000000808bn,
  0x0000000080000001n,
  0x8000000080008081n,
  0x8000000000008009n,
  0x000000000000008an,
  0x0000000000000088n,
  0x0000000080008009n,
  0x000000008000000an,
  0x000000008000808bn,
  0x800000000000008bn,
  0x8000000000008089n,
  0x8000000000008003n,
  0x8000000000008002n,
  0x8000000000000080n,
  0x000000000000800an,
  0x800000008000000an,
  0x8000000080008081n,
  0x8000000000008080n,
  0x0000000080000001n,
  0x8000000080008008n
]

/** Rotation of lane x + 5y (rho). */
const RHO: ReadonlyArray<number> = [
  0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14
]

// --- a tiny WebAssembly assembler -------------------------------------------------------------

const op = {
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  return: 0x0f,
  call: 0x10,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Load: 0x28,
  i64Load: 0x29,
  i64Store: 0x37,
  i32Const: 0x41,
  i64Const: 0x42,
  i32LtU: 0x49,
  i64Eqz: 0x50,
  i32Add: 0x6a,
  i64Add: 0x7c,
  i64And: 0x83,
  i64Or: 0x84,
  i64Xor: 0x85,
  i64Shl: 0x86,
  i64ShrU: 0x88,
  i64Rotl: 0x89,
  i64ExtendI32U: 0xad,
  void: 0x40,
  i32: 0x7f,
  i64: 0x7e
} as const

const unsignedLeb = (value: number): Array<number> => {
  const out: Array<number> = []
  do {
    let byte = value & 0x7f
    value >>>= 7
    if (value !== 0) byte |= 0x80
    out.push(byte)
  } while (value !== 0)
  return out
}

const signedLeb = (value: bigint): Array<number> => {
  const out: Array<number> = []
  for (;;) {
    const byte = Number(value & 0x7fn)
    value >>= 7n
    const done = (value === 0n && (byte & 0x40) === 0) || (value === -1n && (byte & 0x40) !== 0)
    out.push(done ? byte : byte | 0x80)
    if (done) return out
  }
}

const vector = (items: ReadonlyArray<ReadonlyArray<number>>): Array<number> => [
  ...unsignedLeb(items.length),
  ...items.flat()
]

const name = (text: string): Array<number> => vector(Array.from(new TextEncoder().encode(text), (byte) => [byte]))

const section = (id: number, content: ReadonlyArray<number>): Array<number> => [
  id,
  ...unsignedLeb(content.length),
  ...content
]

/** The instructions of one function body. Memory accesses use constant addresses (base 0). */
class Code {
  readonly bytes: Array<number> = []
  emit(...bytes: ReadonlyArray<number>): this {
    for (const b of bytes) this.bytes.push(b)
    return this
  }
  get(local: number): this {
    return this.emit(op.localGet, ...unsignedLeb(local))
  }
  set(local: number): this {
    return this.emit(op.localSet, ...unsignedLeb(local))
  }
  i64(value: bigint): this {
    return this.emit(op.i64Const, ...signedLeb(BigInt.asIntN(64, value)))
  }
  i32(value: number): this {
    return this.emit(op.i32Const, ...signedLeb(BigInt(value | 0)))
  }
  xor(): this {
    return this.emit(op.i64Xor)
  }
  not(): this {
    return this.i64(-1n).xor()
  }
  /** Pushes the i64 at `address`. */
  load64(address: number): this {
    return this.i32(0).emit(op.i64Load, 3, ...unsignedLeb(address))
  }
  /** Pushes the i64 at `address` + the i32 on the stack. */
  load64At(address: number): this {
    return this.emit(op.i64Load, 3, ...unsignedLeb(address))
  }
  /** Stores the i64 on the stack at `address` (pushed first: `code.i32(0)…store64`). */
  store64(address: number, align = 3): this {
    return this.emit(op.i64Store, align, ...unsignedLeb(address))
  }
  load32(address: number): this {
    return this.i32(0).emit(op.i32Load, 2, ...unsignedLeb(address))
  }
}

/** Local indices of the permutation's working set. */
interface Lanes {
  /** The state, in and out. */
  readonly a: ReadonlyArray<number>
  /** The state between the two rounds of a loop iteration. */
  readonly e: ReadonlyArray<number>
  readonly b: ReadonlyArray<number>
  readonly c: ReadonlyArray<number>
  readonly d: ReadonlyArray<number>
}

/** 65 i64 locals from `first`. */
const allocateLanes = (first: number): Lanes => ({
  a: Array.from({ length: 25 }, (_, i) => first + i),
  e: Array.from({ length: 25 }, (_, i) => first + 25 + i),
  b: Array.from({ length: 5 }, (_, i) => first + 50 + i),
  c: Array.from({ length: 5 }, (_, i) => first + 55 + i),
  d: Array.from({ length: 5 }, (_, i) => first + 60 + i)
})

const LANE_LOCALS = 65

/**
 * Lanes kept complemented inside the permutation ("lane complementing", as in the Keccak team's
 * optimised code): chi then needs one NOT per plane instead of five. Lanes are complemented on the
 * way in and out.
 */
const COMPLEMENTED: ReadonlyArray<number> = [1, 2, 8, 12, 17, 20]

/**
 * Chi of the lane-complemented state, per plane y and column x, `[notSelf, notLeft, operator, notRight]`:
 * `a = (~?b[x]) ^ ((~?b[x + 1]) operator (~?b[x + 2]))`.
 */
type ChiTerm = readonly [boolean, boolean, "&" | "|", boolean]
const _ = false
const N = true
const CHI: ReadonlyArray<ReadonlyArray<ChiTerm>> = [
  [
    [_, _, "|", _],
    [_, N, "|", _],
    [_, _, "&", _],
    [_, _, "|", _],
    [_, _, "&", _]
  ],
  [
    [_, _, "|", _],
    [_, _, "&", _],
    [_, _, "|", N],
    [_, _, "|", _],
    [_, _, "&", _]
  ],
  [
    [_, _, "|", _],
    [_, _, "&", _],
    [_, N, "&", _],
    [N, _, "|", _],
    [_, _, "&", _]
  ],
  [
    [_, _, "&", _],
    [_, _, "|", _],
    [_, N, "|", _],
    [N, _, "&", _],
    [_, _, "|", _]
  ],
  [
    [_, N, "&", _],
    [N, _, "|", _],
    [_, _, "&", _],
    [_, _, "|", _],
    [_, _, "&", _]
  ]
]

/** Flips the value on the stack when lane `j` is kept complemented. */
const complementIf = (code: Code, j: number): void => {
  if (COMPLEMENTED.includes(j)) code.not()
}

/**
 * Emits one round from the lanes `from` to the lanes `to`. Each output plane is made from its five
 * rho-pi lanes right away, which keeps few values live. With `digestOnly`, only lanes 0..3 (the
 * 256-bit digest) are computed.
 */
const emitRound = (
  code: Code,
  from: ReadonlyArray<number>,
  to: ReadonlyArray<number>,
  { b, c, d }: Lanes,
  roundConstant: () => void,
  digestOnly: boolean
): void => {
  // theta
  for (let x = 0; x < 5; x++) {
    code
      .get(from[x])
      .get(from[x + 5])
      .xor()
      .get(from[x + 10])
      .xor()
      .get(from[x + 15])
      .xor()
    code
      .get(from[x + 20])
      .xor()
      .set(c[x])
  }
  for (let x = 0; x < 5; x++) {
    code
      .get(c[(x + 4) % 5])
      .get(c[(x + 1) % 5])
      .i64(1n)
      .emit(op.i64Rotl)
      .xor()
      .set(d[x])
  }
  for (let plane = 0; plane < (digestOnly ? 1 : 5); plane++) {
    // theta applied, rho and pi: lane (x, y) goes to (y, 2x + 3y); the five that land in this plane
    for (let y = 0; y < 5; y++) {
      const x = (3 * (((plane - 3 * y) % 5) + 5)) % 5
      const i = x + 5 * y
      code.get(from[i]).get(d[x]).xor()
      if (RHO[i] !== 0) code.i64(BigInt(RHO[i])).emit(op.i64Rotl)
      code.set(b[y])
    }
    // chi, and iota on lane 0
    for (let x = 0; x < (digestOnly ? 4 : 5); x++) {
      const [notSelf, notLeft, operator, notRight] = CHI[plane][x]
      code.get(b[x])
      if (notSelf) code.not()
      code.get(b[(x + 1) % 5])
      if (notLeft) code.not()
      code.get(b[(x + 2) % 5])
      if (notRight) code.not()
      code.emit(operator === "&" ? op.i64And : op.i64Or).xor()
      if (x === 0 && plane === 0) {
        roundConstant()
        code.xor()
      }
      code.set(to[5 * plane + x])
    }
  }
}

/**
 * Emits Keccak-f[1600] on the (lane-complemented) lanes `a`, leaving the result in `a`. Rounds 0..21
 * run as 11 iterations of a two-round loop (`counter`, an i32 local, indexes the round constants at
 * RC); rounds 22 and 23 are unrolled, the last one digest-only when asked. Unrolling all 24 rounds
 * measured no faster and made the module 5 times larger.
 */
const emitPermutation = (code: Code, lanes: Lanes, counter: number, digestOnly: boolean): void => {
  const { a, e } = lanes
  code.i32(0).set(counter).emit(op.loop, op.void)
  emitRound(code, a, e, lanes, () => code.get(counter).load64At(RC), false)
  emitRound(code, e, a, lanes, () => code.get(counter).load64At(RC + 8), false)
  code
    .get(counter)
    .i32(16)
    .emit(op.i32Add, op.localTee, ...unsignedLeb(counter))
  code.i32(16 * 11).emit(op.i32LtU, op.brIf, 0, op.end)
  emitRound(code, a, e, lanes, () => code.i64(ROUND_CONSTANTS[22]), false)
  emitRound(code, e, a, lanes, () => code.i64(ROUND_CONSTANTS[23]), digestOnly)
}

const functionBody = (locals: ReadonlyArray<readonly [number, number]>, code: Code): Array<number> => {
  const body = [...vector(locals.map(([count, type]) => [...unsignedLeb(count), type])), ...code.bytes, op.end]
  return [...unsignedLeb(body.length), ...body]
}

/** `permute()`: Keccak-f[1600] in place on the 25 lanes at STATE. */
const permuteFunction = (): Array<number> => {
  // locals: 0 counter (i32), then the lanes (i64)
  const lanes = allocateLanes(1)
  const code = new Code()
  for (let j = 0; j < 25; j++) {
    code.load64(STATE + 8 * j)
    complementIf(code, j)
    code.set(lanes.a[j])
  }
  emitPermutation(code, lanes, 0, false)
  for (let j = 0; j < 25; j++) {
    code.i32(0).get(lanes.a[j])
    complementIf(code, j)
    code.store64(STATE + 8 * j)
  }
  return functionBody(
    [
      [1, op.i32],
      [LANE_LOCALS, op.i64]
    ],
    code
  )
}

/**
 * `search(start: i64, count: i32): i32`: tries the nonces start, start + 1, … (count ≥ 1 of them) in
 * order and returns the index of the first whose digest has all MASK bits zero (its digest is then
 * at OUT), or -1.
 */
const searchFunction = (): Array<number> => {
  // params: 0 start (i64), 1 count (i32); locals: 2 i, 3 counter (i32), 4 nonce (i64), then the lanes
  const [start, count, i, counter, nonce] = [0, 1, 2, 3, 4]
  const lanes = allocateLanes(5)
  const { a } = lanes
  const code = new Code()

  code.emit(op.loop, op.void)
  // the nonce's big-endian bytes at TAIL + R (unaligned): byte-swap start + i
  code.get(start).get(i).emit(op.i64ExtendI32U, op.i64Add).set(nonce)
  for (const [shift, mask] of [
    [8n, 0x00ff00ff00ff00ffn],
    [16n, 0x0000ffff0000ffffn]
  ] as const) {
    code.get(nonce).i64(shift).emit(op.i64ShrU).i64(mask).emit(op.i64And)
    code.get(nonce).i64(mask).emit(op.i64And).i64(shift).emit(op.i64Shl, op.i64Or).set(nonce)
  }
  code.load32(R).get(nonce).i64(32n).emit(op.i64Rotl).store64(TAIL, 0)

  code.load32(TWO).emit(op.if, op.void)
  // rare: the nonce or the padding spills into a second block; absorb the first through `permute`
  for (let j = 0; j < 25; j++) {
    code.i32(0).load64(MID + 8 * j)
    if (j < 17) code.load64(TAIL + 8 * j).xor()
    code.store64(STATE + 8 * j)
  }
  code.emit(op.call, 0)
  for (let j = 0; j < 25; j++) {
    code.load64(STATE + 8 * j)
    if (j < 17) code.load64(TAIL + RATE + 8 * j).xor()
    complementIf(code, j)
    code.set(a[j])
  }
  code.emit(op.else)
  for (let j = 0; j < 25; j++) {
    code.load64(MID + 8 * j)
    if (j < 17) code.load64(TAIL + 8 * j).xor()
    complementIf(code, j)
    code.set(a[j])
  }
  code.emit(op.end)

  emitPermutation(code, lanes, counter, true)

  // found iff (a0 & m0) | (a1 & m1) | (a2 & m2) | (a3 & m3) == 0
  for (let j = 0; j < 4; j++) {
    code.get(a[j])
    complementIf(code, j)
    code.load64(MASK + 8 * j).emit(op.i64And)
    if (j > 0) code.emit(op.i64Or)
  }
  code.emit(op.i64Eqz, op.if, op.void)
  for (let j = 0; j < 4; j++) {
    code.i32(0).get(a[j])
    complementIf(code, j)
    code.store64(OUT + 8 * j)
  }
  code.get(i).emit(op.return, op.end)

  code.get(i).i32(1).emit(op.i32Add, op.localTee, i).get(count).emit(op.i32LtU, op.brIf, 0, op.end)
  code.i32(-1)
  return functionBody(
    [
      [2, op.i32],
      [1 + LANE_LOCALS, op.i64]
    ],
    code
  )
}

const littleEndian = (value: bigint): Array<number> =>
  Array.from({ length: 8 }, (_, k) => Number((value >> BigInt(8 * k)) & 0xffn))

/** The bytes of the WebAssembly module (exports `memory`, `permute`, `search`). */
export const moduleBytes = (): Uint8Array => {
  const types = vector([
    [0x60, 0, 0],
    [0x60, 2, op.i64, op.i32, 1, op.i32]
  ])
  const functions = vector([[0], [1]])
  const memory = vector([[0x00, 1]])
  const exports = vector([
    [...name("memory"), 0x02, 0],
    [...name("permute"), 0x00, 0],
    [...name("search"), 0x00, 1]
  ])
  const code = vector([permuteFunction(), searchFunction()])
  const roundConstants = ROUND_CONSTANTS.flatMap(littleEndian).map((byte) => [byte])
  const data = vector([[0x00, op.i32Const, ...signedLeb(BigInt(RC)), op.end, ...vector(roundConstants)]])
  const magicAndVersion = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]
  return new Uint8Array([
    ...magicAndVersion,
    ...section(1, types),
    ...section(3, functions),
    ...section(5, memory),
    ...section(7, exports),
    ...section(10, code),
    ...section(11, data)
  ])
}

// --- running it ----------------------------------------------------------------------------------

/** The few WebAssembly types used here (the package compiles without the DOM library). */
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => WasmModule
  readonly Instance: new (module: WasmModule, imports: object) => { readonly exports: unknown }
}

/** A compiled module: structured-cloneable to workers. */
export interface WasmModule {
  readonly _WasmModule: unique symbol
}

interface KernelExports {
  readonly memory: { readonly buffer: ArrayBuffer }
  readonly permute: () => void
  readonly search: (start: bigint, count: number) => number
}

const wasm = (): WasmApi => (globalThis as unknown as { readonly WebAssembly: WasmApi }).WebAssembly

let compiled: WasmModule | undefined

/** The compiled module, made once per thread. */
export const wasmModule = (): WasmModule => (compiled ??= new (wasm().Module)(moduleBytes()))

const PREFIX = "Vega_SPAM_PoW"
const encoder = new TextEncoder()

/** One instance of the kernel: its memory is private to the caller (single-threaded use). */
export class Kernel {
  private readonly exports: KernelExports
  private readonly memory: Uint8Array

  constructor(module: WasmModule = wasmModule()) {
    this.exports = new (wasm().Instance)(module, {}).exports as KernelExports
    this.memory = new Uint8Array(this.exports.memory.buffer)
  }

  /** Keccak-f[1600] on 25 little-endian lanes (200 bytes), in place. */
  permute(state: Uint8Array): void {
    this.memory.set(state, STATE)
    this.exports.permute()
    state.set(this.memory.subarray(STATE, STATE + 200))
  }

  /**
   * The context image of one proof-of-work problem: the SHA3-256 state after every full block of
   * `"Vega_SPAM_PoW" || blockHash || tid`, the padded tail with a slot for the nonce, and the mask of
   * the difficulty.
   */
  context(blockHash: string, tid: string, difficulty: number): Uint8Array {
    const bytes = encoder.encode(PREFIX + blockHash + tid)
    const memory = this.memory
    const full = Math.floor(bytes.length / RATE)
    memory.fill(0, STATE, STATE + 200)
    for (let block = 0; block < full; block++) {
      for (let k = 0; k < RATE; k++) memory[STATE + k] ^= bytes[block * RATE + k]
      this.exports.permute()
    }
    const image = new Uint8Array(CONTEXT_SIZE)
    image.set(memory.subarray(STATE, STATE + 200), MID)
    const r = bytes.length - full * RATE
    image.set(bytes.subarray(full * RATE), TAIL)
    const two = r + 8 >= RATE
    image[TAIL + r + 8] ^= 0x06
    image[TAIL + (two ? 2 * RATE : RATE) - 1] ^= 0x80
    const zeroBytes = Math.floor(difficulty / 8)
    image.fill(0xff, MASK, MASK + zeroBytes)
    if (difficulty % 8 !== 0) image[MASK + zeroBytes] = (0xff << (8 - (difficulty % 8))) & 0xff
    const view = new DataView(image.buffer)
    view.setUint32(R, r, true)
    view.setUint32(TWO, two ? 1 : 0, true)
    return image
  }

  /**
   * Tries `count` nonces from `start` upward (the caller keeps `start + count - 1` within uint64) and
   * returns the index of the first that solves `context`, or -1.
   */
  search(context: Uint8Array, start: bigint, count: number): number {
    this.memory.set(context, 0)
    return this.exports.search(start, count)
  }

  /** The digest of the nonce the last successful `search` found. */
  found(): Uint8Array {
    return this.memory.slice(OUT, OUT + 32)
  }
}
