/**
 * The numbers of the node's streams, in one place (v0.75.8; see the event-streams fact sheet).
 */

/** `snapshotPageSize`: positions per snapshot message, and the most items per update message. */
export const STREAM_PAGE_SIZE = 50

/** `defaultReqTimeout`: how long the event bus waits for the client's request and for each ack. */
export const EVENT_BUS_REQUEST_TIMEOUT_MILLIS = 5_000

/** `Broker.EventBusClientBufferSize`: events an event-bus stream may have pending before it is closed. */
export const EVENT_BUS_CLIENT_BUFFER_SIZE = 100_000

/** `MaxSubscriptionPerClient`: concurrent streams per client address. */
export const MAX_SUBSCRIPTIONS_PER_CLIENT = 250

/** The ResourceExhausted message when a client has too many streams. */
export const MAX_SUBSCRIPTIONS_MESSAGE = "client reached max subscription allowed"

/**
 * bufio.Scanner's default `MaxScanTokenSize` (64 KiB), which the WebSocket proxy reads the
 * gateway's output with: its buffer must hold the line and its `\n`, so a line of 65,536 bytes or
 * more stops the proxy, which closes the socket without sending it.
 */
export const WEBSOCKET_MAX_LINE_BYTES = 65_536

/**
 * The positions and liquidity-provision observers hand each block's batch over without waiting: a
 * client still holding this many bytes of earlier messages it has not read when a block comes is
 * a slow consumer, and its stream is closed (`channel closed`).
 */
export const SLOW_CONSUMER_BACKLOG_BYTES = 1_048_576

/**
 * How long, by default, a simulated node shows a new block's height in `X-Block-Height` before the
 * block's data is readable (on the node the SQL broker commits at the end of the block, after the
 * height is cached): none, unless a node is given a `commitWindow`.
 */
export const DEFAULT_COMMIT_WINDOW_MILLIS = 0

/**
 * The Vega error detail code of `ErrStreamInternal` ("internal stream failure"), which ends a
 * positions or liquidity-provision stream whose subscriber was closed (inner `channel closed`).
 */
export const STREAM_INTERNAL_DETAIL_CODE = 10010
