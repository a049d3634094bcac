/**
 * The playground's routes: the prebuilt page (dist/bundle/playground: index.html, one script,
 * one stylesheet) at `/`, beside the MCP endpoint. Loopback only unless `allowRemote`: a
 * request from another address, or naming a non-loopback Host, gets 403 (the page can call
 * every tool). The page is sent with a Content-Security-Policy that allows only its own
 * script and style, fetches to its own origin, images and audio as data URLs, and frames
 * from its own origin: the sandbox of MCP Apps (`/__emcp/sandbox/…`, app-sandbox.ts), which
 * has a policy of its own, built from the app's `_meta.ui.csp`.
 *
 * @example
 * import { serveHttp } from 'emcp/http'
 * await serveHttp(server, { port: 3000, playground: true }) // the page at http://127.0.0.1:3000/
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { sandboxAnswer, sandboxPrefix } from './app-sandbox.js'
import { hostCheck } from './hosts.js'
import type { HttpMiddleware, HttpReply, HttpRequestHead } from './model.js'

/** Options of the playground routes. */
export interface PlaygroundOptions {
  /** Serve the page to other addresses too (default false: loopback only). */
  readonly allowRemote?: boolean
}

/** What the routes need to know of their server. */
export interface PlaygroundSetup extends PlaygroundOptions {
  /** The MCP endpoint's path, which the page calls (default `/mcp`). */
  readonly endpoint?: string
  /** Under `emcp dev`: the page follows `/__emcp/events`. */
  readonly dev?: boolean
}

/** The Content-Security-Policy of the page. */
export const playgroundPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; media-src data:; frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** The middleware answering `/`, `/__emcp/playground.js`, `/__emcp/pattern-worker.js`, `/__emcp/playground.css` and `/__emcp/sandbox/…`; other paths go on. */
export const playgroundRoutes = (setup: PlaygroundSetup = {}): HttpMiddleware => {
  const answer = playgroundAnswer(setup)
  return async (req, next) => answer(req) ?? next(req)
}

/** The playground's answer to a request, or undefined when the request is not for it. */
export const playgroundAnswer = (setup: PlaygroundSetup = {}): ((req: HttpRequestHead) => HttpReply | undefined) => {
  const page = (): HttpReply => {
    const html = asset('index.html')
      .replace('__DEV__', setup.dev === true ? 'true' : 'false')
      .replace('__ENDPOINT__', (setup.endpoint ?? '/mcp').replace(/[^A-Za-z0-9/_.~-]/g, ''))
    return { status: 200, headers: { ...common, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': playgroundPolicy }, body: html }
  }
  const files: Readonly<Record<string, () => HttpReply>> = {
    '/': page,
    '/index.html': page,
    '/__emcp/playground.js': () => ({ status: 200, headers: { ...common, 'content-type': 'text/javascript; charset=utf-8' }, body: asset('playground.js') }),
    '/__emcp/pattern-worker.js': () => ({ status: 200, headers: { ...common, 'content-type': 'text/javascript; charset=utf-8' }, body: asset('pattern-worker.js') }),
    '/__emcp/playground.css': () => ({ status: 200, headers: { ...common, 'content-type': 'text/css; charset=utf-8' }, body: asset('playground.css') }),
  }
  return (req) => {
    const path = req.path
    const route = path === undefined ? undefined : path.startsWith(sandboxPrefix) ? () => sandboxAnswer(path)! : files[path]
    if (route === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) return undefined
    if (setup.allowRemote !== true && !fromLoopback(req))
      return { status: 403, headers: { 'content-type': 'text/plain' }, body: 'the playground is served to loopback addresses only (playground: { allowRemote: true } to change that)' }
    return route()
  }
}

/** True when the request comes from, and names, this machine. */
export const fromLoopback = (req: HttpRequestHead): boolean => {
  const address = req.remoteAddress
  const local = address === undefined || address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.')
  const host = req.header('host')
  return local && (host === undefined || host === '' || loopbackHost(host))
}

const loopbackHost = hostCheck(undefined)

const common = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' }

/**
 * Where the built page is: beside the bundle that runs (dist/bundle/playground), or, for
 * code run from dist/src or the sources, in the package's dist/bundle. Read once, kept.
 */
const places = ['./playground/', '../../../bundle/playground/', '../../../dist/bundle/playground/']
const cache = new Map<string, string>()
const asset = (name: string): string => {
  const known = cache.get(name)
  if (known !== undefined) return known
  for (const place of places) {
    const file = fileURLToPath(new URL(place + name, import.meta.url))
    if (existsSync(file)) {
      const text = readFileSync(file, 'utf8')
      cache.set(name, text)
      return text
    }
  }
  throw new Error(`the playground is not built (${name} not found): run \`npm run build\` in the emcp package`)
}
