/**
 * What a new user meets first: a module that serves itself at top level (as getting-started's
 * server.ts does) works with `emcp list` and `emcp call`, even with standard input left open;
 * and every mistake says what to do: a syntax error names file:line:column, a default export
 * that is not a server says what it is, a port in use is one line with `--port 0`, an
 * elicitation answered by `emcp call` is not worded as running the tool.
 * The modules live inside the package, so that their `import 'emcp'` loads the built package.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server as NetServer } from 'node:net'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, type CommandIO } from '../../src/cli/index.js'
import { root } from '../interop/children.js'

const bin = join(root, 'bin', 'emcp.js')
let dir = ''

/** Writes a module into the scratch folder; its path relative to the package root. */
const module = (name: string, text: string): string => {
  writeFileSync(join(dir, name), text)
  return relative(root, join(dir, name))
}

/** Runs the command line in process, with the answers `lines` at the terminal. */
const cli = async (argv: string[], lines?: string[]) => {
  let out = ''
  let err = ''
  const asked: string[] = []
  const ask = async (q: string): Promise<string | undefined> => (asked.push(q), lines?.shift())
  const io: CommandIO = { out: (s) => void (out += s), err: (s) => void (err += s), cwd: root, interactive: false, ...(lines === undefined ? {} : { ask }) }
  const code = await runCli(argv, io)
  return { code, out, err, asked }
}

/** Runs the real executable with standard input a pipe left open; resolves when it exits. */
const bin$ = (args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })

const tools = `import { emcp, mcpServer } from 'emcp'
const add = emcp({ name: 'add', description: 'Add.', input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } })
const ask = emcp({ name: 'ask', description: 'Asks for a city.', input: { type: 'object' } })
`
const impl = `{
  add: ({ a, b }) => String(a + b),
  ask: async (_args, ctx) => {
    const r = await ctx.elicit({ message: 'Which city?', requestedSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } })
    return r.action === 'accept' ? 'going to ' + r.content.city : r.action
  },
}`

