/**
 * The `manifest.json` of an MCP Bundle (MCPB, manifest version 0.3) for an emcp server: its
 * name, version and description from the server and its package, the tools it lists, a Node
 * entry point started by the client (`node ${__dirname}/server/index.js`), and one
 * `user_config` field per environment variable the server needs, passed on through
 * `mcp_config.env`. Pure: the command gathers the facts and writes the zip.
 *
 * @example
 * import { mcpbManifest } from './mcpb.js'
 * mcpbManifest({ info: { name: 'calc', version: '1.0.0' }, tools: [{ name: 'add' }], author: { name: 'Ada' }, env: [{ name: 'API_KEY' }] })
 */
import type { ServerInfo } from '../../server/server.js'
import { trimRuns } from '../../util/trim-runs.js'

/** An environment variable the server reads, asked of the user at install. */
export interface EnvNeed {
  readonly name: string
  readonly description?: string
  /** Shown masked and kept in the OS keychain; default: names with KEY, TOKEN, SECRET or PASSWORD. */
  readonly sensitive?: boolean
  readonly required?: boolean
}

/** What a bundle manifest is made of. */
export interface BundleFacts {
  readonly info: ServerInfo
  readonly tools: ReadonlyArray<{ readonly name: string; readonly description?: string }>
  readonly author: { readonly name: string; readonly email?: string; readonly url?: string }
  readonly description?: string
  readonly license?: string
  readonly env?: ReadonlyArray<EnvNeed>
}

/** Where the bundled server lives inside the bundle. */
export const entryPoint = 'server/index.js'

/** The manifest version written. */
export const mcpbVersion = '0.3'

/** A `user_config` key for a variable name: lower case, as the MCPB examples spell them. */
const configKey = (env: string): string => env.toLowerCase()

/** The MCPB 0.3 manifest. */
export const mcpbManifest = (facts: BundleFacts) => {
  const env = facts.env ?? []
  const name = trimRuns(facts.info.name.toLowerCase().replace(/[^a-z0-9-]+/g, '-'), '-') || 'server'
  return {
    manifest_version: mcpbVersion,
    name,
    ...(facts.info.title === undefined ? {} : { display_name: facts.info.title }),
    version: facts.info.version,
    description: facts.description ?? facts.info.description ?? `${facts.info.title ?? facts.info.name}, an MCP server`,
    author: { ...facts.author },
    ...(facts.info.websiteUrl === undefined ? {} : { homepage: facts.info.websiteUrl }),
    ...(facts.license === undefined ? {} : { license: facts.license }),
    server: {
      type: 'node',
      entry_point: entryPoint,
      mcp_config: {
        command: 'node',
        args: [`\${__dirname}/${entryPoint}`],
        ...(env.length === 0 ? {} : { env: Object.fromEntries(env.map((e) => [e.name, `\${user_config.${configKey(e.name)}}`])) }),
      },
    },
    tools: facts.tools.map((t) => ({ name: t.name, ...(t.description === undefined ? {} : { description: t.description }) })),
    ...(env.length === 0
      ? {}
      : {
          user_config: Object.fromEntries(
            env.map((e) => [
              configKey(e.name),
              {
                type: 'string',
                title: e.name,
                description: e.description ?? `The ${e.name} environment variable of the server`,
                required: e.required ?? true,
                sensitive: e.sensitive ?? /KEY|TOKEN|SECRET|PASSWORD/i.test(e.name),
              },
            ]),
          ),
        }),
    compatibility: { runtimes: { node: '>=20.3' } },
  }
}
