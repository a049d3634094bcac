/**
 * One bounded JSON request to an authorization server: a timeout, a size limit on the
 * answer, and every failure as data. The verifier's only way out to the network, used only
 * with URLs from its own configuration and the issuer's metadata, never from a token.
 *
 * @example
 * import { fetchJson } from './fetch-json.js'
 * const r = await fetchJson('https://id.example.com/.well-known/oauth-authorization-server', { timeoutMs: 5000 })
 * // Right({ status: 200, body: { issuer: 'https://id.example.com', ... } }) or Left('... timed out after 5000 ms')
 */
import * as E from 'fp-ts/lib/Either.js'
import { readBounded } from '../util/read-bounded.js'

// ---------------------------------------------------------------------------------------
// model

/** How one request goes. */
export interface FetchJsonOptions {
  readonly timeoutMs: number
  /** Larger answers are refused (default 1 MiB). */
  readonly maxBytes?: number
  readonly method?: 'GET' | 'POST'
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
  /** The fetch to use (default: the global one). */
  readonly fetch?: typeof globalThis.fetch
}

/** An answer whose body was JSON. */
export interface JsonAnswer {
  readonly status: number
  readonly body: unknown
}

// ---------------------------------------------------------------------------------------
// functions

/** The largest answer read by default: 1 MiB, far above any real metadata document or key set. */
export const defaultMaxBytes = 1024 * 1024

/** GETs (or POSTs) `url` and reads a JSON answer of any status; a Left says what went wrong. */
export const fetchJson = async (url: string, o: FetchJsonOptions): Promise<E.Either<string, JsonAnswer>> => {
  const max = o.maxBytes ?? defaultMaxBytes
  let res: Response
  try {
    res = await (o.fetch ?? globalThis.fetch)(url, {
      method: o.method ?? 'GET',
      headers: { accept: 'application/json', ...o.headers },
      ...(o.body === undefined ? {} : { body: o.body }),
      redirect: 'error',
      signal: AbortSignal.timeout(o.timeoutMs),
    })
  } catch (e) {
    return E.left(failure(url, o.timeoutMs, 'could not be reached', e))
  }
  let text: string | undefined
  try {
    text = await readBounded(res.body, max)
  } catch (e) {
    // the time limit covers the body too: an answer that stalls mid-way ends here, as data
    return E.left(failure(url, o.timeoutMs, 'broke off its answer', e))
  }
  if (text === undefined) return E.left(`${url} answered more than ${max} bytes`)
  try {
    return E.right({ status: res.status, body: JSON.parse(text) as unknown })
  } catch {
    return E.left(`${url} answered HTTP ${res.status} with a body that is not JSON`)
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** What a thrown fetch or body read says: the time limit when that is what ended it, else `what` and the error. */
const failure = (url: string, timeoutMs: number, what: string, e: unknown): string =>
  e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError') ? `${url} timed out after ${timeoutMs} ms` : `${url} ${what}: ${e instanceof Error ? e.message : String(e)}`
