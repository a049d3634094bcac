import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import * as t from 'io-ts'
import {
  DateFromISOString,
  emcp,
  mcpServer,
  newSession,
  text,
  toolError,
  type CallToolResult,
  type Session,
  type ToolContext,
} from '../../src/index.js'

// ---------------------------------------------------------------------------------------
// fixtures

const pair = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
  additionalProperties: false,
} as const
const sumOut = { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'], additionalProperties: false } as const
const mode = {
  type: 'object',
  properties: { how: { type: 'string' } },
  required: ['how'],
} as const

const add = emcp({ name: 'add', description: 'Add.', input: pair, output: sumOut })
const addAsync = emcp({ name: 'add_async', description: 'Add later.', input: pair, output: sumOut })
const addEither = emcp({ name: 'add_either', description: 'Add or refuse.', input: pair, output: sumOut })
const addTask = emcp({ name: 'add_task', description: 'Add as a TaskEither.', input: pair, output: sumOut })
const fail = emcp({ name: 'fail', description: 'Fails in the way asked.', input: mode, output: sumOut })
const badOutput = emcp({ name: 'bad_output', description: 'Breaks its output schema.', input: mode, output: sumOut })
const plain = emcp({ name: 'plain', description: 'Returns content of the kind asked.', input: mode })
const nested = emcp({
  name: 'nested',
  description: 'Deep arguments.',
  input: {
    type: 'object',
    properties: {
      user: {
        type: 'object',
        properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
        required: ['name', 'age'],
      },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['user'],
    additionalProperties: false,
  },
})
const addDays = emcp({
  name: 'add_days',
  description: 'Add days to a date.',
  input: t.type({ date: DateFromISOString, days: t.Int }),
  output: t.type({ date: DateFromISOString, isDate: t.boolean }),
})
const context = emcp({ name: 'context', description: 'Reports its context.', input: { type: 'object' } })

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

let lastCtx: ToolContext | undefined
let nestedRuns = 0

const server = mcpServer(
  [add, addAsync, addEither, addTask, fail, badOutput, plain, nested, addDays, context],
  { name: 'calls', version: '1.0.0' },
).implement({
  add: ({ a, b }) => ({ sum: a + b }),
  add_async: async ({ a, b }) => {
    await sleep(1)
    return { sum: a + b }
  },
  add_either: ({ a, b }) => (a < 0 ? E.left(`negative: ${a}`) : E.right({ sum: a + b })),
  add_task: ({ a, b }) => (a < 0 ? TE.left(toolError('negative in a task')) : TE.right({ sum: a + b })),
  fail: ({ how }) => {
    switch (how) {
      case 'toolError':
        return toolError('no such city: Xy')
      case 'toolErrorBlocks':
        return toolError([text('first'), text('second')])
      case 'throwToolError':
        throw toolError('thrown tool error')
      case 'throwError':
        throw new Error('database down')
      case 'throwEmptyError':
        throw new RangeError('')
      case 'throwString':
        throw 'plain string failure'
      case 'throwObject':
        throw { code: 42, reason: 'object failure' }
      case 'throwUndefined':
        throw undefined
      case 'throwCircular': {
        const o: Record<string, unknown> = {}
        o.self = o
        throw o
      }
      case 'reject':
        return Promise.reject(new Error('rejected promise'))
      case 'promiseToolError':
        return Promise.resolve(toolError('resolved tool error'))
      case 'leftToolError':
        return E.left(toolError('left tool error'))
      case 'leftObject':
        return E.left({ why: 'left object' })
      case 'thunkThrows':
        return (() => {
          throw new Error('thunk threw')
        }) as any
      case 'taskRejects':
        return (() => Promise.reject(new Error('task rejected'))) as any
      default:
        return { sum: 0 }
    }
  },
  bad_output: ({ how }) => {
    if (how === 'wrongType') return { sum: 'three' } as any
    if (how === 'extraKey') return { sum: 1, extra: true } as any
    if (how === 'notObject') return 'text' as any
    if (how === 'nan') return { sum: Number.NaN }
    if (how === 'infinity') return { sum: Number.POSITIVE_INFINITY }
    return {} as any
  },
  plain: ({ how }) => {
    switch (how) {
      case 'string':
        return 'just text'
      case 'blocks':
        return [text('one'), { type: 'image', data: 'AAAA', mimeType: 'image/png' }]
      case 'result':
        return { content: [text('whole')], structuredContent: { any: 'thing' }, _meta: { m: 1 } }
      case 'number':
        return 42 as any
      case 'rightToolError':
        return E.right(toolError('a tool error inside Right'))
      case 'taskRightToolError':
        return TE.right(toolError('a tool error inside a TaskEither'))
      case 'bigint':
        return { content: [text('big')], structuredContent: { n: 10n } }
      case 'object':
        return { some: 'object' } as any
      default:
        return null as any
    }
  },
  nested: ({ user }) => {
    nestedRuns++
    return `${user.name}:${user.age}`
  },
  add_days: ({ date, days }) => ({
    date: new Date(date.getTime() + days * 86_400_000),
    isDate: date instanceof Date,
  }),
  context: (_args, ctx) => {
    lastCtx = ctx
    return JSON.stringify({ requestId: ctx.requestId, meta: ctx.meta, aborted: ctx.signal.aborted })
  },
})

let nextId = 1

/** Sends tools/call through the dispatcher and returns its result. */
const call = async (name: string, args: unknown, session: Session = newSession(), extra: object = {}): Promise<CallToolResult> => {
  const out = await server.dispatch(
    { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args, ...extra } },
    session,
  )()
  const m = O.toUndefined(out) as { result?: CallToolResult; error?: unknown } | undefined
  if (m?.result === undefined) throw new Error(`expected a result, got ${JSON.stringify(m)}`)
  return m.result
}

/** Sends tools/call and returns the JSON-RPC error. */
const callError = async (params: unknown): Promise<{ code: number; message: string }> => {
  const out = await server.dispatch({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params }, newSession())()
  const m = O.toUndefined(out) as { error?: { code: number; message: string } } | undefined
  if (m?.error === undefined) throw new Error(`expected an error, got ${JSON.stringify(m)}`)
  return m.error
}

const callLine = (id: number, name: string, args: object): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })

