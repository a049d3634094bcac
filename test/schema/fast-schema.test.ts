/**
 * The fast schema-to-type mapping (src/schema/fast-schema.ts) gives exactly json-schema-to-ts's
 * `FromSchema` type: seeded random schemas (every keyword the fast path reads, and some it
 * hands on) and hand-written edge cases are written into one module as pairs
 * `Same<FastFromSchema<S>, FromSchema<S>>`, type-checked in one tsc run. `Same` is type
 * identity, not mutual assignability. Each schema is checked twice: `as const`, and as a
 * contract slot infers it without `as const` (through the `SchemaShape` constraint: mutable
 * arrays, tuples where the order matters), which must give the same type. A canary pair
 * that differs proves the check can fail.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { root } from '../interop/children.js'

const mulberry32 = (seed: number) => (): number => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

type Rnd = () => number
const pick = <T>(rnd: Rnd, xs: ReadonlyArray<T>): T => xs[Math.floor(rnd() * xs.length)] as T
const names = ['a', 'b', 'c', 'city', 'limit', 'tags', 'mode', 'x_1', 'long-name', 'n.v']

/** A schema literal as TypeScript source, `depth` levels at most. */
const schema = (rnd: Rnd, depth: number): string => {
  const annotate = rnd() < 0.3 ? `, description: 'd'` : rnd() < 0.1 ? `, title: 't', examples: ['e']` : ''
  const dflt = rnd() < 0.15
  const kind = pick(rnd, depth >= 3 ? ['string', 'number', 'integer', 'boolean', 'null', 'enum', 'const'] : ['string', 'number', 'integer', 'boolean', 'null', 'enum', 'const', 'array', 'object', 'object', 'anyOf', 'oneOf', 'format', 'typeArray', 'nullable', 'not'])
  switch (kind) {
    case 'string':
      return `{ type: 'string'${annotate}${dflt ? `, default: 's'` : ''} }`
    case 'number':
    case 'integer':
      return `{ type: '${kind}'${annotate}${rnd() < 0.3 ? ', minimum: 0' : ''}${dflt ? ', default: 1' : ''} }`
    case 'boolean':
      return `{ type: 'boolean'${annotate}${dflt ? ', default: false' : ''} }`
    case 'null':
      return `{ type: 'null'${annotate} }`
    case 'format':
      return `{ type: 'string', format: 'date-time'${annotate} }`
    case 'enum':
      return `{ ${rnd() < 0.7 ? "type: 'string', " : ''}enum: ['x', 'y'${rnd() < 0.3 ? ", 'z'" : ''}]${annotate}${dflt ? `, default: 'x'` : ''} }`
    case 'const':
      return `{ const: ${pick(rnd, ["'k'", '3', 'true', 'null'])}${annotate} }`
    case 'typeArray':
      return `{ type: ['string', 'null']${annotate} }`
    case 'nullable':
      return `{ type: 'string', nullable: true }`
    case 'not':
      return `{ type: 'string', not: { const: 'no' } }`
    case 'array':
      return rnd() < 0.15 ? `{ type: 'array'${annotate} }` : `{ type: 'array', items: ${schema(rnd, depth + 1)}${rnd() < 0.2 ? ', minItems: 1' : ''}${annotate} }`
    case 'anyOf':
    case 'oneOf':
      return `{ ${kind}: [${schema(rnd, depth + 1)}, ${schema(rnd, depth + 1)}]${annotate} }`
    default:
      return objectSchema(rnd, depth, annotate)
  }
}

const objectSchema = (rnd: Rnd, depth: number, annotate = ''): string => {
  const count = Math.floor(rnd() * 5)
  const props = [...new Set(Array.from({ length: count }, () => pick(rnd, names)))]
  const required = props.filter(() => rnd() < 0.5)
  if (rnd() < 0.08) required.push('undeclared')
  const closed = rnd() < 0.5 ? ', additionalProperties: false' : rnd() < 0.2 ? ', additionalProperties: true' : ''
  const properties = rnd() < 0.1 && props.length === 0 ? '' : `, properties: { ${props.map((p) => `'${p}': ${schema(rnd, depth + 1)}`).join(', ')} }`
  const req = required.length > 0 || rnd() < 0.1 ? `, required: [${required.map((r) => `'${r}'`).join(', ')}]` : ''
  return `{ type: 'object'${properties}${req}${closed}${annotate} }`
}

