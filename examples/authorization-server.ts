/**
 * A demo OAuth 2.1 authorization server: `oidc-provider` (a certified OpenID provider) on
 * 127.0.0.1, for examples and tests, never for production (its keys and clients live in
 * memory). The confidential client `demo-client` / `demo-secret` may use the
 * `client_credentials` grant (client_secret_basic) for the scopes `calc:read` and
 * `calc:write`; the `resource` parameter (RFC 8707) sets the token's audience; access tokens
 * are JWTs signed with ES256, except for resources whose path ends in `/opaque`, which get
 * opaque tokens that `mcp-server` / `mcp-secret` may introspect (RFC 7662). Clients may also
 * register themselves (RFC 7591) and use the authorization code grant with PKCE: the demo
 * logs every browser in as `demo-user` and consents to what was asked, with no page. The
 * public client `demo-app` is registered already (redirect URI `http://127.0.0.1:1/callback`).
 *
 * @example
 * import { startAuthorizationServer } from './authorization-server.js'
 * const as = await startAuthorizationServer({ port: 3001 })
 * console.log(as.issuer) // http://127.0.0.1:3001
 * await as.close()
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair } from 'jose'
import Provider, { type ClientMetadata } from 'oidc-provider'

/** What the demo server offers. */
export interface AuthorizationServerOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number
  readonly host?: string
  /** Scopes a resource may be granted (default `calc:read calc:write`). */
  readonly scopes?: ReadonlyArray<string>
  /** Clients beside `demo-client` and `mcp-server`. */
  readonly clients?: ReadonlyArray<ClientMetadata>
}

/** A running demo server. */
export interface AuthorizationServer {
  readonly issuer: string
  readonly provider: Provider
  readonly close: () => Promise<void>
}

/** The demo clients: a machine client, and the MCP server's own credentials for introspection. */
export const demoClients: ReadonlyArray<ClientMetadata> = [
  {
    client_id: 'demo-client',
    client_secret: 'demo-secret',
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
    scope: 'calc:read calc:write',
  },
  // a pre-registered public client (authorization code with PKCE), for clients that do not register themselves
  {
    client_id: 'demo-app',
    grant_types: ['authorization_code'],
    response_types: ['code'],
    redirect_uris: ['http://127.0.0.1:1/callback', 'http://localhost:6274/oauth/callback'],
    token_endpoint_auth_method: 'none',
    scope: 'calc:read calc:write',
  },
  { client_id: 'mcp-server', client_secret: 'mcp-secret', grant_types: [], response_types: [], redirect_uris: [], token_endpoint_auth_method: 'client_secret_basic' },
]

/** Starts the server and resolves once it listens. */
export const startAuthorizationServer = async (o: AuthorizationServerOptions = {}): Promise<AuthorizationServer> => {
  const host = o.host ?? '127.0.0.1'
  const scopes = o.scopes ?? ['calc:read', 'calc:write']
  const http: HttpServer = createServer()
  await new Promise<void>((resolve) => http.listen(o.port ?? 0, host, resolve))
  const issuer = `http://${host}:${(http.address() as AddressInfo).port}`
  const { privateKey } = await generateKeyPair('ES256', { extractable: true })
  const jwk = { ...(await exportJWK(privateKey)), kid: 'demo-es256', alg: 'ES256', use: 'sig' }
  const provider = new Provider(issuer, {
    clients: [...demoClients, ...(o.clients ?? [])],
    jwks: { keys: [jwk] },
    // one signing key, ES256: every client signs with it unless it asks otherwise
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    ttl: { AccessToken: 600, ClientCredentials: 600 },
    scopes: [...scopes],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      // the MCP server may introspect any token; a client only its own
      introspection: { enabled: true, allowedPolicy: (_ctx, client, token) => client.clientId === 'mcp-server' || token.clientId === client.clientId },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => ({
          scope: scopes.join(' '),
          audience: resource,
          accessTokenTTL: 600,
          ...(new URL(resource).pathname.endsWith('/opaque') ? { accessTokenFormat: 'opaque' as const } : { accessTokenFormat: 'jwt' as const, jwt: { sign: { alg: 'ES256' as const } } }),
        }),
      },
    },
  })
  // the demo runs on plain http at 127.0.0.1; oidc-provider would otherwise refuse to run insecurely behind no proxy
  provider.proxy = false
  const callback = provider.callback()
  http.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/') === true) void interact(provider, req, res).catch(() => res.writeHead(500).end())
    else void callback(req, res)
  })
  return {
    issuer,
    provider,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections()
        http.close(() => resolve())
      }),
  }
}

/** The demo's login and consent, with no page: log in as `demo-user`, then grant what the client asked for. */
const interact = async (provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  const details = await provider.interactionDetails(req, res)
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: 'demo-user' } }, { mergeWithLastSubmission: false })
    return
  }
  const accountId = details.session?.accountId ?? 'demo-user'
  const grant = details.grantId !== undefined ? await provider.Grant.find(details.grantId) : undefined
  const consent = grant ?? new provider.Grant({ accountId, clientId: String(details.params['client_id']) })
  const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> }
  if (missing.missingOIDCScope !== undefined) consent.addOIDCScope(missing.missingOIDCScope.join(' '))
  if (missing.missingOIDCClaims !== undefined) consent.addOIDCClaims(missing.missingOIDCClaims)
  for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) consent.addResourceScope(resource, scopes.join(' '))
  const grantId = await consent.save()
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true })
}
