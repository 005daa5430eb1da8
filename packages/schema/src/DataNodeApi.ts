/**
 * The data node's API as data: an {@link Endpoint.Endpoint} for every route of v0.75 (the core
 * routes it proxies included), a {@link Endpoint.StreamEndpoint} for every stream and a
 * {@link Endpoint.FileEndpoint} for the two routes that answer files, each with its request and
 * answer schemas. The table is generated from Vega's spec (`src/generated/Endpoints.ts`); the
 * constants are named after the RPCs (`ListOrders`, `ObserveTrades`), plus the names earlier
 * releases gave (`ListPositions`).
 *
 * Import this module by its subpath (`@vega-effect/schema/DataNodeApi`) and a bundler keeps only
 * the routes, and the schemas, that a program uses.
 *
 * @since 0.1.0
 */
import * as Endpoints from "./generated/Endpoints.js"

/**
 * Every route of the table, by RPC name (`ListOrders`, `ObserveTrades`, `ExportLedgerEntries`),
 * and the lists `endpoints`, `streams` and `files`.
 *
 * @since 0.2.0
 */
export * from "./generated/Endpoints.js"

export {
  /**
   * The headers the node adds to every answer of a unary call: the height and time of the block
   * it had processed.
   *
   * @since 0.1.0
   * @category Constants
   */
  BlockHeaders,
  /**
   * The JSON body of a POST request, encoded by its schema.
   *
   * @since 0.1.0
   * @category Encoding
   */
  body,
  /**
   * Defines an endpoint.
   *
   * @since 0.1.0
   * @category Constructors
   */
  make,
  /**
   * The request of an endpoint that takes no parameters.
   *
   * @since 0.1.0
   * @category Requests
   */
  NoParams,
  /**
   * The relative URL of a request.
   *
   * @since 0.1.0
   * @category Encoding
   */
  url
} from "./Endpoint.js"

export type {
  /**
   * Any endpoint.
   *
   * @since 0.1.0
   * @category Models
   */
  Any,
  /**
   * Any stream endpoint.
   *
   * @since 0.1.0
   * @category Models
   */
  AnyStream,
  /**
   * A route of the API.
   *
   * @since 0.1.0
   * @category Models
   */
  Endpoint,
  /**
   * The decoded request of an endpoint.
   *
   * @since 0.1.0
   * @category Models
   */
  Request,
  /**
   * The decoded answer of an endpoint.
   *
   * @since 0.1.0
   * @category Models
   */
  Response,
  /**
   * A streaming route.
   *
   * @since 0.1.0
   * @category Models
   */
  StreamEndpoint
} from "./Endpoint.js"

/**
 * `GET /api/v2/positions` (RPC `ListAllPositions`), by its earlier name.
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const ListPositions = Endpoints.ListAllPositions

/**
 * `GET /api/v2/liquidity/all-provisions` (RPC `ListAllLiquidityProvisions`), by its earlier name.
 * The deprecated route of the RPC `ListLiquidityProvisions` is `ListLiquidityProvisionsDeprecated`.
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const ListLiquidityProvisions = Endpoints.ListAllLiquidityProvisions

/**
 * `GET /api/v2/erc20/multisigcontrol/signer/added/bundles` (RPC
 * `ListERC20MultiSigSignerAddedBundles`), by its earlier name.
 *
 * @since 0.1.0
 * @category Endpoints
 */
export const ListSignerAddedBundles = Endpoints.ListERC20MultiSigSignerAddedBundles
