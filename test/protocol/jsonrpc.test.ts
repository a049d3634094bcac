import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import * as fc from 'fast-check'
import { decode, emcp, encode, errorCodes, mcpServer, newSession, parse, type Middleware, type Outgoing } from '../../src/index.js'
import { StructuredResult } from '../../src/protocol/jsonrpc.js'

const ping = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })
const server = mcpServer([ping], { name: 'rpc', version: '1' }).implement({ noop: () => 'ok' })

/** The answer of the dispatcher to one parsed message. */
const answer = async (message: unknown): Promise<O.Option<Outgoing>> =>
  server.dispatch(message, newSession())() as Promise<O.Option<Outgoing>>

/** The error of an undecodable message, failing the test when it decoded. */
const undecodable = (u: unknown) => {
  const d = decode(u)
  if (E.isRight(d)) throw new Error(`expected a decode failure, got ${JSON.stringify(d.right)}`)
  return d.left
}

describe('jsonrpc: the errorCodes table', () => {
  it('maps every error tag to its JSON-RPC code', () => {
    expect(errorCodes).toEqual({
      ParseError: -32700,
      InvalidRequest: -32600,
      MethodNotFound: -32601,
      InvalidParams: -32602,
      UnknownTool: -32602,
      InvalidCursor: -32602,
      InternalError: -32603,
      ResourceNotFound: -32002,
      Refused: -32000,
      Forbidden: -32003,
      InsufficientScope: -32003,
      RequestTimeout: -32001,
      HeaderMismatch: -32020,
      MissingRequiredClientCapability: -32021,
      UnsupportedProtocolVersion: -32022,
      UnknownTask: -32602,
      StoreUnavailable: -32004,
    })
  })
})

describe('jsonrpc: parse', () => {
  it('returns the parsed value for valid JSON text', () => {
    expect(parse('{"a":[1,true,null]}')).toEqual(E.right({ a: [1, true, null] }))
  })

  it.each(['', '{', '{"a":1,}', 'nope', "{'a':1}"])('turns the syntax error in %j into a ParseError', (text) => {
    const r = parse(text)
    expect(E.isLeft(r)).toBe(true)
    if (E.isLeft(r)) {
      expect(r.left._tag).toBe('ParseError')
      expect(r.left.message).toMatch(/^Parse error: /)
    }
  })

  it('answers unparsable text with -32700 and id null through dispatchText', async () => {
    const out = await server.dispatchText('{"jsonrpc":"2.0","id":1,', newSession())()
    expect(O.isSome(out)).toBe(true)
    const m = JSON.parse(O.toUndefined(out)!)
    expect(m.jsonrpc).toBe('2.0')
    expect(m.id).toBeNull()
    expect(m.error.code).toBe(-32700)
  })
})

