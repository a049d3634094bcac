/**
 * An OpenAPI document as tools: each operation of the document at --document (a file or a
 * URL) becomes a tool calling the API at --base-url (default: the document's first server),
 * here only those tagged --tag when given, with a bearer token from OPENAPI_TOKEN when set.
 * The tools are an ordinary server: this example mounts them under `api` beside a local tool.
 *
 *   node dist/examples/openapi.js --document https://petstore3.swagger.io/api/v3/openapi.json --tag pet
 *   node dist/examples/openapi.js --document ./openapi.json --base-url http://127.0.0.1:8080 --http --port 3001
 *
 * The same without code: `emcp openapi ./openapi.json --base-url http://127.0.0.1:8080`.
 */
import { emcp, mcpServer, mount, mounted } from 'emcp'
import { serveHttp } from 'emcp/http'
import { fromOpenApi } from 'emcp/openapi'
import { serveStdio } from 'emcp/stdio'
import { portOf, runMain } from './main.js'

const now = emcp({ name: 'now', description: 'The current time, as an ISO 8601 string.', input: { type: 'object' } })
const clock = mcpServer([now], { name: 'clock', version: '1.0.0' }).implement({ now: () => new Date().toISOString() })

/** The API's operations under `api`, beside the clock. */
export const apiServer = async (document: string, options: { readonly baseUrl?: string; readonly tags?: ReadonlyArray<string> } = {}) => {
  const token = process.env.OPENAPI_TOKEN
  const api = await fromOpenApi(document, {
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.tags === undefined ? {} : { include: { tags: options.tags } }),
    ...(token === undefined ? {} : { auth: { bearer: token } }),
  })
  return mount([clock, mounted(api.server, 'api')], { name: 'api-gateway', version: '1.0.0' })
}

const usage = `An OpenAPI document's operations as tools, under the namespace api.

  node dist/examples/openapi.js --document <file|url> [--base-url URL] [--tag T ...] [--stdio]
  node dist/examples/openapi.js --document <file|url> [--base-url URL] --http [--port 3001] [--host 127.0.0.1]`

const options = {
  document: { type: 'string' },
  'base-url': { type: 'string' },
  tag: { type: 'string', multiple: true },
  stdio: { type: 'boolean' },
  http: { type: 'boolean' },
  port: { type: 'string' },
  host: { type: 'string', default: '127.0.0.1' },
} as const

runMain(import.meta.url, { usage, options }, async ({ document, 'base-url': baseUrl, tag, http, port, host }) => {
  if (document === undefined) throw new Error('give the document with --document <file|url>')
  const server = await apiServer(document, { ...(baseUrl === undefined ? {} : { baseUrl }), ...(tag === undefined ? {} : { tags: tag }) })
  if (http === true) {
    const running = await serveHttp(server, { port: portOf(port, 3001), host })
    process.stderr.write(`listening on ${running.url}\n`)
  } else await serveStdio(server)
})
