/**
 * Mount: servers folded into one, whole or each under a namespace. The result is a server
 * like any other (every transport, both eras) whose tool union is the union of the parts'
 * unions, renamed (`charge` under `billing` is `billing_charge`): the typed client, `ArgsOf`
 * and `ResultOf` see the new names. A name two parts would both serve does not compile where
 * the names are literals (`duplicate tool name: billing_charge`), and fails when the mount is
 * built otherwise, naming the tool and both servers. Prompts, resources, templates and
 * completion mount too. Each part keeps its middleware, authorization, scopes and claims: a
 * request is answered by the part's own method table; `list_changed` from a part reaches the
 * clients of the whole. A part's tasks extension is carried too: its tasks are polled,
 * answered and cancelled through the whole (mount-tasks.ts).
 *
 * @example
 * import { emcp, inMemoryClient, mcpServer, mount, mounted } from 'emcp'
 * const charge = emcp({ name: 'charge', description: 'Charge.', input: { type: 'object', properties: { cents: { type: 'integer' } }, required: ['cents'] } })
 * const where = emcp({ name: 'where', description: 'Locate.', input: { type: 'object' } })
 * const billing = mcpServer([charge], { name: 'billing', version: '1' }).implement({ charge: ({ cents }) => `charged ${cents}` })
 * const geo = mcpServer([where], { name: 'geo', version: '1' }).implement({ where: () => 'here' })
 * const shop = mount([geo, mounted(billing, 'billing')], { name: 'shop', version: '1' })
 * await inMemoryClient(shop).call('billing_charge', { cents: 5 }) // and 'where'
 */
import type { AnyTool } from '../contract/emcp.js'
import type { DuplicateName } from '../contract/sum.js'
import { assemble, type Server, type ServerInfo, type ServerOptions } from '../server/server.js'
import { newSession, type Session } from '../server/session.js'
import type { Hub } from '../server/hub.js'
import type { Params } from '../protocol/jsonrpc.js'
import { latestVersion } from '../protocol/versions.js'
import { tagsOf } from '../util/tags.js'
import { checkNamespace, type Namespaced } from './names.js'
import { partOf, type Part, type PartOptions } from './parts.js'
import type { Entry } from './lists.js'
import { mountFeature } from './mount-features.js'
import { mountTasks } from './mount-tasks.js'
import { mountTools, type MountTable, type Route } from './mount-tools.js'
import type { Transforms, TransformedAll } from './transform.js'
import { contextOf, visibleBy, type EntryKind, type Visibility } from './visibility.js'

// ---------------------------------------------------------------------------------------
// model

/** A server mounted under a namespace, with transforms and visibility; its tools, as the whole serves them, are `U`. */
export interface Mounted<U extends AnyTool = AnyTool> {
  readonly server: Server
  readonly namespace: string
  readonly options: PartOptions
  /** Phantom: the tools as the whole serves them. Never present at run time. */
  readonly _U: U
}

/** What `mount` takes: a server (mounted whole, names unchanged) or a `mounted(...)` one. */
export type MountPart = Server | Mounted

/** How one server is mounted: its transforms (by tool name) and who sees its entries. */
export interface MountedOptions<U extends AnyTool, X extends Transforms<U>> extends Visibility {
  /** Transforms of its tools, by their name in the mounted server (see transform.ts). */
  readonly tools?: X & NoInfer<Transforms<U>>
}

/** How the whole behaves: a server's options (no features: they come from the parts) and who sees what. */
export interface MountOptions extends Omit<ServerOptions, 'features' | 'apps'>, Visibility {}

/** The mounted server: a server, with switches per session. */
export interface MountServer<U extends AnyTool = AnyTool> extends Server<U> {
  /** Shows a tool, prompt or resource (by its name in the whole) to one session whatever tags and `enabled` say, and tells that session only. */
  enableFor(session: Session, name: string, kind?: EntryKind): void
  /** Hides a tool, prompt or resource (by its name in the whole) from one session, and tells that session only. */
  disableFor(session: Session, name: string, kind?: EntryKind): void
}

