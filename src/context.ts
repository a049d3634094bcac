/**
 * What a handler may know and do while it runs: the request's id and `_meta`, the session,
 * an AbortSignal for cancellation, progress and log notifications, and requests to the
 * client (sampling, elicitation, roots) where the client declared it can answer them.
 *
 * @example
 * import { emcp, mcpServer } from 'emcp'
 * const slow = emcp({ name: 'slow', description: 'Counts to three.', input: { type: 'object' } })
 * mcpServer([slow], { name: 's', version: '1' }).implement({
 *   slow: async (_args, ctx) => {
 *     for (let i = 1; i <= 3; i++) ctx.progress(i, 3, `step ${i}`)
 *     ctx.log('info', 'counted to three')
 *     return ctx.signal.aborted ? 'cancelled' : 'done'
 *   },
 * })
 */
import type { ContentBlock } from './content.js'
import { isThenable, type Eventually } from './eventually.js'
import { isObject } from './json-object.js'
import type { Request, RequestId } from './jsonrpc.js'
import type { RequestOptions } from './outbound.js'
import { formatIssues, validatorOf, type JsonSchema, type TypeOfSpec } from './schema.js'
import { logLevels, type LogLevel, type Session } from './session.js'

// ---------------------------------------------------------------------------------------
// model

/** A message of a sampling request. */
export interface SamplingMessage {
  readonly role: 'user' | 'assistant'
  readonly content: ContentBlock | ReadonlyArray<ContentBlock>
}

/** What `sample` asks of the client's model (`sampling/createMessage`). */
export interface SamplingRequest {
  readonly messages: ReadonlyArray<SamplingMessage>
  readonly maxTokens: number
  readonly systemPrompt?: string
  readonly temperature?: number
  readonly stopSequences?: ReadonlyArray<string>
  readonly includeContext?: 'none' | 'thisServer' | 'allServers'
  readonly modelPreferences?: { readonly [key: string]: unknown }
  readonly metadata?: { readonly [key: string]: unknown }
}

/** The client's answer to `sample`. */
export interface SamplingResult {
  readonly role: 'user' | 'assistant'
  readonly content: ContentBlock | ReadonlyArray<ContentBlock>
  readonly model: string
  readonly stopReason?: string
}

/**
 * A property of an elicitation form, as MCP allows: a primitive, or (2025-11-25, SEP-1330) a
 * multi-select array whose `items` carry an `enum` or `anyOf` of `const`/`title` pairs.
 */
export type ElicitProperty =
  | { readonly type: 'string' | 'number' | 'integer' | 'boolean'; readonly [keyword: string]: unknown }
  | {
      readonly type: 'array'
      readonly items: { readonly type?: 'string'; readonly [keyword: string]: unknown }
      readonly [keyword: string]: unknown
    }

/** The form an elicitation asks the user to fill (a flat object of primitives). */
export interface ElicitSchema {
  readonly type: 'object'
  readonly properties: { readonly [name: string]: ElicitProperty }
  readonly required?: ReadonlyArray<string>
}

/** The user's answer: `content` (typed by the form) only when they accepted. */
export type ElicitResult<A> =
  | { readonly action: 'accept'; readonly content: A }
  | { readonly action: 'decline' | 'cancel'; readonly content?: undefined }

/** A root the client exposes. */
export interface Root {
  readonly uri: string
  readonly name?: string
}

/** The second argument of every handler. */
export interface ToolContext {
  /** The JSON-RPC id of the request being answered. */
  readonly requestId: RequestId
  /** The request's `_meta` (e.g. a progress token), if any. */
  readonly meta: { readonly [key: string]: unknown } | undefined
  /** The conversation the call belongs to (revision, client info and capabilities). */
  readonly session: Readonly<Session>
  /** Fires when the client cancels the call (`notifications/cancelled`). */
  readonly signal: AbortSignal
  /**
   * Reports progress when the request carried a progress token (otherwise does nothing).
   * Progress must increase: a value not above the last one sent is dropped.
   */
  readonly progress: (progress: number, total?: number, message?: string) => void
  /** Sends `notifications/message` at `level`, if the client's level lets it through. */
  readonly log: (level: LogLevel, data: unknown, logger?: string) => void
  /** Asks the client's model for a message (`sampling/createMessage`). */
  readonly sample: (request: SamplingRequest, options?: RequestOptions) => Promise<SamplingResult>
  /** Asks the user to fill a form (`elicitation/create`, form mode); the content is typed by the form. */
  readonly elicit: <const S extends ElicitSchema>(
    request: { readonly message: string; readonly requestedSchema: S },
    options?: RequestOptions,
  ) => Promise<ElicitResult<TypeOfSpec<S>>>
  /** Asks the user to visit a URL (`elicitation/create`, URL mode). */
  readonly elicitUrl: (
    request: { readonly message: string; readonly url: string; readonly elicitationId: string },
    options?: RequestOptions,
  ) => Promise<{ readonly action: 'accept' | 'decline' | 'cancel' }>
  /** Lists the client's roots (`roots/list`). */
  readonly roots: (options?: RequestOptions) => Promise<ReadonlyArray<Root>>
}

/** A handler's context plus the means to abort it (kept out of the handler's view). */
export interface CallControl {
  readonly ctx: ToolContext
  /** Aborts the call's signal, now or (if nobody has read it yet) when it is first read. */
  readonly abort: (reason?: unknown) => void
  /** Marks the call answered: progress for it is no longer sent. */
  readonly end: () => void
}

