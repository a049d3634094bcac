/**
 * Paginated lists (`tools/list`, `resources/list`, `prompts/list`, ...): every page serialised
 * once when the list changes, and opaque cursors that name a page of one list. Internal.
 *
 * @example
 * import { pagesOf, pageIndex } from './pages.js'
 * const pages = pagesOf('tools', [{ name: 'a' }, { name: 'b' }, { name: 'c' }], 2)
 * pages[0]?.value // { tools: [{ name: 'a' }, { name: 'b' }], nextCursor: '...' }
 * pageIndex('tools/list', 'tools', undefined) // Right(0)
 */
import * as E from 'fp-ts/lib/Either.js'
import { base64url, fromBase64url, fromUtf8, utf8 } from '../util/bytes.js'
import { RawJson, rpcError, type RpcError } from '../protocol/jsonrpc.js'

// ---------------------------------------------------------------------------------------
// functions

/** Fails unless a page size is a positive integer (or absent). */
export const checkPageSize = (pageSize: number | undefined): void => {
  if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize > 0))
    throw new TypeError(`emcp: pageSize must be a positive integer, got ${String(pageSize)}`)
}

/** Every page of a list, serialised once: `{ [key]: items, nextCursor? }`; all in one page without a size. */
export const pagesOf = (key: string, items: ReadonlyArray<unknown>, pageSize: number | undefined): ReadonlyArray<RawJson> => {
  const size = pageSize ?? Math.max(items.length, 1)
  const pages: RawJson[] = []
  for (let start = 0, i = 0; start < items.length || i === 0; start += size, i++) {
    const next = start + size < items.length ? { nextCursor: cursorOf(key, i + 1) } : {}
    pages.push(new RawJson({ [key]: items.slice(start, start + size), ...next }))
  }
  return pages
}

/** The page a cursor names (0 without one); a cursor this list did not hand out is -32602. */
export const pageIndex = (method: string, key: string, cursor: unknown): E.Either<RpcError, number> => {
  if (cursor === undefined) return E.right(0)
  const bytes = typeof cursor === 'string' ? fromBase64url(cursor) : undefined
  const text = bytes === undefined ? '' : fromUtf8(bytes)
  const prefix = `emcp-${key}:`
  const digits = text.startsWith(prefix) ? text.slice(prefix.length) : ''
  return /^[1-9][0-9]{0,8}$/.test(digits) && cursorOf(key, Number(digits)) === cursor
    ? E.right(Number(digits))
    : E.left(invalidCursor(method, cursor))
}

/** The page at an index, or -32602 when the list has shrunk below it. */
export const pageAt = (method: string, pages: ReadonlyArray<RawJson>, i: number, cursor: unknown): E.Either<RpcError, unknown> => {
  const page = pages[i]
  return page === undefined ? E.left(invalidCursor(method, cursor)) : E.right(page)
}

/** A list request answered from its pages: the cursor read, the page found. */
export const answerPage = (method: string, key: string, pages: ReadonlyArray<RawJson>, cursor: unknown): E.Either<RpcError, unknown> => {
  const i = pageIndex(method, key, cursor)
  return E.isLeft(i) ? i : pageAt(method, pages, i.right, cursor)
}

// ---------------------------------------------------------------------------------------
// internals

const cursorOf = (key: string, page: number): string => base64url(utf8(`emcp-${key}:${page}`))

/** Names the cursor in the message only when it is short text: a client's 10 MB or deeply nested value is not echoed back (nor stringified). */
const invalidCursor = (method: string, cursor: unknown): RpcError =>
  rpcError('InvalidCursor', `${method}: invalid cursor ${shown(cursor)}`)

const shown = (u: unknown): string =>
  typeof u === 'string'
    ? JSON.stringify(u.length > 200 ? `${u.slice(0, 200)}…` : u)
    : u === null || typeof u === 'number' || typeof u === 'boolean'
      ? String(u)
      : `(${Array.isArray(u) ? 'an array' : typeof u === 'object' ? 'an object' : typeof u}, not a string)`
