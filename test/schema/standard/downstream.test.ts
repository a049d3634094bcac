/**
 * Features downstream of a contract take a tool written with zod like any other: a task runs
 * it (zod validates the arguments before the handoff, its output is the task's result),
 * claims fill its arguments from the caller's token (left out of the listed schema, checked
 * against the schema zod wrote), and a manifest written from it keeps its execution policy (`ask`: the
 * review form is built from the JSON Schema zod wrote; `disabled`: not listed).
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { emcp, inMemoryClient, mcpServer, tasks, type Identity, type Session } from '../../../src/index.js'
import { fromManifest, toManifest } from '../../../src/sources/manifest/index.js'
import { send, waitFor } from '../../features/tasks/support.js'
import { sendTo, sessionOf } from '../../support/dispatch.js'

describe('tasks take a zod tool', () => {
  const job = emcp({
    name: 'job',
    description: 'A long job (zod).',
    input: z.object({ n: z.number().int().positive(), label: z.string().default('job') }),
    output: z.object({ line: z.string() }),
    taskSupport: 'required',
  })
  let release: () => void = () => {}
  const gate = new Promise<void>((resolve) => (release = resolve))
  const server = mcpServer([job], { name: 't', version: '1' }, { features: [tasks()] }).implement({
    job: async ({ n, label }) => {
      await gate
      return { line: `${label} x${n}` }
    },
  })

  it('runs it as a task: zod defaults reach the handler, the task result is its structured output', async () => {
    const r = await send(server, 'tools/call', { name: 'job', arguments: { n: 2 } })
    expect(r.result).toMatchObject({ resultType: 'task', taskId: expect.any(String) })
    release()
    const done = await waitFor(server, r.result.taskId, 'completed')
    expect(done).toMatchObject({ status: 'completed', result: { structuredContent: { line: 'job x2' } } })
  })

  it("refuses arguments zod refuses before any task is made, with zod's message", async () => {
    const r = await send(server, 'tools/call', { name: 'job', arguments: { n: 0 } })
    expect(r.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Invalid arguments for tool job: /n: Too small: expected number to be >0' }] })
    expect(r.result).not.toHaveProperty('taskId')
  })
})

describe('claims take a zod tool', () => {
  const orders = emcp({
    name: 'orders',
    description: "The caller's orders (zod).",
    input: z.object({ userId: z.string().min(3, 'user id too short'), limit: z.number().int().default(10) }),
    output: z.object({ who: z.string(), limit: z.number() }),
    claims: { userId: 'sub' },
  })
  const server = mcpServer([orders], { name: 'c', version: '1' }).implement({ orders: ({ userId, limit }) => ({ who: userId, limit }) })
  const send_ = sendTo(server)
  const caller = (sub: string): Session => sessionOf({ subject: sub, roles: [], claims: { sub } as Identity['claims'] })

  it('leaves the claim out of the listed schema zod wrote, fills it from the token, and refuses a claim the schema refuses', async () => {
    const tools = ((await send_(caller('alice'), 'tools/list', {})).result as { tools: Array<{ inputSchema: { properties: object; required?: unknown } }> }).tools
    expect(tools[0]?.inputSchema.properties).toEqual({ limit: { type: 'integer', default: 10, minimum: expect.any(Number), maximum: expect.any(Number) } })
    expect(tools[0]?.inputSchema).not.toHaveProperty('required')
    expect((await send_(caller('alice'), 'tools/call', { name: 'orders', arguments: { limit: 2 } })).result).toMatchObject({ structuredContent: { who: 'alice', limit: 2 } })
    // a claim the schema refuses is the caller's lack of a right, as for a literal: -32003 naming the argument
    expect((await send_(caller('al'), 'tools/call', { name: 'orders', arguments: {} })).error).toMatchObject({ code: -32003, data: { argument: 'userId' } })
    const sent = (await send_(caller('alice'), 'tools/call', { name: 'orders', arguments: { userId: 'mallory' } })).result as { isError: boolean; content: Array<{ text: string }> }
    expect(sent.isError).toBe(true)
    expect(sent.content[0]?.text).toMatch(/userId: filled from the caller's token; do not send it/)
  })
})

describe('execution policies take a zod tool through its manifest', () => {
  const input = z.object({ table: z.string().min(1).describe('The table'), rows: z.number().int().describe('How many rows') })
  const drop = emcp({ name: 'drop', description: 'Drops rows (zod).', input, _meta: { 'emcp/policy': 'ask' } })
  const wipe = emcp({ name: 'wipe', description: 'Wipes (zod).', input, _meta: { 'emcp/policy': 'disabled' } })
  const manifest = toManifest(mcpServer([drop, wipe], { name: 'p', version: '1' }).implement({ drop: () => 'x', wipe: () => 'x' }))

  it('asks with a review form built from the JSON Schema zod wrote, and runs the reviewed arguments', async () => {
    const asked: unknown[] = []
    const server = fromManifest(manifest as never, { drop: ({ table, rows }: { table: string; rows: number }) => `dropped ${rows} from ${table}` } as never)
    const client = inMemoryClient(server, {
      protocolVersion: '2026-07-28',
      capabilities: { elicitation: { form: {} } },
      answer: (request) => {
        asked.push(request.params)
        return { action: 'accept', content: { table: 'orders', rows: 5 } }
      },
    })
    expect((await client.list()).map((t) => t.name)).toEqual(['drop'])
    const r = await client.callResult('drop' as never, { table: 'orders', rows: 50 } as never)
    expect(r.content).toEqual([{ type: 'text', text: 'dropped 5 from orders' }])
    expect(asked).toHaveLength(1)
    expect(asked[0]).toMatchObject({ requestedSchema: { type: 'object', properties: { table: { type: 'string', description: 'The table', default: 'orders' }, rows: { type: 'integer', default: 50 } } } })
  })
})
