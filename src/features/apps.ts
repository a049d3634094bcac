/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension): an app is a `ui://` resource of type
 * `text/html;profile=mcp-app` that hosts render in a sandboxed iframe; a tool links one
 * through `_meta.ui.resourceUri`. `appResource` declares an app (its HTML, CSP and
 * permissions), `linkApp` links a tool to it, and the server's `apps` option serves the apps
 * and checks every link: a link to an app the server does not declare is a compile error
 * when the URIs are literals, and a `TypeError` when the server is built otherwise.
 *
 * @example
 * import { emcp, mcpServer, appResource, linkApp } from 'emcp'
 * const panel = appResource({ uri: 'ui://calc/panel', name: 'panel', html: '<p>hi</p>' })
 * const add = linkApp(emcp({ name: 'add', description: 'Add.', input: { type: 'object' } }), panel)
 * mcpServer([add], { name: 'calc', version: '1' }, { apps: [panel] }).implement({ add: () => 'ok' })
 */
import { resource, type Resource, type ResourceMeta } from './resource.js'
import { isResourcesFeature, resources } from './resources.js'
import type { AnyTool, Tool } from '../contract/emcp.js'
import type { FeatureFactory } from '../server/feature.js'
import { isObject } from '../util/json-object.js'

// ---------------------------------------------------------------------------------------
// model

/** The extension's identifier, its key in `capabilities.extensions`. */
export const appsExtension = 'io.modelcontextprotocol/ui'

/** The MIME type of an app's HTML. */
export const appMimeType = 'text/html;profile=mcp-app'

/** The origins an app may reach; the host builds the iframe's Content-Security-Policy from them (none when absent). */
export interface AppCsp {
  /** Origins for fetch, XHR and WebSocket (`connect-src`). */
  readonly connectDomains?: ReadonlyArray<string>
  /** Origins for scripts, styles, images, fonts and media. */
  readonly resourceDomains?: ReadonlyArray<string>
  /** Origins for nested iframes (`frame-src`). */
  readonly frameDomains?: ReadonlyArray<string>
  /** Origins allowed as the document's base URI (`base-uri`). */
  readonly baseUriDomains?: ReadonlyArray<string>
}

/** The browser permissions an app asks for (the iframe's `allow` attribute); the host may refuse them. */
export interface AppPermissions {
  readonly camera?: {}
  readonly microphone?: {}
  readonly geolocation?: {}
  readonly clipboardWrite?: {}
}

/** Who may call a tool linked to an app: the model (listed to it), the app (through the host), or both (the default). */
export type AppVisibility = 'model' | 'app'

/** What `appResource` takes. */
export interface AppDef<U extends string> extends Omit<ResourceMeta, 'mimeType'> {
  /** The app's URI: `ui://` and a path. */
  readonly uri: U
  /** The app's HTML, one document (scripts and styles inline, or from `csp.resourceDomains`); a function to build it on each read. */
  readonly html: string | (() => string | Promise<string>)
  readonly csp?: AppCsp
  readonly permissions?: AppPermissions
  /** A dedicated origin for the app, when the host supports one. */
  readonly domain?: string
  /** Whether the host should draw a border around the app. */
  readonly prefersBorder?: boolean
}

/** An app: a resource served as `text/html;profile=mcp-app`, whose URI stays a literal type. */
export interface AppResource<U extends string = string> extends Resource {
  readonly uri: U
  readonly app: true
}

/** A tool linked to the app at `U` (its phantom `_app`: never present at run time). */
export type Linked<T extends AnyTool, U extends string> =
  T extends Tool<infer N, infer I, infer O, infer S, infer D, infer C, string> ? Tool<N, I, O, S, D, C, U> : never

/** The app URIs the tools of `T` link to that no app of `A` declares (literals only: a `string` is checked at run time). */
export type MissingApps<T extends AnyTool, A extends string> = T extends unknown
  ? string extends T['_app'] ? never : T['_app'] extends A ? never : `tool ${T['name']} links ${T['_app']}, which no app in the apps option declares`
  : never

/** What a tool linking a missing app must be: a type no contract is, whose one key says why. */
export type MissingApp<M extends string> = { readonly [P in M]: true }

/**
 * The type `mcpServer` takes its list as: `C` (its `CheckedTools`) when every literal link
 * holds; otherwise each position whose tool links a missing app is `MissingApp`, so the
 * compiler reports it where it is, the problem first.
 */
export type CheckedLinks<T extends readonly AnyTool[], A extends string, C> = [MissingApps<T[number], A>] extends [never]
  ? C
  : NoInfer<{ [I in keyof T]: [MissingApps<T[I], A>] extends [never] ? T[I] : MissingApp<MissingApps<T[I], A>> }>

// ---------------------------------------------------------------------------------------
// constructors

const appUri = /^ui:\/\/[^\s]+$/

