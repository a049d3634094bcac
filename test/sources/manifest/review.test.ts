/**
 * `ask` tools: the user reviews, and may edit, the model's arguments before the tool runs.
 * The form (reviewForm), then whole calls through fromManifest in both eras: edits reach the
 * handler after a second validation, decline and cancel say so, arguments a flat form cannot
 * carry get a yes/no question with the JSON, wire codecs show their text.
 */
import { describe, expect, it } from 'vitest'
import { encode, inMemoryClient, newSession, type Server } from '../../../src/index.js'
import { geometryWkt, toWkt, type Geometry } from '../../../src/codecs/geometry.js'
import { fromManifest, reviewForm, type Manifest, type Review } from '../../../src/sources/manifest/index.js'
import { wired } from '../../support/wired.js'

const report = {
  name: 'send_report',
  title: 'Send a weather report',
  description: 'Email the forecast of a city.',
  inputSchema: {
    type: 'object',
    properties: {
      to: { type: 'string', format: 'email', description: 'Who gets it.' },
      city: { type: 'string', pattern: '^[A-Z]', minLength: 2 },
      days: { type: 'integer', minimum: 1, maximum: 14 },
      units: { type: 'string', enum: ['metric', 'imperial'] },
      urgent: { type: 'boolean' },
    },
    required: ['to', 'city', 'days'],
    additionalProperties: false,
  },
  _meta: { SMSS_MCP_EXECUTION: 'ask' },
} as const

const alerts = {
  name: 'schedule_alerts',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' }, range: { type: 'object', properties: { low: { type: 'number' }, high: { type: 'number' } } } },
    required: ['city', 'range'],
  },
  _meta: { SMSS_MCP_EXECUTION: 'ask' },
} as const

const manifest = { tools: [report, alerts] } as const

const proposal = { to: 'ada@example.com', city: 'Oslo', days: 3 }

/** A server whose handlers record the arguments they ran with. */
const recording = (options: Parameters<typeof fromManifest>[2] = {}) => {
  const ran: unknown[] = []
  const server = fromManifest(
    manifest,
    {
      send_report: (args) => (ran.push(args), `sent ${args.days} days of ${args.city} to ${args.to}`),
      schedule_alerts: (args) => (ran.push(args), `alerts for ${args.city}`),
    },
    options,
  )
  return { server, ran }
}

/** Calls a tool over a 2025-11-25 session and answers its elicitation with `answer`. */
const callAnswering = async (server: Server, name: string, args: object, answer: (params: any) => Record<string, unknown>) => {
  const w = await wired(server, { elicitation: { form: {} } })
  const question = w.asked()
  const call = w.request('tools/call', { name, arguments: args }) as Promise<{ result: { isError?: boolean; content: Array<{ text: string }> } }>
  const ask = (await question) as unknown as { id: number; params: any }
  await w.answer(ask.id, answer(ask.params))
  return { params: ask.params, result: (await call).result }
}

describe('reviewForm', () => {
  it('is the input schema as a flat form: the keywords a form knows, the proposal as defaults', () => {
    expect(reviewForm(report.inputSchema, proposal)).toEqual({
      type: 'object',
      properties: {
        to: { type: 'string', format: 'email', description: 'Who gets it.', default: 'ada@example.com' },
        // pattern is no form keyword: the edited value is checked against it after the review
        city: { type: 'string', minLength: 2, default: 'Oslo' },
        days: { type: 'integer', minimum: 1, maximum: 14, default: 3 },
        units: { type: 'string', enum: ['metric', 'imperial'] },
        urgent: { type: 'boolean' },
      },
      required: ['to', 'city', 'days'],
    })
  })

  it('keeps multi-selects, titled choices and schema defaults; a nullable field whose value is not null is its type', () => {
    const form = reviewForm(
      {
        type: 'object',
        properties: {
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 2 },
          size: { type: 'string', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }], default: 'l' },
          note: { type: ['string', 'null'], format: 'regex' },
        },
      },
      { tags: ['a'], note: 'hi' },
    )
    expect(form?.properties).toEqual({
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 2, default: ['a'] },
      size: { type: 'string', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }], default: 'l' },
      note: { type: 'string', default: 'hi' },
    })
  })

  it('is undefined when a flat form cannot carry the arguments: objects, free arrays, compositions, arguments it has no field for', () => {
    expect(reviewForm(alerts.inputSchema, { city: 'Oslo', range: { low: 0, high: 20 } })).toBeUndefined()
    expect(reviewForm({ type: 'object', properties: { xs: { type: 'array', items: { type: 'number' } } } }, {})).toBeUndefined()
    expect(reviewForm({ type: 'object', properties: { x: { anyOf: [{ type: 'string' }, { type: 'number' }] } } }, {})).toBeUndefined()
    expect(reviewForm({ type: 'object', properties: { x: { $ref: '#/$defs/x' } }, $defs: { x: { type: 'string' } } }, {})).toBeUndefined()
    expect(reviewForm({ type: 'object', properties: { a: { type: 'string' } } }, { a: 'x', extra: 1 })).toBeUndefined()
    expect(reviewForm({ type: 'object', properties: { n: { type: ['number', 'null'] } } }, { n: null })).toBeUndefined()
  })
})

