/**
 * The playground page: connects to the MCP endpoint beside it (`./mcp`) in the chosen era
 * with an optional bearer token, lists tools (searchable, by category), resources and
 * prompts, opens a tool's generated form, and shows logs, progress, elicitations and list
 * changes live. A tool linked to an MCP App shows the app in a sandboxed frame with the host
 * bridge (app-view.ts, app-frame.ts); the others keep the generated form. Under `emcp dev` it also follows the dev server's events: a reload
 * reconnects and reloads the lists without reloading the page; a load error is shown.
 *
 * @example
 * // built by scripts/bundle.mjs into dist/bundle/playground/playground.js, loaded by index.html
 */
import { appUriOf, appView, visibilityOf, type AppView } from './app-view.js'
import { McpClient, headerValue, type Era } from './client.js'
import { clear, el } from './dom.js'
import { askUser } from './elicit.js'
import { renderBlock } from './render.js'
import { toolView, type ToolActions } from './tool-view.js'

type Json = Record<string, unknown>
const isObject = (u: unknown): u is Json => typeof u === 'object' && u !== null && !Array.isArray(u)
const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T

/** How many matching tools the list shows at once; the search narrows the rest. */
const shownAtOnce = 200

const ui = {
  era: $<HTMLSelectElement>('era'),
  token: $<HTMLInputElement>('token'),
  connect: $<HTMLButtonElement>('connect'),
  status: $('status'),
  banner: $('banner'),
  search: $<HTMLInputElement>('search'),
  category: $<HTMLSelectElement>('category'),
  tools: $('tools'),
  resources: $('resources'),
  prompts: $('prompts'),
  main: $('main'),
  log: $('log'),
  elicitation: $('elicitation'),
}

const state = {
  client: undefined as McpClient | undefined,
  tools: [] as Json[],
  resources: [] as Json[],
  /** The open app view, torn down when another view replaces it. */
  app: undefined as AppView | undefined,
  selected: undefined as string | undefined,
  /** The definition the open form was built from: a list reload rebuilds the form only when it changed. */
  selectedJson: '',
  progress: new Map<string, (params: Json) => void>(),
}

const log = (level: string, text: string): void => {
  const row = el('div', { class: `log-row ${level}` }, el('span', { class: 'level' }, level), ' ', text)
  ui.log.append(row)
  while (ui.log.childElementCount > 500) ui.log.firstElementChild?.remove()
  row.scrollIntoView({ block: 'nearest' })
}

const notified = (method: string, params: Json): void => {
  if (method === 'notifications/progress') return void state.progress.get(String(params.progressToken))?.(params)
  if (method === 'notifications/message') {
    const data = typeof params.data === 'string' ? params.data : JSON.stringify(params.data)
    return log(String(params.level ?? 'info'), `${typeof params.logger === 'string' ? `${params.logger}: ` : ''}${data}`)
  }
  if (method.endsWith('/list_changed')) {
    log('info', `${method}: reloading the lists`)
    return void loadLists()
  }
  log('debug', method)
}

const connect = async (): Promise<void> => {
  state.client?.close()
  const client = new McpClient(document.body.dataset.endpoint ?? '/mcp', ui.era.value as Era, ui.token.value.trim(), {
    notified,
    elicit: (params) => askUser(ui.elicitation, params),
  })
  state.client = client
  ui.status.textContent = 'connecting…'
  try {
    const opened = await client.connect()
    const info = isObject(opened.serverInfo) ? opened.serverInfo : isObject(opened._meta) && isObject(opened._meta['io.modelcontextprotocol/serverInfo']) ? opened._meta['io.modelcontextprotocol/serverInfo'] : {}
    ui.status.textContent = `connected: ${String(info.name ?? '?')} ${String(info.version ?? '')} (${client.era})`
    ui.status.className = 'ok'
    await loadLists()
  } catch (e) {
    ui.status.textContent = `not connected: ${e instanceof Error ? e.message : String(e)}`
    ui.status.className = 'bad'
  }
}

