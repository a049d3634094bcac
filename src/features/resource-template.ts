/**
 * A resource template: a family of resources named by one RFC 6570 template, with the
 * template's variables typed from the literal. `resourceTemplate` defines one; the feature
 * that serves it is in resources.ts.
 *
 * @example
 * import { resourceTemplate } from 'emcp'
 * const page = resourceTemplate({
 *   uriTemplate: 'docs://pages/{slug}{?rev}',
 *   name: 'page',
 *   read: ({ slug, rev }) => `page ${slug} at ${rev ?? 'head'}`, // slug: string, rev: string | undefined
 * })
 */
import type { ToolContext } from '../server/context.js'
import type { Eventually } from '../util/eventually.js'
import { checkMeta, stripUndefined } from '../util/json-object.js'
import { checkScopes } from '../server/scopes.js'
import type { Completer } from './completion.js'
import type { ListedResource, ListedResourceTemplate, ReadResult, ResourceContext, ResourceMeta } from './resource.js'
import { uriTemplate, type UriParams, type UriTemplate } from './uri-template.js'
import { checkTags, withTags } from '../util/tags.js'

// ---------------------------------------------------------------------------------------
// model

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
  /**
   * OAuth scopes a caller's token must grant, all of them, to see the template (and what its
   * `list` gives), read or subscribe to a URI it matches, and complete its variables (not listed).
   */
  readonly scopes?: ReadonlyArray<string>
  /** Labels for visibility rules (a mount's `include`, `exclude`); listed in `_meta` under `emcp/tags`. */
  readonly tags?: ReadonlyArray<string>
}

/** A resource template: a family of resources named by one URI template (`ResourceTemplate` alone: any template). */
export interface ResourceTemplate<T extends string = any> extends ResourceTemplateDef<T> {
  readonly kind: 'template'
  /** The compiled template. */
  readonly template: UriTemplate<T>
}

// ---------------------------------------------------------------------------------------
// constructors

/**
 * A family of resources named by an RFC 6570 template; `read` gets the variables typed from
 * the literal (`{x}` required, `{?x}` optional). An invalid template is a `TypeError`.
 */
export const resourceTemplate = <const T extends string>(def: ResourceTemplateDef<T>): ResourceTemplate<T> => {
  const template = uriTemplate(def.uriTemplate)
  checkMeta(`resource template ${def.uriTemplate}`, def)
  checkScopes(`resource template ${def.uriTemplate}`, def.scopes)
  checkTags(`resource template ${def.uriTemplate}`, def.tags)
  if (typeof def.read !== 'function') throw new TypeError(`emcp: resource template ${def.uriTemplate}: read must be a function`)
  for (const name of Object.keys(def.complete ?? {}))
    if (!template.variables.includes(name))
      throw new TypeError(`emcp: resource template ${def.uriTemplate}: complete names ${name}, which is not one of its variables`)
  return Object.freeze({ ...def, kind: 'template' as const, template })
}

// ---------------------------------------------------------------------------------------
// functions

/** The wire form of a template in `resources/templates/list`. */
export const listedTemplate = (t: ResourceTemplate): ListedResourceTemplate =>
  stripUndefined({
    uriTemplate: t.uriTemplate,
    name: t.name,
    title: t.title,
    description: t.description,
    mimeType: t.mimeType,
    annotations: t.annotations,
    icons: t.icons,
    _meta: withTags(t._meta, t.tags),
  })

/** A listed resource of a template carries the template's MIME type unless it has its own. */
export const withMimeType = (r: ListedResource, t: ResourceTemplate): ListedResource =>
  r.mimeType === undefined && t.mimeType !== undefined ? { ...r, mimeType: t.mimeType } : r

