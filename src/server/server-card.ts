/**
 * What a registry `server.json` (schema 2025-12-11) and a server card (the draft of SEP-2127,
 * a subset of server.json served at `/.well-known/mcp/server-card.json`) say about a server:
 * its reverse-DNS name, version, title, description and links, and how to reach it, as an
 * npm package started over stdio or a remote Streamable HTTP endpoint. Pure data from the
 * server's `info`; `emcp server-json` and `serveHttp({ serverCard: true })` add the facts.
 *
 * @example
 * import { serverJson } from './server-card.js'
 * serverJson({ name: 'calc', version: '1.0.0' }, { name: 'io.github.ada/calc', remote: 'https://calc.example.org/mcp' })
 */
import type { ServerInfo } from './server.js'

/** The registry schema `server.json` follows. */
export const serverJsonSchema = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json'

/** The schema a server card follows. */
export const serverCardSchema = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json'

/** A server name the registry takes: `namespace/name`, reverse-DNS namespace. */
export const registryName = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/

/** An environment variable the package needs. */
export interface PackageEnv {
  readonly name: string
  readonly description?: string
  readonly isSecret?: boolean
}

/** How the server is published: its registry name, and an npm package, a remote URL, or both. */
export interface Publication {
  readonly name: string
  readonly version?: string
  readonly description?: string
  readonly npm?: { readonly identifier: string; readonly version: string; readonly env?: ReadonlyArray<PackageEnv> }
  readonly remote?: string
  readonly repository?: { readonly url: string; readonly source: string }
}

/** The registry's `server.json` for a server. */
export const serverJson = (info: ServerInfo, p: Publication) => ({
  $schema: serverJsonSchema,
  ...common(info, p),
  ...(p.repository === undefined ? {} : { repository: { ...p.repository } }),
  ...(p.npm === undefined
    ? {}
    : {
        packages: [
          {
            registryType: 'npm',
            identifier: p.npm.identifier,
            version: p.npm.version,
            runtimeHint: 'npx',
            transport: { type: 'stdio' },
            ...(p.npm.env === undefined || p.npm.env.length === 0
              ? {}
              : { environmentVariables: p.npm.env.map((e) => ({ name: e.name, description: e.description ?? `The ${e.name} variable`, isRequired: true, isSecret: e.isSecret ?? /KEY|TOKEN|SECRET|PASSWORD/i.test(e.name) })) }),
          },
        ],
      }),
  ...(p.remote === undefined ? {} : { remotes: [{ type: 'streamable-http', url: p.remote }] }),
})

/** The server card of a server reached at `url`. */
export const serverCard = (info: ServerInfo, name: string, url: string) => ({ $schema: serverCardSchema, ...common(info, { name }), remotes: [{ type: 'streamable-http', url }] })

/** The fields server.json and the card share; the description fits the registry's 100 characters. */
const common = (info: ServerInfo, p: Pick<Publication, 'name' | 'version' | 'description'>) => ({
  name: p.name,
  version: p.version ?? info.version,
  description: clip(p.description ?? info.description ?? info.title ?? info.name),
  ...(info.title === undefined ? {} : { title: clip(info.title) }),
  ...(info.websiteUrl === undefined ? {} : { websiteUrl: info.websiteUrl }),
})

/** At most 100 characters, cut at a word where one is near. */
const clip = (s: string): string => {
  const one = s.replace(/\s+/g, ' ').trim() || 'An MCP server'
  if (one.length <= 100) return one
  const cut = one.slice(0, 99)
  const space = cut.lastIndexOf(' ')
  return `${space > 60 ? cut.slice(0, space) : cut}…`
}
