/**
 * A scripted token issuer for the verifier's edge cases, on 127.0.0.1: real HTTP, real keys
 * and signatures (jose), metadata and a JWKS the test can change, an introspection endpoint
 * answering what the test decides, and a count of every request per path. The end-to-end
 * tests use the real authorization server of examples/authorization-server.ts instead.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose'

/** A signing key and its public JWK. */
export interface Key {
  readonly kid: string
  readonly alg: string
  readonly privateKey: CryptoKey
  readonly jwk: JWK
}

/** A running issuer. */
export interface Issuer {
  readonly issuer: string
  /** Requests seen, by path. */
  readonly hits: Map<string, number>
  /** The keys the JWKS publishes now. */
  published: Key[]
  /** What introspection answers for a token (default `{ active: false }`). */
  readonly introspection: Map<string, Record<string, unknown>>
  /** Requests to introspection are held until this resolves, when set. */
  hold: Promise<void> | undefined
  /** Answers of the test's own for some paths (a failing JWKS, a stalled body), in place of the usual ones; counted all the same. */
  readonly routes: Map<string, (req: IncomingMessage, res: ServerResponse) => void>
  readonly key: (kid: string, alg?: 'ES256' | 'RS256') => Promise<Key>
  /** A signed token: the issuer, an `exp` 10 minutes on and `iat` now unless the payload says otherwise. */
  readonly sign: (key: Key, payload: JWTPayload, header?: Record<string, unknown>) => Promise<string>
  readonly close: () => Promise<void>
}

/** Starts an issuer whose metadata names it at `path` (default: the root). */
export const startIssuer = async (metadataIssuer?: (origin: string) => string): Promise<Issuer> => {
  const http = createServer()
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  const self: Issuer = {
    issuer: origin,
    hits: new Map(),
    published: [],
    introspection: new Map(),
    hold: undefined,
    routes: new Map(),
    key: async (kid, alg = 'ES256') => {
      const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
      return { kid, alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } }
    },
    sign: (key, payload, header = {}) =>
      new SignJWT({ iss: origin, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 600, ...payload })
        .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt', ...header })
        .sign(key.privateKey),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections()
        http.close(() => resolve())
      }),
  }
  http.on('request', (req, res) => {
    const path = new URL(req.url ?? '/', origin).pathname
    self.hits.set(path, (self.hits.get(path) ?? 0) + 1)
    const scripted = self.routes.get(path)
    if (scripted !== undefined) return scripted(req, res)
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    }
    if (path === '/.well-known/oauth-authorization-server')
      return json(200, { issuer: metadataIssuer?.(origin) ?? origin, jwks_uri: `${origin}/jwks`, introspection_endpoint: `${origin}/introspect` })
    if (path === '/jwks') return json(200, { keys: self.published.map((k) => k.jwk) })
    if (path === '/introspect') {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const token = new URLSearchParams(Buffer.concat(chunks).toString()).get('token') ?? ''
        const answer = (): void => json(200, self.introspection.get(token) ?? { active: false })
        if (self.hold === undefined) answer()
        else void self.hold.then(answer)
      })
      return
    }
    json(404, { error: 'not_found' })
  })
  return self
}

/** An issuer whose JWKS publishes one ES256 key, "k1": the setup most tests start from. */
export const startKeyedIssuer = async (): Promise<{ iss: Issuer; key: Key }> => {
  const iss = await startIssuer()
  const key = await iss.key('k1')
  iss.published = [key]
  return { iss, key }
}

/** A keyed issuer and, for each name, a token signed with its key carrying that name's claims. */
export const issuerWithTokens = async <N extends string>(claims: Record<N, JWTPayload>): Promise<{ iss: Issuer; tokens: Record<N, string> }> => {
  const { iss, key } = await startKeyedIssuer()
  const tokens = {} as Record<N, string>
  for (const name of Object.keys(claims) as N[]) tokens[name] = await iss.sign(key, claims[name])
  return { iss, tokens }
}
