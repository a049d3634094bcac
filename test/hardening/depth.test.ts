/**
 * Deep parameters under 2026-07-28, over every transport: arguments nested 100 000 deep get
 * -32602 naming the limit (maxDepth, 512 by default), never -32603 "Maximum call stack size
 * exceeded"; parameters at the limit are served (the request digest, the validator and the
 * handler walk them). The 2025-11-25 cases are in the corpus (corpus.ts), over the same
 * transports. A server's own maxDepth applies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calculator } from '../../examples/calculator.js'
import { mcpServer, emcp, newSession } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'
import { httpWire, stdioWire, type Wire } from './wires.js'

const V = '2026-07-28'
const meta = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'deep', version: '1' } }
const deepObject = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n)
/** A 2026-07-28 call of echo whose `text` is an object nested `n` deep (params then nest n + 2 deep). */
const echoDeep = (id: number, n: number): string =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":${deepObject(n)}},"_meta":${JSON.stringify(meta)}}}`

const tooDeep = { error: { code: -32602, message: 'Invalid params: nested deeper than 512 levels (maxDepth)' } }
const refusedArgument = { result: { isError: true, resultType: 'complete' } }

/** Sends a 2026-07-28 body: stdio through its wire, HTTP with the headers the revision asks for. */
type Send = (body: string) => Promise<unknown>

const viaWire = (wire: Wire): Send => async (body) => (await wire.exchange(Buffer.from(body), '2025-11-25')).messages[0]
const viaHttp = (running: RunningHttp): Send => async (body) => {
  const res = await fetch(running.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
    body,
  })
  return res.json()
}

describe.each([
  ['stdio', async () => ({ wire: stdioWire(calculator) })],
  ['stateless HTTP', async () => ({ running: await serveHttp(calculator, { port: 0, handleSignals: false }) })],
  ['stateful HTTP', async () => ({ running: await serveHttp(calculator, { port: 0, handleSignals: false, sessions: true }) })],
] as const)('2026-07-28 deep params over %s', (_name, make) => {
  let send: Send
  let close: () => Promise<void>
  beforeAll(async () => {
    const made: { wire?: Wire; running?: RunningHttp } = await make()
    if (made.wire !== undefined) {
      const wire = made.wire
      send = viaWire(wire)
      close = () => wire.close()
    } else {
      const running = made.running as RunningHttp
      send = viaHttp(running)
      close = () => running.close()
    }
  })
  afterAll(async () => close?.())

  it('100 000 deep: -32602 with the limit named, and the server goes on', async () => {
    expect(await send(echoDeep(1, 100_000))).toMatchObject({ id: 1, ...tooDeep })
    expect(await send(echoDeep(2, 511))).toMatchObject({ id: 2, ...tooDeep })
    expect(await send(echoDeep(3, 510))).toMatchObject({ id: 3, ...refusedArgument })
  })
})

describe('maxDepth', () => {
  const anything = emcp({ name: 'anything', description: 'Takes any JSON.', input: { type: 'object' } as const })
  const server = (maxDepth?: number) =>
    mcpServer([anything], { name: 'd', version: '1' }, maxDepth === undefined ? {} : { maxDepth }).implement({ anything: () => 'ok' })
  const call = (n: number) => JSON.parse(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"anything","arguments":${deepObject(n)},"_meta":${JSON.stringify(meta)}}}`) as unknown

  it('a server may set its own: params deeper than it get -32602 in both eras', async () => {
    for (const version of ['2025-11-25', V] as const) {
      const s = server(8)
      expect(await s.dispatch(call(7), newSession(version))()).toMatchObject({ value: { result: { content: [{ text: 'ok' }] } } })
      expect(await s.dispatch(call(8), newSession(version))()).toMatchObject({ value: { error: { code: -32602, message: expect.stringContaining('8 levels (maxDepth)') } } })
    }
  })

  it('the default handler reads params 512 deep (the request digest walks them) and refuses 513', async () => {
    const s = server()
    expect(await s.dispatch(call(511), newSession(V))()).toMatchObject({ value: { result: { content: [{ text: 'ok' }] } } })
    expect(await s.dispatch(call(512), newSession(V))()).toMatchObject({ value: { error: { code: -32602 } } })
  })

  it('JSON text is bounded as parsed messages are: at every limit, the deepest params a text can hold at its length', async () => {
    // params of arrays only (the fewest characters per level), then the same depth in objects:
    // a text too short to nest past the limit skips the walk, and must answer as the walk would
    const arrays = (n: number): string => (n === 1 ? '{}' : `{"":${'['.repeat(n - 1)}${']'.repeat(n - 1)}}`)
    const objects = (n: number): string => '{"a":'.repeat(n - 1) + '{}' + '}'.repeat(n - 1)
    for (const maxDepth of [1, 2, 3, 8, 31, 64, 200])
      for (const params of [arrays, objects])
        for (const depth of [1, maxDepth >> 1, maxDepth - 1, maxDepth, maxDepth + 1, maxDepth + 2].filter((d) => d >= 1)) {
          const text = `{"jsonrpc":"2.0","id":1,"method":"ping","params":${params(depth)}}`
          const s = server(maxDepth)
          const viaText = await s.answerText(text, newSession('2025-11-25'))
          const viaMessage = await s.dispatch(JSON.parse(text), newSession('2025-11-25'))()
          const answer = depth > maxDepth ? { error: { code: -32602 } } : { result: {} }
          expect(viaText._tag === 'Some' ? JSON.parse(viaText.value) : undefined, `${maxDepth} ${depth} ${text}`).toMatchObject(answer)
          expect(viaMessage, text).toMatchObject({ value: answer })
        }
  })

  it('must be a positive integer', () => {
    expect(() => server(0)).toThrow(/maxDepth must be a positive integer/)
  })
})
