/**
 * One MCP App in its frame, and the host side of its bridge (the `io.modelcontextprotocol/ui`
 * extension, 2026-01-26). The frame loads `/__emcp/sandbox/<csp>` with `sandbox="allow-scripts
 * allow-forms"` and no `allow-same-origin`, so the app runs on an opaque origin under its own
 * Content-Security-Policy; the loader there asks for the HTML (`ui/notifications/sandbox-proxy-ready`)
 * and the frame sends it (`ui/notifications/sandbox-resource-ready`). Then the app speaks
 * JSON-RPC over postMessage: only messages whose source is this frame's window are read,
 * each checked by `checkAppMessage`; what is refused is logged and, for a request, answered
 * with a JSON-RPC error. Notifications to the app wait until it has sent
 * `ui/notifications/initialized`.
 *
 * @example
 * const frame = new AppFrame({ tool, uri, html, ui }, host); holder.append(frame.iframe)
 * frame.notify('ui/notifications/tool-input', { arguments: { a: 2, b: 3 } })
 */
import { allowAttribute, appPolicy, cleanCsp, cspProblems, encodeCsp } from '../src/features/app-csp.js'
import { checkAppMessage, type RpcId } from './app-messages.js'
import { el } from './dom.js'

type Json = Record<string, unknown>
const isObject = (u: unknown): u is Json => typeof u === 'object' && u !== null && !Array.isArray(u)

/** The extension revision the playground speaks. */
export const appProtocolVersion = '2026-01-26'
/** How many tool calls and resource reads of one app may run at once. */
const maxInFlight = 4
/** How many times a frame may ask for its HTML again (each reload of the app asks once). */
const maxLoads = 20

/** What the frame needs from the page. */
export interface AppHost {
  /** Answers an app's `tools/call` through the same code as the form; throws its error. */
  readonly callTool: (name: string, args: Json) => Promise<Json>
  /** Reads a resource from the server. */
  readonly readResource: (uri: string) => Promise<Json>
  /** Writes a line into the page's log. */
  readonly log: (level: string, text: string) => void
  /** Shows a link the app asks to open (the user clicks it). */
  readonly offerLink: (url: string) => void
}

/** The app to show: its tool (for the host context), its URI, its HTML and its resource's `_meta.ui`. */
export interface AppDocument {
  readonly tool: Json
  readonly uri: string
  readonly html: string
  readonly ui: Json
}

/** An error answered to the app: a JSON-RPC code and message. */
class AppError extends Error {
  constructor(readonly code: number, message: string) {
    super(message)
  }
}

/** One app frame and its bridge. */
export class AppFrame {
  readonly iframe: HTMLIFrameElement
  private readonly csp: Json
  private readonly permissions: Json
  private initialized = false
  private loads = 0
  private inFlight = 0
  private nextId = 1
  private readonly queue: Array<readonly [string, Json]> = []
  private readonly waiting = new Map<RpcId, (answer: Json) => void>()
  private readonly listener = (e: MessageEvent): void => {
    if (e.source === null || e.source !== this.iframe.contentWindow) return
    void this.receive(e.data)
  }

  constructor(private readonly app: AppDocument, private readonly host: AppHost) {
    for (const problem of cspProblems(app.ui.csp)) host.log('warning', `app ${app.uri}: ${problem}: left out of its policy`)
    this.csp = { ...cleanCsp(app.ui.csp) }
    this.permissions = isObject(app.ui.permissions) ? app.ui.permissions : {}
    host.log('info', `app ${app.uri}: Content-Security-Policy ${appPolicy(this.csp)}`)
    this.iframe = el('iframe', {
      sandbox: 'allow-scripts allow-forms',
      src: new URL(`__emcp/sandbox/${encodeCsp(this.csp)}`, location.href).pathname,
      allow: allowAttribute(this.permissions),
      referrerpolicy: 'no-referrer',
      title: `app ${app.uri}`,
      class: app.ui.prefersBorder === false ? 'app-frame' : 'app-frame bordered',
      'data-testid': 'app-frame',
      'data-uri': app.uri,
    })
    window.addEventListener('message', this.listener)
  }

  /** Sends a notification to the app, at once when it is initialized, else when it is. */
  notify(method: string, params: Json): void {
    if (this.initialized) this.post({ jsonrpc: '2.0', method, params })
    else this.queue.push([method, params])
  }

  /** Asks the app to end (`ui/resource-teardown`), then removes the frame: when it answers, or after `graceMs`. */
  teardown(reason: string, graceMs = 1500): void {
    const end = (): void => {
      window.removeEventListener('message', this.listener)
      this.iframe.remove()
    }
    if (!this.initialized) return end()
    // hidden, not removed: a removed frame is gone before it could answer
    this.iframe.hidden = true
    const id = `host-${this.nextId++}`
    const timer = setTimeout(() => this.waiting.get(id)?.({}), graceMs)
    this.waiting.set(id, () => {
      clearTimeout(timer)
      this.waiting.delete(id)
      end()
    })
    this.post({ jsonrpc: '2.0', id, method: 'ui/resource-teardown', params: { reason } })
  }

  private post(message: Json): void {
    // the frame's origin is opaque: '*' is the only target that reaches it; only this frame's window gets it
    this.iframe.contentWindow?.postMessage(message, '*')
  }

  private refuse(reason: string, code: number, id: RpcId | undefined): void {
    this.host.log('warning', `app ${this.app.uri}: refused a message: ${reason}`)
    if (id !== undefined) this.post({ jsonrpc: '2.0', id, error: { code, message: reason } })
  }

