/**
 * The `requestState` of a 2026-07-28 `input_required` result: what the retry needs (the
 * client's answers so far, which requests are outstanding, which request this belongs to),
 * as JSON signed with HMAC-SHA256 through Web Crypto (every runtime has it; keys may be
 * text, bytes or Web Crypto `CryptoKey`s). The client must echo it unchanged; a state that was
 * changed, signed with another key, made for another request or (with authentication on)
 * for another caller, or has expired is refused.
 * With one key shared by every server process, a retry may land on any of them. Keys rotate:
 * with `keys`, the first signs and every one verifies, so a new key is rolled out in front
 * of the old one (`[new, old]`), and the old one dropped once its states have expired.
 *
 * @example
 * import { requestStates } from './request-state.js'
 * const states = requestStates({ keys: ['the key that signs now, shared', 'the previous key, still verifying'] })
 * const text = await states.seal({ method: 'tools/call', digest: 'd', answers: [], pending: ['roots/list'] })
 * await states.open(text) // Right({ method: 'tools/call', digest: 'd', answers: [], pending: ['roots/list'], ... })
 */
import * as E from 'fp-ts/lib/Either.js'
import { base64url, fromBase64url, fromUtf8, utf8 } from '../../util/bytes.js'
import { isObject } from '../../util/json-object.js'
import { once } from '../../util/once.js'

// ---------------------------------------------------------------------------------------
// model

/** How request states are signed. */
export interface RequestStateOptions {
  /**
   * The HMAC key. Every process that may receive a retry needs the same one; without it each
   * server makes a random key of its own, so a retry must come back to the same process.
   */
  readonly key?: RequestStateKey
  /**
   * Rotating keys: the first signs, every one verifies (e.g. `[current, previous]`); each at
   * least 16 bytes. Takes the place of `key` (giving both is an error).
   */
  readonly keys?: ReadonlyArray<RequestStateKey>
  /** How long a state stays valid, in milliseconds (default 10 minutes). */
  readonly ttlMs?: number
}

/**
 * A signing key: text (its UTF-8 bytes), bytes, or a Web Crypto HMAC-SHA256 `CryptoKey` with
 * the `sign` and `verify` usages (e.g. from `crypto.subtle.importKey`, or a platform's secret
 * store), whose bytes never need to be in the process's memory.
 */
export type RequestStateKey = string | Uint8Array | WebCryptoKey

/** A Web Crypto `CryptoKey`, as far as emcp reads one (named here so that the types need no DOM library). */
export interface WebCryptoKey {
  readonly type: string
  readonly extractable: boolean
  readonly algorithm: object
  readonly usages: ReadonlyArray<string>
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
  /** The caller it was issued to, with authentication on (server/principal.ts: a hash of issuer and subject). */
  readonly caller?: string
}

/** Seals and opens states with one key (Web Crypto answers with promises). */
export interface RequestStates {
  readonly seal: (payload: StatePayload) => Promise<string>
  /** The payload of a state this server sealed, still valid; otherwise why not. */
  readonly open: (text: unknown) => Promise<E.Either<string, StatePayload>>
}

// ---------------------------------------------------------------------------------------
// constructors

/** Request states signed with the first of `options.keys`, or `options.key` (or a random key of this process), verified with any of them. */
export const requestStates = (options: RequestStateOptions = {}): RequestStates => {
  const verifying = keysOf(options)
  const ttlMs = options.ttlMs ?? 10 * 60_000
  const macWith = async (key: () => Promise<CryptoKey>, body: string): Promise<string> =>
    base64url(new Uint8Array(await crypto.subtle.sign('HMAC', await key(), utf8(body))))
  /** True when one of the keys signed `body` with exactly this text (a rotation keeps old states valid). */
  const signed = async (body: string, text: string): Promise<boolean> => {
    // the signature compares as text: decoding would accept other spellings of the same bytes
    // (base64url's last character has unused bits, and the decoder skips stray characters)
    for (const key of verifying) if (sameText(text, await macWith(key, body))) return true
    return false
  }

  const seal = async (payload: StatePayload): Promise<string> => {
    const body = base64url(utf8(JSON.stringify({ v: 1, ...payload, exp: Date.now() + ttlMs })))
    return `${body}.${await macWith(verifying[0] as () => Promise<CryptoKey>, body)}`
  }

  const open = async (text: unknown): Promise<E.Either<string, StatePayload>> => {
    if (typeof text !== 'string') return E.left('requestState must be a string')
    const dot = text.indexOf('.')
    const body = text.slice(0, dot)
    if (dot <= 0 || !(await signed(body, text.slice(dot + 1))))
      return E.left(
        verifying.length > 1
          ? `requestState was not issued by this server or has been altered (none of its ${verifying.length} request-state keys signed it: a state signed with a key dropped from the rotation is refused; send the request again without it)`
          : 'requestState was not issued by this server or has been altered (its request-state key did not sign it; processes that share retries need the same key)',
      )
    return payloadOf(body)
  }

  return { seal, open }
}

