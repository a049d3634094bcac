/// <reference types="node" preserve="true" />
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
import type { ContentBlock } from '../contract/content.js'
import { isThenable, type Eventually } from '../util/eventually.js'
import { isObject } from '../util/json-object.js'
import type { Request, RequestId } from '../protocol/jsonrpc.js'
import type { RequestOptions } from './outbound.js'
import { isModernVersion } from '../protocol/versions.js'
import { outboundAsker } from './ask.js'
import { formatIssues, validatorOf, type JsonSchema, type TypeOfSpec } from '../schema/schema.js'
import { logLevels, type LogLevel, type Session } from './session.js'
import { elicitForm } from './elicit-form.js'
import { isStandardSchema } from '../schema/standard/detect.js'
import { isShape, mixedShape, type ShapeType, type StandardShape } from '../schema/standard/shape.js'
import type { InferOutput, StandardSchemaV1 } from '../schema/standard/spec.js'

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

/** What `elicit` answers with for a form: a Standard Schema's output (a raw shape's, property by property), or the type a JSON Schema form describes. */
export type ElicitContent<S> = S extends StandardSchemaV1 ? InferOutput<S> : S extends StandardShape ? ShapeType<S, 'output'> : TypeOfSpec<S>

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
  /**
   * Asks the user to fill a form (`elicitation/create`, form mode): a flat JSON Schema, a
   * Standard Schema of an object of primitives (zod, valibot, ...), or a raw shape of
   * primitive schemas (`{ name: z.string() }`); the content is typed by it.
   */
  readonly elicit: <const S extends ElicitSchema | StandardSchemaV1 | StandardShape>(
    request: { readonly message: string; readonly requestedSchema: S },
    options?: RequestOptions,
  ) => Promise<ElicitResult<ElicitContent<S>>>
  /** Asks the user to visit a URL (`elicitation/create`, URL mode). */
  readonly elicitUrl: (
    request: { readonly message: string; readonly url: string; readonly elicitationId: string },
    options?: RequestOptions,
  ) => Promise<{ readonly action: 'accept' | 'decline' | 'cancel' }>
  /** Lists the client's roots (`roots/list`). */
  readonly roots: (options?: RequestOptions) => Promise<ReadonlyArray<Root>>
}

// ---------------------------------------------------------------------------------------
// constructors

/**
 * A handler's context. One object per call with no closures of its own: the functions a
 * handler may take off it (`const { progress } = ctx` works) are made when first read, and
 * the AbortController only if someone reads `signal` or the call is aborted. Calls that
 * use none of it cost one small object.
 */
class CallContext implements ToolContext {
  declare readonly requestId: RequestId
  declare readonly meta: { readonly [key: string]: unknown } | undefined
  declare readonly session: Readonly<Session>
  declare private controller: AbortController | undefined
  declare private lastProgress: number
  declare private ended: boolean

  constructor(requestId: RequestId, meta: { readonly [key: string]: unknown } | undefined, session: Readonly<Session>) {
    // plain assignments: class field initialisers cost more on this hot path
    this.requestId = requestId
    this.meta = meta
    this.session = session
    this.controller = undefined
    this.lastProgress = -Infinity
    this.ended = false
  }

  get signal(): AbortSignal {
    return (this.controller ??= new AbortController()).signal
  }

  get progress(): ToolContext['progress'] {
    return (progress, total, message) => {
      const token = this.meta?.progressToken
      const out = this.session.outbound
      // progress may only refer to a call still running
      if (this.ended || (typeof token !== 'string' && typeof token !== 'number') || out === undefined) return
      if (!(progress > this.lastProgress)) return
      this.lastProgress = progress
      out.notify('notifications/progress', {
        progressToken: token,
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      }, this.requestId)
    }
  }

  get log(): ToolContext['log'] {
    return (level, data, logger) => {
      const { outbound: out, logLevel, protocolVersion } = this.session
      if (out === undefined) return
      // 2026-07-28: a request without a log level in its _meta gets no log messages at all
      if (logLevel === undefined && isModernVersion(protocolVersion)) return
      if (logLevel !== undefined && logLevels.indexOf(level) < logLevels.indexOf(logLevel)) return
      out.notify('notifications/message', { level, data, ...(logger === undefined ? {} : { logger }) }, this.requestId)
    }
  }

  get sample(): ToolContext['sample'] {
    return async (request, options) =>
      (await this.ask('sampling', 'sampling/createMessage', request as unknown as { readonly [key: string]: unknown }, options)) as SamplingResult
  }

