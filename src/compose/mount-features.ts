/**
 * The prompts, resources, resource templates and completion of a mount, as one feature: the
 * parts' lists merged (prompt, resource and template names under the part's namespace; URIs
 * as the part serves them), and each `prompts/get`, `resources/read`, `resources/subscribe`,
 * `resources/unsubscribe` and `completion/complete` handed, renamed back, to the part that
 * lists the entry, if the caller may see it. Internal.
 *
 * @example
 * import { mountFeature } from './mount-features.js'
 * // mcpServer's features: [mountFeature(parts, shown, pageSize)]
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Answer, Completion, Feature, FeatureFactory, MethodHandler } from '../server/feature.js'
import type { Session } from '../server/session.js'
import { rpcError, type Request, type RpcError } from '../protocol/jsonrpc.js'
import { notFound } from '../features/resource.js'
import { match } from '../features/uri-template.js'
import { clip } from '../util/clip.js'
import { isObject } from '../util/json-object.js'
import { map, type Eventually } from '../util/eventually.js'
import * as O from 'fp-ts/lib/Option.js'
import { mergedList, renamedLists, type Entry, type ListReader, type ListSpec, type Visible } from './lists.js'
import { prefixed, unprefixed } from './names.js'
import type { Part } from './parts.js'

// ---------------------------------------------------------------------------------------
// model

type Capabilities = { readonly [key: string]: unknown }

// ---------------------------------------------------------------------------------------
// constructors

/** The one view of every caller alike with the others (prompts and resources have no switch for everyone). */
const sameView = Object.freeze({})

/** The feature that serves the parts' prompts, resources and completion in the whole. */
export const mountFeature = (parts: ReadonlyArray<Part>, visible: Visible, pageSize: number | undefined, everyone: (session: Session) => boolean = () => false, alike: (session: Session) => boolean = () => false): FeatureFactory => () => {
  // the view of a caller alike with others holds while the parts answer the same pages
  const view = (session: Session): object | undefined => (alike(session) ? sameView : undefined)
  const capsOf = (p: Part, key: string): Capabilities | undefined => (isObject(p.inner.capabilities[key]) ? (p.inner.capabilities[key] as Capabilities) : undefined)
  const prompts: ListSpec = { method: 'prompts/list', key: 'prompts', serves: (p) => capsOf(p, 'prompts') !== undefined, rename: renamed, idOf: (e) => String(e.name) }
  const resources: ListSpec = { method: 'resources/list', key: 'resources', serves: (p) => capsOf(p, 'resources') !== undefined, rename: renamed, idOf: (e) => String(e.uri) }
  const templates: ListSpec = { ...resources, method: 'resources/templates/list', key: 'resourceTemplates', idOf: (e) => String(e.uriTemplate) }
  const hasPrompts = parts.some(prompts.serves)
  const hasResources = parts.some(resources.serves)
  const subscribes = parts.some((p) => capsOf(p, 'resources')?.subscribe === true)
  const completes = parts.some((p) => p.inner.capabilities.completions !== undefined)
  // one reader per list, shared by its list method and the lookups of get, read and complete
  const readers = { prompts: renamedLists(prompts, parts), resources: renamedLists(resources, parts), templates: renamedLists(templates, parts) }
  const owner = resourceOwner(readers.resources, readers.templates, visible)
  const methods: Record<string, MethodHandler> = {}
  if (hasPrompts) {
    methods['prompts/list'] = mergedList(prompts, readers.prompts, pageSize, visible, everyone, view)
    methods['prompts/get'] = promptGetter(readers.prompts, visible)
  }
  if (hasResources) {
    methods['resources/list'] = mergedList(resources, readers.resources, pageSize, visible, everyone, view)
    methods['resources/templates/list'] = mergedList(templates, readers.templates, pageSize, visible, everyone, view)
    methods['resources/read'] = (req, session) => forwardByUri(owner, req, session)
  }
  if (subscribes) {
    methods['resources/subscribe'] = (req, session) => forwardByUri(owner, req, session)
    methods['resources/unsubscribe'] = (req, session) => forwardByUri(owner, req, session)
  }
  const feature: Feature = {
    capabilities: {
      ...(hasPrompts ? { prompts: { listChanged: true } } : {}),
      ...(hasResources ? { resources: { listChanged: true, ...(subscribes ? { subscribe: true } : {}) } } : {}),
    },
    methods,
    release: (session) => {
      for (const p of parts) p.server.release(session)
    },
    ...(completes ? { complete: completer(readers.prompts, owner, visible) } : {}),
  }
  return feature
}

