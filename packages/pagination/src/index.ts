/**
 * Cursor paging as an Effect `Stream`: resumable, loop-guarded, with bounded prefetch. Each module
 * is a namespace of the package (`import { Paginate } from "@vega-effect/pagination"`) and a
 * subpath of its own (`@vega-effect/pagination/Paginate`).
 *
 * @since 0.1.0
 */

/**
 * Cursor paging as an Effect `Stream`: resumable, loop-guarded, with bounded prefetch.
 *
 * @since 0.1.0
 */
export * as Paginate from "./Paginate.js"
