import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { root } from '../interop/children.js'

const run = promisify(execFile)
/** The installed executable (bin/emcp.js -> dist/src/cli/main.js), as `npx emcp` runs it. */
const emcp = async (...args: string[]) => {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/emcp.js', ...args], { cwd: root, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 })
    return { code: 0, stdout, stderr }
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string }
    return { code: x.code, stdout: x.stdout, stderr: x.stderr }
  }
}

describe('the emcp executable', () => {
  it('emcp call dist/examples/calculator.js add --arg a=2 --arg b=3 prints a result with sum 5', async () => {
    const r = await emcp('call', 'dist/examples/calculator.js', 'add', '--arg', 'a=2', '--arg', 'b=3')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).structuredContent).toEqual({ sum: 5 })
  })

  it('emcp manifest dist/examples/catalog.js gives identical bytes twice', async () => {
    const [a, b] = await Promise.all([emcp('manifest', 'dist/examples/catalog.js'), emcp('manifest', 'dist/examples/catalog.js')])
    expect(a.code).toBe(0)
    expect(a.stdout.length).toBeGreaterThan(1_000_000)
    expect(a.stdout === b.stdout).toBe(true)
  }, 120_000)

  it('exits 2 with a readable message for a missing module', async () => {
    const r = await emcp('list', 'dist/examples/missing.js')
    expect(r).toMatchObject({ code: 2, stdout: '' })
    expect(r.stderr).toBe('emcp list: cannot find module dist/examples/missing.js\nRun `emcp list --help` for usage.\n')
  })
})
