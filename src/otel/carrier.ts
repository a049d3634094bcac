/**
 * The request's `params._meta` as a W3C propagation carrier (`traceparent`, `tracestate`,
 * `baggage`), read the way hostile input must be: only those three keys, only own string
 * values, each bounded in length, so that a propagator never sees a huge or odd value and
 * never walks the client's object. A value past its bound counts as absent.
 *
 * @example
 * import { metaCarrier, metaGetter } from './carrier.js'
 * const carrier = metaCarrier({ _meta: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' } })
 * // propagation.extract(context.active(), carrier, metaGetter)
 */
import type { TextMapGetter } from '@opentelemetry/api'
import { isObject } from '../util/json-object.js'
import type { Params } from '../protocol/jsonrpc.js'

// ---------------------------------------------------------------------------------------
// model

/** A request's `_meta`: a plain JSON object. */
export type Meta = { readonly [key: string]: unknown }

/**
 * The longest value read per key: W3C Trace Context lets vendors drop a `tracestate` past 512
 * characters, and a `traceparent` is 55 (later versions may append, within 512); W3C Baggage
 * allows 8192 bytes.
 */
export const maxLengths: { readonly [key: string]: number } = { traceparent: 512, tracestate: 512, baggage: 8192 }

const propagated: ReadonlyArray<string> = Object.keys(maxLengths)

// ---------------------------------------------------------------------------------------
// functions

/** The `_meta` object of a request's params, when there is one. */
export const metaCarrier = (params: Params | undefined): Meta | undefined => {
  const meta = params?._meta
  return isObject(meta) ? meta : undefined
}

/** A getter that reads only the propagated keys, own string values within their bound. */
export const metaGetter: TextMapGetter<Meta> = {
  keys: () => propagated as string[],
  get: (carrier, key) => {
    const max = Object.hasOwn(maxLengths, key) ? maxLengths[key] : undefined
    if (max === undefined || !Object.hasOwn(carrier, key)) return undefined
    const value = carrier[key]
    return typeof value === 'string' && value.length <= max ? value : undefined
  },
}
