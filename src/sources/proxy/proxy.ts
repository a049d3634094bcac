/**
 * A remote MCP server, served through emcp: `proxy(target)` connects to it (Streamable HTTP
 * by URL, or stdio by command), and resolves to an ordinary emcp `Server` whose tools are the
 * upstream's (runtime tools calling it: tools.ts) and whose prompts, resources, templates and
 * completions are relayed (relay.ts). Being a server value, it takes middleware, mounts,
 * transforms and every transport like any other; it speaks both eras to its clients whatever
 * era the upstream speaks. The upstream's `list_changed` updates the served tools (clients
 * are told); an upstream that goes away gives `isError` results (or -32004, HTTP 503, for
 * the other requests) until it can be reached again, which the next request tries.
 *
 * With a manifest of a const type (`emcp manifest <url> --format ts` snapshots a live
 * server), the tools are typed: `inMemoryClient(server).call('add', { a: 1, b: 2 })` checks
 * its arguments, and the proxy refuses to start when the upstream lacks a tool it names.
 *
 * @example
 * import { proxy } from 'emcp/proxy'
 * import { serveStdio } from 'emcp/stdio'
 * const server = await proxy({ url: 'http://127.0.0.1:3000/mcp' }, { auth: { bearer: 'token' } })
 * await serveStdio(server)
 */
import type { Client, Tool as ListedTool } from '@modelcontextprotocol/client'
import type { Handler } from '../../server/call.js'
import { mcpServer, type Server, type ServerInfo, type ServerOptions } from '../../server/server.js'
import type { Hub } from '../../server/hub.js'
import type { AnyTool } from '../../contract/emcp.js'
import type { RuntimeTool } from '../../contract/runtime-tool.js'
import type { Manifest } from '../manifest/manifest.js'
import type { ManifestTools } from '../manifest/import.js'
import { relayFeature, type Relay } from './relay.js'
import { relayToClient, routes } from './routes.js'
import { proxyTool, relayCall } from './tools.js'
import { taskRelay, type TaskRelay } from './tasks.js'
import { limitFailure } from '../../client/bounds.js'
import { reasonOf, upstream, UpstreamDown, type Upstream, type UpstreamOptions, type UpstreamTarget } from './upstream.js'

// ---------------------------------------------------------------------------------------
// model

/** How `proxy` connects and serves. */
export interface ProxyOptions<M extends Manifest = Manifest> extends ServerOptions, Omit<UpstreamOptions, 'onConnect' | 'onConnected'> {
  /** Who the proxy is to its clients; by default the upstream's own `serverInfo`. */
  readonly info?: ServerInfo
  /** A snapshot of the upstream's tools (`emcp manifest <url> --format ts`), imported `as const`: it types the tools. */
  readonly manifest?: M
  /** Where warnings go (an upstream tool emcp cannot serve is left out); by default `process.emitWarning`. */
  readonly onWarning?: (message: string) => void
}

/** A proxy: a server, and the upstream connection behind it. */
export type ProxyServer<U extends AnyTool = AnyTool> = Server<U> & {
  /** The upstream connection (its `label` names it without credentials). */
  readonly upstream: Upstream
  /** Ends the upstream connection (and a stdio upstream's process). */
  readonly close: () => Promise<void>
}

// ---------------------------------------------------------------------------------------
// constructors

/**
 * Connects to the upstream and serves it. Rejects, saying why, when the first connection
 * fails or the upstream lacks a tool the manifest names.
 */
