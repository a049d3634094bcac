/**
 * A protocol feature beside tools (resources, prompts, completion, ...): the requests it
 * answers and what `initialize` declares for it. Features plug into the server through its
 * `features` option; each gets the server's hub to notify connected sessions.
 *
 * @example
 * import * as E from 'fp-ts/lib/Either.js'
 * import { emcp, mcpServer, type FeatureFactory } from 'emcp'
 * const hello: FeatureFactory = () => ({
 *   capabilities: { experimental: { hello: {} } },
 *   methods: { 'hello/say': () => E.right({ text: 'hello' }) },
 * })
 * const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })
 * mcpServer([noop], { name: 'h', version: '1' }, { features: [hello] }).implement({ noop: () => 'ok' })
 */
import type * as E from 'fp-ts/lib/Either.js'
import type { Eventually } from './eventually.js'
import type { Hub } from './hub.js'
import type { Request, RpcError } from './jsonrpc.js'
import type { Session } from './session.js'

// ---------------------------------------------------------------------------------------
// model

/** The answer to one request: a result or an error as data, now or later. */
export type Answer = Eventually<E.Either<RpcError, unknown>>

/** Answers one request of a session. */
export type MethodHandler = (req: Request, session: Session) => Answer

/** A feature: its methods and its capabilities. */
export interface Feature {
  /** Merged into the server's capabilities in the `initialize` result. */
  readonly capabilities: { readonly [key: string]: unknown }
  /** The requests it answers, by method name. */
  readonly methods: { readonly [method: string]: MethodHandler }
  /** Drops whatever the feature keeps for a session that went away (e.g. subscriptions). */
  readonly release?: (session: Session) => void
}

/** Builds a feature once the server exists, with the hub it may notify through. */
export type FeatureFactory = (hub: Hub) => Feature