describe('ask: the user reviews the arguments (2025-11-25 elicitation)', () => {
  it('the form shows the proposal; the tool runs with what the user submitted', async () => {
    const { server, ran } = recording()
    const { params, result } = await callAnswering(server, 'send_report', proposal, () => ({ action: 'accept', content: { ...proposal, days: 5, units: 'imperial' } }))
    expect(params.mode).toBe('form')
    expect(params.message).toContain('"Send a weather report" is about to run')
    expect(params.message).toContain('send_report: Email the forecast of a city.')
    expect(params.requestedSchema.properties.days.default).toBe(3)
    expect(result).toEqual({ content: [{ type: 'text', text: 'sent 5 days of Oslo to ada@example.com' }] })
    expect(ran).toEqual([{ ...proposal, days: 5, units: 'imperial' }])
  })

  it('the edited arguments are validated again, against the whole input schema: a value the form could not forbid is an isError', async () => {
    const { server, ran } = recording()
    const { result } = await callAnswering(server, 'send_report', proposal, () => ({ action: 'accept', content: { ...proposal, city: 'oslo' } }))
    expect(result.isError).toBe(true)
    expect(result.content[0]!.text).toBe('Invalid arguments for tool send_report, as the user reviewed them: /city: must match pattern "^[A-Z]"')
    expect(ran).toEqual([])
  })

  it('an answer that does not fit the form is an isError, and the tool does not run', async () => {
    const { server, ran } = recording()
    const { result } = await callAnswering(server, 'send_report', proposal, () => ({ action: 'accept', content: { ...proposal, days: 99 } }))
    expect(result.isError).toBe(true)
    expect(result.content[0]!.text).toMatch(/^tool send_report runs only after the user has reviewed its arguments, and the review could not be done: the client's answer does not match the requested form: \/days/)
    expect(ran).toEqual([])
  })

  it('an answer keeps to the form: a field it did not show is not passed on', async () => {
    const { server, ran } = recording()
    const { result } = await callAnswering(server, 'send_report', proposal, () => ({ action: 'accept', content: { ...proposal, cc: 'eve@example.com' } }))
    expect(result.isError).toBeUndefined()
    expect(ran).toEqual([proposal])
  })

  it('decline and cancel are isError results that say so', async () => {
    const { server, ran } = recording()
    const declined = await callAnswering(server, 'send_report', proposal, () => ({ action: 'decline' }))
    expect(declined.result).toEqual({ isError: true, content: [{ type: 'text', text: 'the user did not allow tool send_report to run' }] })
    const cancelled = await callAnswering(server, 'send_report', proposal, () => ({ action: 'cancel' }))
    expect(cancelled.result).toEqual({ isError: true, content: [{ type: 'text', text: 'the user cancelled the review of tool send_report; it did not run' }] })
    expect(ran).toEqual([])
  })

  it('arguments a flat form cannot carry: a yes/no question showing them as JSON; yes runs them unchanged', async () => {
    const { server, ran } = recording()
    const args = { city: 'Oslo', range: { low: -5, high: 25 } }
    const yes = await callAnswering(server, 'schedule_alerts', args, () => ({ action: 'accept', content: { allow: true } }))
    expect(yes.params.requestedSchema).toEqual({ type: 'object', properties: { allow: { type: 'boolean', title: 'Run schedule_alerts', description: '' } }, required: ['allow'] })
    expect(yes.params.message).toContain(JSON.stringify(args, null, 2))
    expect(yes.result.content).toEqual([{ type: 'text', text: 'alerts for Oslo' }])
    const no = await callAnswering(server, 'schedule_alerts', args, () => ({ action: 'accept', content: { allow: false } }))
    expect(no.result).toEqual({ isError: true, content: [{ type: 'text', text: 'the user did not allow tool schedule_alerts to run' }] })
    expect(ran).toEqual([args])
  })

  it('a client that cannot elicit gets an isError result, never a silent run', async () => {
    const { server, ran } = recording()
    const noCapability = await wired(server, {})
    const r = (await noCapability.request('tools/call', { name: 'send_report', arguments: proposal })) as { result: { isError: boolean; content: Array<{ text: string }> } }
    expect(r.result.isError).toBe(true)
    expect(r.result.content[0]!.text).toBe(
      'tool send_report runs only after the user has reviewed its arguments, and the review could not be done: the client did not declare the "elicitation.form" capability, so elicitation/create cannot be sent',
    )
    expect(ran).toEqual([])
  })

  it('wire codecs: the form shows the text the model sent, and the handler gets the edited value decoded', async () => {
    const geo = {
      tools: [
        {
          name: 'buffer',
          inputSchema: { type: 'object', properties: { shape: { type: 'string' } }, required: ['shape'] },
          _meta: { 'emcp/dispatch': { arguments: { shape: 'geometry/wkt' } }, 'emcp/policy': 'ask' },
        },
      ],
    } as const
    const server = fromManifest(geo, { buffer: ({ shape }: { shape: Geometry }) => toWkt(shape) }, { codecs: { 'geometry/wkt': geometryWkt } })
    const { params, result } = await callAnswering(server, 'buffer', { shape: 'POINT (1 2)' }, () => ({ action: 'accept', content: { shape: 'POINT (3 4)' } }))
    expect(params.requestedSchema.properties.shape.default).toBe('POINT (1 2)')
    expect(result.content).toEqual([{ type: 'text', text: 'POINT (3 4)' }])
  })

  it('the review can be replaced (review option), and what it returns is validated like any edit', async () => {
    const seen: unknown[] = []
    const review: Review = async (tool, args) => (seen.push([tool.name, args]), { run: true, arguments: { ...args, days: 7 } })
    const { server, ran } = recording({ review })
    const r = await inMemoryClient(server).callResult('send_report', proposal)
    expect(r.content).toEqual([{ type: 'text', text: 'sent 7 days of Oslo to ada@example.com' }])
    expect(seen).toEqual([['send_report', proposal]])
    const refused = recording({ review: async () => ({ run: false, reason: 'outside office hours' }) })
    expect(await inMemoryClient(refused.server).callResult('send_report', proposal)).toEqual({ isError: true, content: [{ type: 'text', text: 'outside office hours' }] })
    expect([...ran, ...refused.ran]).toEqual([{ ...proposal, days: 7 }])
  })
})

describe('ask: the user reviews the arguments (2026-07-28 input_required)', () => {
  const V = '2026-07-28'
  const caps = { elicitation: { form: {} } }
  let id = 1
  const call = async (server: Server, params: Record<string, unknown>) => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': caps }
    const out = await server.dispatch({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { ...params, _meta: meta } }, newSession())()
    return JSON.parse(encode((out as unknown as { value: never }).value)) as { result: any }
  }

  it('the form is the question of an input_required result; the retry with the edited arguments runs the tool with them', async () => {
    const { server, ran } = recording({ requestState: { key: 'a review test key of enough length' } })
    const params = { name: 'send_report', arguments: proposal }
    const first = await call(server, params)
    expect(first.result.resultType).toBe('input_required')
    const [key, question] = Object.entries(first.result.inputRequests)[0] as [string, { method: string; params: any }]
    expect(question.method).toBe('elicitation/create')
    expect(question.params.requestedSchema.properties.city).toEqual({ type: 'string', minLength: 2, default: 'Oslo' })
    const edited = { ...proposal, city: 'Bergen' }
    const retry = await call(server, { ...params, requestState: first.result.requestState, inputResponses: { [key]: { action: 'accept', content: edited } } })
    expect(retry.result.content).toEqual([{ type: 'text', text: 'sent 3 days of Bergen to ada@example.com' }])
    const cancelled = await call(server, { ...params, requestState: first.result.requestState, inputResponses: { [key]: { action: 'cancel' } } })
    expect(cancelled.result).toMatchObject({ isError: true, content: [{ text: 'the user cancelled the review of tool send_report; it did not run' }] })
    expect(ran).toEqual([edited])
  })
})

/** The manifest as a plain value, to make sure the const one above is one too. */
export const asManifest: Manifest = manifest