/** The tools a part serves in the whole. */
export type ToolsOfPart<P> = P extends { readonly _U: infer U extends AnyTool } ? U : P extends { readonly tools: ReadonlyArray<infer U extends AnyTool> } ? U : never

/** The literal names of a union (a name not known, `string`, is checked at run time; `Namespaced` keeps it `string`). */
type Literal<N> = string extends N ? never : N

/** The literal tool names of each part, position by position. */
type PartNames<P extends ReadonlyArray<unknown>> = { [I in keyof P]: Literal<ToolsOfPart<P[I]>['name']> }

/** The names at position `I` that some other position also serves. */
type Clashes<N extends ReadonlyArray<unknown>, I extends string> = Extract<N[I & keyof N], { [J in keyof N & `${number}`]: J extends I ? never : N[J] }[keyof N & `${number}`]>

/** Every name two parts both serve. */
type AllClashes<P extends ReadonlyArray<unknown>, N extends ReadonlyArray<unknown> = PartNames<P>> = { [I in keyof N & `${number}`]: Clashes<N, I> }[keyof N & `${number}`]

/**
 * The type `mount` takes its parts as: the parts themselves when no name is served twice;
 * otherwise each part that serves a name another one serves replaced by `DuplicateName`, so
 * that the compiler reports it there, the problem first: `Property '"duplicate tool name:
 * billing_charge"' is missing in type ...`.
 */
export type CheckedParts<P extends ReadonlyArray<MountPart>, D = AllClashes<P>> = [D] extends [never]
  ? P
  : NoInfer<{ [I in keyof P]: [Extract<ToolsOfPart<P[I]>['name'], D>] extends [never] ? P[I] : DuplicateName<Extract<ToolsOfPart<P[I]>['name'], D> & string> }>

// ---------------------------------------------------------------------------------------
// constructors

/**
 * Mounts `server` under `namespace` (`''`: names unchanged), with transforms of its tools
 * and visibility rules. Its tools become `namespace_name` in the whole.
 */
export const mounted = <U extends AnyTool, const NS extends string, const X extends Transforms<U> = {}>(
  server: Server<U>,
  namespace: NS,
  options?: MountedOptions<U, X>,
): Mounted<Namespaced<TransformedAll<U, X>, NS>> =>
  Object.freeze({ server: server as Server, namespace: checkNamespace(namespace), options: (options ?? {}) as PartOptions }) as unknown as Mounted<Namespaced<TransformedAll<U, X>, NS>>

