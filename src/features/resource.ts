/**
 * A resource with a fixed URI: what it is (its contents, what a read may return, how it is
 * listed), `resource` to define one, and how a read's answer becomes a `resources/read`
 * result. The feature that serves resources is in resources.ts.
 *
 * @example
 * import { resource } from 'emcp'
 * const readme = resource({ uri: 'docs://readme', name: 'readme', mimeType: 'text/markdown', read: () => '# Hello' })
 */
import * as E from 'fp-ts/lib/Either.js'
import { clip } from '../util/clip.js'
import type { ContentAnnotations } from '../contract/content.js'
import type { ToolContext } from '../server/context.js'
import type { Icon } from '../contract/emcp.js'
import type { Eventually } from '../util/eventually.js'
import { checkMeta, isObject, isReadonlyArray, stripUndefined } from '../util/json-object.js'
import { rpcError, type RpcError } from '../protocol/jsonrpc.js'
import { checkScopes } from '../server/scopes.js'
import { checkTags, withTags } from '../util/tags.js'

// ---------------------------------------------------------------------------------------
// model

/** The contents of a resource as text. */
export interface TextResourceContents {
  readonly uri: string
  readonly mimeType?: string
  readonly text: string
  readonly _meta?: { readonly [key: string]: unknown }
}

/** The contents of a resource as binary data, base64-encoded. */
export interface BlobResourceContents {
  readonly uri: string
  readonly mimeType?: string
  readonly blob: string
  readonly _meta?: { readonly [key: string]: unknown }
}

/** The contents of a resource, or of one of its parts. */
export type ResourceContents = TextResourceContents | BlobResourceContents

/** The result of `resources/read`. */
export interface ReadResourceResult {
  readonly contents: ReadonlyArray<ResourceContents>
  readonly _meta?: { readonly [key: string]: unknown }
}

/**
 * What a read returns: text (with the resource's MIME type), bytes (sent as a base64 blob),
 * one or more contents, or the whole result. A read may also return `undefined`: there is
 * no such resource after all (the client gets -32002, as for a URI nothing matches).
 */
export type ReadResult = string | Uint8Array | ResourceContents | ReadonlyArray<ResourceContents> | ReadResourceResult

/** What describes a resource or a template to people and models, besides its URI. */
export interface ResourceMeta {
  /** A name for programs, and for display when there is no title. */
  readonly name: string
  /** A short human-readable name. */
  readonly title?: string
  /** What the resource holds; models read this. */
  readonly description?: string
  /** The MIME type of its contents (for a template: of every resource it matches). */
  readonly mimeType?: string
  readonly annotations?: ContentAnnotations
  readonly icons?: ReadonlyArray<Icon>
  readonly _meta?: { readonly [key: string]: unknown }
}

/** A resource as `resources/list` describes it on the wire. */
export interface ListedResource extends ResourceMeta {
  readonly uri: string
  /** The size of the raw contents in bytes, if known. */
  readonly size?: number
}

/** A template as `resources/templates/list` describes it on the wire. */
export interface ListedResourceTemplate extends ResourceMeta {
  readonly uriTemplate: string
}

/** What a read sees: the handler context of a tool call, plus the URI being read. */
export interface ResourceContext extends ToolContext {
  /** The URI the client asked for. */
  readonly uri: string
}

/** What `resource` takes. */
export interface ResourceDef extends ListedResource {
  /** Reads the resource. */
  readonly read: (ctx: ResourceContext) => Eventually<ReadResult | undefined>
  /** OAuth scopes a caller's token must grant, all of them, to see, read and subscribe to the resource (not listed). */
  readonly scopes?: ReadonlyArray<string>
  /** Labels for visibility rules (a mount's `include`, `exclude`); listed in `_meta` under `emcp/tags`. */
  readonly tags?: ReadonlyArray<string>
}

/** A resource with a fixed URI. */
export interface Resource extends ResourceDef {
  readonly kind: 'resource'
}

// ---------------------------------------------------------------------------------------
// constructors

/** A resource with a fixed URI; `read` may return text, bytes or contents. */
export const resource = (def: ResourceDef): Resource => {
  if (typeof def.uri !== 'string' || !scheme.test(def.uri))
    throw new TypeError(`emcp: resource ${String(def.name)}: uri must be an absolute URI (scheme:...), got ${JSON.stringify(def.uri)}`)
  checkMeta(`resource ${def.uri}`, def)
  checkScopes(`resource ${def.uri}`, def.scopes)
  checkTags(`resource ${def.uri}`, def.tags)
  if (typeof def.read !== 'function') throw new TypeError(`emcp: resource ${def.uri}: read must be a function`)
  return Object.freeze({ ...def, kind: 'resource' as const })
}

// ---------------------------------------------------------------------------------------
// functions

/** MCP: -32002 for a URI the server does not have, with the URI as data. */
export const notFound = (uri: string): RpcError => rpcError('ResourceNotFound', 'Resource not found', { uri: clip(uri) })

/** The wire form of a resource in `resources/list`. */
export const listedResource = (r: ListedResource): ListedResource =>
  stripUndefined({
    uri: r.uri,
    name: r.name,
    title: r.title,
    description: r.description,
    mimeType: r.mimeType,
    size: r.size,
    annotations: r.annotations,
    icons: r.icons,
    _meta: withTags(r._meta, (r as { readonly tags?: ReadonlyArray<string> }).tags),
  })

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')

const isContents = (u: unknown): u is ResourceContents =>
  isObject(u) && typeof u.uri === 'string' && (typeof u.text === 'string' || typeof u.blob === 'string')

/** A read's answer as a `ReadResourceResult`; `undefined` is -32002, anything else -32603 saying what came back. */
export const readResult = (uri: string, mimeType: string | undefined, r: ReadResult | undefined): E.Either<RpcError, ReadResourceResult> => {
  if (r === undefined) return E.left(notFound(uri))
  const mime = mimeType === undefined ? {} : { mimeType }
  if (typeof r === 'string') return E.right({ contents: [{ uri, ...mime, text: r }] })
  if (r instanceof Uint8Array) return E.right({ contents: [{ uri, ...mime, blob: base64(r) }] })
  const result = isReadonlyArray(r) ? { contents: r } : isObject(r) && 'contents' in r ? r : { contents: [r] }
  if (!isReadonlyArray(result.contents) || !result.contents.every(isContents))
    return E.left(
      rpcError('InternalError', `resources/read: the read of ${clip(uri)} returned neither text, bytes nor contents ({ uri, text } or { uri, blob })`),
    )
  return E.right(result as ReadResourceResult)
}

// ---------------------------------------------------------------------------------------
// internals

/** An absolute URI starts with a scheme (RFC 3986 §3.1). */
const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/

