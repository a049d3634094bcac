/**
 * Every runnable example answers `--help` with its usage and exits 0 without starting
 * anything, and refuses an unknown option with the usage and exit 2 (examples/main.ts).
 */
import { spawn } from 'node:child_process'
import { createServer, type AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { example } from '../interop/children.js'

const runnable = ['apps', 'bench', 'calculator', 'catalog', 'client', 'compose', 'context', 'eras', 'everything', 'from-sdk', 'hardened', 'meos', 'meos-catalog', 'middleware', 'oauth', 'openapi', 'ops', 'otel', 'proxy', 'semoss', 'shapes', 'start', 'store', 'tasks', 'tool-search']

/** Runs an example to its exit, stdin closed; what it printed and its code. */
const run = (name: string, args: ReadonlyArray<string>): Promise<{ code: number | null; out: string; err: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [example(name), ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => void (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => void (err += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, out, err }))
  })

describe('examples', () => {
  it.each(runnable)('%s answers --help and -h with its usage, and starts nothing', async (name) => {
    const help = await run(name, ['--help'])
    expect(help).toMatchObject({ code: 0, err: '' })
    expect(help.out).toContain(`dist/examples/${name}.js`)
    expect((await run(name, ['-h'])).out).toBe(help.out)
  })

  it.each(runnable)('%s refuses an unknown option with the usage and exit 2', async (name) => {
    const bad = await run(name, ['--frobnicate'])
    expect(bad.code).toBe(2)
    expect(bad.out).toBe('')
    expect(bad.err).toMatch(new RegExp(`^${name}: Unknown option '--frobnicate'`))
    expect(bad.err).toContain(`dist/examples/${name}.js`)
  })

  it('a port in use is one line naming the port, with --port 0 as the way out (calculator --http, npm start)', async () => {
    const taken = createServer()
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done))
    const port = (taken.address() as AddressInfo).port
    try {
      const [calculator, start] = await Promise.all([run('calculator', ['--http', '--port', String(port)]), run('start', ['--port', String(port)])])
      expect(calculator).toMatchObject({ code: 1, err: `calculator: port ${port} on 127.0.0.1 is in use (another server is listening there): stop it, or give another port with --port N (--port 0 picks a free one; npm start -- --port 0)\n` })
      expect(start.code).toBe(1)
      expect(start.err).toBe(`start: port ${port} on 127.0.0.1 is in use (another server is listening there): stop it, or give another port with --port N (--port 0 picks a free one; npm start -- --port 0)\n`)
    } finally {
      await new Promise<void>((done) => taken.close(() => done()))
    }
  }, 60_000)

  it('refuses a port that is not a port number', async () => {
    const r = await run('calculator', ['--http', '--port', 'eighty'])
    expect(r).toMatchObject({ code: 1, err: 'calculator: --port must be a port number (got "eighty")\n' })
  })
})
