/**
 * An MCP server behind OAuth 2.1, with its own demo authorization server: the calculator's
 * `add` (needs the scope `calc:read`) and `clear` (needs `calc:write`), served as an OAuth
 * resource server (`emcp/oauth`): Protected Resource Metadata, 401 and 403 challenges that
 * point to it, JWT access tokens checked against the issuer's keys and bound to this
 * endpoint (RFC 8707).
 *
 *   node dist/examples/oauth.js --port 3000
 *   # MCP endpoint http://127.0.0.1:3000/mcp, authorization server http://127.0.0.1:3001
 *
 * The authorization server (examples/authorization-server.ts) is for trying things out: the
 * machine client `demo-client` / `demo-secret` gets tokens with the client credentials grant,
 *
 *   curl -s -u demo-client:demo-secret -d grant_type=client_credentials -d scope=calc:read \
 *     --data-urlencode resource=http://127.0.0.1:3000/mcp http://127.0.0.1:3001/token
 *
 * and MCP clients may register themselves and use the authorization code flow with PKCE.
 */
import { emcp, mcpServer } from 'emcp'
import { serveHttp } from 'emcp/http'
import { oauth } from 'emcp/oauth'
import { addDefinition } from './add.js'
import { portOf, runMain } from './main.js'

/** `add`, as in the calculator, for callers granted `calc:read`. */
export const add = emcp({ ...addDefinition, scopes: ['calc:read'] })

/** `clear`, which forgets the sums so far, for callers granted `calc:write`. */
export const clear = emcp({
  name: 'clear',
  title: 'Clear',
  description: 'Forget every sum computed so far; answers how many were forgotten.',
  input: { type: 'object', properties: {}, additionalProperties: false },
  annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  scopes: ['calc:write'],
})

/** The server, with its memory of sums. */
export const oauthCalculator = () => {
  const sums: number[] = []
  return mcpServer([add, clear], { name: 'oauth-calculator', version: '1.0.0' }).implement({
    add: ({ a, b }) => {
      sums.push(a + b)
      return { sum: a + b }
    },
    clear: () => `forgot ${sums.splice(0).length} sums`,
  })
}

const usage = `The calculator behind OAuth: add needs calc:read, clear needs calc:write. A demo
authorization server (oidc-provider) runs beside it on the next port.

  node dist/examples/oauth.js [--port 3000] [--host 127.0.0.1]`

const options = { port: { type: 'string', default: '3000' }, host: { type: 'string', default: '127.0.0.1' } } as const

runMain(import.meta.url, { usage, options }, async ({ port: given, host }) => {
  const port = portOf(given, 3000)
  if (port < 1 || port > 65534) throw new Error(`--port must be a port number below 65535 (got ${given})`)
  // loaded only to run: oidc-provider prints warnings when it loads, which --help should not show
  const { startAuthorizationServer } = await import('./authorization-server.js')
  const as = await startAuthorizationServer({ port: port + 1, host })
  const resource = `http://${host}:${port}/mcp`
  const running = await serveHttp(oauthCalculator(), {
    port,
    host,
    auth: oauth({ issuer: as.issuer, audience: resource, scopesSupported: ['calc:read', 'calc:write'] }),
  })
  console.log(`MCP endpoint:          ${running.url}
authorization server:  ${as.issuer}
resource metadata:     ${new URL(running.url).origin}/.well-known/oauth-protected-resource/mcp

A token for calc:read:
  curl -s -u demo-client:demo-secret -d grant_type=client_credentials -d scope=calc:read --data-urlencode resource=${resource} ${as.issuer}/token`)
  // SIGTERM or SIGINT: serveHttp answers the calls in flight, refuses new ones (503), then exits with 0
})
