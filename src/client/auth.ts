/**
 * How the typed client authenticates over HTTP: a bearer token, OAuth client credentials, or
 * any OAuth provider of the official SDK client (authorization code with PKCE, discovery of
 * the resource's and the authorization server's metadata, dynamic client registration). The
 * SDK client runs the flows; this file only maps emcp's option onto its providers.
 *
 * @example
 * import { connect } from 'emcp/client'
 * const calc = await connect('http://127.0.0.1:3000/mcp', {
 *   auth: { clientCredentials: { clientId: 'demo-client', clientSecret: 'demo-secret', scope: 'calc:read' } },
 * })
 */
import { ClientCredentialsProvider, UnauthorizedError, type AuthProvider, type OAuthClientProvider } from '@modelcontextprotocol/client'

/** The credentials of an HTTP connection. */
export type Auth =
  /** A fixed token, or a function asked for the current one before each request. */
  | { readonly bearer: string | (() => string | Promise<string>) }
  /** OAuth 2.1 client credentials (a machine client): tokens fetched and renewed by themselves. */
  | { readonly clientCredentials: { readonly clientId: string; readonly clientSecret: string; readonly scope?: string; readonly expectedIssuer?: string } }
  /**
   * Any OAuth provider of the official SDK client: with the authorization code flow, the
   * provider sends the user to the authorization URL and `authorize` resolves to the code
   * (or the callback's query) once the user is back; `connect` then finishes and reconnects.
   */
  | { readonly oauth: OAuthClientProvider; readonly authorize?: (authorizationUrl: URL) => Promise<string | URLSearchParams> }

/** The SDK provider for an `auth` option, and what to ask when the server wants the user to authorize. */
export interface Authorizer {
  readonly provider: AuthProvider | OAuthClientProvider
  /** The code for the last authorization URL the provider was sent to; undefined when there is no way to get it. */
  readonly authorize?: () => Promise<string | URLSearchParams>
}

/** The SDK provider for `auth`; the authorization URL is kept, so that `connect` can finish the code flow. */
export const authorizer = (auth: Auth): Authorizer => {
  if ('bearer' in auth) {
    const { bearer } = auth
    return { provider: { token: async () => (typeof bearer === 'string' ? bearer : await bearer()) } }
  }
  if ('clientCredentials' in auth) return { provider: new ClientCredentialsProvider({ clientName: 'emcp client', ...auth.clientCredentials }) }
  const given = auth.oauth
  const ask = auth.authorize
  if (ask === undefined) return { provider: given }
  let sentTo: URL | undefined
  // the provider is the user's; only its redirect is watched, so that `connect` knows where the user went
  const provider = new Proxy(given, {
    get(target, key, receiver) {
      if (key !== 'redirectToAuthorization') return Reflect.get(target, key, receiver) as unknown
      return async (url: URL) => {
        sentTo = url
        await target.redirectToAuthorization(url)
      }
    },
  })
  return {
    provider,
    authorize: async () => {
      if (sentTo === undefined) throw new Error('emcp/client: the server asked for authorization, but the OAuth provider was not sent to an authorization URL')
      const url = sentTo
      sentTo = undefined
      return ask(url)
    },
  }
}

/** True for the SDK's "the user must authorize first" refusal. */
export const isUnauthorized = (error: unknown): boolean => error instanceof UnauthorizedError
