/**
 * Properties of the HTTP transport (serveHttp on 127.0.0.1, port 0) fed arbitrary bodies and
 * headers: a notification or response gets 202 and no body; a request with a readable id
 * gets 200 and its answer with that id; anything without an id gets 400 and a JSON-RPC error
 * with id null; a refused request head gets its HTTP status and a JSON-RPC error; and the
 * server still adds after every run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { calculator } from '../../examples/calculator.js'
import { supportedVersions } from '../../src/protocol/versions.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'
import {
  anyMessage,
  check,
  expectAnswer,
  expectedOfText,
  expectProbeAnswer,
  invalidUtf8,
  nastyString,
  parseResponse,
  probe,
  type WireResponse,
} from './wire.js'

let running: RunningHttp

beforeAll(async () => {
  running = await serveHttp(calculator, { port: 0 })
  expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
})

afterAll(async () => {
  await running?.close()
})

// a revision after 2025-03-26, where batches are refused as the oracle expects (batches under
// 2025-03-26, the revision assumed without the header, have a test of their own)
const baseHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
}

interface Reply {
  readonly status: number
  readonly body: string
  readonly contentType: string | null
}

const post = async (body: string | Uint8Array, headers: Record<string, string> = baseHeaders, method = 'POST'): Promise<Reply> => {
  const r = await fetch(running.url, {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' ? null : typeof body === 'string' ? body : new Uint8Array(body),
    signal: AbortSignal.timeout(5_000),
  })
  return { status: r.status, body: await r.text(), contentType: r.headers.get('content-type') }
}

/** Checks a reply to a body that passed every header check, against the JSON-RPC oracle. */
const expectReply = (text: string, r: Reply): void => {
  const e = expectedOfText(text)
  if (!e.answer) {
    check(r.status === 202 && r.body === '', 'a notification or response gets 202 and no body', r)
    return
  }
  check(r.contentType === 'application/json', 'an answer is application/json', r)
  const a = parseResponse(r.body)
  check(r.status === (e.id === null ? 400 : 200), `status ${r.status} for id ${JSON.stringify(e.id)}`, { text, reply: r })
  expectAnswer(e.parseError === true ? text : JSON.parse(text), a, e.parseError === true)
}

/** A batch is answered by an array holding one valid answer per member that gets one. */
const expectBatchReply = (batch: ReadonlyArray<unknown>, r: Reply): void => {
  const answered = batch.filter((m) => expectedOfText(JSON.stringify(m)).answer).length
  if (answered === 0) {
    check(r.status === 202 && r.body === '', 'a batch of notifications gets 202 and no body', r)
    return
  }
  check(r.status === 200, 'a batch gets 200', r)
  const answers: unknown = JSON.parse(r.body)
  check(Array.isArray(answers) && answers.length === answered, `${answered} answers in an array`, r)
  for (const a of answers as unknown[]) parseResponse(JSON.stringify(a))
}

const probeStillAdds = async (): Promise<void> => {
  const p = probe()
  const r = await post(p.text)
  check(r.status === 200, 'the probe gets 200', r)
  expectProbeAnswer(parseResponse(r.body), p.id)
}