describe('jsonrpc: decode of well-formed messages', () => {
  it('decodes a request with an integer id and object params', () => {
    expect(decode({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { cursor: 'x' } })).toEqual(
      E.right({ kind: 'request', id: 7, method: 'tools/list', params: { cursor: 'x' } }),
    )
  })

  it('decodes a request with a string id and no params', () => {
    expect(decode({ jsonrpc: '2.0', id: 'abc', method: 'ping' })).toEqual(
      E.right({ kind: 'request', id: 'abc', method: 'ping', params: undefined }),
    )
  })

  it.each([0, -5, Number.MAX_SAFE_INTEGER, ''])('accepts the id %j', (id) => {
    const d = decode({ jsonrpc: '2.0', id, method: 'ping' })
    expect(E.isRight(d) && d.right.kind === 'request' && d.right.id === id).toBe(true)
  })

  it('decodes a message without an id as a notification', () => {
    expect(decode({ jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual(
      E.right({ kind: 'notification', method: 'notifications/initialized', params: undefined }),
    )
    expect(decode({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } })).toEqual(
      E.right({ kind: 'notification', method: 'notifications/cancelled', params: { requestId: 3 } }),
    )
  })

  it('decodes a success response', () => {
    expect(decode({ jsonrpc: '2.0', id: 4, result: { ok: true } })).toEqual(
      E.right({ kind: 'response', id: 4, result: { ok: true } }),
    )
  })

  it('decodes an error response', () => {
    expect(decode({ jsonrpc: '2.0', id: 'r', error: { code: -1, message: 'no', data: 1 } })).toEqual(
      E.right({ kind: 'response', id: 'r', error: { code: -1, message: 'no', data: 1 } }),
    )
  })
})

describe('jsonrpc: decode refuses malformed messages', () => {
  it('refuses batches with -32600 and id null: MCP removed JSON-RPC batching in 2025-06-18', () => {
    for (const batch of [[], [{ jsonrpc: '2.0', id: 1, method: 'ping' }]]) {
      const e = undecodable(batch)
      expect(e.error._tag).toBe('InvalidRequest')
      expect(e.id).toBeNull()
      expect(e.answer).toBe(true)
    }
  })

  it.each([null, 1, 'ping', true])('refuses the non-object %j with -32600 and id null', (u) => {
    const e = undecodable(u)
    expect(e.error._tag).toBe('InvalidRequest')
    expect(e.id).toBeNull()
    expect(e.answer).toBe(true)
  })

  it.each([
    ['an object', { a: 1 }],
    ['null (MCP: the ID MUST NOT be null)', null],
    ['a fractional number', 1.5],
    ['an unsafe integer', 2 ** 53],
    ['an array', [1]],
    ['a boolean', true],
  ])('refuses a request whose id is %s with -32600 and id null', (_label, id) => {
    const e = undecodable({ jsonrpc: '2.0', id, method: 'ping' })
    expect(e.error._tag).toBe('InvalidRequest')
    expect(e.error.message).toMatch(/"id"/)
    expect(e.id).toBeNull()
    expect(e.answer).toBe(true)
  })

  it.each([undefined, '1.0', 2, '2'])('refuses jsonrpc %j and answers with the request id', (jsonrpc) => {
    const e = undecodable({ jsonrpc, id: 9, method: 'ping' })
    expect(e.error._tag).toBe('InvalidRequest')
    expect(e.error.message).toMatch(/"jsonrpc" must be "2.0"/)
    expect(e.id).toBe(9)
    expect(e.answer).toBe(true)
  })

  it.each([[[1, 2]], ['x'], [3], [null]])('refuses params %j (not an object) with -32600 and the id', (params) => {
    const e = undecodable({ jsonrpc: '2.0', id: 'p', method: 'tools/list', params })
    expect(e.error._tag).toBe('InvalidRequest')
    expect(e.error.message).toMatch(/"params" must be an object/)
    expect(e.id).toBe('p')
    expect(e.answer).toBe(true)
  })

  it('refuses a non-string method with -32600 and the id', () => {
    const e = undecodable({ jsonrpc: '2.0', id: 3, method: 42 })
    expect(e.error._tag).toBe('InvalidRequest')
    expect(e.id).toBe(3)
  })

  it('refuses a message with neither method nor result nor error, answering with its id', () => {
    const e = undecodable({ jsonrpc: '2.0', id: 5 })
    expect(e.error._tag).toBe('InvalidRequest')
    expect(e.id).toBe(5)
    expect(e.answer).toBe(true)
  })

  it.each([
    ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 1, result: {} }],
    ['an unreadable id', { jsonrpc: '2.0', id: { x: 1 }, result: {} }],
    ['a null id', { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'bad' } }],
    ['an error without a code', { jsonrpc: '2.0', id: 1, error: { message: 'bad' } }],
    ['an error that is not an object', { jsonrpc: '2.0', id: 1, error: 'bad' }],
  ])('marks a malformed response (%s) as never to be answered', (_label, u) => {
    const e = undecodable(u)
    expect(e.error._tag).toBe('InvalidRequest')
    expect(e.answer).toBe(false)
  })
})

describe('jsonrpc: what the dispatcher answers to malformed input', () => {
  it('answers a batch with a single -32600 error whose id is null', async () => {
    const out = await answer([{ jsonrpc: '2.0', id: 1, method: 'ping' }])
    expect(O.toUndefined(out)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } })
  })

  it('answers an object id with -32600 and id null', async () => {
    const out = await answer({ jsonrpc: '2.0', id: { a: 1 }, method: 'ping' })
    expect(O.toUndefined(out)).toMatchObject({ id: null, error: { code: -32600 } })
  })

  it('answers a fractional id with -32600 and id null', async () => {
    const out = await answer({ jsonrpc: '2.0', id: 0.5, method: 'ping' })
    expect(O.toUndefined(out)).toMatchObject({ id: null, error: { code: -32600 } })
  })

  it('answers params that are not an object with -32600 and the request id', async () => {
    const out = await answer({ jsonrpc: '2.0', id: 2, method: 'ping', params: [] })
    expect(O.toUndefined(out)).toMatchObject({ id: 2, error: { code: -32600 } })
  })

  it('never answers a response-shaped message, well-formed or not', async () => {
    for (const m of [
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'x' } },
      { jsonrpc: '1.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 1, error: 'broken' },
    ])
      expect(O.isNone(await answer(m))).toBe(true)
  })
})

