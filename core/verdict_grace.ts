/**
 * How long a timeout's verdict waits after its timer fired, before it blames the upstream.
 *
 * When the event loop was held past a deadline (a long synchronous stretch: a large body parsed,
 * a full GC, a burst of other requests' work), what arrived meanwhile (a connect, response
 * headers, a stream's next chunk) is only seen once the runtime has polled its sockets, which it
 * does after the overdue timer's turn. A verdict taken in that turn blamed the upstream (a 504, a
 * stream cut for silence) for an answer already in. A 0 ms timer for the verdict was usually
 * enough but not always (the fresh-clone CI run at 33fc104 failed
 * `http1/client_connect_timeout_test.ts`'s held-loop case once): a timer of its own, with nothing
 * else due, lets the runtime wait on its sockets first.
 * @module
 */

/** The wait, ms: nothing next to timeouts of seconds. */
export const VERDICT_GRACE_MS = 10;
