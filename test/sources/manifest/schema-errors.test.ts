/**
 * A hand-edited manifest whose schema cannot work refuses to start, naming the tool and the
 * JSON pointer of the keyword at fault, instead of failing the first call with -32603. The
 * same problems in `validateManifest`, and nothing for the schemas emcp exports itself.
 */
import { describe, expect, it } from 'vitest'
import { emcp, mcpServer } from '../../../src/index.js'
import { schemaErrors, serverOfManifest, toManifest, validateManifest, type Manifest } from '../../../src/sources/manifest/index.js'

const tool = (inputSchema: Record<string, unknown>, outputSchema?: Record<string, unknown>) => ({
  name: 'lookup',
  description: 'Look a city up.',
  inputSchema,
  ...(outputSchema === undefined ? {} : { outputSchema }),
})

const startup = (m: Manifest) => {
  const out = serverOfManifest(m, { lookup: () => ({ found: true }) })
  return out._tag === 'Left' ? out.left : 'started'
}

describe('a hand-edited schema that cannot work', () => {
  it('a keyword with a bad value: refused at startup, naming tool and pointer', () => {
    const m = { tools: [tool({ type: 'object', properties: { city: { type: 'string', minLength: '3' } } })] }
    expect(startup(m)).toEqual([{ tool: 'lookup', path: '/inputSchema/properties/city/minLength', message: 'must be integer ("minLength" is "3")' }])
  })

  it('an unknown type name, a required that is not a list, in the output schema too', () => {
    const m = { tools: [tool({ type: 'object', properties: { city: { type: 'text' } } }, { type: 'object', required: 'found' })] }
    expect(startup(m)).toEqual([
      { tool: 'lookup', path: '/inputSchema/properties/city/type', message: 'must be equal to one of the allowed values ("type" is "text")' },
      { tool: 'lookup', path: '/outputSchema/required', message: 'must be array ("required" is "found")' },
    ])
  })

  it('an unresolvable $ref: the pointer of the $ref', () => {
    const m = { tools: [tool({ type: 'object', properties: { city: { $ref: '#/$defs/City' } }, $defs: { Town: { type: 'string' } } })] }
    expect(startup(m)).toEqual([{ tool: 'lookup', path: '/inputSchema/properties/city/$ref', message: '$ref "#/$defs/City" points at nothing in the schema' }])
    const remote = { tools: [tool({ type: 'object', properties: { city: { anyOf: [{ $ref: 'https://example.com/city.json' }] } } })] }
    expect(startup(remote)).toEqual([
      {
        tool: 'lookup',
        path: '/inputSchema/properties/city/anyOf/0/$ref',
        message: '$ref "https://example.com/city.json" is outside the schema: emcp resolves references within a schema only and never fetches one',
      },
    ])
  })

  it('a pattern that is not a regular expression (in a schema that is not plain too)', () => {
    const plain = { tools: [tool({ type: 'object', properties: { code: { type: 'string', pattern: '([A-Z]' } } })] }
    expect(startup(plain)).toEqual([
      { tool: 'lookup', path: '/inputSchema/properties/code/pattern', message: '"pattern" is not a regular expression: Invalid regular expression: /([A-Z]/u: Unterminated group' },
    ])
    const composed = { tools: [tool({ type: 'object', properties: { code: { anyOf: [{ type: 'string', pattern: '([A-Z]' }, { type: 'null' }] } } })] }
    expect(startup(composed)).toEqual([
      { tool: 'lookup', path: '/inputSchema/properties/code/anyOf/0/pattern', message: '"pattern" is not a regular expression: Invalid regular expression: /([A-Z]/u: Unterminated group' },
    ])
  })

  it('every problem at once: a $ref to nothing beside a bad keyword value', () => {
    const m = { tools: [tool({ type: 'object', properties: { city: { type: 'string', minLength: '3' }, near: { $ref: '#/$defs/City' } } })] }
    expect(startup(m)).toEqual([
      { tool: 'lookup', path: '/inputSchema/properties/near/$ref', message: '$ref "#/$defs/City" points at nothing in the schema' },
      { tool: 'lookup', path: '/inputSchema/properties/city/minLength', message: 'must be integer ("minLength" is "3")' },
    ])
  })

  it('validateManifest reports the same, with the pointer', () => {
    const m = { tools: [tool({ type: 'object', properties: { city: { type: 'string', maxLength: -1 } } })] }
    expect(validateManifest(m).errors).toEqual([{ tool: 'lookup', path: '/inputSchema/properties/city/maxLength', message: 'must be >= 0 ("maxLength" is -1)' }])
  })

  it('a sound schema starts, and what emcp exports is sound', () => {
    const m = { tools: [tool({ type: 'object', properties: { city: { type: 'string', minLength: 3 } } }, { type: 'object', properties: { found: { type: 'boolean' } } })] }
    expect(startup(m)).toBe('started')
    const odd = emcp({
      name: 'odd',
      description: 'Composition, formats, content types.',
      input: { type: 'object', properties: { at: { type: 'string', format: 'date-time', contentMediaType: 'text/plain' }, n: { anyOf: [{ type: 'integer' }, { type: 'null' }] } } },
    })
    const exported = toManifest(mcpServer([odd], { name: 'o', version: '1' }).implement({ odd: () => 'x' }))
    expect(exported.tools.flatMap((t) => schemaErrors(t))).toEqual([])
  })
})
