/**
 * The command line on a module whose tool is written with zod: `emcp manifest` writes the JSON
 * Schema zod derives (and `--check` compares with it: an edit to it is drift), `emcp call
 * --arg` coerces each value by that schema (a number, a boolean, a string that looks like a
 * number stays a string) and zod validates the call, and `emcp validate` checks the manifest.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli, type CommandIO } from '../../src/cli/index.js'
import { root } from '../interop/children.js'

/** Runs the command line in process; what it printed and its exit code. */
const cli = async (argv: string[]) => {
  let out = ''
  let err = ''
  const io: CommandIO = { out: (s) => void (out += s), err: (s) => void (err += s), cwd: root, interactive: false }
  const code = await runCli(argv, io)
  return { code, out, err }
}

// a module inside the package, so that 'emcp' and 'zod' resolve as a user's would
mkdirSync(join(root, '.cache'), { recursive: true })
const dir = mkdtempSync(join(root, '.cache', 'zod-tools-'))
const module = join(dir, 'shop.js')
writeFileSync(
  module,
  `import { emcp, mcpServer } from 'emcp'
import { z } from 'zod'
const order = emcp({
  name: 'order',
  description: 'Orders an item.',
  input: z.object({
    item: z.string().min(1).describe('What to order'),
    qty: z.number().int().positive().describe('How many'),
    gift: z.boolean().default(false).describe('Wrap it'),
    code: z.string().optional().describe('A discount code'),
  }),
  output: z.object({ total: z.number(), code: z.string().optional() }),
})
export default mcpServer([order], { name: 'shop', version: '1' }).implement({
  order: ({ qty, gift, code }) => ({ total: qty * 2 + (gift ? 1 : 0), ...(code === undefined ? {} : { code }) }),
})
`,
)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('emcp on a zod tool', () => {
  it('manifest writes the JSON Schema zod derives, --check compares it, validate checks it', async () => {
    const file = join(dir, 'shop.json')
    expect(await cli(['manifest', module, '--output', file])).toMatchObject({ code: 0 })
    const written = readFileSync(file, 'utf8')
    const manifest = JSON.parse(written) as { tools: Array<{ name: string; inputSchema: { properties: Record<string, unknown> }; outputSchema: unknown }> }
    expect(manifest.tools[0]?.inputSchema).toMatchObject({
      type: 'object',
      properties: { item: { type: 'string', minLength: 1, description: 'What to order' }, qty: { type: 'integer', exclusiveMinimum: 0 }, gift: { type: 'boolean', default: false }, code: { type: 'string' } },
      required: ['item', 'qty'],
    })
    expect(manifest.tools[0]?.outputSchema).toMatchObject({ type: 'object', properties: { total: { type: 'number' } }, required: ['total'] })
    expect(written).not.toMatch(/~standard|_zod|"def"/)
    expect(await cli(['manifest', module, '--check', file])).toMatchObject({ code: 0, err: expect.stringContaining('is up to date (1 tool)') })
    // zod's .describe() is the description the lint asks for: no warning, even under --strict
    expect(await cli(['validate', file, '--strict'])).toMatchObject({ code: 0, err: expect.stringContaining('1 tool, 0 errors, 0 warnings') })
    // the file no longer says what zod says: drift
    const inputSchema = manifest.tools[0]!.inputSchema
    const edited = { ...manifest, tools: [{ ...manifest.tools[0], inputSchema: { ...inputSchema, properties: { ...inputSchema.properties, qty: { type: 'number' } } } }] }
    writeFileSync(file, JSON.stringify(edited, null, 2))
    const drift = await cli(['manifest', module, '--check', file])
    expect(drift.code).toBe(1)
    expect(drift.out + drift.err).toMatch(/order/)
    expect(drift.out + drift.err).toMatch(/qty|inputSchema/)
  })

  it('call --arg coerces by the derived schema, and zod validates the call', async () => {
    const r = await cli(['call', module, 'order', '--arg', 'item=book', '--arg', 'qty=3', '--arg', 'gift=true', '--arg', 'code=007'])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out).structuredContent).toEqual({ total: 7, code: '007' })
    const bad = await cli(['call', module, 'order', '--arg', 'item=book', '--arg', 'qty=0'])
    expect(bad.code).not.toBe(0)
    expect(bad.out + bad.err).toMatch(/\/qty: Too small: expected number to be >0/)
  })
})