describe('jsonrpc: encode', () => {
  it('serialises a success response as plain JSON', () => {
    const m: Outgoing = { jsonrpc: '2.0', id: 1, result: { a: [1, 'two'] } }
    expect(encode(m)).toBe('{"jsonrpc":"2.0","id":1,"result":{"a":[1,"two"]}}')
  })

  it('serialises an error response with id null', () => {
    const m: Outgoing = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }
    expect(encode(m)).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}')
  })

  it('splices a precomputed tools/list page as its JSON text, quoting the id', async () => {
    const out = O.toUndefined(await answer({ jsonrpc: '2.0', id: 'a"b', method: 'tools/list' }))!
    const raw = (out as { result: { text: string; value: unknown } }).result
    expect(typeof raw.text).toBe('string')
    const text = encode(out)
    expect(text).toBe(`{"jsonrpc":"2.0","id":"a\\"b","result":${raw.text}}`)
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 'a"b', result: raw.value })
  })

  it('serves the same precomputed page object to every tools/list request', async () => {
    const a = O.toUndefined(await answer({ jsonrpc: '2.0', id: 1, method: 'tools/list' })) as { result: unknown }
    const b = O.toUndefined(await answer({ jsonrpc: '2.0', id: 2, method: 'tools/list' })) as { result: unknown }
    expect(a.result).toBe(b.result)
  })

  it('unwraps a spliced page when the value is nested below the result', async () => {
    const out = O.toUndefined(await answer({ jsonrpc: '2.0', id: 1, method: 'tools/list' })) as { result: { value: unknown } }
    const nested: Outgoing = { jsonrpc: '2.0', id: 1, result: { page: out.result } }
    expect(JSON.parse(encode(nested))).toEqual({ jsonrpc: '2.0', id: 1, result: { page: out.result.value } })
  })
})

describe('jsonrpc: encode of a structured tool result', () => {
  const plain = (text: string, value: unknown) => ({ content: [{ type: 'text', text }], structuredContent: value })

  it('writes the text block’s JSON in the structured content’s place: the same text as serialising it again', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.oneof(fc.integer(), fc.string()), (value, id) => {
        const text = JSON.stringify(value)
        const spliced = encode({ jsonrpc: '2.0', id, result: new StructuredResult(text, value) })
        expect(spliced).toBe(JSON.stringify({ jsonrpc: '2.0', id, result: plain(text, value) }))
      }),
      { numRuns: 500, seed: 20261205 },
    )
    const tricky = { q: 'a"b\\c\n', u: '\u2028 😀 \ud800', n: [-0, 1e21, 0.1], e: {} }
    const text = JSON.stringify(tricky)
    expect(encode({ jsonrpc: '2.0', id: 'x"y', result: new StructuredResult(text, tricky) })).toBe(JSON.stringify({ jsonrpc: '2.0', id: 'x"y', result: plain(text, tricky) }))
  })

  it('serialises a result changed after it was made as it now is', () => {
    type Loose = { content: Array<Record<string, unknown>>; structuredContent: unknown; [key: string]: unknown }
    const changes: ReadonlyArray<(r: Loose) => void> = [
      (r) => void (r.isError = true),
      (r) => void (r._meta = { a: 1 }),
      (r) => void r.content.push({ type: 'text', text: 'more' }),
      (r) => void ((r.content[0] as Record<string, unknown>).text = 'edited'),
      (r) => void ((r.content[0] as Record<string, unknown>).annotations = { priority: 1 }),
      (r) => void (r.content[0] = { type: 'text', text: 'other block' }),
      (r) => void (r.structuredContent = { sum: 4 }),
      (r) => void (r.content = []),
    ]
    for (const change of changes) {
      const r = new StructuredResult('{"sum":3}', { sum: 3 }) as unknown as Loose
      change(r)
      const m = { jsonrpc: '2.0', id: 1, result: r } as Outgoing
      expect(encode(m), String(change)).toBe(JSON.stringify(m))
    }
  })

  it('never splices a value that JSON cannot carry (no text to splice)', () => {
    const r = new StructuredResult(JSON.stringify(undefined) as unknown as string, undefined)
    expect(encode({ jsonrpc: '2.0', id: 1, result: r })).toBe(JSON.stringify({ jsonrpc: '2.0', id: 1, result: r }))
  })

  it('is what a tool with an output schema answers, and middleware that edits its result in place sends the edit', async () => {
    const add = emcp({
      name: 'add',
      description: 'Adds.',
      input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
      output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
    } as const)
    const call = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}'
    const plainServer = mcpServer([add], { name: 'p', version: '1' }).implement({ add: ({ a, b }) => ({ sum: a + b }) })
    const out = await plainServer.dispatchText(call, newSession('2025-11-25'))()
    expect(O.toUndefined(out)).toBe('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\\"sum\\":3}"}],"structuredContent":{"sum":3}}}')
    // in place, after the handler: the structured content on the wire is the edited one
    const edit = (o: unknown) => {
      const r = (o as { right?: { structuredContent?: { sum: number } } }).right
      if (r?.structuredContent !== undefined) r.structuredContent.sum = 40
      return o
    }
    const middlewares: ReadonlyArray<Middleware> = [
      { toolCall: async (_call, next) => edit(await next()) as Awaited<ReturnType<typeof next>> },
      { request: async (_req, next) => edit(await next()) as Awaited<ReturnType<typeof next>> },
    ]
    for (const middleware of middlewares) {
      const edited = mcpServer([add], { name: 'm', version: '1' }, { middleware: [middleware] }).implement({ add: ({ a, b }) => ({ sum: a + b }) })
      const answer = JSON.parse(O.toUndefined(await edited.dispatchText(call, newSession('2025-11-25'))()) as string)
      expect(answer.result.structuredContent).toEqual({ sum: 40 })
    }
  })
})
