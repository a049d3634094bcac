/**
 * Composition: three servers folded into one shop. The calculator is mounted whole; a billing
 * server under `billing`, its `charge` renamed `pay`, its currency fixed and its tenant taken
 * from the caller's token, its result narrowed; an ops server under `ops`, its `admin`-tagged
 * tools shown only to callers holding the `ops:admin` scope and its `beta` ones to nobody. The
 * prompts and resources of billing mount too; a reports server under `reports` runs its long
 * report as a task (the tasks extension), which 2026-07-28 clients poll and cancel through the
 * shop. Served like any server, over stdio or HTTP, to
 * clients of both eras; with `--search`, in tool-search mode (search_tools over the whole's
 * namespaced tools, call_tool routed to the part, billing_pay pinned).
 *
 *   node dist/examples/compose.js --stdio [--search]
 *   node dist/examples/compose.js --http --port 3000 [--host 127.0.0.1] [--search]
 */
import { emcp, mcpServer, mount, mounted, prompt, prompts, resource, resources, tasks } from 'emcp'
import { serveHttp } from 'emcp/http'
import { serveStdio } from 'emcp/stdio'
import { calculator } from './calculator.js'
import { portOf, runMain } from './main.js'

/** Charges an amount to a tenant. */
export const charge = emcp({
  name: 'charge',
  description: 'Charge an amount, in cents, to a tenant.',
  input: {
    type: 'object',
    properties: { cents: { type: 'integer', minimum: 1 }, currency: { type: 'string' }, tenant: { type: 'string' }, note: { type: 'string' } },
    required: ['cents', 'currency', 'tenant', 'note'],
    additionalProperties: false,
  },
  output: { type: 'object', properties: { receipt: { type: 'string' }, ledger: { type: 'string' } }, required: ['receipt', 'ledger'] },
  annotations: { destructiveHint: true },
})

/** The billing server: one tool, an invoice prompt, and its terms as a resource. */
export const billing = mcpServer([charge], { name: 'billing', version: '1.0.0' }, {
  features: [
    prompts([prompt({ name: 'invoice', description: 'Draft an invoice.', arguments: { customer: { description: 'Who pays', required: true } }, get: ({ customer }) => `Draft an invoice for ${customer}.` })]),
    resources([resource({ uri: 'billing://terms', name: 'terms', description: 'Payment terms.', mimeType: 'text/plain', read: () => 'Pay within 30 days.' })]),
  ],
}).implement({
  charge: ({ cents, currency, tenant, note }) => ({ receipt: `${tenant}-${cents}${currency}${note === '' ? '' : ` (${note})`}`, ledger: 'internal' }),
})

const status = emcp({ name: 'status', description: 'Service status.', input: { type: 'object' }, tags: ['public'], annotations: { readOnlyHint: true } })
const restart = emcp({ name: 'restart', description: 'Restart the service.', input: { type: 'object' }, tags: ['admin'] })
const beta = emcp({ name: 'beta', description: 'An experiment.', input: { type: 'object' }, tags: ['beta'] })

/** The ops server: tools tagged by audience. */
export const ops = mcpServer([status, restart, beta], { name: 'ops', version: '1.0.0' }).implement({
  status: () => 'all systems go',
  restart: () => 'restarting',
  beta: () => 'experimental',
})

const report = emcp({ name: 'report', description: 'Build the monthly report (takes a few seconds).', input: { type: 'object' }, taskSupport: 'optional' })

/** The reports server: a slow tool that becomes a task for clients that declare the tasks extension. */
export const reports = mcpServer([report], { name: 'reports', version: '1.0.0' }, { features: [tasks({ ttlMs: 600_000 })] }).implement({
  report: async (_args, ctx) => {
    for (const step of [1, 2, 3]) {
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      // with a progress token: progress, and once the call is a task, its statusMessage; tasks/cancel aborts the signal
      ctx.signal.throwIfAborted()
      ctx.progress(step, 3, `step ${step} of 3`)
    }
    return 'report ready'
  },
})

/** The shop: add and echo as they are, billing_pay, billing_invoice, ops_status, (for admins) ops_restart, and reports_report. */
export const shop = mount(
  [
    calculator,
    mounted(billing, 'billing', {
      tools: {
        charge: {
          name: 'pay',
          description: 'Pay for the basket, in euro cents.',
          hide: { currency: 'EUR', tenant: (ctx) => String(ctx.claims.tenant ?? ctx.identity?.subject ?? 'guest') },
          defaults: { note: '' },
          pick: ['receipt'],
        },
      },
    }),
    mounted(ops, 'ops', { exclude: ['beta'], enabled: (ctx) => !ctx.tags.includes('admin') || ctx.scopes.includes('ops:admin') }),
    mounted(reports, 'reports'),
  ],
  { name: 'shop', version: '1.0.0' },
  { instructions: 'A shop: arithmetic, payments and operations.' },
)

const usage = `A shop mounted from the calculator, a billing server and an ops server.

  node dist/examples/compose.js [--stdio] [--search]
  node dist/examples/compose.js --http [--port 3000] [--host 127.0.0.1] [--search]

  --search   tool-search mode: search_tools, call_tool and billing_pay listed`

const options = { stdio: { type: 'boolean' }, http: { type: 'boolean' }, search: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' } } as const

runMain(import.meta.url, { usage, options }, async ({ http, port, host, search }) => {
  if (search === true) shop.setToolSearch({ pinned: ['billing_pay'] })
  if (http === true) {
    const running = await serveHttp(shop, { port: portOf(port, 3000), host })
    process.stderr.write(`listening on ${running.url}\n`)
  } else await serveStdio(shop)
})
