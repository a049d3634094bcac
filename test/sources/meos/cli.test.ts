/**
 * `emcp meos`'s flags, in process: every mistake is a usage error that names the flag, before
 * any worker starts (so these need neither libmeos nor the data files).
 */
import { describe, expect, it } from 'vitest'
import { runCli } from 'emcp/cli'

const run = async (...argv: string[]): Promise<{ code: number; err: string }> => {
  let err = ''
  const code = await runCli(['meos', ...argv], { out: () => undefined, err: (t) => void (err += t), cwd: process.cwd(), interactive: false })
  return { code, err }
}

const files = ['--manifest', 'm.json', '--catalog', 'c.json']

describe('emcp meos flags', () => {
  it('requires the manifest and the catalog', async () => {
    expect(await run('--catalog', 'c.json')).toMatchObject({ code: 2, err: expect.stringContaining('--manifest FILE is required (the generated meos-mcp.json)') })
    expect(await run('--manifest', 'm.json')).toMatchObject({ code: 2, err: expect.stringContaining('--catalog FILE is required (the generated meos-idl.json)') })
  })

  it('refuses transports given together, and HTTP flags without --http', async () => {
    expect((await run(...files, '--stdio', '--http')).err).toContain('give --stdio or --http, not both')
    expect((await run(...files, '--port', '3000')).err).toContain('--port, --host and --sessions need --http')
  })

  it('refuses a bad worker count, timeout, decode mode or port, naming the flag', async () => {
    expect((await run(...files, '--workers', '0')).err).toContain('--workers needs a whole number from 1')
    expect((await run(...files, '--workers', 'two')).err).toContain('--workers needs a whole number')
    expect((await run(...files, '--timeout', '-5')).err).toContain('--timeout needs a whole number')
    expect((await run(...files, '--decode', 'guess')).err).toContain('--decode must be universal or manifest, not "guess"')
    expect((await run(...files, '--http', '--port', '70000')).err).toContain('--port needs a whole number')
    expect((await run(...files, '--serch')).err).toContain('unknown option --serch')
    expect((await run(...files, '--pin', 'temporal_copy')).err).toContain('--pin needs --search')
  })

  it('says what is missing when the files cannot be read (exit 1)', async () => {
    const r = await run('--library', '/nonexistent/libmeos.so', '--manifest', '/nonexistent/m.json', '--catalog', '/nonexistent/c.json')
    expect(r.code).toBe(1)
    expect(r.err).toContain('the manifest could not be read at /nonexistent/m.json')
  })
})
