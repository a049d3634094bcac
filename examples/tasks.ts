/**
 * Long-running calls with the tasks extension (`io.modelcontextprotocol/tasks`): a report
 * that takes a few seconds, and a purge that asks for confirmation half way. The handlers
 * are ordinary handlers; for a 2026-07-28 client that declared the extension, a call that
 * waits becomes a task the client polls (`tasks/get`), answers (`tasks/update`) or cancels
 * (`tasks/cancel`). Every other client gets the same tools answered inline. docs/tasks.md
 * walks through it.
 *
 *   node dist/examples/tasks.js            # HTTP on http://127.0.0.1:3000/mcp (PORT to change)
 *   node dist/examples/tasks.js --stdio
 */
import { emcp, mcpServer, tasks } from 'emcp'
import { serveHttp } from 'emcp/http'
import { serveStdio } from 'emcp/stdio'
import { portOf, runMain } from './main.js'

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('stopped: the task was cancelled'))), { once: true })
  })

export const report = emcp({
  name: 'report',
  description: 'Build a report over the given number of days (takes a second per day).',
  input: { type: 'object', properties: { days: { type: 'integer', minimum: 1, maximum: 30 } }, required: ['days'] },
  output: { type: 'object', properties: { days: { type: 'integer' }, total: { type: 'number' } }, required: ['days', 'total'] },
  annotations: { readOnlyHint: true },
  taskSupport: 'optional',
})

export const purge = emcp({
  name: 'purge',
  description: 'Delete the entries older than the given date, after the user confirms; runs only as a task.',
  input: { type: 'object', properties: { before: { type: 'string', format: 'date' } }, required: ['before'] },
  annotations: { destructiveHint: true },
  taskSupport: 'required',
})

/** The task bounds: tasks are kept ten minutes, 100 at most; clients poll every half second. */
export const longRunning = tasks({ ttlMs: 600_000, maxTasks: 100, pollIntervalMs: 500 })

export const server = mcpServer([report, purge], { name: 'reports', version: '1.0.0' }, { features: [longRunning] }).implement({
  report: async ({ days }, ctx) => {
    let total = 0
    for (let day = 1; day <= days; day++) {
      await sleep(1000, ctx.signal)
      total += day * 1.5
      ctx.progress(day, days, `day ${day} of ${days}`) // a task shows this as its statusMessage
    }
    return { days, total }
  },
  purge: async ({ before }, ctx) => {
    await sleep(200, ctx.signal) // counting what would go
    const answer = await ctx.elicit({
      message: `Delete 42 entries older than ${before}?`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    })
    if (answer.action !== 'accept' || !answer.content.confirm) return 'Nothing deleted.'
    await sleep(500, ctx.signal)
    return `Deleted 42 entries older than ${before}.`
  },
})

const usage = `Tools that run as tasks (2025-11-25 tasks, the 2026-07-28 extension).

  node dist/examples/tasks.js            over HTTP on http://127.0.0.1:3000/mcp (PORT to change)
  node dist/examples/tasks.js --stdio`

runMain(import.meta.url, { usage, options: { stdio: { type: 'boolean' } } }, async ({ stdio }) => {
  if (stdio === true) return serveStdio(server)
  const running = await serveHttp(server, { port: portOf(process.env.PORT, 3000, 'PORT') })
  // SIGTERM or SIGINT: serveHttp answers the calls in flight, refuses new ones (503), then exits with 0
  console.log(`tasks example listening on ${running.url}`)
})
