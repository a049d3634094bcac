/**
 * Resources: data a client may read by URI. A `resource` has one fixed URI; a
 * `resourceTemplate` answers every URI its RFC 6570 template matches, with the template's
 * variables typed from the literal. `resources([...])` is both the feature the server plugs
 * in (`resources/list`, `resources/templates/list`, `resources/read`, optionally
 * `resources/subscribe` and `resources/unsubscribe`, completion of template variables) and
 * a handle to tell clients what changed.
 *
 * @example
 * import { emcp, mcpServer, resource, resources, resourceTemplate } from 'emcp'
 * const readme = resource({ uri: 'docs://readme', name: 'readme', mimeType: 'text/markdown', read: () => '# Hello' })
 * const page = resourceTemplate({
 *   uriTemplate: 'docs://pages/{slug}{?rev}',
 *   name: 'page',
 *   read: ({ slug, rev }) => `page ${slug} at ${rev ?? 'head'}`, // slug: string, rev: string | undefined
 *   complete: { slug: (value) => ['intro', 'setup'].filter((s) => s.startsWith(value)) },
 * })
 * const docs = resources([readme, page], { subscribe: true })
 * const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })
 * mcpServer([noop], { name: 'docs', version: '1' }, { features: [docs] }).implement({ noop: () => 'ok' })
 * docs.updated('docs://readme') // notifications/resources/updated to the sessions subscribed to it
 */
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { clip } from '../util/clip.js'
import type { ContentAnnotations } from '../contract/content.js'
import { completeWith, type Completer } from './completion.js'
import { runWithContext, type ToolContext } from '../server/context.js'
import type { Icon } from '../contract/emcp.js'
import { all, map, type Eventually } from '../util/eventually.js'
import type { Completion, CompletionRequest, Feature, FeatureFactory } from '../server/feature.js'
import { hubsOf, type Hub } from '../server/hub.js'
import { checkMeta, isObject, isReadonlyArray, stripUndefined } from '../util/json-object.js'
import { rpcError, type Request, type RpcError } from '../protocol/jsonrpc.js'
import { checkPageSize, pageAt, pageIndex, pagesOf } from '../server/pages.js'
import { registry } from '../server/registry.js'
import type { Session } from '../server/session.js'
import { uriTemplate, type UriParams, type UriTemplate } from './uri-template.js'

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
}

/** A resource with a fixed URI. */
export interface Resource extends ResourceDef {
  readonly kind: 'resource'
}

/** What `resourceTemplate` takes; `T` is the template literal. */
export interface ResourceTemplateDef<T extends string> extends ResourceMeta {
  /** An RFC 6570 template (levels 1-3); its variables type `read`'s first argument. */
  readonly uriTemplate: T
  /** Reads the resource a matching URI names; `params` are its variables, decoded. */
  readonly read: (params: NoInfer<UriParams<T>>, ctx: ResourceContext) => Eventually<ReadResult | undefined>
  /** Completers for the template's variables (`completion/complete` with a `ref/resource`). */
  readonly complete?: NoInfer<{ readonly [K in keyof UriParams<T>]?: Completer<UriParams<T>> }>
  /** The resources the template currently matches, to include in `resources/list`. */
  readonly list?: (ctx: ToolContext) => Eventually<ReadonlyArray<ListedResource>>
}

/** A resource template: a family of resources named by one URI template (`ResourceTemplate` alone: any template). */
export interface ResourceTemplate<T extends string = any> extends ResourceTemplateDef<T> {
  readonly kind: 'template'
  /** The compiled template. */
  readonly template: UriTemplate<T>
}

/** Anything `resources` serves; a template's variables were checked where it was defined. */
export type AnyResource = Resource | ResourceTemplate

/** How `resources` behaves. */
export interface ResourcesOptions {
  /** Answers `resources/subscribe` and `resources/unsubscribe` (default false). */
  readonly subscribe?: boolean
  /** Entries per `resources/list` and `resources/templates/list` page; all in one when absent. */
  readonly pageSize?: number
}