beforeAll(() => {
  mkdirSync(join(root, '.cache'), { recursive: true })
  dir = mkdtempSync(join(root, '.cache', 'messages-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('a module that serves its server at top level', () => {
  const stdio = () =>
    module('stdio.js', `${tools}import { serveStdio } from 'emcp/stdio'
export const server = mcpServer([add, ask], { name: 'top', version: '1' }).implement(${impl})
await serveStdio(server)
`)
  const http = () =>
    module('http.js', `${tools}import { serveHttp } from 'emcp/http'
const server = mcpServer([add, ask], { name: 'top-http', version: '1' }).implement(${impl})
const running = await serveHttp(server, { port: 1 })
console.log('never here', running.url)
`)

  it('the real emcp list and call answer and exit, standard input left open', async () => {
    const file = stdio()
    const [list, call] = await Promise.all([bin$(['list', file]), bin$(['call', file, 'add', '--arg', 'a=2', '--arg', 'b=3'])])
    expect(list.stderr).toMatch(/^2 tools, listing/)
    expect(list.stdout).toMatch(/^add\b/m)
    expect(list.code).toBe(0)
    expect(JSON.parse(call.stdout).content).toEqual([{ type: 'text', text: '5' }])
    expect(call.code).toBe(0)
  }, 60_000)

  it('in process: the server it serves is the one listed and called; serveHttp at top level binds nothing', async () => {
    expect(await cli(['list', stdio()])).toMatchObject({ code: 0, out: expect.stringMatching(/^add\b[\s\S]*^ask\b/m) })
    // port 1 would be refused: the module's serveHttp never listens under the command line
    const r = await cli(['call', http(), 'add', '--arg', 'a=1', '--arg', 'b=1'])
    expect(r.err).toBe('')
    expect(JSON.parse(r.out).content).toEqual([{ type: 'text', text: '2' }])
  })
})

describe('messages that say what to do', () => {
  it('a syntax error names the file, line and column, in the module or in a file it imports', async () => {
    const bad = module('bad.js', `export const a = 1\nconst b = {\n  c: 1,,\n}\n`)
    const top = module('imports-bad.js', `import './bad.js'\nexport default 1\n`)
    // the real executable: Node's own loader (a test runner's would word it its own way)
    const [own, via] = await Promise.all([bin$(['list', bad]), bin$(['call', top, 'add'])])
    expect(own.code).toBe(1)
    expect(own.stderr).toBe(`emcp list: cannot load ${bad}: ${bad}:3:8: SyntaxError: Unexpected token ','\n`)
    expect(via.code).toBe(1)
    expect(via.stderr).toBe(`emcp call: cannot load ${top}: ${bad}:3:8: SyntaxError: Unexpected token ','\n`)
  }, 60_000)

  it('a SyntaxError thrown while the module runs (JSON.parse) names its place from the stack, without loading it again', async () => {
    const parses = module('parses.js', `export const n = 1\nexport default JSON.parse('{bad')\n`)
    const r = await bin$(['list', parses])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(new RegExp(`^emcp list: cannot load ${parses.replace(/[.]/g, '\\.')}: ${parses.replace(/[.]/g, '\\.')}:2:\\d+: SyntaxError: .*JSON`))
  }, 60_000)

  it('a TypeScript path names the module to give: where the docs\' tsconfig (rootDir src, outDir dist) emits it, or the one on disk', async () => {
    expect((await cli(['serve', 'src/app.ts'])).err).toContain('src/app.ts is TypeScript: compile it (npx tsc) and give the .js module: dist/app.js\n')
    expect((await cli(['list', './src/tool.mts'])).err).toContain('give the .js module: dist/tool.mjs\n')
    // this package's tsconfig has no rootDir: examples/calculator.ts is built as dist/examples/calculator.js
    expect((await cli(['call', 'examples/calculator.ts', 'add'])).err).toContain('give the .js module: dist/examples/calculator.js\n')
    expect((await cli(['dev', 'src/app.ts'])).err).toContain('src/app.ts is TypeScript: compile it (npx tsc --watch beside emcp dev) and give the .js module: dist/app.js\n')
  })

  it('`export default 42` is not a server, and the message says what it is', async () => {
    const r = await cli(['list', module('forty-two.js', 'export default 42\n')])
    expect(r.code).toBe(2)
    expect(r.err).toMatch(/the default export of \S+forty-two\.js is not a server: it is a number \(42\); export one: `export default mcpServer/)
    const f = await cli(['list', module('fn.js', `export default () => ({ tools: 'none' })\n`)])
    expect(f.err).toMatch(/is not a server: it is a function that returned an object with keys tools;/)
    const none = await cli(['list', module('none.js', 'export const x = 1\n')])
    expect(none.err).toMatch(/has no default-exported server; export one/)
  })

  it('a port in use is one line naming the port, with --port 0 as the way out (emcp serve and emcp dev)', async () => {
    const taken: NetServer = createServer()
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done))
    const port = String((taken.address() as { port: number }).port)
    try {
      const file = module('plain.js', `${tools}export default mcpServer([add, ask], { name: 'p', version: '1' }).implement(${impl})\n`)
      const [serve, dev] = await Promise.all([bin$(['serve', file, '--http', '--port', port]), bin$(['dev', file, '--port', port])])
      for (const r of [serve, dev]) {
        expect(r.code).toBe(1)
        expect(r.stderr).toMatch(new RegExp(`^emcp (serve|dev): port ${port} on 127\\.0\\.0\\.1 is in use .*--port 0 picks a free one\\)\\n$`))
        expect(r.stderr).not.toMatch(/\n\s+at /)
      }
    } finally {
      await new Promise<void>((done) => taken.close(() => done()))
    }
  }, 60_000)

  it('emcp call words a tool question as sending an answer, and an ask tool review as running the tool', async () => {
    const file = module('asks.js', `${tools}export default mcpServer([add, ask], { name: 'a', version: '1' }).implement(${impl})\n`)
    const r = await cli(['call', file, 'ask'], ['Oslo', 'y'])
    expect(r.asked).toEqual(['  city: ', 'Send this answer to the tool: {"city":"Oslo"}? [y/N] '])
    expect(JSON.parse(r.out).content).toEqual([{ type: 'text', text: 'going to Oslo' }])
    const review = await cli(['call', join('dist', 'examples', 'ops.js'), 'drop_table', '--arg', 'table=users'], ['', 'n'])
    expect(review.asked.at(-1)).toBe('Run it with {"table":"users"}? [y/N] ')
  })
})