export function proxy(target: UpstreamTarget, options?: ProxyOptions & { readonly manifest?: undefined }): Promise<ProxyServer<RuntimeTool>>
/** `proxy`, typed by a manifest of a const type (`emcp manifest <url> --format ts`). */
export function proxy<const M extends Manifest>(target: UpstreamTarget, options: ProxyOptions<M> & { readonly manifest: M }): Promise<ProxyServer<ManifestTools<M>>>
export async function proxy(target: UpstreamTarget, options: ProxyOptions = {}): Promise<ProxyServer> {
  const r = routes()
  const late: { server?: Server; relay?: Relay } = {}
  const hub: Hub = { add: () => {}, remove: () => {}, size: () => late.server?.hub.size() ?? 0, broadcast: (...a) => late.server?.hub.broadcast(...a) }
  let connections = 0
  let tasks: TaskRelay | undefined
  const up = upstream(target, {
    ...options,
    wrapTransport: (t) => tasks?.tap.wrap(t) ?? t,
    onConnect: (client) => {
      tasks?.reconnected()
      relayToClient(client, r, hub)
      listenForChanges(client, late, () => void sync(late.server, up, r, tasks, options))
    },
    onConnected: (client) => {
      void hearChanges(client)
      // after a reconnection the upstream may serve other tools: list them again
      if (++connections > 1) void sync(late.server, up, r, tasks, options)
    },
  })
  tasks = taskRelay(up)
  let client: Client
  try {
    client = await up.client()
  } catch (e) {
    await up.close()
    throw e
  }
  const capabilities = client.getServerCapabilities() ?? {}
  const listed = capabilities.tools === undefined ? [] : await listTools(client, up).catch(async (e: unknown) => {
    await up.close()
    throw e
  })
  checkManifest(options.manifest, listed, up.label)
  const relay = relayFeature(up, r, capabilities)
  late.relay = relay
  const info = options.info ?? infoOf(client)
  const instructions = options.instructions ?? client.getInstructions()
  const served = { ...options, ...(instructions === undefined ? {} : { instructions }), features: [relay, tasks.feature(capabilities), ...(options.features ?? [])] }
  const server = build(up, r, tasks, listed, info, served)
  late.server = server
  return Object.assign(server, { upstream: up, close: () => up.close() })
}

// ---------------------------------------------------------------------------------------
// internals

/** The name of the stand-in tool a server of an upstream without tools is built with (a server needs one), removed at once. */
const standIn = 'emcp-proxy-stand-in'

const build = (up: Upstream, r: ReturnType<typeof routes>, tasks: TaskRelay, listed: ReadonlyArray<ListedTool>, info: ServerInfo, options: ProxyOptions): Server => {
  const { tools, handlers } = servable(up, r, tasks, listed, options)
  if (tools.length > 0) return mcpServer(tools as never, info, options).implement(handlers as never) as unknown as Server
  const empty = proxyTool({ name: standIn, inputSchema: { type: 'object' } })
  const server = mcpServer([empty], info, options).implement({ [standIn]: () => '' }) as unknown as Server
  server.removeTool(standIn)
  return server
}

/** The tools emcp can serve, each with its relaying handler; the others are left out with a warning. */
const servable = (up: Upstream, r: ReturnType<typeof routes>, tasks: TaskRelay | undefined, listed: ReadonlyArray<ListedTool>, options: ProxyOptions) => {
  const tools: RuntimeTool[] = []
  const handlers: Record<string, Handler<RuntimeTool>> = {}
  const warn = options.onWarning ?? ((m: string) => process.emitWarning(m))
  const seen = new Set<string>()
  for (const t of listed) {
    // an upstream that lists one name twice: the first is served (a server cannot have two)
    if (seen.has(t.name)) {
      warn(`emcp proxy: the upstream lists the tool ${String(t.name).slice(0, 128)} twice; the second is left out`)
      continue
    }
    seen.add(t.name)
    try {
      const tool = proxyTool(t)
      tools.push(tool)
      tasks?.relays(tool)
      handlers[t.name] = relayCall(up, r, t.name, tool.output !== undefined, tasks) as Handler<RuntimeTool>
    } catch (e) {
      warn(`emcp proxy: the upstream tool ${String(t.name).slice(0, 128)} is left out: ${reasonOf(e)}`)
    }
  }
  return { tools, handlers }
}

