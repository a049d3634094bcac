/**
 * What a built server keeps for the servers that mount it: its method table below the era
 * adapters (under its own request middleware and deadline) and the capabilities it declares.
 * Held weakly, keyed by the server value, so that a server's public shape stays what
 * `Server` says. Internal: `assemble` registers, `mount` reads.
 *
 * @example
 * import { innerOf } from './inner.js'
 * // innerOf(server)?.inner({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, session)
 */
import type { Answer, Feature } from './feature.js'
import type { Eventually } from '../util/eventually.js'
import type { Request } from '../protocol/jsonrpc.js'
import type { Session } from './session.js'

// ---------------------------------------------------------------------------------------
// model

/** A built server's way in below the eras, and what it declares. */
export interface Inner {
  /** Answers one request as the server's method table does, inside its request middleware. */
  readonly inner: (req: Request, session: Session) => Answer
  /** `inner` for a `tools/call` request: the same answer, without looking the method up. */
  readonly toolCall: (req: Request, session: Session) => Answer
  /** The capabilities the server declares (`initialize`, `server/discover`). */
  readonly capabilities: { readonly [key: string]: unknown }
  /** Its features' screens of `subscriptions/listen` streams (a mount asks them about the part's tasks). */
  readonly screens?: ReadonlyArray<NonNullable<Feature['screen']>>
  /** Answers one JSON text as `answerText` does, as text or undefined (no Option per line: stdio's path). */
  readonly answerLine?: (text: string, session: Session) => Eventually<string | undefined>
}

// ---------------------------------------------------------------------------------------
// functions

const inners = new WeakMap<object, Inner>()

/** Records the inner way of a server just built. */
export const registerInner = (server: object, inner: Inner): void => {
  inners.set(server, inner)
}

/** The inner way of a server built by `mcpServer` or `mount`; undefined for any other value. */
export const innerOf = (server: object): Inner | undefined => inners.get(server)