/** Every page of a list method. */
const listAll = async (method: string, key: string): Promise<Json[]> => {
  const all: Json[] = []
  let cursor: string | undefined
  for (let page = 0; page < 100; page++) {
    const result = await state.client!.request(method, cursor === undefined ? {} : { cursor })
    const items = Array.isArray(result[key]) ? result[key] : []
    all.push(...items.filter(isObject))
    cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined
    if (cursor === undefined) break
  }
  return all
}

const loadLists = async (): Promise<void> => {
  const [tools, resources, prompts] = await Promise.all(
    [['tools/list', 'tools'], ['resources/list', 'resources'], ['prompts/list', 'prompts']].map(([m, k]) => listAll(m!, k!).catch(() => [] as Json[])),
  )
  state.tools = tools!
  state.resources = resources!
  const categories = [...new Set(state.tools.map(categoryOf))].sort()
  const chosen = ui.category.value
  ui.category.replaceChildren(el('option', { value: '' }, `all categories (${state.tools.length} tool${state.tools.length === 1 ? '' : 's'})`), ...categories.map((c) => el('option', { value: c }, c)))
  ui.category.value = categories.includes(chosen) ? chosen : ''
  showTools()
  showList(ui.resources, resources!, (r) => String(r.name ?? r.uri), (r) => void readResource(r))
  showList(ui.prompts, prompts!, (p) => String(p.name), (p) => void showPrompt(p))
  const again = state.tools.find((t) => t.name === state.selected)
  if (again !== undefined && JSON.stringify(again) !== state.selectedJson) openTool(again)
}

/** A tool's category: `_meta` says so, or its name's prefix before `.`, `_` or `/`. */
const categoryOf = (tool: Json): string => {
  const meta = isObject(tool._meta) ? tool._meta : {}
  const named = meta['emcp/category'] ?? meta.category
  if (typeof named === 'string') return named
  const name = String(tool.name)
  const cut = name.search(/[._/]/)
  return cut > 0 ? name.slice(0, cut) : '(none)'
}

const showTools = (): void => {
  const words = ui.search.value.toLowerCase().split(/\s+/).filter((w) => w !== '')
  const category = ui.category.value
  const matching = state.tools.filter(
    (t) => (category === '' || categoryOf(t) === category) && words.every((w) => `${String(t.name)} ${String(t.title ?? '')} ${String(t.description ?? '')}`.toLowerCase().includes(w)),
  )
  showList(ui.tools, matching.slice(0, shownAtOnce), (t) => String(t.name), openTool, toolTag)
  if (matching.length > shownAtOnce) ui.tools.append(el('li', { class: 'more' }, `${matching.length - shownAtOnce} more: narrow the search`))
}

/** The tag of a tool in the list: `app` when it links an MCP App, `app only` when only apps may call it (hidden from models). */
const toolTag = (tool: Json): string | undefined =>
  !visibilityOf(tool).includes('model') ? 'app only' : appUriOf(tool) !== undefined ? 'app' : undefined

const showList = (list: HTMLElement, items: Json[], name: (item: Json) => string, open: (item: Json) => void, tag: (item: Json) => string | undefined = () => undefined): void => {
  clear(list)
  for (const item of items) {
    const label = tag(item)
    const button = el('button', { type: 'button', 'data-name': name(item), title: String(item.description ?? '') }, name(item), ...(label === undefined ? [] : [el('span', { class: 'tag' }, label)]))
    button.addEventListener('click', () => open(item))
    list.append(el('li', {}, button))
  }
}

/** Shows `node` in the main pane; an open app is asked to end first (its view stays hidden until it has answered). */
const show = (node: HTMLElement): void => {
  const old = state.app
  state.app = undefined
  if (old === undefined) return ui.main.replaceChildren(node)
  old.teardown()
  old.element.hidden = true
  ui.main.replaceChildren(old.element, node)
}

/** How a tool is called: by its form, and by an app through the bridge (the same code, so both render alike). */
const actionsFor = (tool: Json): ToolActions => {
  const schema = isObject(tool.inputSchema) ? tool.inputSchema : {}
  return {
    call: (args, token) => state.client!.request('tools/call', { name: tool.name, arguments: args }, { progressToken: token, headers: paramHeaders(schema, args) }),
    progress: (token, update) => void (update === undefined ? state.progress.delete(token) : state.progress.set(token, update)),
  }
}

