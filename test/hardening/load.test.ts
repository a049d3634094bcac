/**
 * Load, bounded: many concurrent calls and sessions on 127.0.0.1, and the short version of
 * `npm run soak` (scripts/soak.mjs, run as a child with --expose-gc): no errors, a heap that
 * stays flat, and a stateful session that costs under 50 KB.
 */
import { spawn } from 'node:child_process'
import { createServer, type Server as NodeServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emcp, mcpServer } from '../../src/index.js'
import { serveHttp, toNodeListener, type RunningHttp } from '../../src/transport/http.js'
import { root } from '../interop/children.js'

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' }

describe('load: high concurrency on 127.0.0.1', () => {
  const wait = emcp({ name: 'wait', description: 'Answers its n after ms.', input: { type: 'object', properties: { n: { type: 'integer' }, ms: { type: 'integer' } }, required: ['n', 'ms'] } })
  const server = mcpServer([wait], { name: 'load', version: '1' }).implement({
    wait: ({ n, ms }) => new Promise<string>((resolve) => setTimeout(() => resolve(String(n)), ms)),
  })
  let stateless: RunningHttp
  // stateful through the Node listener, whose registry the test can count
  const listener = toNodeListener(server, { sessions: { maxSessions: 5_000 } })
  let node: NodeServer
  let statefulUrl = ''
  beforeAll(async () => {
    stateless = await serveHttp(server, { port: 0, handleSignals: false })
    node = createServer(listener)
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve))
    statefulUrl = `http://127.0.0.1:${(node.address() as AddressInfo).port}/mcp`
  })
  afterAll(async () => {
    await stateless?.close()
    listener.sessions?.close()
    node.closeAllConnections()
    await new Promise((resolve) => node.close(resolve))
  })

  it('answers 1000 calls sent 250 at a time, all at once within each wave, each with its own result', async () => {
    for (let wave = 0; wave < 4; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 250 }, async (_, i) => {
          const n = wave * 250 + i
          const res = await fetch(stateless.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'wait', arguments: { n, ms: 5 } } }) })
          return [n, res.status, await res.json()] as const
        }),
      )
      for (const [n, status, body] of answers) {
        expect(status).toBe(200)
        expect(body).toEqual({ jsonrpc: '2.0', id: n, result: { content: [{ type: 'text', text: String(n) }] } })
      }
    }
  })

  it('opens 1000 sessions 100 at a time, calls in each, closes them all, and keeps none', async () => {
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }
    for (let wave = 0; wave < 10; wave++) {
      const ids = await Promise.all(
        Array.from({ length: 100 }, async () => {
          const res = await fetch(statefulUrl, { method: 'POST', headers, body: JSON.stringify(init) })
          await res.text()
          return res.headers.get('mcp-session-id') ?? ''
        }),
      )
      expect(new Set(ids).size).toBe(100)
      await Promise.all(
        ids.map(async (sid, i) => {
          const call = await fetch(statefulUrl, {
            method: 'POST',
            headers: { ...headers, accept: 'application/json', 'mcp-session-id': sid },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait', arguments: { n: i, ms: 1 } } }),
          })
          expect(await call.json()).toMatchObject({ id: 1, result: { content: [{ text: String(i) }] } })
          const del = await fetch(statefulUrl, { method: 'DELETE', headers: { 'mcp-session-id': sid } })
          expect(del.status).toBe(200)
        }),
      )
    }
    expect(listener.sessions?.size()).toBe(0)
  })
})

describe('load: the short soak (scripts/soak.mjs)', () => {
  it('runs calls over stdio and stateless HTTP and 1000 sessions open and closed with no error, a flat heap, and a session under 50 KB', async () => {
    const child = spawn(process.execPath, ['--expose-gc', join(root, 'scripts', 'soak.mjs'), '--calls', '4000', '--sessions', '1000', '--session-sample', '1000', '--json'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    child.stderr.on('data', (c: Buffer) => (err += c.toString()))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    const report = JSON.parse(out) as {
      errors: number
      errorSamples: string[]
      flat: boolean
      session: { bytesPerSession: number }
      sections: Record<string, { count: number; memory: { flat: boolean } }>
    }
    expect(report.errorSamples, err).toEqual([])
    expect(report.errors).toBe(0)
    expect(report.flat).toBe(true)
    expect(report.session.bytesPerSession).toBeGreaterThan(0)
    expect(report.session.bytesPerSession).toBeLessThan(50 * 1024)
    expect(Object.keys(report.sections)).toEqual(['stdio', 'stateless HTTP', 'stateful HTTP'])
    expect(report.sections['stateful HTTP']?.count).toBe(1000)
    expect(code).toBe(0)
  }, 120_000)
})
