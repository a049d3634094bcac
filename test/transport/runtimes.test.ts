/**
 * The everything example served through `emcp/fetch` on Deno, Bun and workerd, each started
 * on a port of 127.0.0.1 from a bundle made with esbuild (platform neutral): Deno and Bun
 * with stateful 2025-11-25 sessions and SSE (both eras), workerd twice, without
 * `nodejs_compat`: stateless (both eras), and with sessions in Durable Objects (emcp/workers,
 * in-memory storage). On each, the SDK v2 client's interop checks, then the official
 * conformance suite's 2025-11-25 and 2026-07-28 runs (scripts/conformance.mjs --target; the
 * tasks extension's scenarios included). A stateless endpoint fails only the 2025-11-25
 * scenarios that need a channel back to the client (questions to it, subscriptions). A runtime that is not installed is
 * skipped with a note, except under CI=true.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleFor } from '../support/fetch-bundle.js'
import { runtimeBinary, startRuntime, type Running, type Runtime } from '../support/runtimes.js'
import { v2Interop } from '../support/v2-interop.js'

/**
 * The 2025-11-25 scenarios that need a session: server-to-client requests and subscriptions.
 * (A call's own logs and progress go on its POST's answer, stateless too.)
 */
const needChannel: ReadonlySet<string> = new Set([
  'tools-call-sampling',
  'tools-call-elicitation',
  'elicitation-sep1034-defaults',
  'elicitation-sep1330-enums',
  'resources-subscribe',
  'resources-unsubscribe',
])

/** The suite's tallies per run, and the scenarios with a failed check. */
interface Conformance {
  readonly totals: { readonly [run: string]: { readonly passed: number; readonly failed: number } }
  readonly failedScenarios: ReadonlySet<string>
  readonly output: string
}

/** Runs the conformance suite's two revision runs against `url`. */
const conformance = async (url: string): Promise<Conformance> => {
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/conformance.mjs', '--run', '2025-11-25', '--run', '2026-07-28', '--target', url], {
    timeout: 600_000,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }))
  const totals = Object.fromEntries([...stdout.matchAll(/^conformance: (\S+): Total: (\d+) passed, (\d+) failed$/gm)].map((m) => [m[1], { passed: Number(m[2]), failed: Number(m[3]) }]))
  const failedScenarios = new Set([...stdout.matchAll(/^ {2}(\S+) \S+: /gm)].filter((m) => stdout.lastIndexOf('Failed checks:', m.index) > stdout.lastIndexOf('Warnings', m.index)).map((m) => m[1] as string))
  return { totals, failedScenarios, output: stdout }
}

/** Each runtime, what it serves, and with which arguments. */
const targets: ReadonlyArray<{ readonly runtime: Runtime; readonly bundle: 'serve' | 'worker' | 'worker-sessions'; readonly args: ReadonlyArray<string>; readonly sessions: boolean }> = [
  { runtime: 'deno', bundle: 'serve', args: [], sessions: true },
  { runtime: 'bun', bundle: 'serve', args: [], sessions: true },
  { runtime: 'workerd', bundle: 'worker', args: ['REQUEST_STATE_KEYS=a request-state key the test shares'], sessions: false },
  // sessions in Durable Objects (emcp/workers), kept in memory
  { runtime: 'workerd', bundle: 'worker-sessions', args: ['REQUEST_STATE_KEYS=a request-state key the test shares', 'MCP_SESSIONS=durable:McpSession'], sessions: true },
]

const ci = process.env.CI === 'true'

for (const target of targets) {
  const installed = runtimeBinary(target.runtime) !== undefined
  if (!installed) {
    if (ci) it(`${target.runtime} is installed (CI=true needs every runtime)`, () => expect(runtimeBinary(target.runtime)).toBeDefined())
    else console.warn(`${target.runtime} runtime tests SKIPPED: node_modules/.bin/${target.runtime} is not installed`)
  }

  describe.skipIf(!installed)(`the everything example on ${target.runtime} (${target.sessions ? `stateful sessions and SSE${target.runtime === 'workerd' ? ' in Durable Objects' : ''}` : 'stateless'})`, () => {
    let server: Running

    beforeAll(async () => {
      const bundle = await bundleFor(target.bundle)
      expect(bundle.nodeImports).toEqual([])
      server = await startRuntime(target.runtime, bundle.file, target.args)
    }, 120_000)

    afterAll(async () => {
      await server?.stop()
    })

    it('passes the SDK v2 client in 2026-07-28', async () => {
      await v2Interop(server.url, '2026-07-28', { channel: target.sessions })
    })

    it(`passes the SDK v2 client in 2025-11-25 ${target.sessions ? 'with a session' : 'without sessions'}`, async () => {
      await v2Interop(server.url, 'legacy', { channel: target.sessions })
    })

    it('passes the conformance suite for the paths it serves (tasks included)', async () => {
      const r = await conformance(server.url)
      console.log(`${target.runtime}: conformance 2025-11-25 ${JSON.stringify(r.totals['2025-11-25'])}, 2026-07-28 ${JSON.stringify(r.totals['2026-07-28'])}`)
      expect(r.totals['2026-07-28']?.passed, r.output.slice(-4000)).toBeGreaterThan(0)
      expect(r.totals['2026-07-28']?.failed, r.output.slice(-4000)).toBe(0)
      expect(r.totals['2025-11-25']?.passed, r.output.slice(-4000)).toBeGreaterThan(0)
      if (target.sessions) expect(r.totals['2025-11-25']?.failed, r.output.slice(-4000)).toBe(0)
      else expect([...r.failedScenarios].filter((s) => !needChannel.has(s)), r.output.slice(-4000)).toEqual([])
    }, 600_000)
  })
}