// ---------------------------------------------------------------------------------------
// functions

/**
 * The keys of `EMCP_REQUEST_STATE_KEYS`-style text: comma-separated, the first signs, spaces
 * around each trimmed; undefined when the text is absent or blank. An empty item (`a,,b`,
 * `a,`) throws, naming its place but no key: it is most often a key that went missing (an
 * unset variable in `$NEW,$OLD`), and dropping it in silence would change which key signs.
 */
export const requestStateKeysFrom = (text: string | undefined): ReadonlyArray<string> | undefined => {
  if (text === undefined || text.trim().length === 0) return undefined
  const keys = text.split(',').map((k) => k.trim())
  const empty = keys.findIndex((k) => k.length === 0)
  if (empty >= 0)
    throw new TypeError(
      `emcp: EMCP_REQUEST_STATE_KEYS: item ${empty + 1} of ${keys.length} is empty (two commas in a row, or a comma at an end): put the missing key back or remove the comma`,
    )
  return keys
}

/** The payload of a signed body, when it reads as one and has not expired. */
const payloadOf = (body: string): E.Either<string, StatePayload> => {
  let u: unknown
  try {
    const bytes = fromBase64url(body)
    u = bytes === undefined ? undefined : JSON.parse(fromUtf8(bytes))
  } catch {
    return E.left('requestState is not readable')
  }
  if (!isObject(u) || u.v !== 1 || typeof u.method !== 'string' || typeof u.digest !== 'string' || !Array.isArray(u.answers) || !Array.isArray(u.pending) || typeof u.exp !== 'number')
    return E.left('requestState is not readable')
  if (Date.now() > u.exp) return E.left('requestState has expired; send the request again without it')
  const keys = Array.isArray(u.keys) && u.keys.every((k) => typeof k === 'string') ? { keys: u.keys as ReadonlyArray<string> } : {}
  const caller = typeof u.caller === 'string' ? { caller: u.caller } : {}
  return E.right({ method: u.method, digest: u.digest, answers: u.answers, pending: u.pending as ReadonlyArray<string>, ...keys, ...caller })
}

/** Equal texts, compared in time that depends on their lengths only (a signature must not leak how much of it matched). */
const sameText = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

/**
 * The keys in force, checked now, as Web Crypto HMAC keys made on first use: `keys`, else
 * `key`, else a random one of this process. Checked at once, so that a bad key fails the
 * server's construction; imported later, so that a server that never seals a state (nearly
 * every one at 2025-11-25) never loads Web Crypto at startup.
 */
const keysOf = (options: RequestStateOptions): ReadonlyArray<() => Promise<CryptoKey>> => {
  if (options.key !== undefined && options.keys !== undefined) throw new TypeError('emcp: give requestState.key or requestState.keys, not both')
  const given = options.keys ?? (options.key === undefined ? [] : [options.key])
  if (options.keys !== undefined && given.length === 0) throw new TypeError('emcp: requestState.keys must hold at least one key (the first signs)')
  if (given.length === 0) return [once(() => hmacKey(crypto.getRandomValues(new Uint8Array(32))))]
  return given.map((k, i) => {
    const name = options.keys === undefined ? 'requestState.key' : `requestState.keys[${i}]`
    if (typeof k === 'string' || k instanceof Uint8Array) {
      const bytes: Uint8Array<ArrayBuffer> = typeof k === 'string' ? utf8(k) : Uint8Array.from(k)
      if (bytes.byteLength < 16) throw new TypeError(`emcp: ${name} must be at least 16 bytes long`)
      return once(() => hmacKey(bytes))
    }
    const algorithm = k.algorithm as { readonly name?: string; readonly hash?: { readonly name?: string } }
    if (algorithm.name !== 'HMAC' || algorithm.hash?.name !== 'SHA-256' || !k.usages.includes('sign'))
      throw new TypeError(`emcp: ${name} is a CryptoKey but not an HMAC SHA-256 key that may sign (import it with { name: 'HMAC', hash: 'SHA-256' } and the usages ['sign', 'verify'])`)
    const key = Promise.resolve(k as CryptoKey)
    return () => key
  })
}

/** Raw bytes as an HMAC SHA-256 key that signs and verifies. */
const hmacKey = (bytes: Uint8Array<ArrayBuffer>): Promise<CryptoKey> =>
  crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])

/** A digest of the request parameters that say what is asked (everything but `_meta` and the MRTR fields). */
export const digestOf = async (method: string, params: { readonly [key: string]: unknown } | undefined): Promise<string> => {
  const { _meta, inputResponses, requestState, ...salient } = params ?? {}
  void _meta
  void inputResponses
  void requestState
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', utf8(`${method}\n${canonical(salient)}`))))
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