// ---------------------------------------------------------------------------------------
// internals

/** A prompt, resource or template of a part as the whole lists it: its name under the namespace. */
const renamed = (part: Part, e: Entry): Entry => (part.namespace === '' ? e : { ...e, name: prefixed(part.namespace, String(e.name)) })

/** The part that serves a URI to a session (a listed resource first, then a template that matches), and the entry. */
type Owner = (uri: string, session: Session) => Eventually<E.Either<RpcError, { readonly part: Part; readonly entry: Entry } | undefined>>

const resourceOwner =
  (readResources: ListReader, readTemplates: ListReader, visible: Visible): Owner =>
  (uri, session) =>
    map(readResources(session), (listed) => {
      if (E.isLeft(listed)) return listed
      for (const { part, entries } of listed.right.lists) {
        const entry = entries.find((e) => e.uri === uri)
        if (entry !== undefined) return E.right(visible(part, entry, session) ? { part, entry } : undefined)
      }
      return map(readTemplates(session), (t) => {
        if (E.isLeft(t)) return t
        for (const { part, entries } of t.right.lists) {
          const entry = entries.find((e) => typeof e.uriTemplate === 'string' && (e.uriTemplate === uri || O.isSome(match(e.uriTemplate, uri))))
          if (entry !== undefined) return E.right(visible(part, entry, session) ? { part, entry } : undefined)
        }
        return E.right(undefined)
      })
    }) as Eventually<E.Either<RpcError, { readonly part: Part; readonly entry: Entry } | undefined>>

/** A request about one URI, handed to the part that serves it; a URI no part serves to this caller is not found. */
const forwardByUri = (owner: Owner, req: Request, session: Session): Answer => {
  const uri = req.params?.uri
  if (typeof uri !== 'string') return E.left(rpcError('InvalidParams', `${req.method}: params.uri must be a string`))
  return map(owner(uri, session), (found) => (E.isLeft(found) ? found : found.right === undefined ? E.left(notFound(uri)) : found.right.part.inner.inner(req, session)))
}

/** `prompts/get`: the part whose listed prompt has that name in the whole, if the caller sees it. */
const promptGetter = (read: ListReader, visible: Visible): MethodHandler => {
  const find = promptFinder(read, visible)
  return (req, session) => {
    const name = req.params?.name
    if (typeof name !== 'string') return E.left(rpcError('InvalidParams', 'prompts/get: params.name must be a string'))
    return map(find(name, session), (found) =>
      E.isLeft(found)
        ? found
        : found.right === undefined
          ? E.left(rpcError('InvalidParams', `Unknown prompt: ${clip(name)}`))
          : found.right.part.inner.inner({ ...req, params: { ...req.params, name: found.right.original } }, session),
    )
  }
}

type Found = { readonly part: Part; readonly original: string }

const promptFinder =
  (read: ListReader, visible: Visible) =>
  (name: string, session: Session): Eventually<E.Either<RpcError, Found | undefined>> =>
    map(read(session), (listed) => {
      if (E.isLeft(listed)) return listed
      for (const { part, entries } of listed.right.lists) {
        const entry = entries.find((e) => e.name === name)
        if (entry !== undefined) return E.right(visible(part, entry, session) ? { part, original: unprefixed(part.namespace, name) ?? name } : undefined)
      }
      return E.right(undefined)
    })

/** `completion/complete`: handed to the part that owns the prompt or template, its reference renamed back. */
const completer = (prompts: ListReader, owner: Owner, visible: Visible): NonNullable<Feature['complete']> => {
  const findPrompt = promptFinder(prompts, visible)
  const ask = (part: Part, ref: unknown, request: unknown, session: Session): Eventually<Completion | RpcError | undefined> =>
    map(part.inner.inner({ kind: 'request', id: 0, method: 'completion/complete', params: { ...(request as object), ref } as { readonly [k: string]: unknown } }, session), (out) =>
      E.isLeft(out) ? out.left : isObject(out.right) && isObject(out.right.completion) ? (out.right.completion as unknown as Completion) : undefined,
    )
  return (request, session) => {
    const ref = request.ref
    if (ref.type === 'ref/prompt')
      return map(findPrompt(ref.name, session), (f) => (E.isLeft(f) ? f.left : f.right === undefined ? undefined : ask(f.right.part, { ...ref, name: f.right.original }, request, session)))
    return map(owner(ref.uri, session), (f) => (E.isLeft(f) ? f.left : f.right === undefined ? undefined : ask(f.right.part, ref, request, session)))
  }
}