/** Hand-written cases: each path of the mapping once, and the keywords it hands on. */
const edgeCases: ReadonlyArray<string> = [
  `{ type: 'object' }`,
  `{ type: 'object', additionalProperties: false }`,
  `{ type: 'object', properties: {} }`,
  `{ type: 'object', required: ['a'] }`,
  `{ type: 'object', properties: { a: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false }`,
  `{ type: 'object', properties: { a: { type: 'number' }, c: { type: 'string' } }, required: ['a', 'b'], additionalProperties: false }`,
  `{ type: 'object', properties: { a: { type: 'number' } }, required: ['a', 'b'] }`,
  `{ type: 'object', properties: { a: { type: 'number', default: 1 }, b: { type: 'string' } }, additionalProperties: false }`,
  `{ type: 'object', properties: { a: { type: 'number', default: 1 }, b: { type: 'string' } }, required: ['b'] }`,
  `{ type: 'object', properties: { a: { type: 'object', properties: { x: { type: 'string', default: 'x' } } } } }`,
  `{ type: 'object', properties: { a: { type: 'string' } }, patternProperties: { '^x': { type: 'number' } } }`,
  `{ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'number' } }`,
  `{ type: 'object', $defs: { n: { type: 'number' } }, properties: { a: { $ref: '#/$defs/n' } }, required: ['a'] }`,
  `{ type: 'object', definitions: { n: { type: 'string' } }, properties: { a: { $ref: '#/definitions/n' } } }`,
  `{ type: 'object', properties: { a: { type: 'string' } }, allOf: [{ required: ['a'] }] }`,
  `{ type: 'object', properties: { a: { type: 'string' } }, if: { required: ['a'] }, then: { required: ['b'] } }`,
  `{ type: 'object', properties: { a: { type: 'string' } }, dependentRequired: { a: ['b'] } }`,
  `{ type: 'object', properties: { a: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } } }`,
  `{ type: 'object', properties: { a: { type: 'array', prefixItems: [{ type: 'string' }] } } }`,
  `{ type: 'object', properties: { a: { enum: [1, 'x', null] } }, required: ['a'], additionalProperties: false }`,
  `{ type: 'object', properties: { a: { type: 'string', enum: ['x'], const: 'x' } } }`,
  `{ type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'object', properties: { b: { type: 'number' } } }] } } }`,
  `{ type: 'object', properties: { a: { type: 'string', anyOf: [{ minLength: 1 }, { maxLength: 0 }] } } }`,
  `{ type: 'object', properties: { a: { oneOf: [{ const: 1 }, { const: 2 }] } }, required: ['a'] }`,
  `{ type: 'object', properties: { a: { type: 'integer' }, b: { type: 'null' }, c: { type: ['number', 'string'] } }, required: ['a', 'b', 'c'] }`,
  `{ type: 'object', properties: { a: { type: 'string', nullable: true } }, required: ['a'] }`,
  `{ type: 'object', properties: { a: { type: 'string', not: { const: 'x' } } }, required: ['a'] }`,
  `{ type: 'object', properties: { a: { type: 'array', items: { type: 'object', properties: { x: { type: 'boolean' } }, required: ['x'], additionalProperties: false } } }, required: ['a'], additionalProperties: false }`,
  `{ type: 'object', properties: { a: {} , b: { description: 'anything' } }, required: ['a'] }`,
  `{ type: 'object', properties: { a: true, b: false, c: { type: 'string' } }, required: ['a', 'c'] }`,
  `{ type: 'object', properties: { a: true, b: false }, required: ['a'], additionalProperties: false }`,
  `{ type: 'object', properties: { a: true, b: {} }, required: ['a', 'b', 'z'] }`,
  `{ type: 'string' }`,
  `{ type: 'number', minimum: 1 }`,
  `{ type: 'array', items: { type: 'string' } }`,
  `{ enum: ['a', 'b'] }`,
  `{ const: 42 }`,
  `{ anyOf: [{ type: 'string' }, { type: 'number' }] }`,
  `{}`,
]

const randomCases = (count: number): ReadonlyArray<string> => {
  const rnd = mulberry32(20261201)
  return Array.from({ length: count }, () => objectSchema(rnd, 0))
}

const work = join(root, '.cache', `fast-schema-${process.pid}`)
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** Type-checks the pairs in one tsc run; the lines with an error, each with its schema. */
const check = (schemas: ReadonlyArray<string>, canary: boolean): { readonly failing: ReadonlyArray<string>; readonly output: string; readonly status: number | null } => {
  mkdirSync(work, { recursive: true })
  const header = [
    `import type { FromSchema } from 'json-schema-to-ts'`,
    `import type { FastFromSchema } from '${relative(work, join(root, 'src', 'schema', 'fast-schema.js'))}'`,
    `import type { SchemaShape } from '${relative(work, join(root, 'src', 'schema', 'schema-shape.js'))}'`,
    `type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false`,
    `declare function slot<S extends SchemaShape>(schema: S): S`,
  ]
  const lines = schemas.map(
    (s, i) =>
      `const s${i} = ${s} as const; export const ok${i}: Same<FastFromSchema<typeof s${i}>, FromSchema<typeof s${i}>> = true; ` +
      `const m${i} = slot(${s}); export const okm${i}: Same<FastFromSchema<typeof m${i}>, FromSchema<typeof s${i}>> = true`,
  )
  if (canary) lines.push(`export const canary: Same<FastFromSchema<{ type: 'string' }>, number> = true`)
  writeFileSync(join(work, 'check.ts'), `${[...header, ...lines].join('\n')}\n`)
  writeFileSync(
    join(work, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ['check.ts'] }),
  )
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(work, 'tsconfig.json'), '--pretty', 'false'], { cwd: root, encoding: 'utf8', timeout: 150_000 })
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}${r.error === undefined ? '' : String(r.error)}`
  const failing = [...output.matchAll(/check\.ts\((\d+),\d+\): error TS\d+/g)].map((m) => {
    const line = Number(m[1]) - header.length - 1
    return line < schemas.length ? schemas[line] ?? '?' : 'canary'
  })
  return { failing, output, status: r.status }
}

describe('FastFromSchema: the same type as json-schema-to-ts FromSchema', () => {
  it('on the edge cases, 300 seeded random object schemas, and not on a canary that differs', { timeout: 180_000 }, () => {
    const schemas = [...edgeCases, ...randomCases(300)]
    const { failing, output, status } = check(schemas, true)
    // the canary must fail: the check can tell two types apart
    expect(failing).toContain('canary')
    expect(failing.filter((f) => f !== 'canary'), output).toEqual([])
    expect(status).not.toBe(0)
  })
})
