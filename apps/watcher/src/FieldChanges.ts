/**
 * Comparing decoded rows field by field, with each field's own equivalence (bigints by value,
 * decimals by value, enums by name). A stored row is the encoding of its decoded value, and the
 * schemas encode canonically (integers without leading zeros, decimals normalised), so two rows
 * are equivalent exactly when their stored forms are equal: comparing decoded values reports the
 * same changes as comparing what is stored.
 */
import * as Schema from "effect/Schema"

type Struct<Fields extends Schema.Struct.Fields> = Schema.Struct.Type<Fields>

/**
 * The fields that differ between two values of `schema`, in the order of the fields of `before`
 * then those only `after` has (the order of the stored rows' fields). A field present on one side
 * only differs.
 */
export const changedFields = <Fields extends Schema.Struct.Fields>(
  schema: Schema.Struct<Fields>
): ((before: Struct<Fields>, after: Struct<Fields>) => Array<string>) => {
  const equivalences = new Map(
    Object.keys(schema.fields).map((name) => [
      name,
      Schema.equivalence(Schema.typeSchema(Schema.Struct({ [name]: schema.fields[name] }))) as (
        a: object,
        b: object
      ) => boolean
    ])
  )
  const only = (value: Readonly<Record<string, unknown>>, name: string) =>
    name in value ? { [name]: value[name] } : {}
  return (before, after) => {
    const [was, now] = [before as Readonly<Record<string, unknown>>, after as Readonly<Record<string, unknown>>]
    return Object.keys({ ...was, ...now }).filter((name) => {
      const equivalent = equivalences.get(name)
      return equivalent === undefined || !equivalent(only(was, name), only(now, name))
    })
  }
}

/** Whether two lists hold the same values, whatever their order (a value counted as often as it occurs). */
export const sameMultiset = <A>(
  a: ReadonlyArray<A>,
  b: ReadonlyArray<A>,
  equivalent: (x: A, y: A) => boolean
): boolean => {
  if (a.length !== b.length) return false
  const unmatched = [...b]
  for (const x of a) {
    const at = unmatched.findIndex((y) => equivalent(x, y))
    if (at === -1) return false
    unmatched.splice(at, 1)
  }
  return true
}
