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
import { completeWith } from './completion.js'
import { runWithContext, type ToolContext } from '../server/context.js'
import { all, map, type Eventually } from '../util/eventually.js'
import type { Completion, CompletionRequest, Feature, FeatureFactory } from '../server/feature.js'
import { hubsOf, type Hub } from '../server/hub.js'
import { rpcError, type Params, type Request, type RpcError } from '../protocol/jsonrpc.js'
import { checkPageSize, pageAt, pageIndex, pagesOf } from '../server/pages.js'
import { registry } from '../server/registry.js'
import type { Session } from '../server/session.js'
import { listedResource, notFound, readResult, type ReadResult, type Resource, type ResourceContext } from './resource.js'
import { listedTemplate, withMimeType, type ResourceTemplate } from './resource-template.js'
import { subscriptionsOf } from './resource-subscriptions.js'
import { isScoped, scopeRefusal, scopesHeld } from '../server/scopes.js'
import { clip } from '../util/clip.js'


// ---------------------------------------------------------------------------------------
// model

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

/**
 * The feature serving a list of resources and templates. A URI (or template) given twice is
 * a `TypeError`. The result is also the handle: `updated`, `add`, `remove`, `listChanged`.
 */
export const resources = (list: ReadonlyArray<AnyResource>, options: ResourcesOptions = {}): ResourcesFeature => {
  checkPageSize(options.pageSize)
  const subscribe = options.subscribe === true
  const hubs = hubsOf()
  // the index and the list pages change with the registry, never per request
  const reg = registry(checkUnique(list), {
    noun: 'resource',
    keyOf,
    derive: (enabled) => indexOf(enabled, options.pageSize),
    changed: () => hubs.broadcast('notifications/resources/list_changed'),
  })

  const { listResources, listTemplates } = listMethods(reg.view, options.pageSize)

  const lookup = (uri: string) => lookupIn(reg.view(), uri)

  const read = (req: Request, session: Session): Eventually<E.Either<RpcError, unknown>> => {
    const uri = req.params?.uri
    if (typeof uri !== 'string') return E.left(rpcError('InvalidParams', 'resources/read: params.uri must be a string'))
    const found = lookup(uri)
    if (O.isNone(found)) return E.left(notFound(uri))
    const refused = scopeRefusal(`resource ${clip(uri)}`, found.value, session)
    if (refused !== undefined) return E.left(refused)
    const out = runWithContext(req, session, (ctx) => found.value.read(Object.assign(ctx, { uri })))
    return map(out, (r) => readResult(uri, found.value.mimeType, r))
  }

  const subscriptions = subscriptionsOf((uri, session) => {
    const found = lookup(uri)
    return O.isNone(found) ? notFound(uri) : scopeRefusal(`resource ${clip(uri)}`, found.value, session)
  })

  const complete = (request: CompletionRequest, session: Session): Eventually<Completion | RpcError | undefined> => {
    const { ref } = request
    if (ref.type !== 'ref/resource') return undefined
    const t = reg.view().templates.find((x) => x.uriTemplate === ref.uri)
    if (t === undefined) return undefined
    return scopeRefusal(`resource template ${t.uriTemplate}`, t, session) ?? completeWith(t.complete, request)
  }

  /** Whether a notification may reach `session`: an update of a resource it may not read may not. */
  const mayHear =
    (session: Session) =>
    (method: string, params: Params | undefined): boolean => {
      const uri = params?.uri
      if (method !== 'notifications/resources/updated' || typeof uri !== 'string') return true
      // a URI served by no resource here is no refusal of this feature's to make
      const found = lookup(uri)
      return O.isNone(found) || scopesHeld(found.value, session)
    }

  const factory = (hub: Hub): Feature => {
    hubs.add(hub)
    return {
      capabilities: { resources: { subscribe, listChanged: true } },
      methods: {
        'resources/list': listResources,
        'resources/templates/list': listTemplates,
        'resources/read': read,
        ...(subscribe ? { 'resources/subscribe': subscriptions.method(true), 'resources/unsubscribe': subscriptions.method(false) } : {}),
      },
      release: subscriptions.release,
      complete,
      // a listen stream hears of a resource only as its caller may read it (and subscribe to it)
      screen: (_filter, session) => E.right(mayHear(session)),
    }
  }

  const handle = Object.assign(factory, {
    updated: (uri: string): void => {
      hubs.broadcast('notifications/resources/updated', { uri }, (s) => subscriptions.has(s, uri))
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
  // a mark no other feature carries: prompts(...) has the same add/list/batch shape
  return Object.defineProperty(handle, resourcesMark, { value: true })
}

/** True when `f` was made by `resources(...)` (by any copy of emcp): the feature the server's apps join. */
export const isResourcesFeature = (f: FeatureFactory): f is ResourcesFeature => (f as unknown as Readonly<Record<symbol, unknown>>)[resourcesMark] === true

// ---------------------------------------------------------------------------------------
// internals

// Symbol.for, not a private symbol: a server built by one copy of the package still finds
// the resources feature another copy made
const resourcesMark = Symbol.for('emcp.resourcesFeature')

/** `resources/list` and `resources/templates/list` over the registry's current view. */
const listMethods = (current: () => Index, pageSize: number | undefined) => {
  const listResources = (req: Request, session: Session): Eventually<E.Either<RpcError, unknown>> => {
    const page = pageIndex('resources/list', 'resources', req.params?.cursor)
    if (E.isLeft(page)) return page
    const view = current()
    // with scoped resources or templates each caller sees its own list, paged per request
    const listing = view.scoped ? view.listing.filter((t) => scopesHeld(t, session)) : view.listing
    const staticWire = view.scoped ? view.staticEntries.filter((x) => scopesHeld(x.r, session)).map((x) => x.wire) : view.staticWire
    if (listing.length === 0)
      return pageAt('resources/list', view.scoped ? pagesOf('resources', staticWire, pageSize) : view.staticPages, page.right, req.params?.cursor)
    // templates that list their resources are asked on every request: their lists may change
    const listOne = (t: ResourceTemplate, ctx: ToolContext) => map(t.list?.(ctx) ?? [], (rs) => rs.map((r) => listedResource(withMimeType(r, t))))
    const lists = runWithContext(req, session, (ctx) => all(listing.map((t) => listOne(t, ctx))))
    return map(lists, (ls) => pageAt('resources/list', pagesOf('resources', [...staticWire, ...ls.flat()], pageSize), page.right, req.params?.cursor))
  }

  const listTemplates = (req: Request, session: Session): E.Either<RpcError, unknown> => {
    const page = pageIndex('resources/templates/list', 'resourceTemplates', req.params?.cursor)
    if (E.isLeft(page)) return page
    const { scoped, templates, templatePages } = current()
    const pages = scoped ? pagesOf('resourceTemplates', templates.filter((t) => scopesHeld(t, session)).map(listedTemplate), pageSize) : templatePages
    return pageAt('resources/templates/list', pages, page.right, req.params?.cursor)
  }
  return { listResources, listTemplates }
}

/** A resource by its URI, a template by its template. */
const keyOf = (r: AnyResource): string => (r.kind === 'resource' ? r.uri : r.uriTemplate)

/** What reads and lists look up: the static resources by URI, the templates, and the list pages. */
type Index = ReturnType<typeof indexOf>

const indexOf = (enabled: ReadonlyArray<AnyResource>, pageSize: number | undefined) => {
  const statics = new Map(enabled.flatMap((r) => (r.kind === 'resource' ? [[r.uri, r] as const] : [])))
  const templates = enabled.filter((r): r is ResourceTemplate => r.kind === 'template')
  const staticEntries = [...statics.values()].map((r) => ({ r, wire: listedResource(r) }))
  const staticWire = staticEntries.map((x) => x.wire)
  return {
    statics,
    templates,
    /** Whether any resource or template declares scopes: lists are then filtered per caller. */
    scoped: enabled.some(isScoped),
    staticEntries,
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
): O.Option<{ readonly read: (ctx: ResourceContext) => Eventually<ReadResult | undefined>; readonly mimeType?: string; readonly scopes?: ReadonlyArray<string> }> => {
  const r = statics.get(uri)
  if (r !== undefined) return O.some(r)
  for (const t of templates) {
    const params = t.template.match(uri)
    if (O.isSome(params)) return O.some({ read: (ctx) => t.read(params.value, ctx), mimeType: t.mimeType, scopes: t.scopes })
  }
  return O.none
}

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

