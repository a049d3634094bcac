/**
 * The calculator: the example server of the README. Three tools: `add` (JSON Schema in and
 * out), `echo` (plain text result), and `add_days` (io-ts codecs: a date-time string is
 * decoded into a Date for the handler and the result's Date is encoded back).
 *
 *   node dist/examples/calculator.js --stdio
 *   node dist/examples/calculator.js --http --port 3000 [--host 127.0.0.1]
 */
import * as t from 'io-ts'
import { DateFromISOString, emcp, mcpServer } from 'emcp'
import { serveHttp } from 'emcp/http'
import { serveStdio } from 'emcp/stdio'
import { addDefinition } from './add.js'
import { portOf, runMain } from './main.js'

export const add = emcp(addDefinition)

export const echo = emcp({
  name: 'echo',
  description: 'Return the given text unchanged.',
  input: {
    type: 'object',
    properties: { text: { type: 'string', description: 'The text to echo' } },
    required: ['text'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
})

const Weekday = t.keyof({ Sunday: null, Monday: null, Tuesday: null, Wednesday: null, Thursday: null, Friday: null, Saturday: null })

export const addDays = emcp({
  name: 'add_days',
  description: 'Add a number of days to an RFC 3339 date-time and tell the weekday of the result.',
  input: t.type({ date: DateFromISOString, days: t.Int }),
  output: t.type({ date: DateFromISOString, weekday: Weekday }),
  annotations: { readOnlyHint: true, idempotentHint: true },
})

const weekdays = Object.keys(Weekday.keys) as Array<t.TypeOf<typeof Weekday>>

/** The calculator server, ready for any transport. */
export const calculator = mcpServer([add, echo, addDays], { name: 'calculator', version: '1.0.0', title: 'Calculator' }, {
  instructions: 'Use add for sums, add_days for calendar arithmetic, echo to test the connection.',
}).implement({
  add: ({ a, b }) => ({ sum: a + b }),
  echo: ({ text }) => text,
  add_days: ({ date, days }) => {
    const result = new Date(date.getTime() + days * 86_400_000)
    return { date: result, weekday: weekdays[result.getUTCDay()] ?? 'Sunday' }
  },
})

export default calculator

const usage = `The calculator MCP server (add, echo, add_days).

  node dist/examples/calculator.js [--stdio]                         over stdio (the default)
  node dist/examples/calculator.js --http [--port 3000] [--host 127.0.0.1]   over Streamable HTTP`

const options = { stdio: { type: 'boolean' }, http: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' } } as const

runMain(import.meta.url, { usage, options }, async ({ http, port, host }) => {
  if (http !== true) {
    await serveStdio(calculator)
    return
  }
  const running = await serveHttp(calculator, { port: portOf(port, 3000), host })
  console.log(`calculator MCP server listening on ${running.url} (stateless Streamable HTTP)

Try it with the MCP Inspector:
  npx @modelcontextprotocol/inspector --transport http --server-url ${running.url}

Or add it to a client's configuration:
  { "mcpServers": { "calculator": { "type": "http", "url": "${running.url}" } } }

Press Ctrl+C to stop.`)
  // on SIGTERM or SIGINT, serveHttp answers the calls in flight, refuses new ones (503), then exits with 0
})
