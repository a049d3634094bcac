/**
 * The official SDK client, loaded once, here: importing emcp/proxy without the package says
 * what to install, and the rest of emcp never imports it (an optional peer dependency).
 *
 * @example
 * import { sdk } from './sdk.js'
 * const client = new sdk.Client({ name: 'x', version: '1' })
 */
import type * as ClientModule from '@modelcontextprotocol/client'
import type * as StdioModule from '@modelcontextprotocol/client/stdio'

const load = async (): Promise<typeof ClientModule & typeof StdioModule> => {
  try {
    return { ...(await import('@modelcontextprotocol/client')), ...(await import('@modelcontextprotocol/client/stdio')) }
  } catch (e) {
    throw new Error(
      `emcp/proxy needs the package @modelcontextprotocol/client (an optional peer dependency of emcp): install it with npm install @modelcontextprotocol/client. ${e instanceof Error ? e.message : String(e)}`,
    )
  }
}

/** The SDK client's classes (`Client`, the transports, `ClientCredentialsProvider`). */
export const sdk = await load()
