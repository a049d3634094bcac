/**
 * The entry test/transport/fetch.test.ts bundles: the everything example's server behind
 * `toFetchHandler`, stateless, both eras, imported from `emcp/fetch` as a user would.
 *
 * @example
 * import { handler } from './fetch-entry.js'
 * await handler(new Request('http://127.0.0.1/mcp', { method: 'POST', body: '{}' }))
 */
import { toFetchHandler } from 'emcp/fetch'
import { everythingServer } from '../../examples/everything-server.js'

/** The handler of the bundled server. */
export const handler = toFetchHandler(everythingServer(), { path: '/mcp' })
