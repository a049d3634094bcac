/**
 * The parts of a mount at run time: each mounted server with its way in (below its eras), its
 * namespace, its transforms and its visibility; and how a whole list (`tools/list`,
 * `prompts/list`, ...) is read from a part, page after page, for one session. Internal.
 *
 * @example
 * import { gather } from './parts.js'
 * // gather(part, 'prompts/list', 'prompts', session) // Right([page, ...]), now or later
 */
import * as E from 'fp-ts/lib/Either.js'
import type { AnyTool } from '../contract/emcp.js'
import type { Answer } from '../server/feature.js'
import { innerOf, type Inner } from '../server/inner.js'
import type { Server } from '../server/server.js'
import type { Session } from '../server/session.js'
import { rpcError, RawJson, type RpcError } from '../protocol/jsonrpc.js'
import { isObject } from '../util/json-object.js'
import { isThenable, type Eventually } from '../util/eventually.js'
import { checkNamespace, prefixed } from './names.js'
import { checkTransform, type ToolTransform } from './transform.js'
import { checkTags } from '../util/tags.js'
import { visibleBy, type Visibility, type VisibilityContext } from './visibility.js'

// ---------------------------------------------------------------------------------------
// model

/** How one server is mounted: its namespace, its transforms by tool name, who sees its entries. */
export interface PartOptions extends Visibility {
  readonly tools?: { readonly [name: string]: ToolTransform | undefined }
}

/** One mounted server, ready to serve. */
export interface Part {
  readonly server: Server
  readonly inner: Inner
  readonly namespace: string
  /** How messages name the part: its server's name, and its namespace. */
  readonly label: string
  readonly transforms: ReadonlyMap<string, ToolTransform>
  readonly visible: ((ctx: VisibilityContext) => boolean) | undefined
  /** True when its rules ask `enabled(ctx)`: what a caller sees of it may then differ from caller to caller. */
  readonly perCaller: boolean
}

/** The pages of one list of one part, as the part answered them (their identity stays while the part's list does). */
export type Pages = ReadonlyArray<object>

// ---------------------------------------------------------------------------------------
// functions

/** A part from a server and how it is mounted; fails for a value `mcpServer` or `mount` did not build, or options that name no tool. */
export const partOf = (server: Server, namespace: string, options: PartOptions = {}): Part => {
  const inner = isObject(server) ? innerOf(server) : undefined
  if (inner === undefined) throw new TypeError('emcp: mount: a part must be a server built by mcpServer or mount')
  checkNamespace(namespace)
  const label = `${server.info.name}${namespace === '' ? '' : ` (as ${namespace})`}`
  const transforms = new Map(Object.entries(options.tools ?? {}).filter((e): e is [string, ToolTransform] => e[1] !== undefined))
  for (const [name, t] of transforms) {
    const tool = server.tools.find((x) => x.name === name)
    if (tool === undefined) throw new TypeError(`emcp: mount: ${label} has no tool ${name} to transform`)
    checkTransform(tool, t, label)
    checkTags(`tool ${name} of ${label}`, t.tags)
    if (t.name !== undefined && !(typeof t.name === 'string' && /^[A-Za-z0-9._-]{1,128}$/.test(t.name)))
      throw new TypeError(`emcp: mount: tool ${name} of ${label}: invalid tool name ${JSON.stringify(t.name)}: use 1-128 of A-Z a-z 0-9 _ - .`)
  }
  return { server, inner, namespace, label, transforms, visible: visibleBy(options), perCaller: options.enabled !== undefined }
}

/** The name a part's tool has in the whole: renamed by its transform, then prefixed. */
export const wholeName = (part: Part, tool: AnyTool): string => prefixed(part.namespace, part.transforms.get(tool.name)?.name ?? tool.name)

/** The most pages read from a part for one list (a part that never stops paging is refused). */
const maxPages = 10_000

/** The part's answer for the first page of one of its lists (`method`), for one session. */
export const firstPage = (part: Part, method: string, session: Session): Answer => part.inner.inner({ kind: 'request', id: 0, method, params: undefined }, session)

/**
 * Every page of one list of a part for one session, following its cursors; `first` is the
 * part's answer for the first page when it was already asked (`firstPage`).
 */
export const gather = (part: Part, method: string, key: string, session: Session, first: Answer = firstPage(part, method, session)): Eventually<E.Either<RpcError, Pages>> => {
  const pages: object[] = []
  const step = (cursor: unknown): Eventually<E.Either<RpcError, Pages>> => {
    const out = cursor === undefined ? first : part.inner.inner({ kind: 'request', id: 0, method, params: { cursor } }, session)
    return isThenable(out) ? (out as Promise<E.Either<RpcError, unknown>>).then(next) : next(out as E.Either<RpcError, unknown>)
  }
  const next = (out: E.Either<RpcError, unknown>): Eventually<E.Either<RpcError, Pages>> => {
    if (E.isLeft(out)) return out
    const page = out.right
    const value = page instanceof RawJson ? page.value : page
    if (!isObject(value) || !Array.isArray(value[key])) return E.left(rpcError('InternalError', `Internal error: ${part.label} answered ${method} without ${key}`))
    pages.push(page as object)
    const cursor = value.nextCursor
    if (typeof cursor !== 'string' || cursor === '') return E.right(pages)
    if (pages.length >= maxPages) return E.left(rpcError('InternalError', `Internal error: ${part.label} answered ${method} with more than ${maxPages} pages`))
    return step(cursor)
  }
  return step(undefined)
}

/** The entries of a page as the part answered it. */
export const entriesOf = (page: object, key: string): ReadonlyArray<{ readonly [k: string]: unknown }> => {
  const value = page instanceof RawJson ? (page.value as { readonly [k: string]: unknown }) : (page as { readonly [k: string]: unknown })
  const list = value[key]
  return Array.isArray(list) ? list.filter(isObject) : []
}