/** Folds servers into one (see the module comment); a name served twice fails here, naming the tool and both servers. */
export const mount = <const P extends readonly [MountPart, ...MountPart[]]>(parts: CheckedParts<P>, info: ServerInfo, options: MountOptions = {}): MountServer<ToolsOfPart<P[number]>> => {
  const given = parts as unknown as ReadonlyArray<MountPart>
  if (!Array.isArray(given) || given.length === 0) throw new TypeError('emcp: mount needs at least one server')
  const list = given.map((p) => (isMounted(p) ? partOf(p.server, p.namespace, p.options) : partOf(p, '')))
  const whole = visibleBy(options)
  const switches = new WeakMap<Session, Map<string, boolean>>()
  // true once any session has a switch: until then no session needs a lookup
  const flipped = { any: false }
  const ruleless = whole === undefined && list.every((p) => p.visible === undefined)
  // the switches of one session stay its own: the others keep the shared pages and the handoff
  const everyone = (session: Session): boolean => ruleless && (!flipped.any || !switches.has(session))
  // tags alone (no enabled(ctx)) show every caller the same entries: one view for all but the switched
  const callerFree = options.enabled === undefined && list.every((p) => !p.perCaller)
  const alike = (session: Session): boolean => callerFree && (!flipped.any || !switches.has(session))
  const sees = (part: Part, kind: EntryKind, name: string, tags: ReadonlyArray<string>, session: Session, uri?: string): boolean => {
    // nothing to ask (no rules, no switch ever flipped): the common case, without a lookup
    if (!flipped.any && part.visible === undefined && whole === undefined) return true
    const own = flipped.any ? switches.get(session)?.get(`${kind}:${name}`) : undefined
    if (own !== undefined) return own
    if (part.visible === undefined && whole === undefined) return true
    const ctx = contextOf(kind, name, tags, session, uri)
    return (part.visible === undefined || part.visible(ctx)) && (whole === undefined || whole(ctx))
  }
  const seesTool = (r: Route, session: Session): boolean => sees(r.part, 'tool', r.contract.name, r.contract.tags ?? [], session)
  const seesEntry = (part: Part, e: Entry, session: Session): boolean => {
    const kind: EntryKind = 'uri' in e || 'uriTemplate' in e ? 'resource' : 'prompt'
    return sees(part, kind, String(e.name), tagsOf(e), session, typeof e.uri === 'string' ? e.uri : typeof e.uriTemplate === 'string' ? e.uriTemplate : undefined)
  }
  const table: { current?: MountTable } = {}
  const tasks = mountTasks(list)
  const features = [mountFeature(list, seesEntry, options.pageSize, everyone, alike), ...(tasks.feature === undefined ? [] : [tasks.feature])]
  const server = assemble<ToolsOfPart<P[number]>>(info, { ...options, features }, (config) => {
    const t = mountTools(list, config, { tool: seesTool, everyone, alike, changed: () => config.hub.broadcast('notifications/tools/list_changed'), tasks })
    table.current = t
    for (const part of list) relay(part, config.hub, t)
    return t
  })
  const flip = (session: Session, name: string, kind: EntryKind, on: boolean): void => {
    if (kind !== 'tool' && kind !== 'prompt' && kind !== 'resource') throw new TypeError(`emcp: the kind of entry is tool, prompt or resource, got ${JSON.stringify(kind)}`)
    if (kind === 'tool' && table.current?.routes().has(name) !== true) throw new TypeError(`emcp: no tool is named ${name}`)
    flipped.any = true
    let own = switches.get(session)
    if (own === undefined) switches.set(session, (own = new Map()))
    own.set(`${kind}:${name}`, on)
    session.outbound?.notify(`notifications/${kind === 'tool' ? 'tools' : kind === 'prompt' ? 'prompts' : 'resources'}/list_changed`)
  }
  return Object.assign(server, {
    enableFor: (session: Session, name: string, kind: EntryKind = 'tool') => flip(session, name, kind, true),
    disableFor: (session: Session, name: string, kind: EntryKind = 'tool') => flip(session, name, kind, false),
  })
}

// ---------------------------------------------------------------------------------------
// internals

const isMounted = (p: MountPart): p is Mounted => typeof p === 'object' && p !== null && 'server' in p && 'namespace' in p && !('dispatch' in p)

/**
 * The part's notifications to its clients reach the whole's: a session of the part's hub that
 * hears everything (`listens`) and hands on what concerns the whole's clients.
 */
const relay = (part: Part, hub: Hub, table: MountTable): void => {
  const notify = (method: string, params?: Params): void => {
    if (method === 'notifications/tools/list_changed') {
      table.partChanged()
      hub.broadcast(method)
    } else if (method === 'notifications/prompts/list_changed' || method === 'notifications/resources/list_changed') hub.broadcast(method)
    // a task's status: to the listen streams of the whole that name it (their screen decides)
    else if (method === 'notifications/tasks') hub.broadcast(method, params, () => false)
    else if (method === 'notifications/resources/updated') {
      const uri = params?.uri
      if (typeof uri === 'string') hub.broadcast(method, params, (s) => s.resourceSubscriptions?.has(uri) === true)
    }
  }
  const session = newSession(latestVersion, {
    notify,
    request: () => Promise.reject(new Error('emcp: a mount relays notifications only')),
    settle: () => false,
    close: () => undefined,
    pending: () => 0,
  })
  session.listens = () => true
  part.server.hub.add(session)
}