/** The resources feature: plug it into a server, then tell clients what changed. */
export interface ResourcesFeature extends FeatureFactory {
  /** Sends `notifications/resources/updated` to every session subscribed to `uri`. */
  readonly updated: (uri: string) => void
  /** Serves one more resource or template and sends `notifications/resources/list_changed`. */
  readonly add: (r: AnyResource) => void
  /** Stops serving the resource (by URI) or template (by template); false when there was none. */
  readonly remove: (uri: string) => boolean
  /** Sends `notifications/resources/list_changed` by itself: what a template's `list` gives has changed. */
  readonly listChanged: () => void
  /** Lists and serves a disabled resource (by URI) or template (by template) again; one of neither is a `TypeError`. */
  readonly enable: (uri: string) => void
  /** Keeps a resource or template declared but neither listed nor read, until enabled again. */
  readonly disable: (uri: string) => void
  /** Runs `changes` (add, remove, enable, disable): clients are told once, when it returns. */
  readonly batch: (changes: () => void) => void
  /** What is declared now (enabled or not), in order. */
  readonly list: () => ReadonlyArray<AnyResource>
}

// ---------------------------------------------------------------------------------------
// constructors

/** A resource with a fixed URI; `read` may return text, bytes or contents. */
export const resource = (def: ResourceDef): Resource => {
  if (typeof def.uri !== 'string' || !scheme.test(def.uri))
    throw new TypeError(`emcp: resource ${String(def.name)}: uri must be an absolute URI (scheme:...), got ${JSON.stringify(def.uri)}`)
  checkMeta(`resource ${def.uri}`, def)
  if (typeof def.read !== 'function') throw new TypeError(`emcp: resource ${def.uri}: read must be a function`)
  return Object.freeze({ ...def, kind: 'resource' as const })
}

/**
 * A family of resources named by an RFC 6570 template; `read` gets the variables typed from
 * the literal (`{x}` required, `{?x}` optional). An invalid template is a `TypeError`.
 */
export const resourceTemplate = <const T extends string>(def: ResourceTemplateDef<T>): ResourceTemplate<T> => {
  const template = uriTemplate(def.uriTemplate)
  checkMeta(`resource template ${def.uriTemplate}`, def)
  if (typeof def.read !== 'function') throw new TypeError(`emcp: resource template ${def.uriTemplate}: read must be a function`)
  for (const name of Object.keys(def.complete ?? {}))
    if (!template.variables.includes(name))
      throw new TypeError(`emcp: resource template ${def.uriTemplate}: complete names ${name}, which is not one of its variables`)
  return Object.freeze({ ...def, kind: 'template' as const, template })
}

/**
 * The feature serving a list of resources and templates. A URI (or template) given twice is
 * a `TypeError`. The result is also the handle: `updated`, `add`, `remove`, `listChanged`.
 */
