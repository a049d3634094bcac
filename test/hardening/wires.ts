/**
 * One interface over every transport, for suites that run unchanged against each (the
 * corpus, the framing fuzz): send the bytes of one message in a session at a revision, get
 * back what the client would read (the status, and every JSON-RPC message: stdio lines, a
 * JSON body or an SSE stream's events), and check that the server still answers a call.
 * Every server here is in-process, on PassThrough streams or 127.0.0.1 port 0.
 */
import { PassThrough } from 'node:stream'
import type { Server } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'
import { startStdio, type StdioServer } from '../../src/transport/stdio.js'
import { until } from '../interop/children.js'
import { parseSse } from '../support/sse.js'

// ---------------------------------------------------------------------------------------
// model

/** The revisions the suites initialize sessions at. */
export type Version = '2025-11-25' | '2025-03-26'

/** What came back for one message. */
export interface Exchange {
  /** The HTTP status; undefined on stdio. */
  readonly status: number | undefined
  /** Every message received in answer, parsed. */
  readonly messages: ReadonlyArray<unknown>
}

/** A transport under test. */
export interface Wire {
  readonly name: 'stdio' | 'stateless HTTP' | 'stateful HTTP'
  /** Sends one message's bytes in a session at `version`; what came back for it. */
  readonly exchange: (body: Buffer, version: Version) => Promise<Exchange>
  /** Throws unless the server still answers `add(n, 1)` with n + 1 in a session at `version`. */
  readonly probe: (version: Version, n: number) => Promise<void>
  readonly close: () => Promise<void>
}

/** The limit the suites set on both transports: 16 MiB a line or a body. */
export const limitBytes = 16 * 1024 * 1024

// ---------------------------------------------------------------------------------------
// constructors

const initialize = (version: Version, id: string | number = 'init') => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'hardening', version: '1' } },
})
const addCall = (id: string, n: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'add', arguments: { a: n, b: 1 } } })

const checkSum = (m: unknown, n: number): void => {
  const sum = (m as { result?: { structuredContent?: { sum?: unknown } } } | undefined)?.result?.structuredContent?.sum
  if (sum !== n + 1) throw new Error(`the server stopped serving: add(${n}, 1) answered ${JSON.stringify(m)?.slice(0, 300)}`)
}

/** stdio: one connection per revision, each initialized; a probe call after each message marks where its answers end. */
export const stdioWire = (server: Server): Wire => {
  const connections = new Map<Version, { input: PassThrough; handle: StdioServer; lines: () => string[] }>()
  let probes = 0

  const connection = async (version: Version) => {
    const existing = connections.get(version)
    if (existing !== undefined) return existing
    const input = new PassThrough()
    const output = new PassThrough()
    let text = ''
    output.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
    const handle = startStdio(server, { input, output, redirectConsole: false, handleSignals: false, maxLineBytes: limitBytes })
    const lines = (): string[] => text.split('\n').slice(0, -1)
    const c = { input, handle, lines }
    connections.set(version, c)
    input.write(`${JSON.stringify(initialize(version))}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`)
    await until(() => lines().length === 1, 'the initialize answer')
    return c
  }

  /** Sends `body`, then a probe; the lines before the probe's answer, parsed (stdout must stay clean). */
  const sendAndProbe = async (version: Version, body: Buffer, n: number): Promise<unknown[]> => {
    const c = await connection(version)
    const from = c.lines().length
    const id = `probe-${++probes}`
    c.input.write(Buffer.concat([body, Buffer.from(`\n${JSON.stringify(addCall(id, n))}\n`)]))
    const marker = `"id":${JSON.stringify(id)}`
    await until(() => c.lines().slice(from).some((l) => l.includes(marker)), `the answer to ${id}`, 15_000)
    const parsed = c.lines().slice(from).map((l) => {
      try {
        return JSON.parse(l) as unknown
      } catch {
        throw new Error(`stdout is not clean: a line is not JSON: ${l.slice(0, 200)}`)
      }
    })
    const at = parsed.findIndex((m) => (m as { id?: unknown } | null)?.id === id)
    if (at !== parsed.length - 1) throw new Error(`answers arrived after the probe's: ${JSON.stringify(parsed.slice(at + 1)).slice(0, 300)}`)
    checkSum(parsed[at], n)
    return parsed.slice(0, at)
  }

  return {
    name: 'stdio',
    exchange: async (body, version) => ({ status: undefined, messages: await sendAndProbe(version, body, 1) }),
    probe: async (version, n) => {
      const before = await sendAndProbe(version, Buffer.alloc(0), n)
      if (before.length > 0) throw new Error(`unexpected answers: ${JSON.stringify(before).slice(0, 300)}`)
    },
    close: async () => {
      for (const c of connections.values()) {
        c.input.end()
        await c.handle.done
      }
    },
  }
}

/** HTTP, stateless or stateful (one session per revision); the same server for all. */
export const httpWire = async (server: Server, stateful: boolean): Promise<Wire> => {
  const running: RunningHttp = await serveHttp(server, { port: 0, handleSignals: false, maxBodyBytes: limitBytes, sessions: stateful })
  const sessions = new Map<Version, string>()

  const session = async (version: Version): Promise<Record<string, string>> => {
    if (!stateful) return {}
    let sid = sessions.get(version)
    if (sid === undefined) {
      const res = await fetch(running.url, { method: 'POST', headers: baseHeaders(version), body: JSON.stringify(initialize(version, 0)) })
      await res.text()
      sid = res.headers.get('mcp-session-id') ?? ''
      if (sid === '') throw new Error(`initialize opened no session (${res.status})`)
      sessions.set(version, sid)
    }
    return { 'mcp-session-id': sid }
  }

  const exchange = async (body: Buffer, version: Version): Promise<Exchange> => {
    const res = await fetch(running.url, {
      method: 'POST',
      headers: { ...baseHeaders(version), ...(await session(version)) },
      body: new Uint8Array(body),
      signal: AbortSignal.timeout(15_000),
    })
    const text = await res.text()
    const type = res.headers.get('content-type') ?? ''
    const messages = type.startsWith('text/event-stream')
      ? parseSse(text)
          .filter((e) => e.data !== undefined && e.data !== '')
          .map((e) => JSON.parse(e.data as string) as unknown)
      : text === ''
        ? []
        : [JSON.parse(text) as unknown]
    return { status: res.status, messages }
  }

  return {
    name: stateful ? 'stateful HTTP' : 'stateless HTTP',
    exchange,
    probe: async (version, n) => {
      const x = await exchange(Buffer.from(JSON.stringify(addCall('probe', n))), version)
      checkSum(x.messages.at(-1), n)
    },
    close: () => running.close(),
  }
}

const baseHeaders = (version: Version): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': version,
})
