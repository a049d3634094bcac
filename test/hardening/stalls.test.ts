/**
 * No request stalls the server, measured in a child with --expose-gc (scripts/stalls.mjs):
 * with 8, then 64, `subscriptions/listen` streams padded to 4 MiB and 8 bodies that declare
 * 4 MiB and send one byte, all open from other addresses, a fresh client's `tools/call` is
 * answered (Node's `http` client and `fetch`) while every one of them is still open, and the
 * heap after GC stays within 64 MB of where it started.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { root } from '../interop/children.js'

/** Runs scripts/stalls.mjs with these arguments: its JSON report and exit code. */
const stalls = async (args: ReadonlyArray<string>): Promise<{ report: Record<string, any>; code: number | null; err: string }> => {
  const child = spawn(process.execPath, ['--expose-gc', join(root, 'scripts', 'stalls.mjs'), ...args, '--json'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout.on('data', (c: Buffer) => (out += c.toString()))
  child.stderr.on('data', (c: Buffer) => (err += c.toString()))
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  if (out.trim() === '') throw new Error(`scripts/stalls.mjs printed nothing (exit ${code}):\n${err}`)
  return { report: JSON.parse(out), code, err }
}

describe('stalls: hostile streams and slow bodies open', () => {
  for (const listens of [8, 64])
    it(`answers a fresh call with ${listens} listen streams of 4 MiB and 8 slow bodies open, the heap within 64 MB`, async () => {
      const { report, code, err } = await stalls(['--listens', String(listens), '--slow', '8'])
      expect(report.freshHttp, err).toMatchObject({ status: 200, ok: true })
      expect(report.freshFetch).toMatchObject({ status: 200, ok: true })
      expect(report.stillOpen).toBe(true)
      expect(report.heapOpenMB - report.heapBeforeMB).toBeLessThan(64)
      expect(code).toBe(0)
    }, 300_000)
})
