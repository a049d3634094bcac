import { describe, expect, it } from 'vitest'
import * as t from 'io-ts'
import { DateFromISOString, emcp, runtimeTool } from '../../src/index.js'

const input = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
} as const
const output = { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] } as const

const weather = emcp({
  name: 'weather.now',
  title: 'Weather now',
  description: 'The temperature in a city.',
  input,
  output,
  annotations: { title: 'Weather', readOnlyHint: true, openWorldHint: true },
  icons: [{ src: 'https://example.com/sun.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'light' }],
  _meta: { 'example.com/run': 'auto' },
})

describe('emcp: the contract value', () => {
  it('carries the name, title and description as given', () => {
    expect(weather.name).toBe('weather.now')
    expect(weather.title).toBe('Weather now')
    expect(weather.description).toBe('The temperature in a city.')
  })

  it('uses a JSON Schema literal as the input and output schema unchanged', () => {
    expect(weather.inputSchema).toEqual(input)
    expect(weather.outputSchema).toEqual(output)
    expect(weather.input).toBe(input)
    expect(weather.output).toBe(output)
  })

  it('carries annotations, icons and _meta through', () => {
    expect(weather.annotations).toEqual({ title: 'Weather', readOnlyHint: true, openWorldHint: true })
    expect(weather.icons).toEqual([{ src: 'https://example.com/sun.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'light' }])
    expect(weather._meta).toEqual({ 'example.com/run': 'auto' })
  })

  it('has no outputSchema (and no output slot) when no output is given', () => {
    const plain = emcp({ name: 'plain', input: { type: 'object' } })
    expect('outputSchema' in plain).toBe(false)
    expect('output' in plain).toBe(false)
    expect(plain.inputSchema).toEqual({ type: 'object' })
  })

  it('leaves out the optional fields that were not given', () => {
    const bare = emcp({ name: 'bare', input: { type: 'object' } })
    expect(Object.keys(bare).sort()).toEqual(['input', 'inputSchema', 'name'])
  })

  it('never holds the phantom type fields at run time', () => {
    expect('_I' in weather).toBe(false)
    expect('_O' in weather).toBe(false)
    expect('_S' in weather).toBe(false)
  })

  it('derives the input and output schemas of io-ts codecs', () => {
    const In = t.type({ when: DateFromISOString, count: t.Int })
    const Out = t.partial({ note: t.string })
    const tool = emcp({ name: 'codec', input: In, output: Out })
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: { when: { type: 'string', format: 'date-time' }, count: { type: 'integer' } },
      required: ['when', 'count'],
    })
    expect(tool.outputSchema).toEqual({ type: 'object', properties: { note: { type: 'string' } } })
    expect(tool.input).toBe(In)
    expect(tool.output).toBe(Out)
  })

  it('is frozen: a contract cannot be changed after it is made', () => {
    expect(Object.isFrozen(weather)).toBe(true)
    expect(() => {
      ;(weather as { name: string }).name = 'other'
    }).toThrow(TypeError)
    expect(weather.name).toBe('weather.now')
  })

  it('copies the definition\'s own keys as given and in order (symbols too, `__proto__` as a key), then the schemas', () => {
    const mark = Symbol('mark')
    const def = JSON.parse('{"name":"copied","__proto__":{"polluted":true},"description":"d","x-extra":1}') as Record<string | symbol, unknown>
    Object.defineProperty(def, 'hidden', { value: 1, enumerable: false })
    Object.assign(def, { input: { type: 'object' }, output, [mark]: 'kept' })
    const tool = emcp(def as never) as unknown as Record<string | symbol, unknown>
    expect(Object.keys(tool)).toEqual(['name', '__proto__', 'description', 'x-extra', 'inputSchema', 'input', 'output', 'outputSchema'])
    expect(Object.getPrototypeOf(tool)).toBe(Object.prototype)
    expect(Object.hasOwn(tool, '__proto__')).toBe(true)
    expect((tool as { polluted?: unknown }).polluted).toBeUndefined()
    expect(tool[mark]).toBe('kept')
    expect('hidden' in tool).toBe(false)
    expect(tool.input).toBe(def.input)
    expect(tool.inputSchema).toBe(def.input)
  })

  it('copies no inherited key, whatever the definition\'s prototype holds', () => {
    const base = { inherited: 'from the prototype' }
    const def = Object.assign(Object.create(base) as Record<string, unknown>, { name: 'heir', 2: 'two', 1: 'one', input: { type: 'object' } })
    const tool = emcp(def as never) as unknown as Record<string, unknown>
    // integer-like keys first, as every own-key listing orders them
    expect(Object.keys(tool)).toEqual(['1', '2', 'name', 'inputSchema', 'input'])
    expect('inherited' in tool).toBe(false)
  })

  it('reads input, output and claims once each, whatever the definition is made of: getters, a Proxy, a frozen or sealed object, inherited fields (emcp and runtimeTool alike)', () => {
    const reads: string[] = []
    const input = { type: 'object', properties: { q: { type: 'string' } } } as const
    const output = { type: 'object', properties: { n: { type: 'number' } } } as const
    const getters = {
      name: 'got',
      get input() { reads.push('input'); return input },
      get output() { reads.push('output'); return output },
      get title() { return 'computed' },
    }
    const proxied = new Proxy({ name: 'proxied', input, output, description: 'd' }, {
      get: (t, k, r) => { reads.push(`get ${String(k)}`); return Reflect.get(t, k, r) },
    })
    for (const make of [emcp, runtimeTool] as ReadonlyArray<(d: never) => unknown>) {
      reads.length = 0
      const a = make(getters as never) as Record<string, unknown>
      expect(reads).toEqual(['input', 'output'])
      expect(a).toMatchObject({ name: 'got', title: 'computed', input, inputSchema: input, output, outputSchema: output })
      // the getter's value is copied, not the getter
      expect(Object.getOwnPropertyDescriptor(a, 'title')?.get).toBeUndefined()
      reads.length = 0
      const b = make(proxied as never) as Record<string, unknown>
      expect(reads.filter((r) => r === 'get input' || r === 'get output' || r === 'get claims').sort()).toEqual(['get claims', 'get input', 'get output'])
      expect(b).toMatchObject({ name: 'proxied', description: 'd', inputSchema: input })
      for (const sealed of [Object.freeze({ name: 'frozen', input }), Object.seal({ name: 'sealed', input })]) {
        const c = make(sealed as never) as Record<string, unknown>
        expect(Object.isFrozen(c)).toBe(true)
        expect(c).toMatchObject({ name: sealed.name, inputSchema: input })
      }
      // an input on the prototype is the tool's input, as a read of def.input finds it; other inherited keys stay out
      const heir = make(Object.assign(Object.create({ input, stray: 1 }) as object, { name: 'heir' }) as never) as Record<string, unknown>
      expect('stray' in heir).toBe(false)
      expect(heir.input).toBe(input)
    }
  })
})

describe('emcp: the schema root is an object', () => {
  it('adds type "object" to a derived schema without a root type (a union of objects)', () => {
    const either = emcp({ name: 'either', input: t.union([t.type({ a: t.string }), t.type({ b: t.number })]) })
    expect(either.inputSchema.type).toBe('object')
    expect(Array.isArray(either.inputSchema.anyOf)).toBe(true)
  })

  it('refuses, at definition time, an input schema that is not an object; an output schema may describe any JSON value (2026-07-28)', () => {
    expect(() => emcp({ name: 'bad', input: { type: 'string' } as any })).toThrow(/input schema must describe an object/)
    expect(emcp({ name: 'list', input: { type: 'object' }, output: { type: 'array', items: { type: 'number' } } }).outputSchema).toEqual({ type: 'array', items: { type: 'number' } })
    expect(emcp({ name: 'either', input: { type: 'object' }, output: { anyOf: [{ type: 'string' }, { type: 'null' }] } }).outputSchema?.type).toBeUndefined()
  })

  it('refuses, at definition time, a schema with a reference outside itself or a dialect it cannot validate', () => {
    expect(() => emcp({ name: 'ext', input: { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } } })).toThrow(/never fetches/)
    expect(() => emcp({ name: 'dia', input: { $schema: 'https://example.com/my-dialect', type: 'object' } as any })).toThrow(/dialect/)
  })
})