describe('property: HTTP transport', () => {
  it('answers any message, batch, notification or response as JSON-RPC says, and still adds after', async () => {
    await fc.assert(
      fc.asyncProperty(anyMessage, async (m) => {
        const text = JSON.stringify(m)
        expectReply(text, await post(text))
        await probeStillAdds()
      }),
      { numRuns: 200 },
    )
  })

  it('answers arbitrary bodies: any text, JSON values, invalid UTF-8, truncated messages', async () => {
    const body = fc.oneof(
      fc.string({ unit: 'binary' }).map((s) => Buffer.from(s)),
      nastyString.map((s) => Buffer.from(s)),
      fc.json().map((s) => Buffer.from(s)),
      fc.uint8Array({ maxLength: 200 }),
      fc.tuple(anyMessage, fc.nat(), invalidUtf8).map(([m, at, bad]) => {
        const t = Buffer.from(JSON.stringify(m))
        const i = at % (t.length + 1)
        return Buffer.concat([t.subarray(0, i), bad, t.subarray(i)])
      }),
      fc.tuple(anyMessage, fc.nat()).map(([m, at]) => {
        const t = Buffer.from(JSON.stringify(m))
        return t.subarray(0, at % (t.length + 1))
      }),
    )
    await fc.assert(
      fc.asyncProperty(body, async (bytes) => {
        const r = await post(bytes)
        // the server reads the body as UTF-8, U+FFFD for broken bytes
        expectReply(Buffer.from(bytes).toString('utf8'), r)
      }),
      { numRuns: 200 },
    )
    await probeStillAdds()
  })

  it('refuses bad request heads with the right status and a JSON-RPC error, in the documented order', async () => {
    const head = fc.record({
      method: fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT', 'DELETE', 'PATCH'),
      origin: fc.option(fc.constantFrom('http://127.0.0.1:1234', 'http://localhost', 'https://[::1]:8443', 'http://evil.example', 'null', 'not a url'), { nil: undefined }),
      accept: fc.option(fc.constantFrom('application/json', 'text/event-stream', 'application/json, text/event-stream', '*/*', 'application/*', 'text/html', 'application/jsonx'), { nil: undefined }),
      contentType: fc.option(fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'text/plain', 'application/jsonl', ''), { nil: undefined }),
      version: fc.option(fc.constantFrom(...supportedVersions, '2026-07-28', '2024-10-07', 'latest', ''), { nil: undefined }),
    })
    await fc.assert(
      fc.asyncProperty(head, anyMessage, async (h, m) => {
        const headers: Record<string, string> = {}
        if (h.origin !== undefined) headers.origin = h.origin
        if (h.accept !== undefined) headers.accept = h.accept
        if (h.contentType !== undefined) headers['content-type'] = h.contentType
        if (h.version !== undefined) headers['mcp-protocol-version'] = h.version
        const text = JSON.stringify(m)
        const r = await post(text, headers, h.method)
        const loopback = h.origin === undefined || /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(h.origin)
        const acceptsJson = h.accept === undefined || /application\/json(,|$)|\*\/\*|application\/\*/.test(h.accept)
        const isJson = h.contentType !== undefined && /^application\/json(;|$)/i.test(h.contentType)
        const versionOk = h.version === undefined || (supportedVersions as ReadonlyArray<string>).includes(h.version)
        const refusal = !loopback ? 403 : h.method !== 'POST' ? 405 : !acceptsJson ? 406 : !isJson ? 415 : !versionOk ? 400 : undefined
        // without the header (2025-03-26 assumed) and at 2024-11-05 a non-empty array is a batch
        const batch = Array.isArray(m) && m.length > 0 && (h.version === undefined || h.version === '2025-03-26' || h.version === '2024-11-05')
        if (refusal === undefined && batch) {
          expectBatchReply(m as ReadonlyArray<unknown>, r)
          return
        }
        if (refusal === undefined) {
          expectReply(text, r)
          return
        }
        check(r.status === refusal, `expected ${refusal}`, { head: h, status: r.status, body: r.body })
        const a: WireResponse = parseResponse(r.body)
        // an MCP-Protocol-Version outside the 2025 family is judged with the body read (2026-07-28):
        // -32602 for 2026-07-28 without its _meta, -32022 for a revision never spoken; the id is the request's
        const byVersion = refusal === 400 && !versionOk
        check(a.error !== undefined && (a.id === null || byVersion), 'a refusal is a JSON-RPC error with id null', a)
        if (byVersion) check(a.error?.code === (h.version === '2026-07-28' ? -32602 : -32022), 'the modern code for the version header', a)
      }),
      { numRuns: 200 },
    )
    await probeStillAdds()
  })

  it('answers requests sent concurrently, each with its own id', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 })), { minLength: 1, maxLength: 20 }), async (pairs) => {
        const replies = await Promise.all(
          pairs.map(([a, b], i) =>
            post(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'add', arguments: { a, b } } })),
          ),
        )
        replies.forEach((r, i) => {
          const answer = parseResponse(r.body)
          check(answer.id === i, 'own id', answer)
          const [a, b] = pairs[i] ?? [0, 0]
          check((answer.result?.structuredContent as { sum?: number } | undefined)?.sum === a + b, 'own sum', answer)
        })
      }),
      { numRuns: 30 },
    )
  })
})
