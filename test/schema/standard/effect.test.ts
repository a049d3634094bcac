/**
 * effect's Schema (4.x) as a tool's slots: `Schema.toStandardSchemaV1` gives it a validator and
 * `Schema.toStandardJSONSchemaV1` its JSON Schema form; both together fit a slot. A bare
 * effect schema, which has neither, is refused saying what to wrap it in.
 */
import { Schema } from 'effect'
import { describe, expect, it } from 'vitest'
import { emcp, inMemoryClient, mcpServer } from '../../../src/index.js'

const standard = <S extends Schema.Top & Schema.ConstraintDecoder<unknown>>(s: S) => Schema.toStandardJSONSchemaV1(Schema.toStandardSchemaV1(s))

const person = emcp({
  name: 'person',
  description: 'Describe a person (effect).',
  input: standard(Schema.Struct({ name: Schema.String, age: Schema.optional(Schema.Number) })),
  output: standard(Schema.Struct({ line: Schema.String })),
})
const server = mcpServer([person], { name: 'e', version: '1' }).implement({ person: ({ name, age }) => ({ line: age === undefined ? name : `${name}, ${age}` }) })

describe('effect Schema', () => {
  it.each(['2025-11-25', '2026-07-28'] as const)('validates with effect and lists its JSON Schema (%s)', async (era) => {
    const c = inMemoryClient(server, { protocolVersion: era })
    expect((await c.list())[0]?.inputSchema).toMatchObject({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] })
    expect((await c.callResult('person', { name: 1 } as never)).content).toEqual([{ type: 'text', text: 'Invalid arguments for tool person: /name: Expected string' }])
    await expect(c.call('person', { name: 'Ada', age: 36 })).resolves.toEqual({ line: 'Ada, 36' })
  })

  it('refuses a bare effect schema, saying what to wrap it in', () => {
    expect(() => emcp({ name: 'bare', description: 'Bare.', input: Schema.Struct({ name: Schema.String }) as never })).toThrow(
      /emcp: tool bare: the input schema is not a JSON Schema literal: it is an effect schema without "~standard": wrap it with Schema.toStandardJSONSchemaV1\(Schema.toStandardSchemaV1\(schema\)\)/,
    )
  })
})
