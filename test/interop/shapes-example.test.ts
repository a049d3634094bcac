/**
 * examples/shapes.ts, built and run as a child process over stdio, driven by the official
 * SDK 1.x client: the tool lists the JSON Schema assembled from its raw shape, the prompt
 * lists its shape's properties as arguments and refuses what zod refuses, and `book_trip`
 * asks the client for the form its raw shape stands for, spelt as MCP's form schema has it,
 * and types the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { connectStdio, example, texts, type Connection } from './children.js'

let answer: { readonly action: 'accept' | 'decline'; readonly content?: Record<string, unknown> } = { action: 'decline' }
const asked: Array<{ readonly message?: unknown; readonly requestedSchema?: unknown }> = []

describe('examples/shapes over stdio, official SDK 1.x client', () => {
  let c: Connection

  beforeAll(async () => {
    const client = new Client({ name: 'shapes-example', version: '1' }, { capabilities: { elicitation: { form: {} } } })
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params as never)
      return answer as never
    })
    c = await connectStdio(example('shapes'), [], {}, client)
  })

  afterAll(async () => {
    await c?.dispose()
  })

  it("lists the tool's schemas and the prompt's arguments from the raw shapes", async () => {
    const [tools, prompts] = await Promise.all([c.client.listTools(), c.client.listPrompts()])
    expect(tools.tools[0]?.inputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string', minLength: 2, description: 'Where to' }, nights: { type: 'integer', minimum: 1, maximum: 30, default: 3 } },
      required: ['city'],
      additionalProperties: false,
    })
    expect(prompts.prompts).toEqual([
      {
        name: 'plan_trip',
        description: 'Ask the model to plan a trip.',
        arguments: [{ name: 'city', description: 'Where to', required: true }, { name: 'days' }, { name: 'pace', description: 'How busy the days are', required: true }],
      },
    ])
  })

  it("gets the prompt with zod's output, and refuses what zod and arktype refuse", async () => {
    const p = await c.client.getPrompt({ name: 'plan_trip', arguments: { city: 'Oslo', days: '4', pace: 'slow' } })
    expect(p.messages[0]?.content).toEqual({ type: 'text', text: 'Plan 4 slow days in Oslo.' })
    await expect(c.client.getPrompt({ name: 'plan_trip', arguments: { city: 'Oslo', days: 'four', pace: 'lazy' } })).rejects.toThrow(
      /prompt plan_trip: invalid arguments: \/days: days must be digits; \/pace: /,
    )
  })

  it('asks for the form as MCP spells it, and books with the typed answer', async () => {
    asked.length = 0
    answer = { action: 'accept', content: { name: 'Ada', pace: 'fast', room: 'double' } }
    const r = await c.client.callTool({ name: 'book_trip', arguments: { city: 'Oslo' } })
    expect(r.structuredContent).toEqual({ booked: true, summary: 'Ada: 3 fast nights in Oslo, double room' })
    expect(asked[0]).toMatchObject({ message: 'Who travels to Oslo?' })
    expect(asked[0]?.requestedSchema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 2, description: 'Your name' },
        pace: { type: 'string', enum: ['fast', 'slow'], description: 'How busy the days are' }, // arktype's order,
        room: { type: 'string', enum: ['single', 'double'] },
      },
      required: ['name', 'pace'],
    })
  })

  it("refuses an answer the form's libraries refuse, and books nothing on decline", async () => {
    answer = { action: 'accept', content: { name: 'A', pace: 'fast' } }
    const bad = await c.client.callTool({ name: 'book_trip', arguments: { city: 'Oslo' } })
    expect(bad.isError).toBe(true)
    expect(texts(bad.content).join('\n')).toMatch(/does not match the requested form: \/name: a name has at least two letters/)
    answer = { action: 'decline' }
    const declined = await c.client.callTool({ name: 'book_trip', arguments: { city: 'Oslo', nights: 2 } })
    expect(declined.structuredContent).toEqual({ booked: false, summary: 'not booked (decline)' })
  })
})