const textOf = (r: CallToolResult): string => r.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n')

/** Expects a successful structured result: the structured value and its JSON as a text block. */
const expectStructured = (r: CallToolResult, value: unknown): void => {
  expect(r.isError).toBeUndefined()
  expect(r.structuredContent).toEqual(value)
  expect(r.content).toHaveLength(1)
  expect(r.content[0]?.type).toBe('text')
  expect(JSON.parse(textOf(r))).toEqual(value)
}

/** Expects an isError result without structuredContent whose text contains every fragment. */
const expectToolError = (r: CallToolResult, ...fragments: string[]): void => {
  expect(r.isError).toBe(true)
  expect(r.structuredContent).toBeUndefined()
  for (const f of fragments) expect(textOf(r)).toContain(f)
}

// ---------------------------------------------------------------------------------------
// tests

describe('call: protocol errors of tools/call', () => {
  it('answers an unknown tool with JSON-RPC error -32602', async () => {
    const e = await callError({ name: 'no_such_tool', arguments: {} })
    expect(e.code).toBe(-32602)
    expect(e.message).toContain('no_such_tool')
  })

  it('answers a missing tool name with -32602', async () => {
    expect((await callError({ arguments: {} })).code).toBe(-32602)
    expect((await callError(undefined)).code).toBe(-32602)
  })

  it('answers arguments that are not an object with -32602', async () => {
    expect((await callError({ name: 'add', arguments: [1, 2] })).code).toBe(-32602)
    expect((await callError({ name: 'add', arguments: 'a=1' })).code).toBe(-32602)
  })

  it('treats absent arguments as the empty object (then validates them)', async () => {
    const out = await server.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add' } }, newSession())()
    const r = (O.toUndefined(out) as { result: CallToolResult }).result
    expectToolError(r, '/a: is required', '/b: is required')
  })
})

describe('call: invalid arguments (SEP-1303: a tool result with isError, naming each failing path)', () => {
  it('names every failing path of flat arguments', async () => {
    const r = await call('add', { a: 'one', c: 3 })
    expectToolError(r, 'Invalid arguments for tool add', '/a: must be number', '/b: is required', '/c: is not allowed')
  })

  it('names nested failing paths', async () => {
    const r = await call('nested', { user: { name: 7, age: -1 }, tags: ['x', 2] })
    expectToolError(r, '/user/name: must be string', '/user/age: must be >= 0', '/tags/1: must be string')
  })

  it('refuses NaN where a number is wanted (JSON has no NaN)', async () => {
    expectToolError(await call('add', { a: Number.NaN, b: 1 }), '/a: must be number')
  })

  it('names the path of a missing nested key', async () => {
    expectToolError(await call('nested', { user: { name: 'x' } }), '/user/age: is required')
  })

  it('does not run the handler when the arguments are invalid', async () => {
    const before = nestedRuns
    expectToolError(await call('nested', { user: 'nobody' }), '/user: must be object')
    expect(nestedRuns).toBe(before)
    await call('nested', { user: { name: 'a', age: 1 } })
    expect(nestedRuns).toBe(before + 1)
  })
})

