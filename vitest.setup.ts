import { addEqualityTesters } from "@effect/vitest"

// Option, Either, Data and BigDecimal values compare structurally in `expect(...).toEqual`.
addEqualityTesters()
