/**
 * Memory under hostile and long-lived use of stateful HTTP, measured in a child with
 * --expose-gc (scripts/memory.mjs; `npm run soak` runs the same checks in full):
 *
 * - 60 answers of 3.9 MB in a session, then DELETE: under 100 MB of heap after GC;
 * - 10 000 SSE calls in a live session (and 2000 streams cut off): under 150 bytes of heap each;
 * - a server with --max-old-space-size=256 takes maximum-size requests from one client
 *   (20 s here, a minute in the soak) and still answers another.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { root } from '../interop/children.js'

/** Runs scripts/memory.mjs with these arguments: its JSON report and exit code. */
const memory = async (args: ReadonlyArray<string>): Promise<{ report: Record<string, any>; code: number | null; err: string }> => {
  const child = spawn(process.execPath, ['--expose-gc', join(root, 'scripts', 'memory.mjs'), ...args, '--json'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout.on('data', (c: Buffer) => (out += c.toString()))
  child.stderr.on('data', (c: Buffer) => (err += c.toString()))
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  if (out.trim() === '') throw new Error(`scripts/memory.mjs printed nothing (exit ${code}):\n${err}`)
  return { report: JSON.parse(out), code, err }
}

describe('memory: stateful HTTP under hostile use', () => {
  it('keeps under 100 MB of heap after 60 answers of 3.9 MB in a session, and after its DELETE', async () => {
    const { report, code, err } = await memory(['--flood', '--answers', '60', '--mb', '3.9'])
    expect(report.flood.bad, err).toBe(0)
    expect(report.flood.beforeDeleteMB).toBeLessThan(100)
    expect(report.flood.afterDeleteMB).toBeLessThan(100)
    // the session's events went with it: the heap is back near where it started
    expect(report.flood.afterDeleteMB - report.flood.beforeMB).toBeLessThan(20)
    expect(code).toBe(0)
  }, 300_000)

  it('grows the heap by under 150 bytes per SSE call and per cut stream in a live session, over 10 000 calls', async () => {
    const { report, code, err } = await memory(['--per-call', '--calls', '10000', '--cut', '2000'])
    expect(report.perCall.perCallBytes, err).toBeLessThan(150)
    expect(report.perCall.perCutStreamBytes).toBeLessThan(150)
    expect(code).toBe(0)
  }, 600_000)

  it('survives maximum-size requests from one client with a 256 MB heap, and answers another client', async () => {
    const { report, code, err } = await memory(['--survive', '--seconds', '20', '--workers', '8'])
    expect(report.survive.alive, report.survive.output ?? err).toBe(true)
    expect(report.survive.requests).toBeGreaterThan(0)
    expect(report.survive.failed).toBe(0)
    expect(report.survive.otherServed).toBe(true)
    expect(code).toBe(0)
  }, 300_000)
})