describe('call: the forms a handler may return', () => {
  it('a plain value becomes structuredContent plus the same JSON as a text block', async () => {
    expectStructured(await call('add', { a: 2, b: 3 }), { sum: 5 })
  })

  it('a Promise is awaited', async () => {
    expectStructured(await call('add_async', { a: 4, b: 5 }), { sum: 9 })
  })

  it('an Either right is the value', async () => {
    expectStructured(await call('add_either', { a: 1, b: 1 }), { sum: 2 })
  })

  it('an Either left is a tool error with its message', async () => {
    expectToolError(await call('add_either', { a: -1, b: 1 }), 'negative: -1')
  })

  it('a TaskEither right is run and its value used', async () => {
    expectStructured(await call('add_task', { a: 10, b: 1 }), { sum: 11 })
  })

  it('a TaskEither left holding a toolError is that tool error', async () => {
    const r = await call('add_task', { a: -1, b: 1 })
    expect(r).toEqual({ content: [{ type: 'text', text: 'negative in a task' }], isError: true })
  })

  it('a returned toolError becomes isError with its text', async () => {
    expect(await call('fail', { how: 'toolError' })).toEqual({
      content: [{ type: 'text', text: 'no such city: Xy' }],
      isError: true,
    })
  })

  it('a toolError made of content blocks keeps its blocks', async () => {
    expect((await call('fail', { how: 'toolErrorBlocks' })).content).toEqual([text('first'), text('second')])
  })

  it.each([
    ['a thrown toolError', 'throwToolError', 'thrown tool error'],
    ['a thrown Error', 'throwError', 'database down'],
    ['a thrown Error with no message (its name)', 'throwEmptyError', 'RangeError'],
    ['a thrown string', 'throwString', 'plain string failure'],
    ['a thrown object (as JSON)', 'throwObject', '{"code":42,"reason":"object failure"}'],
    ['a thrown undefined', 'throwUndefined', 'undefined'],
    ['a thrown circular object', 'throwCircular', '[object Object]'],
    ['a rejected Promise', 'reject', 'rejected promise'],
    ['a Promise of a toolError', 'promiseToolError', 'resolved tool error'],
    ['an Either left of a toolError', 'leftToolError', 'left tool error'],
    ['an Either left of an object', 'leftObject', '{"why":"left object"}'],
    ['a thunk that throws', 'thunkThrows', 'thunk threw'],
    ['a task whose promise rejects', 'taskRejects', 'task rejected'],
  ])('%s becomes an isError result', async (_label, how, message) => {
    const r = await call('fail', { how })
    expectToolError(r)
    expect(textOf(r)).toBe(message)
  })
})

describe('call: the output schema (a result that fails it is never sent as success)', () => {
  it.each([
    ['a value of the wrong type', 'wrongType', '/sum: must be number'],
    ['a key the schema forbids', 'extraKey', '/extra: is not allowed'],
    ['a missing required key', 'missing', '/sum: is required'],
    ['a value that is not an object', 'notObject', '(root): must be object'],
    ['NaN, which JSON cannot carry', 'nan', '/sum: must be number'],
    ['Infinity, which JSON cannot carry', 'infinity', '/sum: must be number'],
  ])('returns isError, never structuredContent, for %s', async (_label, how, fragment) => {
    expectToolError(await call('bad_output', { how }), 'does not match its output schema', fragment)
  })
})