  get elicit(): ToolContext['elicit'] {
    return async (request, options) => {
      // a library's schema (or a raw shape) is sent as the flat JSON Schema it writes, and checks the answer itself
      // an empty shape `{}` is the empty form (a confirmation): MCP's own spelling of it is sent
      const given: object = isObject(request.requestedSchema) && Object.keys(request.requestedSchema).length === 0 ? emptyForm : request.requestedSchema
      const form = isStandardSchema(given) || isShape(given) || mixedShape(given) !== undefined ? elicitForm(request.message, given) : undefined
      const sent = form === undefined ? { ...request, requestedSchema: given } : { ...request, requestedSchema: form.requestedSchema }
      const result = (await this.ask('elicitation.form', 'elicitation/create', { mode: 'form', ...sent }, options)) as {
        action?: unknown
        content?: unknown
      }
      if (result.action !== 'accept') return { action: result.action === 'decline' ? 'decline' : 'cancel' }
      const checked = await (form?.decode ?? validatorOf(given as JsonSchema).decode)(result.content ?? {})
      if (checked._tag === 'Left')
        throw new Error(`the client's answer does not match the requested form: ${formatIssues(checked.left)}`)
      return { action: 'accept', content: checked.right as never }
    }
  }

  get elicitUrl(): ToolContext['elicitUrl'] {
    return async (request, options) => {
      // 2026-07-28 removed elicitationId: the retry itself says the interaction is over
      const { elicitationId, ...modern } = request
      const params = isModernVersion(this.session.protocolVersion) ? { mode: 'url', ...modern } : { mode: 'url', elicitationId, ...modern }
      const result = (await this.ask('elicitation.url', 'elicitation/create', params, options)) as { action?: unknown }
      return { action: result.action === 'accept' ? 'accept' : result.action === 'decline' ? 'decline' : 'cancel' }
    }
  }

  get roots(): ToolContext['roots'] {
    return async (options) => {
      const result = (await this.ask('roots', 'roots/list', {}, options)) as { roots?: ReadonlyArray<Root> }
      return result.roots ?? []
    }
  }

  /** Aborts the call's signal, now or (if nobody has read it yet) when it is first read. */
  abort(reason?: unknown): void {
    this.ended = true
    ;(this.controller ??= new AbortController()).abort(reason)
  }

  /** Marks the call answered: progress for it is no longer sent. */
  end(): void {
    this.ended = true
  }

  /** Marks an asynchronous call answered and no longer cancellable. */
  finish(): void {
    this.ended = true
    this.session.inFlight.delete(this.requestId)
  }

  private async ask(capability: string, method: string, params: { readonly [key: string]: unknown }, options?: RequestOptions): Promise<unknown> {
    return (this.session.ask ?? outboundAsker).ask({ capability, method, params }, options, this.session, this)
  }
}

/**
 * Runs a handler (a tool's, or a feature's) with its context. While an asynchronous handler
 * runs, `notifications/cancelled` for its request aborts `ctx.signal` (the dispatcher looks
 * calls up in `session.inFlight`); when it ends, progress for it stops. A throw propagates.
 */
export const runWithContext = <A>(req: Request, session: Session, f: (ctx: ToolContext) => Eventually<A>): Eventually<A> =>
  runWith(req, session, applyTo, f, undefined)

/** `runWithContext` for `f(x, y, ctx)`: the hot path (a tool call) passes its values instead of closing over them. */
export const runWith = <A, X, Y>(req: Request, session: Session, f: (x: X, y: Y, ctx: ToolContext) => Eventually<A>, x: X, y: Y): Eventually<A> => {
  const meta = req.params?._meta
  const ctx = new CallContext(req.id, isObject(meta) ? meta : undefined, session)
  let out: Eventually<A>
  try {
    out = f(x, y, ctx)
  } catch (e) {
    ctx.end()
    throw e
  }
  if (!isThenable(out)) {
    ctx.end()
    return out
  }
  // only calls that outlive this turn can be cancelled, so only they are tracked
  session.inFlight.set(req.id, (reason) => ctx.abort(reason))
  // 2026-07-28: an attempt that needs the client's input ends before the handler does
  const ended = session.ask?.ended()
  const raced = ended === undefined ? (out as Promise<A>) : Promise.race([out as Promise<A>, ended])
  // then, not finally: finally makes two more promises and a job per call
  return raced.then(
    (v) => (ctx.finish(), v),
    (e: unknown) => {
      ctx.finish()
      throw e
    },
  )
}

const applyTo = <A>(f: (ctx: ToolContext) => Eventually<A>, _: undefined, ctx: ToolContext): Eventually<A> => f(ctx)

/** The form with no fields, as `{}` (an empty shape) asks for it. */
const emptyForm: ElicitSchema = { type: 'object', properties: {} }
