/**
 * `emcp install` for each client (src/cli/install.ts, src/cli/install/): into a temporary
 * configuration that already holds other settings, run twice: the second run changes no
 * byte; the rest of the file is kept (YAML comments too); --remove takes the entry out and
 * leaves the rest; --print writes nothing; a malformed file is refused, named, untouched.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, type CommandIO } from '../../src/cli/index.js'
import { example, root } from '../interop/children.js'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'emcp-install-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const cli = async (argv: string[]) => {
  let out = ''
  let err = ''
  const io: CommandIO = { out: (s) => void (out += s), err: (s) => void (err += s), cwd: dir, interactive: false }
  const code = await runCli(argv, io)
  return { code, out, err }
}

const calculator = example('calculator')
const bin = join(root, 'bin', 'emcp.js')

/** Each client: its file's existing content, where entries live, and what the stdio and URL entries look like. */
const cases = [
  { client: 'claude-desktop', file: 'claude.json', existing: '{\n  "globalShortcut": "Ctrl+Space",\n  "mcpServers": {\n    "other": { "command": "x" }\n  }\n}\n', key: 'mcpServers', remote: { command: 'npx', args: ['-y', 'mcp-remote', 'https://example.org/mcp'] } },
  { client: 'claude-code', file: '.mcp.json', existing: '{ "mcpServers": { "other": { "type": "stdio", "command": "x" } } }', key: 'mcpServers', remote: { type: 'http', url: 'https://example.org/mcp' } },
  { client: 'cursor', file: 'cursor.json', existing: '{\n    "mcpServers": {}\n}\n', key: 'mcpServers', remote: { url: 'https://example.org/mcp' } },
  { client: 'vscode', file: 'mcp.json', existing: '{\n\t"inputs": [],\n\t"servers": { "other": { "type": "http", "url": "https://a.example/mcp" } }\n}\n', key: 'servers', remote: { type: 'http', url: 'https://example.org/mcp' } },
  { client: 'gemini', file: 'settings.json', existing: '{ "theme": "GitHub" }', key: 'mcpServers', remote: { httpUrl: 'https://example.org/mcp' } },
  {
    client: 'goose',
    file: 'config.yaml',
    existing: '# my goose settings\nGOOSE_PROVIDER: anthropic # the provider\nextensions:\n  developer:\n    enabled: true\n    type: builtin\n    name: developer\n',
    key: 'extensions',
    remote: { name: 'example.org', type: 'streamable_http', uri: 'https://example.org/mcp', enabled: true, timeout: 300 },
  },
] as const

const read = (path: string): Record<string, unknown> => {
  const text = readFileSync(path, 'utf8')
  return (path.endsWith('.yaml') ? parseYaml(text) : JSON.parse(text)) as Record<string, unknown>
}

