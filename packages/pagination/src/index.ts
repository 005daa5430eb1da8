/**
 * @since 0.1.0
 */
export * as Paginate from "./Paginate.js"
