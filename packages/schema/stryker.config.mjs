// @ts-check
import { mutationConfig } from "../../stryker.shared.mjs"

// Decoding of integers and amounts: their bounds, on the Schema path and the fast path. Their
// schemas are built when the modules load, so most mutants are static (each one reloads the tests):
// the run is kept to the tests of decoding.
export default mutationConfig({
  mutate: ["src/Amount.ts", "src/Integer.ts", "src/internal/fastDecode.ts"],
  tests: [
    "test/Bounds.test.ts",
    "test/Integer.test.ts",
    "test/Decoder.test.ts",
    "test/Encoder.test.ts",
    "test/BadInput.test.ts",
    "test/Resources.test.ts"
  ]
})
