/**
 * The view of a tool linked to an MCP App (`_meta.ui.resourceUri`): the app, read with
 * `resources/read` and shown in its sandboxed frame (app-frame.ts), the calls it makes
 * (rendered as the form's are: progress, elicitation, errors), the links it asks to open,
 * and, folded, the tool's generated form to call it as the model would: that call opens a
 * fresh frame, which gets `ui/notifications/tool-input` and then
 * `ui/notifications/tool-result` (or `tool-cancelled`). A tool without an app keeps the form
 * alone (tool-view.ts): the SEMOSS default-UI / custom-UI split.
 *
 * @example
 * const view = appView(tool, uri, deps); main.replaceChildren(view.element) // later: view.teardown()
 */
import { AppFrame, type AppHost } from './app-frame.js'
import { el } from './dom.js'
import { callInto, toolView, type ToolActions } from './tool-view.js'

type Json = Record<string, unknown>
const isObject = (u: unknown): u is Json => typeof u === 'object' && u !== null && !Array.isArray(u)

/** The MIME type of an app's HTML. */
const appMimeType = 'text/html;profile=mcp-app'

/** The app a tool links: `_meta.ui.resourceUri`, else the deprecated `_meta["ui/resourceUri"]`; only `ui://` URIs. */
export const appUriOf = (tool: Json): string | undefined => {
  const meta = isObject(tool._meta) ? tool._meta : {}
  const uri = isObject(meta.ui) && meta.ui.resourceUri !== undefined ? meta.ui.resourceUri : meta['ui/resourceUri']
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined
}

/** Who may call a tool (`_meta.ui.visibility`; both when absent). */
export const visibilityOf = (tool: Json): ReadonlyArray<string> => {
  const ui = isObject(tool._meta) && isObject(tool._meta.ui) ? tool._meta.ui : {}
  return Array.isArray(ui.visibility) ? ui.visibility.filter((v): v is string => typeof v === 'string') : ['model', 'app']
}

/** What the view needs from the page. */
export interface AppViewDeps {
  /** A request to the server (`resources/read`). */
  readonly request: (method: string, params: Json) => Promise<Json>
  /** The listed tool of that name, if any. */
  readonly toolNamed: (name: string) => Json | undefined
  /** The actions of a tool: the same call path as its form. */
  readonly actionsFor: (tool: Json) => ToolActions
  /** The `_meta.ui` of the app in `resources/list`, the fallback when its read has none. */
  readonly listedUi: (uri: string) => Json | undefined
  readonly log: (level: string, text: string) => void
}

/** An open app view. */
export interface AppView {
  readonly element: HTMLElement
  /** Asks the app to end and removes its frame. */
  readonly teardown: () => void
}

/** The view of `tool`, linked to the app at `uri`. */
export const appView = (tool: Json, uri: string, deps: AppViewDeps): AppView => {
  const holder = el('div', { class: 'app-holder' }, el('p', { class: 'hint' }, `loading ${uri}…`))
  const calls = el('div', { class: 'output app-calls', 'data-testid': 'app-calls' })
  const links = el('div', { class: 'app-links' })
  const model = el('details', { class: 'model-call' }, el('summary', {}, 'Call as the model would (the app gets the input, then the result)'))
  const view = el('section', { class: 'tool app' }, el('h2', {}, String(tool.title ?? tool.name)), el('p', { class: 'description' }, String(tool.description ?? '')))
  view.append(el('p', { class: 'app-uri' }, 'MCP App ', el('code', {}, uri)), holder, links, calls, model)

  const host: AppHost = {
    callTool: async (name, args) => {
      const target = deps.toolNamed(name)
      if (target === undefined) throw Object.assign(new Error(`unknown tool ${name}`), { code: -32602 })
      if (!visibilityOf(target).includes('app')) throw Object.assign(new Error(`tool ${name} is not callable by apps (its visibility: ${visibilityOf(target).join(', ')})`), { code: -32000 })
      return callInto(calls, deps.actionsFor(target), args)
    },
    readResource: (u) => deps.request('resources/read', { uri: u }),
    log: deps.log,
    offerLink: (url) =>
      links.replaceChildren(el('span', {}, 'The app asks to open '), el('a', { href: url, target: '_blank', rel: 'noopener noreferrer', 'data-testid': 'app-link' }, url)),
  }

  let frame: AppFrame | undefined
  let loaded: Promise<{ html: string; ui: Json } | undefined> | undefined
  const load = (): Promise<{ html: string; ui: Json } | undefined> => (loaded ??= readApp(uri, deps).catch((e: unknown) => {
    const message = e instanceof Error ? e.message : String(e)
    holder.replaceChildren(el('pre', { class: 'result error', 'data-testid': 'app-error' }, `the app ${uri} cannot be shown: ${message}`))
    deps.log('error', `app ${uri}: ${message}`)
    model.open = true
    return undefined
  }))
  /** A fresh frame (the old one torn down), with `first` queued for when it is initialized. */
  const open = async (first?: readonly [string, Json]): Promise<AppFrame | undefined> => {
    const app = await load()
    if (app === undefined) return undefined
    frame?.teardown('the playground opens the app again')
    frame = new AppFrame({ tool, uri, ...app }, host)
    if (first !== undefined) frame.notify(...first)
    for (const child of Array.from(holder.children)) if (!(child instanceof HTMLIFrameElement)) child.remove()
    holder.append(frame.iframe)
    return frame
  }

  const actions = deps.actionsFor(tool)
  model.append(
    toolView(tool, {
      progress: actions.progress,
      call: async (args, token) => {
        const shown = await open(['ui/notifications/tool-input', { arguments: args }])
        try {
          const result = await actions.call(args, token)
          shown?.notify('ui/notifications/tool-result', result)
          return result
        } catch (e) {
          shown?.notify('ui/notifications/tool-cancelled', { reason: e instanceof Error ? e.message : String(e) })
          throw e
        }
      },
    }),
  )
  void open()
  return { element: view, teardown: () => frame?.teardown('the playground shows another view') }
}

/** The app's HTML and `_meta.ui`, read from the server and checked. */
const readApp = async (uri: string, deps: AppViewDeps): Promise<{ html: string; ui: Json }> => {
  const result = await deps.request('resources/read', { uri })
  const contents = Array.isArray(result.contents) ? result.contents.filter(isObject) : []
  const content = contents.find((c) => c.uri === uri) ?? contents[0]
  if (content === undefined) throw new Error('resources/read gave no contents')
  const mime = String(content.mimeType ?? '').replace(/\s+/g, '').toLowerCase()
  if (mime !== appMimeType) throw new Error(`its MIME type is ${JSON.stringify(content.mimeType)}, not ${appMimeType}`)
  const html = typeof content.text === 'string' ? content.text : typeof content.blob === 'string' ? fromBase64(content.blob) : undefined
  if (html === undefined) throw new Error('its contents have neither text nor blob')
  const ui = isObject(content._meta) && isObject(content._meta.ui) ? content._meta.ui : (deps.listedUi(uri) ?? {})
  return { html, ui }
}

/** UTF-8 text from base64. */
const fromBase64 = (blob: string): string => {
  const binary = atob(blob)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return new TextDecoder().decode(bytes)
}
