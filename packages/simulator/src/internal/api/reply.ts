/**
 * Replies of the data node's handlers: JSON bodies, and error bodies with the status the gateway
 * maps their gRPC code to.
 */
import { GatewayError } from "@vega-effect/schema"
import * as Schema from "effect/Schema"
import type { Reply } from "../route.js"

const encodeError = Schema.encodeSync(GatewayError.ErrorBody)

export const ok = (body: string): Reply => ({ status: 200, body })

export const error = (body: GatewayError.ErrorBody): Reply => ({
  status: GatewayError.httpStatus(body.code),
  body: JSON.stringify(encodeError(body))
})

const { ApiErrors } = GatewayError

export const invalidPagination = (inner: string): Reply =>
  error(GatewayError.fromApiError(ApiErrors.InvalidPagination, inner))

/** A service error whose cause is an id that does not decode: reported as InvalidArgument. */
export const invalidId = (api: GatewayError.ApiError, inner: string): Reply =>
  error(GatewayError.fromApiError(api, inner, GatewayError.GrpcCode.InvalidArgument))

/** A service error reported as Internal (HTTP 500). */
export const internal = (api: GatewayError.ApiError, inner: string): Reply =>
  error(GatewayError.fromApiError(api, inner, GatewayError.GrpcCode.Internal))

/** The text of `entities.ErrInvalidID` for a value. */
export const notHex = (value: string): string => `decoding '${value}': not a valid hex id (or well known exception)`

/** The wrapping of a cursor that is valid base64 but not the cursor's JSON. */
export const badCursor = (reason: string): string => `parsing cursor: parsing cursor: ${reason}`
