/**
 * The shared store an example's replicas use, chosen by a URL (in the examples, `EMCP_STORE`):
 * `redis://…` or `rediss://…` gives `emcp/redis`, `postgres://…` or `postgresql://…` gives
 * `emcp/postgres-store`, nothing gives `undefined` (the server keeps its own memory store, as in
 * one process), and anything else throws an error that says what is accepted. Each backend is
 * imported only when its URL is given, so its client library (an optional peer) is needed only then.
 *
 * @example
 * import { emcp, mcpServer, requestStateKeysFrom } from 'emcp'
 * import { storeFromUrl } from './shared-store.js'
 * const keys = requestStateKeysFrom(process.env.EMCP_REQUEST_STATE_KEYS)
 * const store = await storeFromUrl(process.env.EMCP_STORE, keys)
 * const ping = emcp({ name: 'ping_me', description: 'Answers pong.', input: { type: 'object' } })
 * mcpServer([ping], { name: 'replica', version: '1' }, { ...(store === undefined ? {} : { store }) }).implement({ ping_me: () => 'pong' })
 */
import type { SharedStore } from 'emcp'

/** The URL schemes `storeFromUrl` accepts, by backend. */
export const storeSchemes = { redis: ['redis:', 'rediss:'], postgres: ['postgres:', 'postgresql:'] } as const

/** Which backend a store URL names, or an error message saying what is accepted. */
export const storeKindOf = (url: string): 'redis' | 'postgres' | { readonly error: string } => {
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0].toLowerCase()
  if (scheme !== undefined && (storeSchemes.redis as ReadonlyArray<string>).includes(scheme)) return 'redis'
  if (scheme !== undefined && (storeSchemes.postgres as ReadonlyArray<string>).includes(scheme)) return 'postgres'
  // the URL may hold a password: name only its scheme
  const shown = scheme === undefined ? 'a value without a URL scheme' : `a ${scheme}// URL`
  return { error: `EMCP_STORE must be a redis://, rediss://, postgres:// or postgresql:// URL (got ${shown})` }
}

/**
 * The shared store at `url` (connected, and migrated for PostgreSQL), or `undefined` when `url`
 * is empty or absent; rejects with a clear message for any other scheme or a failed connection.
 * `namespace` (in the examples, `EMCP_STORE_NAMESPACE`) keeps several groups of replicas apart
 * on one server: a Redis key and channel prefix `emcp:<namespace>:`, a PostgreSQL schema
 * `emcp_store_<namespace>` (whose tables and NOTIFY channel are its own).
 */
export const storeFromUrl = async (url: string | undefined, requestStateKeys?: ReadonlyArray<string | Uint8Array>, namespace?: string): Promise<SharedStore | undefined> => {
  if (url === undefined || url.trim() === '') return undefined
  const kind = storeKindOf(url.trim())
  const keys = requestStateKeys === undefined ? {} : { requestStateKeys }
  if (typeof kind === 'object') throw new Error(kind.error)
  const ns = namespace === undefined || namespace === '' ? undefined : namespace
  if (ns !== undefined && !/^[a-z0-9_]{1,32}$/.test(ns)) throw new Error('EMCP_STORE_NAMESPACE must be 1 to 32 of a-z, 0-9 and _')
  if (kind === 'redis') {
    const { redisStore } = await import('emcp/redis')
    return redisStore({ url: url.trim(), ...keys, ...(ns === undefined ? {} : { prefix: `emcp:${ns}:` }) })
  }
  const { postgresStore } = await import('emcp/postgres-store')
  return postgresStore({ url: url.trim(), ...keys, ...(ns === undefined ? {} : { schema: `emcp_store_${ns}` }) })
}