// ---------------------------------------------------------------------------------------
// constructors

/**
 * A context whose AbortController is made only if a handler reads `signal` or the call is
 * aborted, so calls that never look pay nothing (a plain object: class fields cost more).
 */
export const callContext = (
  requestId: RequestId,
  meta: { readonly [key: string]: unknown } | undefined,
  session: Readonly<Session>,
): CallControl => {
  let controller: AbortController | undefined
  let lastProgress = -Infinity
  const signal = (): AbortSignal => (controller ??= new AbortController()).signal
  let ended = false
  // requests to the client end with the call: cancelling the call cancels them, whatever
  // signal the handler adds of its own
  const withSignal = (options: RequestOptions | undefined): RequestOptions => {
    const own = options?.signal
    return { ...options, signal: own === undefined ? signal() : AbortSignal.any([signal(), own]) }
  }

  const ask = async (capability: string, method: string, params: { readonly [key: string]: unknown }, options?: RequestOptions) => {
    const out = session.outbound
    if (out === undefined)
      throw new Error(`${method} needs a transport that can send requests to the client (stdio or stateful HTTP; stateless HTTP cannot)`)
    if (!hasCapability(session, capability))
      throw new Error(`the client did not declare the "${capability}" capability, so ${method} cannot be sent`)
    return out.request(method, params, withSignal(options))
  }

  const ctx: ToolContext = {
    requestId,
    meta,
    session,
    get signal() {
      return signal()
    },
    progress: (progress, total, message) => {
      const token = meta?.progressToken
      // progress may only refer to a call still running
      if (ended || (typeof token !== 'string' && typeof token !== 'number') || session.outbound === undefined) return
      if (!(progress > lastProgress)) return
      lastProgress = progress
      session.outbound.notify('notifications/progress', {
        progressToken: token,
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      })
    },
    log: (level, data, logger) => {
      if (session.outbound === undefined) return
      if (session.logLevel !== undefined && logLevels.indexOf(level) < logLevels.indexOf(session.logLevel)) return
      session.outbound.notify('notifications/message', { level, data, ...(logger === undefined ? {} : { logger }) })
    },
    sample: async (request, options) =>
      (await ask('sampling', 'sampling/createMessage', request as unknown as { readonly [key: string]: unknown }, options)) as SamplingResult,
    elicit: async (request, options) => {
      const result = (await ask('elicitation.form', 'elicitation/create', { mode: 'form', ...request }, options)) as {
        action?: unknown
        content?: unknown
      }
      if (result.action !== 'accept') return { action: result.action === 'decline' ? 'decline' : 'cancel' }
      const checked = validatorOf(request.requestedSchema as unknown as JsonSchema).decode(result.content ?? {})
      if (checked._tag === 'Left')
        throw new Error(`the client's answer does not match the requested form: ${formatIssues(checked.left)}`)
      return { action: 'accept', content: checked.right as never }
    },
    elicitUrl: async (request, options) => {
      const result = (await ask('elicitation.url', 'elicitation/create', { mode: 'url', ...request }, options)) as { action?: unknown }
      return { action: result.action === 'accept' ? 'accept' : result.action === 'decline' ? 'decline' : 'cancel' }
    },
    roots: async (options) => {
      const result = (await ask('roots', 'roots/list', {}, options)) as { roots?: ReadonlyArray<Root> }
      return result.roots ?? []
    },
  }
  return {
    ctx,
    abort: (reason) => {
      ended = true
      ;(controller ??= new AbortController()).abort(reason)
    },
    end: () => {
      ended = true
    },
  }
}

/**
 * Runs a handler (a tool's, or a feature's) with its context. While an asynchronous handler
 * runs, `notifications/cancelled` for its request aborts `ctx.signal` (the dispatcher looks
 * calls up in `session.inFlight`); when it ends, progress for it stops. A throw propagates.
 */
export const runWithContext = <A>(req: Request, session: Session, f: (ctx: ToolContext) => Eventually<A>): Eventually<A> => {
  const meta = req.params?._meta
  const control = callContext(req.id, isObject(meta) ? meta : undefined, session)
  let out: Eventually<A>
  try {
    out = f(control.ctx)
  } catch (e) {
    control.end()
    throw e
  }
  if (!isThenable(out)) {
    control.end()
    return out
  }
  session.inFlight.set(req.id, control.abort)
  return (out as Promise<A>).finally(() => {
    control.end()
    session.inFlight.delete(req.id)
  })
}

// ---------------------------------------------------------------------------------------
// internals

/**
 * Whether the client declared a capability. Elicitation has modes: an empty
 * `elicitation: {}` (as clients before 2025-11-25 send it) means form mode only.
 */
const hasCapability = (session: Readonly<Session>, capability: string): boolean => {
  const caps = session.clientCapabilities ?? {}
  if (capability === 'elicitation.form' || capability === 'elicitation.url') {
    const e = caps.elicitation
    if (typeof e !== 'object' || e === null) return false
    const modes = e as { readonly form?: unknown; readonly url?: unknown }
    if (capability === 'elicitation.url') return modes.url !== undefined
    return modes.form !== undefined || (modes.url === undefined && modes.form === undefined)
  }
  const c = caps[capability]
  return typeof c === 'object' && c !== null
}
