/**
 * The compiled fast path for decoding JSON (see `compiled.ts`).
 */
import { decoding, FAIL, makeCompiler } from "./compiled.js"

export { FAIL }

export const compile = makeCompiler(decoding)

/** The annotation a codec adds to expose its direct decoder. */
export const annotation = (decode: (input: unknown) => unknown) => ({ [decoding.annotationId]: decode })
