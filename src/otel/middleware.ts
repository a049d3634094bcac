/**
 * The OpenTelemetry middleware over a loaded `@opentelemetry/api`: a SERVER span per
 * JSON-RPC request and per notification from the client, parented by the trace context of the request's `params._meta` (the
 * ambient context, an HTTP server span say, becomes a link), and one measurement of
 * `mcp.server.operation.duration` when it ends. For `tools/call` that span is the tool's
 * execution span too (`gen_ai.operation.name: execute_tool`), as the conventions describe:
 * there is no second span per tool call.
 *
 * @example
 * import * as api from '@opentelemetry/api'
 * import { otelMiddleware } from './middleware.js'
 * const m = otelMiddleware(api, {}) // a Middleware: mcpServer(tools, info, { middleware: [m] })
 */
import { createHash } from 'node:crypto'
import type * as Api from '@opentelemetry/api'
import type { Middleware, RequestInfo } from '../server/middleware.js'
import type { Session } from '../server/session.js'
import { durationBuckets, endingOf, keys, metricAttributes, notificationAttributes, notificationMetricAttributes, requestAttributes, spanNameOf, type Attributes, type Ending } from './attributes.js'
import { metaCarrier, metaGetter } from './carrier.js'

// ---------------------------------------------------------------------------------------
// model

/** How the telemetry is recorded; everything defaults to the global OpenTelemetry API. */
export interface OtelOptions {
  /** Where spans go (default: the global tracer provider, `trace.getTracerProvider()`). */
  readonly tracerProvider?: Api.TracerProvider
  /** Where the duration histogram goes (default: the global meter provider). */
  readonly meterProvider?: Api.MeterProvider
  /** How trace context is read from `params._meta` (default: the global propagator, `propagation`). */
  readonly propagator?: Pick<Api.TextMapPropagator, 'extract'>
  /**
   * How `mcp.session.id` is recorded: a digest of the id, never the id itself (default:
   * SHA-256, hex). Give a keyed hash (an HMAC with your secret) to keep the digest from being
   * matched against ids seen elsewhere.
   */
  readonly hashSessionId?: (id: string) => string
  /** Puts `mcp.resource.uri` in the span name of resource requests (off by default, as the conventions say: too many distinct names). */
  readonly resourceUriInSpanName?: boolean
}

/** The instrumentation scope's name on the tracer and the meter. */
export const scopeName = 'emcp'

// ---------------------------------------------------------------------------------------
// constructors

/** The middleware that records a span and a duration per request and per notification, with the API module given. */
export const otelMiddleware = (api: typeof Api, options: OtelOptions = {}): Middleware => {
  const tracer = (options.tracerProvider ?? api.trace.getTracerProvider()).getTracer(scopeName)
  const duration = (options.meterProvider ?? api.metrics.getMeterProvider()).getMeter(scopeName).createHistogram('mcp.server.operation.duration', {
    unit: 's',
    description: 'MCP request duration as observed on the receiver from the time it was received until the result is sent.',
    advice: { explicitBucketBoundaries: [...durationBuckets] },
  })
  const propagator = options.propagator ?? api.propagation
  const hash = sessionHasher(options.hashSessionId ?? sha256)
  const uriInName = options.resourceUriInSpanName === true

  /** The parent (the `_meta` trace context, else the ambient one) and a link to the ambient span when it is not the parent. */
  const parentOf = (req: Pick<RequestInfo, 'params'>): { readonly parent: Api.Context; readonly links: Api.Link[] | undefined } => {
    const active = api.context.active()
    const carrier = metaCarrier(req.params)
    if (carrier === undefined) return { parent: active, links: undefined }
    let parent = active
    try {
      parent = propagator.extract(active, carrier, metaGetter)
    } catch {
      // a propagator that fails on a client's value: the request is served all the same
    }
    const ambient = api.trace.getSpanContext(active)
    const linked = ambient !== undefined && api.isSpanContextValid(ambient) && api.trace.getSpanContext(parent) !== ambient
    return { parent, links: linked ? [{ context: ambient }] : undefined }
  }

  /** Ends the span with what the outcome says, and records the duration. */
  const end = (span: Api.Span, attributes: Attributes, ending: Ending, protocolVersion: string, started: number): void => {
    span.setAttribute(keys.protocolVersion, protocolVersion)
    if (ending.errorType !== undefined) {
      span.setAttribute(keys.errorType, ending.errorType)
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: ending.message })
    }
    if (ending.statusCode !== undefined) span.setAttribute(keys.statusCode, ending.statusCode)
    span.end()
    duration.record((performance.now() - started) / 1000, metricAttributes(attributes, ending, protocolVersion))
  }

  return {
    // a notification is handled where it arrives and has no answer: its span ends at once
    notification: (note) => {
      const started = performance.now()
      const attributes = notificationAttributes(note, hash)
      const { parent, links } = parentOf(note)
      const span = tracer.startSpan(spanNameOf(note.method, note.params, false), { kind: api.SpanKind.SERVER, attributes, links }, parent)
      span.setAttribute(keys.protocolVersion, note.session.protocolVersion)
      span.end()
      duration.record((performance.now() - started) / 1000, notificationMetricAttributes(attributes, note.session.protocolVersion))
    },
    request: (req, next) => {
      const started = performance.now()
      const attributes = requestAttributes(req, hash)
      const { parent, links } = parentOf(req)
      const span = tracer.startSpan(spanNameOf(req.method, req.params, uriInName), { kind: api.SpanKind.SERVER, attributes, links }, parent)
      return api.context.with(api.trace.setSpan(parent, span), next).then(
        (out) => {
          end(span, attributes, endingOf(out, req.session), req.session.protocolVersion, started)
          return out
        },
        (e: unknown) => {
          span.recordException(e instanceof Error ? e : String(e))
          end(span, attributes, thrown(e), req.session.protocolVersion, started)
          throw e
        },
      )
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** A middleware further in that threw: the dispatcher answers it with an internal error; the conventions' fallback type. */
const thrown = (e: unknown): Ending => ({ errorType: '_OTHER', statusCode: undefined, message: e instanceof Error ? e.message : undefined, answered: false })

const sha256 = (id: string): string => createHash('sha256').update(id).digest('hex')

/** The session's hashed id, computed once per session object (a stateful HTTP session serves many requests). */
const sessionHasher = (hash: (id: string) => string) => {
  const seen = new WeakMap<Readonly<Session>, string>()
  return (s: Readonly<Session>): string | undefined => {
    if (s.id === undefined) return undefined
    let h = seen.get(s)
    if (h === undefined) seen.set(s, (h = hash(s.id)))
    return h
  }
}
