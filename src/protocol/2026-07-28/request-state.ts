/**
 * The `requestState` of a 2026-07-28 `input_required` result: what the retry needs (the
 * client's answers so far, which requests are outstanding, which request this belongs to),
 * as JSON signed with HMAC-SHA256. The client must echo it unchanged; a state that was
 * changed, signed with another key, made for another request, or has expired is refused.
 * With one key shared by every server process, a retry may land on any of them.
 *
 * @example
 * import { requestStates } from './request-state.js'
 * const states = requestStates({ key: 'a secret shared by the server processes' })
 * const text = states.seal({ method: 'tools/call', digest: 'd', answers: [], pending: ['roots/list'] })
 * states.open(text) // Right({ method: 'tools/call', digest: 'd', answers: [], pending: ['roots/list'], ... })
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import { isObject } from '../../util/json-object.js'

// ---------------------------------------------------------------------------------------
// model

/** How request states are signed. */
export interface RequestStateOptions {
  /**
   * The HMAC key. Every process that may receive a retry needs the same one; without it each
   * server makes a random key of its own, so a retry must come back to the same process.
   */
  readonly key?: string | Uint8Array
  /** How long a state stays valid, in milliseconds (default 10 minutes). */
  readonly ttlMs?: number
}

/** What a state carries. */
export interface StatePayload {
  /** The method of the request it belongs to. */
  readonly method: string
  /** A digest of the request's salient parameters (name or uri, and arguments). */
  readonly digest: string
  /** The client's answers so far, in the order the handler asked. */
  readonly answers: ReadonlyArray<unknown>
  /** The methods of the requests still unanswered, in order. */
  readonly pending: ReadonlyArray<string>
  /** Their keys in `inputResponses`, when the handler named them (else `input-N`). */
  readonly keys?: ReadonlyArray<string>
}

/** Seals and opens states with one key. */
export interface RequestStates {
  readonly seal: (payload: StatePayload) => string
  /** The payload of a state this server sealed, still valid; otherwise why not. */
  readonly open: (text: unknown) => E.Either<string, StatePayload>
}

// ---------------------------------------------------------------------------------------
// constructors

/** Request states signed with `options.key` (or a random key of this process). */
export const requestStates = (options: RequestStateOptions = {}): RequestStates => {
  const key = options.key === undefined ? randomBytes(32) : typeof options.key === 'string' ? Buffer.from(options.key, 'utf8') : Buffer.from(options.key)
  if (key.length < 16) throw new TypeError('emcp: requestState.key must be at least 16 bytes long')
  const ttlMs = options.ttlMs ?? 10 * 60_000
  const mac = (body: string): Buffer => createHmac('sha256', key).update(body).digest()

  const seal = (payload: StatePayload): string => {
    const body = Buffer.from(JSON.stringify({ v: 1, ...payload, exp: Date.now() + ttlMs })).toString('base64url')
    return `${body}.${mac(body).toString('base64url')}`
  }

  const open = (text: unknown): E.Either<string, StatePayload> => {
    if (typeof text !== 'string') return E.left('requestState must be a string')
    const dot = text.indexOf('.')
    const body = text.slice(0, dot)
    // the signature compares as text: decoding would accept other spellings of the same bytes
    // (base64url's last character has unused bits, and the decoder skips stray characters)
    const given = Buffer.from(text.slice(dot + 1))
    const expected = Buffer.from(mac(body).toString('base64url'))
    if (dot <= 0 || given.length !== expected.length || !timingSafeEqual(given, expected))
      return E.left('requestState was not issued by this server or has been altered')
    let u: unknown
    try {
      u = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'))
    } catch {
      return E.left('requestState is not readable')
    }
    if (!isObject(u) || u.v !== 1 || typeof u.method !== 'string' || typeof u.digest !== 'string' || !Array.isArray(u.answers) || !Array.isArray(u.pending) || typeof u.exp !== 'number')
      return E.left('requestState is not readable')
    if (Date.now() > u.exp) return E.left('requestState has expired; send the request again without it')
    const keys = Array.isArray(u.keys) && u.keys.every((k) => typeof k === 'string') ? { keys: u.keys as ReadonlyArray<string> } : {}
    return E.right({ method: u.method, digest: u.digest, answers: u.answers, pending: u.pending as ReadonlyArray<string>, ...keys })
  }

  return { seal, open }
}

// ---------------------------------------------------------------------------------------
// functions

/** A digest of the request parameters that say what is asked (everything but `_meta` and the MRTR fields). */
export const digestOf = (method: string, params: { readonly [key: string]: unknown } | undefined): string => {
  const { _meta, inputResponses, requestState, ...salient } = params ?? {}
  void _meta
  void inputResponses
  void requestState
  return createHash('sha256').update(method).update('\n').update(canonical(salient)).digest('base64url')
}

/** JSON with object keys sorted, so that the same value always gives the same text. */
const canonical = (u: unknown): string => {
  if (Array.isArray(u)) return `[${u.map(canonical).join(',')}]`
  if (isObject(u))
    return `{${Object.keys(u)
      .sort()
      .filter((k) => u[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(u[k])}`)
      .join(',')}}`
  return JSON.stringify(u) ?? 'null'
}