export const resources = (list: ReadonlyArray<AnyResource>, options: ResourcesOptions = {}): ResourcesFeature => {
  checkPageSize(options.pageSize)
  const subscribe = options.subscribe === true
  const hubs = hubsOf()
  // per session: the URIs it subscribed to; weak, so sessions nobody releases still go away
  const subscriptions = new WeakMap<Session, Set<string>>()
  // the index and the list pages change with the registry, never per request
  const reg = registry(checkUnique(list), {
    noun: 'resource',
    keyOf,
    derive: (enabled) => indexOf(enabled, options.pageSize),
    changed: () => hubs.broadcast('notifications/resources/list_changed'),
  })

  const listResources = (req: Request, session: Session): Eventually<E.Either<RpcError, unknown>> => {
    const page = pageIndex('resources/list', 'resources', req.params?.cursor)
    if (E.isLeft(page)) return page
    const { listing, staticPages, staticWire } = reg.view()
    if (listing.length === 0) return pageAt('resources/list', staticPages, page.right, req.params?.cursor)
    // templates that list their resources are asked on every request: their lists may change
    const listOne = (t: ResourceTemplate, ctx: ToolContext) => map(t.list?.(ctx) ?? [], (rs) => rs.map((r) => listedResource(withMimeType(r, t))))
    const lists = runWithContext(req, session, (ctx) => all(listing.map((t) => listOne(t, ctx))))
    return map(lists, (ls) => pageAt('resources/list', pagesOf('resources', [...staticWire, ...ls.flat()], options.pageSize), page.right, req.params?.cursor))
  }

  const listTemplates = (req: Request): E.Either<RpcError, unknown> => {
    const page = pageIndex('resources/templates/list', 'resourceTemplates', req.params?.cursor)
    return E.isLeft(page) ? page : pageAt('resources/templates/list', reg.view().templatePages, page.right, req.params?.cursor)
  }

  const lookup = (uri: string) => lookupIn(reg.view(), uri)

  const read = (req: Request, session: Session): Eventually<E.Either<RpcError, unknown>> => {
    const uri = req.params?.uri
    if (typeof uri !== 'string') return E.left(rpcError('InvalidParams', 'resources/read: params.uri must be a string'))
    const found = lookup(uri)
    if (O.isNone(found)) return E.left(notFound(uri))
    const out = runWithContext(req, session, (ctx) => found.value.read(Object.assign(ctx, { uri })))
    return map(out, (r) => readResult(uri, found.value.mimeType, r))
  }

  const setSubscribed = (on: boolean) => (req: Request, session: Session): E.Either<RpcError, unknown> => {
    const uri = req.params?.uri
    const method = on ? 'resources/subscribe' : 'resources/unsubscribe'
    if (typeof uri !== 'string') return E.left(rpcError('InvalidParams', `${method}: params.uri must be a string`))
    let uris = subscriptions.get(session)
    if (on) {
      if (O.isNone(lookup(uri))) return E.left(notFound(uri))
      if (uris === undefined) subscriptions.set(session, (uris = new Set()))
      uris.add(uri)
    } else uris?.delete(uri)
    return E.right({})
  }

  const complete = (request: CompletionRequest): Eventually<Completion | undefined> => {
    const { ref } = request
    if (ref.type !== 'ref/resource') return undefined
    const t = reg.view().templates.find((x) => x.uriTemplate === ref.uri)
    if (t === undefined) return undefined
    return completeWith(t.complete, request)
  }

  const factory = (hub: Hub): Feature => {
    hubs.add(hub)
    return {
      capabilities: { resources: { subscribe, listChanged: true } },
      methods: {
        'resources/list': listResources,
        'resources/templates/list': listTemplates,
        'resources/read': read,
        ...(subscribe ? { 'resources/subscribe': setSubscribed(true), 'resources/unsubscribe': setSubscribed(false) } : {}),
      },
      release: (session) => {
        subscriptions.delete(session)
      },
      complete,
    }
  }

  return Object.assign(factory, {
    updated: (uri: string): void => {
      hubs.broadcast('notifications/resources/updated', { uri }, (s) => subscriptions.get(s)?.has(uri) === true)
    },
    add: (r: AnyResource): void => {
      checkUnique([...reg.list(), r])
      reg.add(r)
    },
    remove: reg.remove,
    enable: (uri: string): void => reg.setEnabled(uri, true),
    disable: (uri: string): void => reg.setEnabled(uri, false),
    batch: reg.batch,
    listChanged: (): void => hubs.broadcast('notifications/resources/list_changed'),
    list: reg.list,
  })
}

// ---------------------------------------------------------------------------------------
// internals

/** An absolute URI starts with a scheme (RFC 3986 §3.1). */
const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/

/** A resource by its URI, a template by its template. */
const keyOf = (r: AnyResource): string => (r.kind === 'resource' ? r.uri : r.uriTemplate)

