/**
 * One definition, both protocol eras: a 2025-11-25 client (initialize, then requests in a
 * session) and a 2026-07-28 client (server/discover, every request on its own) use the same
 * tools, resource and prompt at once. `greet` asks the user for their name: a 2025 client
 * gets an `elicitation/create` request, a 2026 client an `input_required` result and a retry,
 * and the handler is the same. `forecast` mirrors its `region` into an `Mcp-Param-Region`
 * header on HTTP (2026-07-28). `primes` returns an array: 2026 clients get it as it is, 2025
 * clients as `{ result: [...] }`. Retries carry a `requestState` signed with EMCP_STATE_KEY, so
 * several processes behind a load balancer can share the work when they share the key.
 *
 *   node dist/examples/eras.js                            # stdio
 *   node dist/examples/eras.js --http --port 3000         # HTTP (2025 sessions and 2026 requests)
 *   node dist/examples/eras.js --era 2026-07-28           # pinned to one era
 *
 * See docs/eras.md.
 */
import { emcp, mcpServer, prompt, prompts, resource, resources, type Era } from 'emcp'
import { serveHttp } from 'emcp/http'
import { serveStdio } from 'emcp/stdio'
import { portOf, runMain } from './main.js'

export const greet = emcp({
  name: 'greet',
  description: "Ask the user for their name (elicitation) and greet them; says which process answered.",
  input: { type: 'object', properties: { greeting: { type: 'string', description: 'The word to greet with (default Hello)' } }, additionalProperties: false },
  output: {
    type: 'object',
    properties: { greeting: { type: 'string' }, pid: { type: 'integer', description: 'The process that finished the call' } },
    required: ['greeting', 'pid'],
    additionalProperties: false,
  },
})

export const forecast = emcp({
  name: 'forecast',
  description: 'A made-up forecast for a region; the region travels in an Mcp-Param-Region header too, for routing.',
  input: {
    type: 'object',
    properties: { region: { type: 'string', 'x-mcp-header': 'Region', description: 'A region such as eu-north' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
    required: ['region'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
})

export const era = emcp({
  name: 'era',
  description: 'Which protocol revision the request came in (handlers rarely need to know).',
  input: { type: 'object', additionalProperties: false },
  output: { type: 'object', properties: { protocolVersion: { type: 'string' } }, required: ['protocolVersion'] },
  annotations: { readOnlyHint: true },
})

export const primes = emcp({
  name: 'primes',
  description: 'The primes below a bound, as a JSON array (a structured result that is not an object).',
  input: { type: 'object', properties: { below: { type: 'integer', minimum: 2, maximum: 10_000 } }, required: ['below'], additionalProperties: false },
  output: { type: 'array', items: { type: 'integer' } },
  annotations: { readOnlyHint: true, idempotentHint: true },
})

export const note = emcp({
  name: 'note',
  description: 'Add a line to the notes at eras://notes; clients subscribed to that resource are told.',
  input: { type: 'object', properties: { text: { type: 'string', minLength: 1 } }, required: ['text'], additionalProperties: false },
})

const nameForm = { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'] } as const

/** The server for `eras` (default both), with retries signed by `key` (default: a key of this process). */
export const erasServer = (eras?: ReadonlyArray<Era>, key?: string) => {
  const notes: string[] = []
  // subscribers hear of changes to eras://notes: resources/subscribe in 2025-11-25, subscriptions/listen in 2026-07-28
  const docs = resources(
    [
      resource({ uri: 'eras://about', name: 'about', mimeType: 'text/plain', read: () => 'Served to both protocol eras.' }),
      resource({ uri: 'eras://notes', name: 'notes', mimeType: 'text/plain', read: () => notes.join('\n') }),
    ],
    { subscribe: true },
  )
  return mcpServer([greet, forecast, era, primes, note], { name: 'eras', version: '1.0.0' }, {
    instructions: 'Call greet to meet the user, forecast for the weather.',
    eras,
    requestState: key === undefined ? undefined : { key },
    cache: { ttlMs: 60_000, cacheScope: 'public', methods: { 'resources/read': { ttlMs: 0, cacheScope: 'private' } } },
    features: [
      docs,
      prompts([prompt({ name: 'weather_chat', description: 'Talk about the weather somewhere.', arguments: { region: { required: true } }, get: ({ region }) => `How is the weather in ${region}?` })]),
    ],
  }).implement({
    greet: async ({ greeting = 'Hello' }, ctx) => {
      const answer = await ctx.elicit({ message: 'What is your name?', requestedSchema: nameForm })
      return { greeting: answer.action === 'accept' ? `${greeting}, ${answer.content.name}!` : `${greeting}, whoever you are.`, pid: process.pid }
    },
    forecast: ({ region, days = 1 }) => `${region}: ${days === 1 ? 'sunny tomorrow' : `sunny for ${days} days`}`,
    era: (_args, ctx) => ({ protocolVersion: ctx.session.protocolVersion }),
    primes: ({ below }) => Array.from({ length: below }, (_, n) => n).filter((n) => n > 1 && Array.from({ length: n - 2 }, (_, i) => i + 2).every((d) => n % d !== 0)),
    note: ({ text }) => {
      notes.push(text)
      docs.updated('eras://notes')
      return `${notes.length} notes`
    },
  })
}

const usage = `One definition, both protocol eras.

  node dist/examples/eras.js [--era 2025-11-25|2026-07-28]                   over stdio
  node dist/examples/eras.js --http [--port 3000] [--host 127.0.0.1] [--era …]   over HTTP

EMCP_STATE_KEY signs the requestState of 2026-07-28 retries (share it between processes).`

const options = { http: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' }, era: { type: 'string' } } as const
const eraNames: ReadonlyArray<Era> = ['2025-11-25', '2026-07-28']

runMain(import.meta.url, { usage, options }, async ({ http, port, host, era }) => {
  const pinned = eraNames.find((e) => e === era)
  if (era !== undefined && pinned === undefined) throw new Error(`--era is one of ${eraNames.join(', ')} (got ${era})`)
  const server = erasServer(pinned === undefined ? undefined : [pinned], process.env.EMCP_STATE_KEY)
  if (http !== true) {
    await serveStdio(server)
    return
  }
  // sessions serve 2025-11-25 clients (whose elicitation needs a stream back); 2026-07-28 requests need none
  const running = await serveHttp(server, { port: portOf(port, 3000), host, sessions: true })
  // SIGTERM or SIGINT: serveHttp answers the calls in flight, refuses new ones (503), then exits with 0
  console.log(`eras MCP server listening on ${running.url} (2025-11-25 sessions and 2026-07-28 requests)`)
})