/** Declares an app: a `ui://` resource whose read gives its HTML with the CSP and permissions in `_meta.ui`. */
export const appResource = <const U extends string>(def: AppDef<U>): AppResource<U> => {
  if (typeof def.uri !== 'string' || !appUri.test(def.uri)) throw new TypeError(`emcp: app ${String(def.name)}: uri must be ui://..., got ${JSON.stringify(def.uri)}`)
  if (typeof def.html !== 'string' && typeof def.html !== 'function') throw new TypeError(`emcp: app ${def.uri}: html must be a string or a function`)
  const { html, csp, permissions, domain, prefersBorder, ...meta } = def
  const ui = Object.fromEntries(Object.entries({ csp, permissions, domain, prefersBorder }).filter(([, v]) => v !== undefined))
  // `_meta.ui` goes on the listing too: hosts may review the policy before any read (the read's own copy wins)
  const listed = Object.keys(ui).length === 0 ? meta._meta : { ...meta._meta, ui }
  const r = resource({
    ...meta,
    ...(listed === undefined ? {} : { _meta: listed }),
    mimeType: appMimeType,
    read: async () => ({ uri: def.uri, mimeType: appMimeType, text: typeof html === 'string' ? html : await html(), _meta: { ui } }),
  })
  return Object.freeze({ ...r, uri: def.uri, app: true as const })
}

/** Links a tool to an app (its `_meta.ui`: `resourceUri`, `visibility`), keeping the tool's other metadata. */
export const linkApp = <T extends AnyTool, const U extends string>(
  tool: T,
  app: AppResource<U> | U,
  options: { readonly visibility?: ReadonlyArray<AppVisibility> } = {},
): Linked<T, U> => {
  const resourceUri = typeof app === 'string' ? app : app.uri
  if (!appUri.test(resourceUri)) throw new TypeError(`emcp: tool ${tool.name}: an app's uri must be ui://..., got ${JSON.stringify(resourceUri)}`)
  const visibility = options.visibility ?? ['model', 'app']
  if (visibility.length === 0 || visibility.some((v) => v !== 'model' && v !== 'app'))
    throw new TypeError(`emcp: tool ${tool.name}: visibility must list "model" and/or "app"`)
  const ui = { resourceUri, visibility: [...visibility] }
  // `ui/resourceUri` is the key hosts of the extension's first drafts read
  return Object.freeze({ ...tool, _meta: { ...tool._meta, ui, 'ui/resourceUri': resourceUri } }) as unknown as Linked<T, U>
}

// ---------------------------------------------------------------------------------------
// functions

/** The app a tool links (`_meta.ui.resourceUri`, else the draft key `ui/resourceUri`), if any. */
export const linkedAppOf = (tool: { readonly _meta?: { readonly [key: string]: unknown } }): string | undefined => {
  const ui = tool._meta?.ui
  const uri = isObject(ui) ? ui.resourceUri : tool._meta?.['ui/resourceUri']
  return typeof uri === 'string' ? uri : undefined
}

/** Every link to an app not in `apps`: the tool, and a message (empty: all links hold). */
export const missingAppLinks = (tools: ReadonlyArray<AnyTool>, apps: ReadonlyArray<{ readonly uri: string }>): ReadonlyArray<{ readonly tool: string; readonly message: string }> => {
  const declared = new Set(apps.map((a) => a.uri))
  const missing: Array<{ readonly tool: string; readonly message: string }> = []
  // a loop, not flatMap: this runs for every tool of every server, and nearly none links an app
  for (const t of tools) {
    const uri = linkedAppOf(t)
    if (uri !== undefined && !declared.has(uri)) missing.push({ tool: t.name, message: `tool ${t.name} links ${uri}, which no app in the apps option declares` })
  }
  return missing
}

/** Throws when a tool links an app not in `apps` (the run-time half of `MissingApps`). */
export const checkAppLinks = (tools: ReadonlyArray<AnyTool>, apps: ReadonlyArray<AppResource> = []): void => {
  const bad = apps.filter((a) => (a as Partial<AppResource>).app !== true)
  if (bad.length > 0) throw new TypeError(`emcp: apps: ${bad.map((a) => String(a?.uri)).join(', ')} not made by appResource`)
  const missing = missingAppLinks(tools, apps)
  if (missing.length > 0) throw new TypeError(`emcp: ${missing.map((m) => m.message).join('; ')}`)
}

/**
 * The features with the apps served: added to the first `resources` feature, wherever it is
 * in the list (two features cannot both answer `resources/read`), or in one of their own
 * when there is none. Other features with the same handle shape (`prompts`) are left alone.
 */
export const withApps = (features: ReadonlyArray<FeatureFactory>, apps: ReadonlyArray<AppResource> = []): ReadonlyArray<FeatureFactory> => {
  if (apps.length === 0) return features
  const host = features.find(isResourcesFeature)
  if (host === undefined) return [...features, resources(apps)]
  const known = new Set(host.list().map((r) => (r.kind === 'resource' ? r.uri : '')))
  host.batch(() => apps.filter((a) => !known.has(a.uri)).forEach((a) => host.add(a)))
  return features
}

/** The server's capabilities with the extension declared (`extensions` merged, not replaced), when it serves apps. */
export const appsCapability = (caps: { readonly [key: string]: unknown }, apps: ReadonlyArray<AppResource> = []): { readonly [key: string]: unknown } =>
  apps.length === 0 ? caps : { ...caps, extensions: { ...(isObject(caps.extensions) ? caps.extensions : {}), [appsExtension]: { mimeTypes: [appMimeType] } } }
