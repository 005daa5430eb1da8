/**
 * The compiled fast path for encoding values (see `compiled.ts`).
 */
import { encoding, FAIL, makeCompiler } from "./compiled.js"

export { FAIL }

export const compile = makeCompiler(encoding)

/** The annotation a codec adds to expose its direct encoder. */
export const annotation = (encode: (value: unknown) => unknown) => ({ [encoding.annotationId]: encode })