/** Serves the upstream's tools as listed now: new ones added, gone ones removed, changed ones replaced; clients told once. */
const sync = async (server: Server | undefined, up: Upstream, r: ReturnType<typeof routes>, tasks: TaskRelay | undefined, options: ProxyOptions): Promise<void> => {
  if (server === undefined) return
  let listed: ReadonlyArray<ListedTool>
  try {
    listed = await listTools(await up.client(), up)
  } catch {
    return // the next request reconnects, and lists them then
  }
  const { tools, handlers } = servable(up, r, tasks, listed, options)
  const now = new Map(tools.map((t) => [t.name, t]))
  server.batch(() => {
    for (const t of server.tools) if (!now.has(t.name) || JSON.stringify(listedOf(t)) !== JSON.stringify(listedOf(now.get(t.name) as RuntimeTool))) server.removeTool(t.name)
    const kept = new Set(server.tools.map((t) => t.name))
    for (const t of tools) if (!kept.has(t.name)) server.addTool(t, handlers[t.name] as Handler<RuntimeTool>)
  })
}

/** The upstream's tools, every page, within the proxy's limits (time, pages); a failure names the limit it passed. */
const listTools = async (client: Client, up: Upstream): Promise<ReadonlyArray<ListedTool>> => {
  try {
    return (await client.listTools(undefined, { timeout: up.limits.requestTimeoutMs })).tools
  } catch (e) {
    throw new UpstreamDown(`the upstream MCP server ${up.label}: ${limitFailure(e, up.limits, 'tools/list')?.message ?? reasonOf(e)}`)
  }
}

const listedOf = (t: AnyTool) => [t.description, t.title, t.annotations, t.inputSchema, t.outputSchema]

/** The upstream's list changes: tools are listed again, prompts and resources passed on. */
const listenForChanges = (client: Client, late: { relay?: Relay }, toolsChanged: () => void): void => {
  client.setNotificationHandler('notifications/tools/list_changed', toolsChanged)
  client.setNotificationHandler('notifications/prompts/list_changed', () => late.relay?.listChanged('prompts'))
  client.setNotificationHandler('notifications/resources/list_changed', () => late.relay?.listChanged('resources'))
  client.setNotificationHandler('notifications/resources/updated', (n) => late.relay?.updated(n.params.uri))
}

/**
 * Asks the upstream for what the proxy passes on: every log message (each client's own level
 * filters them here), and, from a 2026-07-28 upstream, which speaks only when listened to, its
 * list changes. A failure here is not the connection's: it goes on without them.
 */
const hearChanges = async (client: Client): Promise<void> => {
  const caps = client.getServerCapabilities() ?? {}
  try {
    if (client.getProtocolEra() === 'modern')
      await client.listen({ toolsListChanged: caps.tools !== undefined, promptsListChanged: caps.prompts !== undefined, resourcesListChanged: caps.resources !== undefined })
    else if (caps.logging !== undefined) await client.setLoggingLevel('debug')
  } catch {
    // an upstream that refuses these still serves its tools
  }
}

const infoOf = (client: Client): ServerInfo => {
  const v = client.getServerVersion()
  return v === undefined ? { name: 'emcp-proxy', version: '0.1.0' } : ({ ...v } as ServerInfo)
}

/** Fails when the upstream lacks a tool the manifest names: the types would promise what it cannot call. */
const checkManifest = (manifest: Manifest | undefined, listed: ReadonlyArray<ListedTool>, label: string): void => {
  if (manifest === undefined) return
  const names = new Set(listed.map((t) => t.name))
  const missing = manifest.tools.map((t) => t.name).filter((n) => !names.has(n))
  if (missing.length > 0)
    throw new TypeError(`emcp proxy: the upstream ${label} has no tool ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? ', …' : ''}, which the manifest names; snapshot it again with emcp manifest`)
}