describe.each(cases)('emcp install $client', ({ client, file, existing, key, remote }) => {
  it('installs a module, keeps the rest, changes nothing the second time, and removes it again', async () => {
    const path = join(dir, `${client}-${file}`)
    writeFileSync(path, existing)
    const before = read(path)
    const first = await cli(['install', client, calculator, '--env', 'API_KEY=k1', '--env', 'MODE=a=b', '--config', path])
    expect(first).toMatchObject({ code: 0, err: expect.stringContaining('installed calculator in') })
    const once = readFileSync(path, 'utf8')
    const after = read(path)
    const entry = (after[key] as Record<string, Record<string, unknown>>).calculator
    const command = { cmd: process.execPath, command: process.execPath }
    expect(entry?.[client === 'goose' ? 'cmd' : 'command']).toBe(command.command)
    expect(entry?.args).toEqual([bin, 'serve', calculator])
    expect(entry?.[client === 'goose' ? 'envs' : 'env']).toEqual({ API_KEY: 'k1', MODE: 'a=b' })
    // everything that was there is still there
    for (const [k, v] of Object.entries(before)) {
      if (k !== key) expect(after[k]).toEqual(v)
      else for (const [n, e] of Object.entries(v as object)) expect((after[key] as Record<string, unknown>)[n]).toEqual(e)
    }
    if (client === 'goose') expect(once).toContain('# my goose settings\nGOOSE_PROVIDER: anthropic # the provider\n')
    const mtime = statSync(path).mtimeMs
    const second = await cli(['install', client, calculator, '--env', 'API_KEY=k1', '--env', 'MODE=a=b', '--config', path])
    expect(second).toMatchObject({ code: 0, err: expect.stringContaining('calculator is already installed as given in') })
    expect(readFileSync(path, 'utf8')).toBe(once)
    expect(statSync(path).mtimeMs).toBe(mtime)
    const removed = await cli(['install', client, calculator, '--remove', '--config', path])
    expect(removed.err).toContain('removed calculator from')
    expect(read(path)).toEqual(client === 'gemini' ? { ...before, mcpServers: {} } : before)
    expect((await cli(['install', client, calculator, '--remove', '--config', path])).err).toContain('calculator was not installed in')
  })

  it('installs a URL, and prints the entry without writing', async () => {
    const path = join(dir, `${client}-remote-${file}`)
    const url = await cli(['install', client, 'https://example.org/mcp', '--config', path])
    expect(url.code).toBe(0)
    expect((read(path)[key] as Record<string, unknown>)['example.org']).toEqual(remote)
    const printed = await cli(['install', client, 'https://example.org/mcp', '--name', 'ex', '--print', '--config', join(dir, 'never.json')])
    expect(printed.code).toBe(0)
    expect(JSON.parse(printed.out.slice(0, printed.out.indexOf('\n}\n') + 2))).toEqual({ [key]: { ex: client === 'goose' ? { ...remote, name: 'ex' } : remote } })
    expect(() => statSync(join(dir, 'never.json'))).toThrow()
  })

  it('refuses a malformed file, names it, and leaves it untouched', async () => {
    const path = join(dir, `${client}-broken-${file}`)
    const broken = file.endsWith('.yaml') ? 'extensions:\n  a: [unclosed\n' : '{ "mcpServers": { "other": { "command": "x" } }, // a comment\n'
    writeFileSync(path, broken)
    const r = await cli(['install', client, calculator, '--config', path])
    expect(r.code).toBe(1)
    expect(r.err).toContain(path)
    expect(r.err).toMatch(file.endsWith('.yaml') ? /is not valid YAML/ : /is not valid JSON .*comments are not JSON/)
    expect(r.err).toContain('left untouched')
    expect(readFileSync(path, 'utf8')).toBe(broken)
    const wrongShape = file.endsWith('.yaml') ? `${key}: [1, 2]\n` : `{ "${key}": [1, 2] }`
    writeFileSync(path, wrongShape)
    expect((await cli(['install', client, calculator, '--config', path])).err).toMatch(new RegExp(`has an? "${key}" that is not`))
    expect(readFileSync(path, 'utf8')).toBe(wrongShape)
  })
})

describe('emcp install links and refusals', () => {
  it('prints each client’s install link or command', async () => {
    const link = async (client: string) => (await cli(['install', client, 'https://example.org/mcp', '--name', 'ex', '--print'])).out.trim().split('\n').at(-1)
    expect(await link('cursor')).toBe(`cursor://anysphere.cursor-deeplink/mcp/install?name=ex&config=${encodeURIComponent(Buffer.from('{"url":"https://example.org/mcp"}').toString('base64'))}`)
    expect(await link('vscode')).toBe(`vscode:mcp/install?${encodeURIComponent('{"name":"ex","type":"http","url":"https://example.org/mcp"}')}`)
    expect(await link('claude-code')).toBe(`claude mcp add-json ex '{"type":"http","url":"https://example.org/mcp"}'`)
    expect(await link('goose')).toBe('goose://extension?url=https%3A%2F%2Fexample.org%2Fmcp&type=streamable_http&id=ex&name=ex')
  })

  it('refuses what it cannot do, saying why', async () => {
    expect((await cli(['install', 'notepad', calculator])).err).toMatch(/one of claude-desktop, claude-code, cursor, vscode, gemini, goose \(not notepad\)/)
    expect((await cli(['install', 'toString', calculator])).err).toMatch(/not toString/)
    expect((await cli(['install', 'cursor'])).err).toMatch(/give the server/)
    expect((await cli(['install', 'cursor', 'missing.js'])).err).toMatch(/missing\.js: no such module/)
    expect((await cli(['install', 'cursor', 'https://example.org/mcp', '--env', 'A=1'])).err).toMatch(/a URL names a server that runs elsewhere/)
    expect((await cli(['install', 'cursor', calculator, '--env', '1A=1', '--print'])).err).toMatch(/a variable name is letters/)
    expect((await cli(['install', 'cursor', calculator, '--name', '../../x', '--print'])).err).toMatch(/--name "..\/..\/x": use 1-64/)
    expect((await cli(['install', 'cursor', calculator, '--print', '--remove'])).err).toMatch(/not both/)
  })
})
