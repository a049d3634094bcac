/**
 * `emcp types` in process (src/cli/types.ts, src/client/listed.ts): from a manifest file, an
 * emcp module and a live HTTP server; the module it writes reads back to the same tools;
 * --check up to date and drifted; hostile listings (a `__proto__` property, duplicate names,
 * a schema that is not an object, a hand-broken file) refused with messages that name them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, type CommandIO } from '../../src/cli/index.js'
import { readTypesModule, typedTools, typesModule } from '../../src/client/listed.js'
import { emcp, mcpServer } from '../../src/index.js'
import { serveHttp } from '../../src/transport/http.js'
import { example } from '../interop/children.js'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'emcp-types-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const cli = async (argv: string[]) => {
  let out = ''
  let err = ''
  const io: CommandIO = { out: (s) => void (out += s), err: (s) => void (err += s), cwd: dir, interactive: false }
  const code = await runCli(argv, io)
  return { code, out, err }
}

const weather = {
  name: 'weather',
  description: 'Weather.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  outputSchema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
}

describe('emcp types', () => {
  it('writes a module from a manifest, sorted by name, that reads back to the same tools; --check says up to date', async () => {
    writeFileSync(join(dir, 'm.json'), JSON.stringify({ tools: [weather, { name: 'alpha', inputSchema: { type: 'object' } }] }))
    const written = await cli(['types', 'm.json', '-o', 'tools.ts'])
    expect(written).toMatchObject({ code: 0, err: 'wrote 2 tool contracts to tools.ts\n' })
    const text = readFileSync(join(dir, 'tools.ts'), 'utf8')
    expect(text).toContain("import type { ListedContract } from 'emcp/client'")
    expect(text).toContain('as const satisfies ReadonlyArray<ListedContract>')
    expect(readTypesModule(text)).toEqual(E.right([{ name: 'alpha', inputSchema: { type: 'object' } }, weather]))
    expect(await cli(['types', '--check', 'tools.ts', 'm.json'])).toMatchObject({ code: 0, err: 'tools.ts is up to date (2 tools)\n' })
  })

  it('reads an emcp module in memory', async () => {
    const r = await cli(['types', example('calculator')])
    expect(r.code).toBe(0)
    expect(r.out).toContain('"name": "add_days"')
    expect(r.out.indexOf('"name": "add"')).toBeLessThan(r.out.indexOf('"name": "echo"'))
  })

  it('reads a live server over HTTP, with headers, and reports drift against it tool by tool', async () => {
    const probe = emcp({ name: 'probe', description: 'Probe.', input: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } })
    const running = await serveHttp(mcpServer([probe], { name: 'p', version: '1' }).implement({ probe: ({ n }) => String(n) }), { port: 0 })
    try {
      const r = await cli(['types', running.url, '--header', 'x-trace: 1', '-o', 'live.ts'])
      expect(r.code).toBe(0)
      writeFileSync(join(dir, 'm2.json'), JSON.stringify({ tools: [weather] }))
      await cli(['types', 'm2.json', '-o', 'old.ts'])
      const drift = await cli(['types', '--check', 'old.ts', running.url])
      expect(drift.code).toBe(1)
      expect(drift.out).toBe('old.ts has drifted from the server:\n  + probe: new on the server\n  - weather: no longer on the server\n')
    } finally {
      await running.close()
    }
  })

  it('refuses what it cannot use, naming it', async () => {
    expect((await cli(['types'])).err).toMatch(/give the server/)
    expect((await cli(['types', 'm.json', '-o', 'a.ts', '--check', 'b.ts'])).err).toMatch(/give -o or --check, not both/)
    expect((await cli(['types', 'm.json', '--', 'node'])).err).toMatch(/not both/)
    expect((await cli(['types', 'nope.json'])).err).toMatch(/nope\.json: no such file/)
    writeFileSync(join(dir, 'dup.json'), JSON.stringify({ tools: [weather, weather] }))
    expect(await cli(['types', 'dup.json'])).toMatchObject({ code: 1, err: expect.stringMatching(/two tools named "weather"/) })
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ tools: [{ name: 'x', inputSchema: 'object' }] }))
    expect((await cli(['types', 'bad.json'])).err).toMatch(/tool x has no inputSchema object/)
    let deep: unknown = { type: 'string' }
    for (let i = 0; i < 1_000; i++) deep = { type: 'object', properties: { x: deep } }
    writeFileSync(join(dir, 'deep.json'), JSON.stringify({ tools: [{ name: 'deep', inputSchema: deep }] }))
    expect(await cli(['types', 'deep.json'])).toMatchObject({ code: 1, err: expect.stringMatching(/tool deep: a schema nests deeper than 64 levels/) })
    writeFileSync(join(dir, 'hand.ts'), 'export const tools = [{ name: ] as const')
    expect((await cli(['types', '--check', 'hand.ts', 'm.json'])).err).toMatch(/hand\.ts cannot be checked: its tool list is not the JSON emcp types writes/)
    expect((await cli(['types', 'https://127.0.0.1:1/mcp', '--header', 'nocolon'])).err).toMatch(/--header wants 'Name: value'/)
  })
})

describe('the module text', () => {
  it('writes a "__proto__" property as a computed key, and reads it back as an own property', () => {
    const hostile = JSON.parse('{"name":"p","inputSchema":{"type":"object","properties":{"__proto__":{"type":"string"}}}}') as unknown
    const tools = E.getOrElseW(() => [])(typedTools([hostile]))
    const text = typesModule(tools, 'x')
    expect(text).toContain('["__proto__"]: {')
    expect(text).not.toMatch(/^\s*"__proto__":/m)
    const back = readTypesModule(text)
    expect(E.isRight(back) && Object.hasOwn((back.right[0]?.inputSchema.properties ?? {}) as object, '__proto__')).toBe(true)
  })

  it('keeps a source with line breaks on its comment line', () => {
    expect(typesModule([], 'a\nexport const evil = 1').split('\n')[0]).toBe('// The tool contracts of `a export const evil = 1`, as its tools/list gave them, written by emcp types.')
  })
})

