/** Shared by the OAuth tests: a server behind `oauth()` on a port chosen first (its URL is the audience), demo-client tokens, and both as one fixture. */
import type { AnyTool, Server } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'
import { oauth } from '../../src/auth/index.js'
import { afterAll, beforeAll } from 'vitest'
import { startAuthorizationServer, type AuthorizationServer } from '../../examples/authorization-server.js'
import { freePort } from '../interop/children.js'

/** Serves `server` with `oauth()` for the issuer `issuer`, the endpoint's own URL as the audience. */
export const serveBehindOAuth = async <U extends AnyTool>(server: Server<U>, issuer: string, scopesSupported: ReadonlyArray<string>): Promise<RunningHttp> => {
  const port = await freePort()
  return serveHttp(server, { port, auth: oauth({ issuer, audience: `http://127.0.0.1:${port}/mcp`, scopesSupported }) })
}

/** A client-credentials token of the demo server's `demo-client` for `resource` and `scope`. */
export const demoToken = async (issuer: string, resource: string, scope: string): Promise<string> => {
  const r = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource }).toString(),
  })
  const body = (await r.json()) as { access_token?: string }
  if (r.status !== 200 || body.access_token === undefined) throw new Error(`token endpoint: HTTP ${r.status} ${JSON.stringify(body)}`)
  return body.access_token
}

/** The demo authorization server and a server behind `oauth()`, for one test file. */
export interface OAuthFixture {
  /** The authorization server's issuer URL. */
  readonly issuer: string
  /** The MCP endpoint's URL (the tokens' audience). */
  readonly url: string
  /** A client-credentials token for `scope`, for the endpoint unless `resource` names another. */
  readonly token: (scope: string, resource?: string) => Promise<string>
}

/** Starts the demo authorization server and `server` behind it before the file's tests, and stops both after. */
export const behindOAuth = <U extends AnyTool>(server: Server<U>, scopesSupported: ReadonlyArray<string>): OAuthFixture => {
  let as: AuthorizationServer | undefined
  let running: RunningHttp | undefined
  beforeAll(async () => {
    as = await startAuthorizationServer()
    running = await serveBehindOAuth(server, as.issuer, scopesSupported)
  })
  afterAll(async () => {
    await running?.close()
    await as?.close()
  })
  const started = <A>(a: A | undefined): A => {
    if (a === undefined) throw new Error('the OAuth fixture is used before its beforeAll ran')
    return a
  }
  return {
    get issuer() {
      return started(as).issuer
    },
    get url() {
      return started(running).url
    },
    token: (scope, resource) => demoToken(started(as).issuer, resource ?? started(running).url, scope),
  }
}

/** What a browser does with the authorization URL: follows redirects, keeping cookies, until the client's redirect URI; its query. */
export const browse = async (start: URL, redirectUri: string): Promise<URLSearchParams> => {
  const jar = new Map<string, string>()
  let url = start.href
  for (let hops = 0; hops < 20; hops++) {
    if (url.startsWith(redirectUri)) {
      const query = new URL(url).searchParams
      if (query.get('code') === null) throw new Error(`no code in ${url}`)
      return query
    }
    const r = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } })
    for (const c of r.headers.getSetCookie()) {
      const [pair = ''] = c.split(';')
      const eq = pair.indexOf('=')
      jar.set(pair.slice(0, eq), pair.slice(eq + 1))
    }
    const next = r.headers.get('location')
    if (next === null) throw new Error(`HTTP ${r.status} at ${url}: ${(await r.text()).slice(0, 300)}`)
    url = new URL(next, url).href
  }
  throw new Error('too many redirects')
}
