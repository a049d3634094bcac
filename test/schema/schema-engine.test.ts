/**
 * The general validator engine (Ajv) is loaded on first need, never at startup: a server
 * whose schemas the plain fast path checks answers without it, and the first schema that
 * needs it loads it (synchronously in Node) and checks as before. Run in child processes
 * over the built bundle, so that nothing else in the test process has loaded Ajv already.
 */
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import buildIfStale from '../interop/setup.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** Runs an ES module body in a fresh Node process at the repo root; its stdout, parsed as JSON. */
const inChild = (body: string): unknown => {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', body], { cwd: root, encoding: 'utf8', timeout: 60_000 })
  expect(r.stderr).toBe('')
  return JSON.parse(r.stdout)
}

const prelude = `
import { createRequire } from 'node:module'
const cache = createRequire(import.meta.url).cache
const ajvLoaded = () => Object.keys(cache).some((k) => k.includes('/node_modules/ajv/'))
const { validatorOf, loadSchemaEngine } = await import('emcp')
`

beforeAll(() => buildIfStale(), 300_000)

describe('the schema engine loads on first need', () => {
  it('is not loaded by importing emcp nor by checking plain schemas, and is by the first other schema', () => {
    const out = inChild(`${prelude}
const before = ajvLoaded()
const plain = validatorOf({ type: 'object', properties: { a: { type: 'number' } }, required: ['a'] }).decode({ a: 'x' })
const afterPlain = ajvLoaded()
const general = validatorOf({ anyOf: [{ type: 'string', format: 'email' }, { type: 'integer', minimum: 3 }] })
const bad = general.decode(2)
const good = general.decode('a@b.example')
console.log(JSON.stringify({ before, plain, afterPlain, bad, good, after: ajvLoaded() }))`)
    expect(out).toMatchObject({ before: false, afterPlain: false, after: true, good: { _tag: 'Right', right: 'a@b.example' } })
    expect((out as { plain: { _tag: string } }).plain._tag).toBe('Left')
    expect((out as { bad: { _tag: string; left: unknown[] } }).bad._tag).toBe('Left')
  })

  it('loadSchemaEngine loads it ahead of use, once', () => {
    const out = inChild(`${prelude}
const before = ajvLoaded()
await loadSchemaEngine()
await loadSchemaEngine()
console.log(JSON.stringify({ before, after: ajvLoaded(), check: validatorOf({ oneOf: [{ const: 1 }, { const: 2 }] }).decode(3)._tag }))`)
    expect(out).toEqual({ before: false, after: true, check: 'Left' })
  })
})