  private async receive(data: unknown): Promise<void> {
    const m = checkAppMessage(data)
    switch (m.kind) {
      case 'refused':
        return this.refuse(m.reason, m.code, m.id)
      case 'answer': {
        const waiter = this.waiting.get(m.id)
        return waiter === undefined ? this.refuse(`an answer to no request of the page (id ${JSON.stringify(m.id)})`, -32600, undefined) : waiter(m.result ?? {})
      }
      case 'notification':
        return this.notified(m.method, m.params)
      case 'request':
        try {
          this.post({ jsonrpc: '2.0', id: m.id, result: await this.answer(m.method, m.params) })
        } catch (e) {
          const code = e instanceof AppError ? e.code : typeof (e as { code?: unknown }).code === 'number' ? (e as { code: number }).code : -32603
          this.post({ jsonrpc: '2.0', id: m.id, error: { code, message: e instanceof Error ? e.message : String(e) } })
        }
    }
  }

  private notified(method: string, params: Json): void {
    switch (method) {
      case 'ui/notifications/sandbox-proxy-ready':
        if (++this.loads > maxLoads) return this.refuse(`the frame asked for its HTML more than ${maxLoads} times`, -32600, undefined)
        this.initialized = false
        return this.post({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: this.app.html, csp: this.csp, permissions: this.permissions } })
      case 'ui/notifications/initialized':
        this.initialized = true
        for (const [queued, p] of this.queue.splice(0)) this.post({ jsonrpc: '2.0', method: queued, params: p })
        return
      case 'ui/notifications/size-changed': {
        const height = Number(params.height)
        if (Number.isFinite(height)) this.iframe.style.height = `${Math.min(Math.max(Math.round(height), 24), 4000)}px`
        return
      }
      case 'notifications/message': {
        const level = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'].includes(String(params.level)) ? String(params.level) : 'info'
        const text = typeof params.data === 'string' ? params.data : JSON.stringify(params.data)
        return this.host.log(level, `app ${this.app.uri}: ${String(text).slice(0, 2000)}`)
      }
      default:
        return this.host.log('info', `app ${this.app.uri}: ${method} (the playground keeps the app open)`)
    }
  }

  private async answer(method: string, params: Json): Promise<Json> {
    switch (method) {
      case 'ui/initialize':
        return this.initializeResult(params)
      case 'ping':
        return {}
      case 'tools/call':
        return this.bounded(() => this.callTool(params))
      case 'resources/read': {
        if (typeof params.uri !== 'string' || params.uri.length > 2048) throw new AppError(-32602, 'resources/read needs a uri (a string of at most 2048 characters)')
        const uri = params.uri
        return this.bounded(() => this.host.readResource(uri))
      }
      case 'ui/open-link': {
        const url = typeof params.url === 'string' && URL.canParse(params.url) ? new URL(params.url) : undefined
        if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new AppError(-32000, 'Invalid URL: only http and https links are offered')
        this.host.offerLink(url.href)
        return {}
      }
      case 'ui/message':
        this.host.log('info', `app ${this.app.uri}: asks to add a message to the conversation: ${JSON.stringify(params.content).slice(0, 2000)}`)
        throw new AppError(-32000, 'Message sending denied: the playground has no conversation (the message is in its log)')
      case 'ui/update-model-context':
        this.host.log('info', `app ${this.app.uri}: model context ${JSON.stringify(params).slice(0, 2000)}`)
        return {}
      case 'ui/request-display-mode':
        return { mode: 'inline' }
      default:
        throw new AppError(-32601, `method ${method} is not answered`)
    }
  }

  private async callTool(params: Json): Promise<Json> {
    if (typeof params.name !== 'string') throw new AppError(-32602, 'tools/call needs a tool name')
    if (params.arguments !== undefined && !isObject(params.arguments)) throw new AppError(-32602, 'tools/call: arguments must be an object')
    this.host.log('info', `app ${this.app.uri}: tools/call ${params.name}`)
    return this.host.callTool(params.name, isObject(params.arguments) ? params.arguments : {})
  }

  private async bounded(work: () => Promise<Json>): Promise<Json> {
    if (this.inFlight >= maxInFlight) throw new AppError(-32000, `more than ${maxInFlight} requests of this app at once`)
    this.inFlight++
    try {
      return await work()
    } finally {
      this.inFlight--
    }
  }

  private initializeResult(params: Json): Json {
    const info = isObject(params.appInfo) ? `${String(params.appInfo.name)} ${String(params.appInfo.version)}` : '(no appInfo)'
    this.host.log('info', `app ${this.app.uri}: ui/initialize from ${info.slice(0, 200)}`)
    const dark = window.matchMedia('(prefers-color-scheme: dark)').matches
    return {
      protocolVersion: appProtocolVersion,
      hostInfo: { name: 'emcp-playground', version: '1' },
      hostCapabilities: { openLinks: {}, serverTools: {}, serverResources: {}, logging: {}, sandbox: { permissions: this.permissions, csp: this.csp } },
      hostContext: {
        toolInfo: { tool: this.app.tool },
        theme: dark ? 'dark' : 'light',
        displayMode: 'inline',
        availableDisplayModes: ['inline'],
        containerDimensions: { width: this.iframe.clientWidth, maxHeight: 4000 },
        locale: navigator.language,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        userAgent: 'emcp-playground',
        platform: 'web',
        deviceCapabilities: { touch: window.matchMedia('(pointer: coarse)').matches, hover: window.matchMedia('(hover: hover)').matches },
      },
    }
  }
}