const openTool = (tool: Json): void => {
  state.selected = String(tool.name)
  state.selectedJson = JSON.stringify(tool)
  const uri = appUriOf(tool)
  if (uri === undefined) return show(toolView(tool, actionsFor(tool)))
  const view = appView(tool, uri, {
    request: (method, params) => state.client!.request(method, params),
    toolNamed: (name) => state.tools.find((t) => t.name === name),
    actionsFor,
    listedUi: (u) => {
      const listed = state.resources.find((r) => r.uri === u)
      return listed !== undefined && isObject(listed._meta) && isObject(listed._meta.ui) ? listed._meta.ui : undefined
    },
    log,
  })
  show(view.element)
  state.app = view
}

/** 2026-07-28: the `Mcp-Param-*` headers of properties annotated `x-mcp-header`. */
const paramHeaders = (schema: Json, args: Json): Record<string, string> => {
  const headers: Record<string, string> = {}
  if (ui.era.value !== '2026-07-28' || !isObject(schema.properties)) return headers
  for (const [key, sub] of Object.entries(schema.properties)) {
    const name = isObject(sub) ? sub['x-mcp-header'] : undefined
    if (typeof name === 'string' && args[key] !== undefined) headers[`mcp-param-${name.toLowerCase()}`] = headerValue(String(args[key]))
  }
  return headers
}

const readResource = async (resource: Json): Promise<void> => {
  state.selected = undefined
  const out = el('div', { class: 'output' })
  show(el('section', {}, el('h2', {}, String(resource.name ?? resource.uri)), el('code', {}, String(resource.uri)), out))
  try {
    const result = await state.client!.request('resources/read', { uri: resource.uri })
    const contents = Array.isArray(result.contents) ? result.contents.filter(isObject) : []
    for (const c of contents) out.append(typeof c.text === 'string' ? el('pre', { class: 'block text' }, c.text) : renderBlock({ type: String(c.mimeType ?? '').startsWith('audio/') ? 'audio' : 'image', data: c.blob, mimeType: c.mimeType }))
  } catch (e) {
    out.append(el('pre', { class: 'result error' }, e instanceof Error ? e.message : String(e)))
  }
}

const showPrompt = async (prompt: Json): Promise<void> => {
  state.selected = undefined
  const args = Array.isArray(prompt.arguments) ? prompt.arguments.filter(isObject) : []
  const properties = Object.fromEntries(args.map((a) => [String(a.name), { type: 'string', ...(typeof a.description === 'string' ? { description: a.description } : {}) }]))
  const required = args.filter((a) => a.required === true).map((a) => String(a.name))
  const asTool = { name: prompt.name, title: prompt.title, description: prompt.description, inputSchema: { type: 'object', properties, required } }
  show(
    toolView(asTool, {
      call: async (values) => {
        const result = await state.client!.request('prompts/get', { name: prompt.name, arguments: values })
        const messages = Array.isArray(result.messages) ? result.messages.filter(isObject) : []
        return { content: messages.map((m) => m.content), structuredContent: result }
      },
      progress: () => {},
    }),
  )
}

/** Under `emcp dev`: the dev server's events (reload, load error). */
const followDevServer = (): void => {
  const events = new EventSource(new URL('__emcp/events', location.href).pathname)
  events.addEventListener('reload', (e) => {
    ui.banner.hidden = true
    log('info', `dev: reloaded (${(e as MessageEvent<string>).data})`)
    void connect()
  })
  events.addEventListener('failed', (e) => {
    ui.banner.hidden = false
    ui.banner.replaceChildren(el('strong', {}, 'The module failed to load; the last good server still runs. '), el('pre', {}, (e as MessageEvent<string>).data))
  })
}

ui.connect.addEventListener('click', () => void connect())
ui.era.addEventListener('change', () => void connect())
ui.search.addEventListener('input', showTools)
ui.category.addEventListener('change', showTools)
$('clear-log').addEventListener('click', () => clear(ui.log))
if (document.body.dataset.dev === 'true') followDevServer()
void connect()