/** What reads and lists look up: the static resources by URI, the templates, and the list pages. */
const indexOf = (enabled: ReadonlyArray<AnyResource>, pageSize: number | undefined) => {
  const statics = new Map(enabled.flatMap((r) => (r.kind === 'resource' ? [[r.uri, r] as const] : [])))
  const templates = enabled.filter((r): r is ResourceTemplate => r.kind === 'template')
  const staticWire = [...statics.values()].map(listedResource)
  return {
    statics,
    templates,
    // templates that list their resources are asked on every resources/list
    listing: templates.filter((t) => t.list !== undefined),
    staticWire,
    staticPages: pagesOf('resources', staticWire, pageSize),
    templatePages: pagesOf('resourceTemplates', templates.map(listedTemplate), pageSize),
  }
}

/** The resource a URI names: a static one by exact URI, else the first template that matches. */
const lookupIn = (
  { statics, templates }: { readonly statics: ReadonlyMap<string, Resource>; readonly templates: ReadonlyArray<ResourceTemplate> },
  uri: string,
): O.Option<{ readonly read: (ctx: ResourceContext) => Eventually<ReadResult | undefined>; readonly mimeType?: string }> => {
  const r = statics.get(uri)
  if (r !== undefined) return O.some(r)
  for (const t of templates) {
    const params = t.template.match(uri)
    if (O.isSome(params)) return O.some({ read: (ctx) => t.read(params.value, ctx), mimeType: t.mimeType })
  }
  return O.none
}

/** MCP: -32002 for a URI the server does not have, with the URI as data. */
const notFound = (uri: string): RpcError => rpcError('ResourceNotFound', 'Resource not found', { uri: clip(uri) })

const checkUnique = (list: ReadonlyArray<AnyResource>): ReadonlyArray<AnyResource> => {
  const seen = new Set<string>()
  const problems: string[] = []
  for (const r of list) {
    if (r?.kind !== 'resource' && r?.kind !== 'template') {
      problems.push(`${JSON.stringify(r)} is neither a resource nor a template (build them with resource() and resourceTemplate())`)
      continue
    }
    const key = r.kind === 'resource' ? r.uri : r.uriTemplate
    if (seen.has(key)) problems.push(`${r.kind === 'resource' ? 'duplicate resource uri' : 'duplicate resource template'} ${key}`)
    seen.add(key)
  }
  if (problems.length > 0) throw new TypeError(`emcp: invalid resource list: ${problems.join('; ')}`)
  return [...list]
}

const listedResource = (r: ListedResource): ListedResource =>
  stripUndefined({
    uri: r.uri,
    name: r.name,
    title: r.title,
    description: r.description,
    mimeType: r.mimeType,
    size: r.size,
    annotations: r.annotations,
    icons: r.icons,
    _meta: r._meta,
  })

const listedTemplate = (t: ResourceTemplate): ListedResourceTemplate =>
  stripUndefined({
    uriTemplate: t.uriTemplate,
    name: t.name,
    title: t.title,
    description: t.description,
    mimeType: t.mimeType,
    annotations: t.annotations,
    icons: t.icons,
    _meta: t._meta,
  })

/** A listed resource of a template carries the template's MIME type unless it has its own. */
const withMimeType = (r: ListedResource, t: ResourceTemplate): ListedResource =>
  r.mimeType === undefined && t.mimeType !== undefined ? { ...r, mimeType: t.mimeType } : r

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')

const isContents = (u: unknown): u is ResourceContents =>
  isObject(u) && typeof u.uri === 'string' && (typeof u.text === 'string' || typeof u.blob === 'string')

/** A read's answer as a `ReadResourceResult`; `undefined` is -32002, anything else -32603 saying what came back. */
const readResult = (uri: string, mimeType: string | undefined, r: ReadResult | undefined): E.Either<RpcError, ReadResourceResult> => {
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
