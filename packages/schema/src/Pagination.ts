/**
 * Cursor pagination as the data node speaks it: request parameters (`pagination.first`, `after`,
 * `last`, `before`, `newestFirst`), and the `edges` + `pageInfo` connection every list returns.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * The page size the node uses when none is given.
 *
 * @since 0.1.0
 * @category Constants
 */
export const DEFAULT_PAGE_SIZE = 1000

/**
 * The largest page the node serves.
 *
 * @since 0.1.0
 * @category Constants
 */
export const MAX_PAGE_SIZE = 5000

/**
 * An opaque cursor: standard base64 of a JSON document (it may contain `+`, `/` and `=`, so it
 * must be percent-encoded in a query string).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Cursor = Schema.String.pipe(Schema.brand("Cursor")).annotations({
  identifier: "Cursor",
  arbitrary: () => (fc) => fc.base64String({ minLength: 4, maxLength: 128 }) as any
})
/**
 * The decoded form of the `Cursor` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type Cursor = typeof Cursor.Type

/**
 * A requested page size: an integer in `1..5000`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const PageSize = Schema.Int.pipe(
  Schema.between(1, MAX_PAGE_SIZE, {
    message: (issue) => `Expected a page size between 1 and ${MAX_PAGE_SIZE}, actual ${String(issue.actual)}`
  })
).annotations({ identifier: "PageSize" })

const NonEmptyCursor = Cursor.pipe(Schema.filter((s) => s.length > 0 || "cursor is empty")).annotations({
  identifier: "Cursor"
})

/**
 * The five pagination parameters. Setting both `before` and `after` is rejected with the node's
 * own wording.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const PaginationParams = Schema.Struct({
  first: Schema.optionalWith(PageSize, { exact: true }),
  after: Schema.optionalWith(NonEmptyCursor, { exact: true }),
  last: Schema.optionalWith(PageSize, { exact: true }),
  before: Schema.optionalWith(NonEmptyCursor, { exact: true }),
  newestFirst: Schema.optionalWith(Schema.Boolean, { exact: true })
}).pipe(
  Schema.filter(
    (p) => (p.before !== undefined && p.after !== undefined ? "cannot set both a before and after cursor" : true),
    {
      identifier: "PaginationParams"
    }
  )
)
/**
 * The decoded form of the `PaginationParams` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type PaginationParams = typeof PaginationParams.Type

/**
 * `pageInfo` of a connection. Cursors are `""` when the page is empty.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const PageInfo = Schema.Struct({
  hasNextPage: Schema.Boolean,
  hasPreviousPage: Schema.Boolean,
  startCursor: Cursor,
  endCursor: Cursor
}).annotations({ identifier: "PageInfo" })
/**
 * The decoded form of the `PageInfo` schema.
 *
 * @since 0.1.0
 * @category Models
 */
export type PageInfo = typeof PageInfo.Type

/**
 * An edge: the node, then the cursor that points at it.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Edge = <A, I, R>(node: Schema.Schema<A, I, R>) => Schema.Struct({ node, cursor: Cursor })

/**
 * A decoded edge: the node and its cursor.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Edge<A> {
  readonly node: A
  readonly cursor: Cursor
}

const EMPTY_PAGE_INFO = { hasNextPage: false, hasPreviousPage: false, startCursor: "", endCursor: "" } as const

/**
 * A connection's `pageInfo`: `null` read as the page info of an empty page. Every handler of the
 * v0.75 node sets it but one: `ListTeams` with a `teamId` or `partyId` that matches nothing answers
 * `{"edges":[],"pageInfo":null}` (datanode/api/trading_data_v2.go, `listTeam`).
 */
const ConnectionPageInfo = Schema.transform(
  Schema.NullOr(Schema.encodedSchema(PageInfo)),
  Schema.encodedSchema(PageInfo),
  {
    strict: true,
    decode: (info) => info ?? EMPTY_PAGE_INFO,
    encode: (info) => info
  }
).pipe(Schema.compose(PageInfo))

/**
 * A connection: `{"edges":[...],"pageInfo":{...}}`. Build it once per node schema, at module level.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Connection = <A, I, R>(node: Schema.Schema<A, I, R>) =>
  Schema.Struct({ edges: Schema.Array(Edge(node)), pageInfo: ConnectionPageInfo })

/**
 * A decoded connection: the edges of a page and its `pageInfo`.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Connection<A> {
  readonly edges: ReadonlyArray<Edge<A>>
  readonly pageInfo: PageInfo
}

/**
 * The connection of an empty result, as the node writes it.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const emptyConnection = <A>(): Connection<A> => ({
  edges: [],
  pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: "" as Cursor, endCursor: "" as Cursor }
})
