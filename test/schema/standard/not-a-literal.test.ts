/**
 * Nothing that is not a JSON Schema passes for one: another library's schema object, and a
 * literal with a keyword JSON Schema does not have (a typo validates nothing), are refused
 * when the contract is made (`emcp`, `runtimeTool`), and warned about in manifests
 * (`fromManifest`, `emcp validate`), errors under `strict` / `--strict`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { emcp, inMemoryClient, mcpServer, runtimeTool } from '../../../src/index.js'
import { fromManifest, validateManifest } from '../../../src/sources/manifest/index.js'
import { runCli, type CommandIO } from '../../../src/cli/index.js'

describe('another library\'s schema is never taken for a literal', () => {
  it('a bare valibot object (no JSON Schema form) is refused, saying what to pass, not served as its internals', () => {
    const input = v.object({ title: v.string() })
    expect(() => emcp({ name: 'post', description: 'Post.', input })).toThrow(
      'emcp: tool post: the input schema (valibot) has no JSON Schema form (Standard JSON Schema, "~standard.jsonSchema"): wrap it with toStandardJsonSchema() from @valibot/to-json-schema',
    )
    expect(() => runtimeTool({ name: 'post', input: input as never })).toThrow(/wrap it with toStandardJsonSchema\(\)/)
  })

  it('an object that looks like zod or valibot but is not a Standard Schema is refused', () => {
    const zodLike = { type: 'object', _def: { type: 'object' } }
    expect(() => runtimeTool({ name: 'a', input: zodLike })).toThrow('emcp: tool a: the input schema is not a JSON Schema literal: it is a zod schema without "~standard"')
    const valibotLike = { kind: 'schema', type: 'object', expects: 'Object', entries: {} }
    expect(() => runtimeTool({ name: 'b', input: valibotLike })).toThrow('emcp: tool b: the input schema is not a JSON Schema literal: it is a valibot schema without "~standard"')
    const broken = { type: 'object', '~standard': { version: 2 } }
    expect(() => runtimeTool({ name: 'c', input: broken })).toThrow(/carries "~standard" but is not a Standard Schema v1/)
  })

  it('a raw zod shape (as the official SDK takes) is taken as one; a literal with a schema among its values is refused', () => {
    const raw = runtimeTool({ name: 'raw', input: { a: z.string(), b: z.number() } })
    expect(raw.inputSchema).toMatchObject({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false })
    expect(() => runtimeTool({ name: 'mixed', input: { type: 'object', a: z.string() } as never })).toThrow(
      'emcp: tool mixed: the input schema is not a JSON Schema literal: its property "a" is a schema of its own: a shape (as the official SDK takes) has a Standard Schema as every value, and a JSON Schema literal none: make every property a schema, or write the whole literal',
    )
  })

  it('a schema of another library as a root value the quick walk does not enter (data, annotation, a function) is refused all the same', async () => {
    const { type } = await import('arktype')
    const refused = /is not a JSON Schema literal: its property "(default|x-note|additionalProperties|examples)" is a (schema of its own|tuple around a schema)/
    expect(() => emcp({ name: 'd', input: { type: 'object', default: z.string() } as never })).toThrow(refused)
    expect(() => emcp({ name: 'x', input: { type: 'object', 'x-note': z.string() } as never })).toThrow(refused)
    expect(() => emcp({ name: 'f', input: { type: 'object', additionalProperties: type('string') } as never })).toThrow(refused)
    expect(() => emcp({ name: 't', input: { type: 'object', examples: [z.string(), '!'] } as never })).toThrow(refused)
    // deeper than the root, data is data and a plain literal is served as it is
    const plain = emcp({ name: 'p', input: { type: 'object', properties: { a: { type: 'string', default: 'x', examples: [['a', '?']] } }, default: { a: 'x' } } })
    expect(plain.inputSchema).toEqual({ type: 'object', properties: { a: { type: 'string', default: 'x', examples: [['a', '?']] } }, default: { a: 'x' } })
  })

  it('a schema of another library (or a function) inside a literal, where a schema belongs, is refused with its path, not published through its toJSON', async () => {
    const { type } = await import('arktype')
    const foreign = 'a schema of another library (or a function) where a JSON Schema belongs'
    expect(() => emcp({ name: 'p', input: { type: 'object', properties: { a: type('string') } } as never })).toThrow(`emcp: tool p: the input schema: ${foreign}`)
    expect(() => emcp({ name: 'p', input: { type: 'object', properties: { a: type('string') } } as never })).toThrow(/\(at \/properties\/a\)/)
    expect(() => emcp({ name: 'i', input: { type: 'object', properties: { l: { type: 'array', items: type('number') } } } as never })).toThrow(/\(at \/properties\/l\/items\)/)
    expect(() => emcp({ name: 'z', input: { type: 'object', properties: { a: z.string() } } as never })).toThrow(/\(at \/properties\/a\)/)
    expect(() => runtimeTool({ name: 'o', input: { type: 'object' }, output: { type: 'object', properties: { n: { anyOf: [{ type: 'string' }, () => 1] } } } as never })).toThrow(/the output schema: .*\(at \/properties\/n\/anyOf\/1\)/)
    // a function under data or an annotation is no schema's place: not looked into
    expect(emcp({ name: 'd', input: { type: 'object', properties: { a: { type: 'string', 'x-make': () => 'a' } } } as never }).name).toBe('d')
  })

  it('a mark of another library that no enumerable key shows (inherited, hidden) is still found', () => {
    const hidden = Object.defineProperty({ type: 'object' }, '_def', { value: {}, enumerable: false })
    expect(() => runtimeTool({ name: 'h', input: hidden })).toThrow('emcp: tool h: the input schema is not a JSON Schema literal: it is a zod schema without "~standard"')
    const inherited = Object.create({ '~standard': { version: 2 } }, { type: { value: 'object', enumerable: true } })
    expect(() => runtimeTool({ name: 'i', input: inherited })).toThrow(/carries "~standard" but is not a Standard Schema v1/)
  })

  it('a zod schema is validated by zod even though it has encode and decode (never taken for an io-ts codec)', async () => {
    const t = emcp({ name: 'n', description: 'N.', input: z.object({ n: z.coerce.number() }), output: z.object({ twice: z.number() }) })
    const c = inMemoryClient(mcpServer([t], { name: 's', version: '1' }).implement({ n: ({ n }) => ({ twice: 2 * n }) }))
    await expect(c.call('n', { n: '21' as never })).resolves.toEqual({ twice: 42 })
  })
})

describe('an unknown keyword in a literal', () => {
  it('is refused by emcp with the nearest keyword and its path', () => {
    const input = { type: 'object', properties: { a: { type: 'string' } }, requird: ['a'] } as const
    expect(() => emcp({ name: 't', description: 'T.', input: input as never })).toThrow(
      'emcp: tool t: the input schema: unknown JSON Schema keyword "requird" (did you mean "required"?) (at /requird)',
    )
  })

  it('is found in subschemas, not in property names or data', () => {
    const input = {
      type: 'object',
      properties: { minLenght: { type: 'string', minLenght: 3 }, list: { type: 'array', items: { anyOf: [{ type: 'string', patern: 'x' }] } } },
      default: { requird: 1 },
      'x-note': 'fine',
      $comment: 'fine',
    }
    expect(() => runtimeTool({ name: 't', input })).toThrow(
      'emcp: tool t: the input schema: unknown JSON Schema keyword "minLenght" (did you mean "minLength"?) (at /properties/minLenght/minLenght); unknown JSON Schema keyword "patern" (did you mean "pattern"?) (at /properties/list/items/anyOf/0/patern)',
    )
    expect(() => runtimeTool({ name: 'u', input: { type: 'object' }, output: { type: 'object', additionalProprties: false } })).toThrow(
      'emcp: tool u: the output schema: unknown JSON Schema keyword "additionalProprties" (did you mean "additionalProperties"?) (at /additionalProprties)',
    )
  })

  it('names no keyword when none is near, and clips a huge one', () => {
    const key = 'q'.repeat(100_000)
    let message = ''
    try {
      runtimeTool({ name: 't', input: { type: 'object', [key]: 1, banana: 2 } })
    } catch (e) {
      message = (e as Error).message
    }
    expect(message).toContain('unknown JSON Schema keyword "banana" (annotations start with "x-")')
    expect(message.length).toBeLessThan(1_000)
  })

  it('is accepted by every keyword JSON Schema 2020-12 defines', () => {
    const input = {
      $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'urn:t', type: 'object', title: 'T', description: 'd', deprecated: false,
      properties: { a: { type: 'string', minLength: 1, maxLength: 3, pattern: '^a', format: 'email', contentMediaType: 'text/plain', contentEncoding: 'base64' },
        n: { type: 'number', minimum: 0, maximum: 9, exclusiveMinimum: -1, exclusiveMaximum: 10, multipleOf: 1 },
        l: { type: 'array', prefixItems: [{}], items: {}, minItems: 0, maxItems: 3, uniqueItems: true, contains: {}, minContains: 0, maxContains: 2, unevaluatedItems: false } },
      required: ['a'], dependentRequired: { a: ['n'] }, dependentSchemas: { n: {} }, propertyNames: { maxLength: 9 }, patternProperties: { '^x': {} },
      minProperties: 0, maxProperties: 9, unevaluatedProperties: false, $defs: { d: { const: 1, enum: [1], examples: [1], readOnly: true, writeOnly: false } },
      allOf: [{}], anyOf: [{}], oneOf: [{}], not: { type: 'null' }, if: {}, then: {}, else: {},
    }
    expect(runtimeTool({ name: 'ok', input }).inputSchema).toBe(input)
  })
})

describe('an unknown keyword in a manifest', () => {
  const manifest = {
    tools: [{ name: 'echo', description: 'Echo.', inputSchema: { type: 'object', properties: { text: { type: 'string', minLenght: 1 } }, required: ['text'] } }],
  }

  it('fromManifest warns by default and serves the tool', async () => {
    const warnings: string[] = []
    const s = fromManifest(manifest as never, { echo: ({ text }: { text: string }) => text } as never, { onWarning: (m) => warnings.push(m) })
    expect(warnings).toEqual(['emcp: tool echo: /inputSchema/properties/text/minLenght: unknown JSON Schema keyword "minLenght" (did you mean "minLength"?)'])
    expect((await inMemoryClient(s).callResult('echo' as never, { text: 'hi' } as never)).content).toEqual([{ type: 'text', text: 'hi' }])
  })

  it('fromManifest warns about keys of another library\'s schema too: a manifest is JSON, they are unknown keywords there', () => {
    const warnings: string[] = []
    const odd = { tools: [{ name: 'odd', description: 'Odd.', inputSchema: { type: 'object', kind: 'schema', expects: 'Object' } }] }
    fromManifest(odd as never, { odd: () => 'x' } as never, { onWarning: (m) => warnings.push(m) })
    expect(warnings).toEqual([
      'emcp: tool odd: /inputSchema/kind: unknown JSON Schema keyword "kind" (annotations start with "x-")',
      'emcp: tool odd: /inputSchema/expects: unknown JSON Schema keyword "expects" (annotations start with "x-")',
    ])
  })

  it('fromManifest refuses it under strict', () => {
    expect(() => fromManifest(manifest as never, { echo: () => 'x' } as never, { strict: true })).toThrow(
      'tool echo: /inputSchema/properties/text/minLenght: unknown JSON Schema keyword "minLenght" (did you mean "minLength"?)',
    )
  })

  it('validateManifest reports it as a warning, and emcp validate fails on it under --strict', async () => {
    const report = validateManifest(manifest)
    expect(report.errors).toEqual([])
    expect(report.warnings).toContainEqual({ tool: 'echo', path: '/inputSchema/properties/text/minLenght', message: 'unknown JSON Schema keyword "minLenght" (did you mean "minLength"?)' })
    const file = join(mkdtempSync(join(tmpdir(), 'emcp-kw-')), 'm.json')
    writeFileSync(file, JSON.stringify(manifest))
    const run = async (argv: string[]) => {
      let text = ''
      const io: CommandIO = { out: (s) => void (text += s), err: (s) => void (text += s), cwd: process.cwd(), interactive: false }
      return { code: await runCli(argv, io), text }
    }
    const lax = await run(['validate', file])
    expect(lax.code).toBe(0)
    expect(lax.text).toContain('unknown JSON Schema keyword "minLenght" (did you mean "minLength"?)')
    expect((await run(['validate', file, '--strict'])).code).toBe(1)
  })
})