describe('call: tools without an output schema', () => {
  it('wraps a returned string in a text block', async () => {
    expect(await call('plain', { how: 'string' })).toEqual({ content: [{ type: 'text', text: 'just text' }] })
  })

  it('returns content blocks as the content', async () => {
    expect(await call('plain', { how: 'blocks' })).toEqual({
      content: [
        { type: 'text', text: 'one' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
    })
  })

  it('returns a whole CallToolResult as given', async () => {
    expect(await call('plain', { how: 'result' })).toEqual({
      content: [{ type: 'text', text: 'whole' }],
      structuredContent: { any: 'thing' },
      _meta: { m: 1 },
    })
  })

  it.each(['number', 'object', 'null'])('turns an unsupported value (%s) into isError', async (how) => {
    expectToolError(await call('plain', { how }), 'Tool plain returned an unsupported value')
  })

  it.each([
    ['an Either right', 'rightToolError', 'a tool error inside Right'],
    ['a TaskEither right', 'taskRightToolError', 'a tool error inside a TaskEither'],
  ])('never sends a toolError wrapped in %s as a success', async (_label, how, message) => {
    expect(await call('plain', { how })).toEqual({ content: [{ type: 'text', text: message }], isError: true })
  })

  it('answers -32603 with the request id when the result cannot be serialised as JSON', async () => {
    const out = await server.dispatchText(callLine(31, 'plain', { how: 'bigint' }), newSession())()
    expect(JSON.parse(O.toUndefined(out)!)).toMatchObject({ jsonrpc: '2.0', id: 31, error: { code: -32603 } })
  })
})

describe('call: io-ts codecs', () => {
  it('decodes a date-time string into a Date for the handler and encodes the result back', async () => {
    const r = await call('add_days', { date: '2024-02-28T00:00:00Z', days: 2 })
    expectStructured(r, { date: '2024-03-01T00:00:00.000Z', isDate: true })
  })

  it('refuses a string that is not a date-time, naming its path', async () => {
    expectToolError(await call('add_days', { date: 'next tuesday', days: 1 }), '/date')
  })

  it('refuses a non-integer where the codec wants t.Int', async () => {
    expectToolError(await call('add_days', { date: '2024-02-28T00:00:00Z', days: 1.5 }), '/days: must be integer')
  })
})

describe('call: the handler context', () => {
  it('gives the request id, _meta, the session and a live AbortSignal', async () => {
    const session = newSession()
    const out = await server.dispatch(
      {
        jsonrpc: '2.0',
        id: 'req-77',
        method: 'tools/call',
        params: { name: 'context', arguments: {}, _meta: { progressToken: 'p1' } },
      },
      session,
    )()
    const r = (O.toUndefined(out) as { result: CallToolResult }).result
    expect(JSON.parse(textOf(r))).toEqual({ requestId: 'req-77', meta: { progressToken: 'p1' }, aborted: false })
    expect(lastCtx?.session).toBe(session)
    expect(lastCtx?.signal).toBeInstanceOf(AbortSignal)
  })

  it('gives meta undefined when the request has no _meta (or a _meta that is not an object)', async () => {
    expect(JSON.parse(textOf(await call('context', {}))).meta).toBeUndefined()
    expect(JSON.parse(textOf(await call('context', {}, newSession(), { _meta: 'x' }))).meta).toBeUndefined()
  })

  it('gives each call its own context', async () => {
    await call('context', {})
    const first = lastCtx
    await call('context', {})
    expect(lastCtx).not.toBe(first)
    expect(lastCtx?.requestId).not.toBe(first?.requestId)
  })
})

describe('call: failures below the handler', () => {
  it('answers -32603 when a tool schema cannot be compiled, and keeps serving other tools', async () => {
    const broken = emcp({ name: 'broken', description: 'Bad schema.', input: { type: 'object', properties: { a: { type: 'nope' } } } as any })
    const ok = emcp({ name: 'ok', description: 'Fine.', input: { type: 'object' } })
    const s = mcpServer([broken, ok], { name: 'b', version: '1' }).implement({ broken: () => 'never', ok: () => 'fine' })
    const bad = O.toUndefined(
      await s.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'broken', arguments: {} } }, newSession())(),
    )
    expect(bad).toMatchObject({ id: 1, error: { code: -32603 } })
    const good = O.toUndefined(
      await s.dispatch({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ok', arguments: {} } }, newSession())(),
    )
    expect(good).toEqual({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'fine' }] } })
  })
})

describe('call: structured results that are not objects', () => {
  it('a codec union of an object and a string keeps its schema: the string is structuredContent for 2026-07-28 and { result } for 2025-11-25', async () => {
    const loose = emcp({ name: 'loose', description: 'Returns what it is told to.', input: { type: 'object' }, output: t.union([t.type({ a: t.number }), t.string]) })
    expect(loose.outputSchema?.type).toBeUndefined()
    const server = mcpServer([loose], { name: 'l', version: '1' }).implement({ loose: () => 'just a string' })
    const legacy = O.toUndefined(await server.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'loose', arguments: {} } }, newSession())()) as { result: CallToolResult }
    expect(legacy.result.structuredContent).toEqual({ result: 'just a string' })
    const modern = O.toUndefined(
      await server.dispatch(
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'loose', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
        },
        newSession(),
      )(),
    ) as { result: CallToolResult }
    expect(modern.result.structuredContent).toBe('just a string')
    expect(modern.result.content).toEqual([{ type: 'text', text: '"just a string"' }])
  })

  it('still refuses a result its output schema does not allow', async () => {
    const nums = emcp({ name: 'nums', description: 'Numbers.', input: { type: 'object' }, output: { type: 'array', items: { type: 'number' } } })
    const server = mcpServer([nums], { name: 'n', version: '1' }).implement({ nums: () => ['one'] as never })
    const out = O.toUndefined(await server.dispatch({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'nums', arguments: {} } }, newSession())()) as { result: CallToolResult }
    expect(out.result.isError).toBe(true)
    expect(out.result.structuredContent).toBeUndefined()
  })
})
