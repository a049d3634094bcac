/**
 * Shared pieces of the property tests: arbitraries for well-formed, malformed and hostile
 * JSON-RPC input, a spec oracle saying what a message must get back (no answer, or an
 * answer with which id), and checks that an answer is a valid JSON-RPC 2.0 response and a
 * sensible MCP result. The oracle is written from JSON-RPC 2.0 and MCP 2025-11-25, not from
 * the decoder: it is what the tests hold emcp to.
 */
import fc from 'fast-check'
import { supportedVersions } from '../../src/protocol/versions.js'

// ---------------------------------------------------------------------------------------
// checks

/** Throws with the offending value when `ok` is false (readable in a fast-check report). */
export const check = (ok: boolean, what: string, value?: unknown): void => {
  if (!ok) throw new Error(`${what}: ${show(value)}`)
}

const show = (u: unknown): string => {
  try {
    const s = JSON.stringify(u)
    return s === undefined ? String(u) : s.length > 600 ? `${s.slice(0, 600)}…` : s
  } catch {
    return String(u)
  }
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type Obj = { readonly [key: string]: unknown }
export type Id = string | number

export const isObject = (u: unknown): u is Obj => typeof u === 'object' && u !== null && !Array.isArray(u)

/** An id MCP accepts: a string or an integer JSON can carry exactly. */
export const isValidId = (u: unknown): u is Id => typeof u === 'string' || (typeof u === 'number' && Number.isSafeInteger(u))

/** A JSON-RPC 2.0 response on the wire. */
export interface WireResponse {
  readonly jsonrpc: '2.0'
  readonly id: Id | null
  readonly result?: Obj
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown }
}

/** Checks that `u` is a valid JSON-RPC 2.0 response with an object result (MCP results are objects). */
export const expectResponse = (u: unknown): WireResponse => {
  check(isObject(u), 'a response must be an object', u)
  const o = u as Obj
  check(Object.keys(o).every((k) => k === 'jsonrpc' || k === 'id' || k === 'result' || k === 'error'), 'unexpected member', o)
  check(o.jsonrpc === '2.0', 'jsonrpc must be "2.0"', o)
  check('id' in o && (o.id === null || isValidId(o.id)), 'id must be a string, an integer or null', o)
  check('result' in o !== 'error' in o, 'exactly one of result and error', o)
  if ('error' in o) {
    const e = o.error
    check(isObject(e), 'error must be an object', o)
    const err = e as Obj
    check(Number.isInteger(err.code), 'error.code must be an integer', o)
    check(typeof err.message === 'string', 'error.message must be a string', o)
    check(Object.keys(err).every((k) => k === 'code' || k === 'message' || k === 'data'), 'unexpected member of error', o)
  } else check(isObject(o.result), 'result must be an object', o)
  return o as unknown as WireResponse
}

/** Parses one line or body of output and checks it as a response. */
export const parseResponse = (text: string): WireResponse => {
  let u: unknown
  try {
    u = JSON.parse(text)
  } catch {
    throw new Error(`answer is not JSON: ${show(text)}`)
  }
  return expectResponse(u)
}

// ---------------------------------------------------------------------------------------
// the oracle

/** What a message must get: nothing, or one answer with this id (an error when `invalid`). */
export type Expected =
  | { readonly answer: false }
  | { readonly answer: true; readonly id: Id | null; readonly invalid: boolean }

const wellFormed = (o: Obj): boolean =>
  o.jsonrpc === '2.0' && typeof o.method === 'string' && (o.params === undefined || isObject(o.params))

/**
 * JSON-RPC 2.0 and MCP say: a notification is never answered; a response from the peer is
 * never answered; a request whose id can be read is answered with that id; anything else
 * (batches, which MCP dropped in 2025-06-18, primitives, broken objects) gets one -32600
 * error with id null.
 */
export const expectedOf = (u: unknown): Expected => {
  if (!isObject(u)) return { answer: true, id: null, invalid: true }
  const hasId = 'id' in u
  if ('method' in u) {
    if (!hasId) return wellFormed(u) ? { answer: false } : { answer: true, id: null, invalid: true }
    return isValidId(u.id) ? { answer: true, id: u.id, invalid: !wellFormed(u) } : { answer: true, id: null, invalid: true }
  }
  if (hasId && ('result' in u || 'error' in u)) return { answer: false }
  return { answer: true, id: isValidId(u.id) ? u.id : null, invalid: true }
}

/** The oracle for JSON text: a syntax error gets -32700 with id null. */
export const expectedOfText = (text: string): Expected & { readonly parseError?: true } => {
  let u: unknown
  try {
    u = JSON.parse(text)
  } catch {
    return { answer: true, id: null, invalid: true, parseError: true }
  }
  return expectedOf(u)
}

const errorCodes = new Set([-32700, -32600, -32601, -32602])

/**
 * Checks an answer (or its absence) against the oracle and, for a well-formed request, the
 * MCP semantics of its method. `answer` is the parsed wire response, undefined for none.
 * The calculator never has an internal error, so -32603 is never acceptable.
 */
export const expectAnswer = (message: unknown, answer: WireResponse | undefined, parseError = false): void => {
  const expected: Expected = parseError ? { answer: true, id: null, invalid: true } : expectedOf(message)
  if (!expected.answer) {
    check(answer === undefined, 'a notification or response was answered', { message, answer })
    return
  }
  check(answer !== undefined, 'no answer', message)
  const a = answer as WireResponse
  check(a.id === expected.id, `answered with id ${show(a.id)}, expected ${show(expected.id)}`, { message, answer: a })
  if (a.error !== undefined) check(errorCodes.has(a.error.code), 'unexpected error code', { message, answer: a })
  if (parseError) {
    check(a.error?.code === -32700, 'a syntax error gets -32700', { message, answer: a })
    return
  }
  if (expected.invalid) {
    check(a.error?.code === -32600, 'an invalid message gets -32600', { message, answer: a })
    return
  }
  expectMethodSemantics(message as Obj, a)
}

const toolNames = ['add', 'echo', 'add_days']

const expectMethodSemantics = (m: Obj, a: WireResponse): void => {
  const params = m.params as Obj | undefined
  const ctx = { message: m, answer: a }
  switch (m.method) {
    case 'ping':
      check(a.result !== undefined && Object.keys(a.result).length === 0, 'ping answers {}', ctx)
      return
    case 'tools/list':
      if (params?.cursor === undefined) {
        const tools = a.result?.tools
        check(Array.isArray(tools) && tools.map((t: Obj) => t.name).join() === toolNames.join(), 'tools/list lists the tools', ctx)
      } else check(a.error?.code === -32602, 'a foreign cursor gets -32602', ctx)
      return
    case 'initialize':
      if (typeof params?.protocolVersion !== 'string') {
        check(a.error?.code === -32602, 'initialize without protocolVersion gets -32602', ctx)
        return
      }
      // a session that was initialized before (a shared session across runs) refuses a second one
      if (a.error?.code === -32600 && /already initialized/.test(a.error.message)) return
      check(a.result !== undefined, 'initialize succeeds', ctx)
      check(
        a.result?.protocolVersion ===
          ((supportedVersions as ReadonlyArray<string>).includes(params.protocolVersion) ? params.protocolVersion : supportedVersions[0]),
        'initialize negotiates the version',
        ctx,
      )
      check((a.result?.serverInfo as Obj | undefined)?.name === 'calculator', 'initialize names the server', ctx)
      check(isObject((a.result?.capabilities as Obj | undefined)?.tools), 'initialize declares tools', ctx)
      return
    case 'logging/setLevel': {
      const levels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']
      if (levels.includes(params?.level as string)) check(a.result !== undefined && Object.keys(a.result).length === 0, 'a known level is set', ctx)
      else check(a.error?.code === -32602, 'an unknown level gets -32602', ctx)
      return
    }
    case 'tools/call':
      expectToolCall(params, a)
      return
    default:
      check(
        a.error?.code === ((m.method as string).startsWith('notifications/') ? -32600 : -32601),
        'an unknown method gets -32601 (a notification method sent as a request, -32600)',
        ctx,
      )
  }
}

const plainKeys = (o: Obj, allowed: ReadonlyArray<string>): boolean => Object.keys(o).every((k) => allowed.includes(k))
const isNumber = (u: unknown): u is number => typeof u === 'number' && Number.isFinite(u)

/** The MCP rules for `tools/call` on the calculator, from the arguments alone. */
export const expectToolCall = (params: Obj | undefined, a: WireResponse): void => {
  const ctx = { params, answer: a }
  const name = params?.name
  if (typeof name !== 'string' || !toolNames.includes(name)) {
    check(a.error?.code === -32602, 'an unknown tool gets -32602', ctx)
    return
  }
  const args = params?.arguments ?? {}
  if (!isObject(args)) {
    check(a.error?.code === -32602, 'non-object arguments get -32602', ctx)
    return
  }
  const r = a.result
  check(r !== undefined, 'a known tool answers with a result', ctx)
  const result = r as Obj
  check(Array.isArray(result.content) && result.content.length > 0, 'content is a non-empty array', ctx)
  const blocks = result.content as Obj[]
  check(blocks.every((b) => b.type === 'text' && typeof b.text === 'string'), 'content blocks are text', ctx)
  check(result.isError === undefined || typeof result.isError === 'boolean', 'isError is a boolean', ctx)
  const failed = result.isError === true
  if (failed) check(result.structuredContent === undefined, 'an error result has no structuredContent', ctx)
  if (!failed && name !== 'echo') {
    check(isObject(result.structuredContent), 'a tool with an output schema returns structuredContent', ctx)
    check(blocks.length === 1 && JSON.stringify(JSON.parse(blocks[0]?.text as string)) === JSON.stringify(result.structuredContent), 'the text block is the structured JSON', ctx)
  }
  const text = blocks.map((b) => b.text as string).join('\n')
  switch (name) {
    case 'add': {
      const ok = plainKeys(args, ['a', 'b']) && isNumber(args.a) && isNumber(args.b)
      if (!ok) {
        check(failed && text.startsWith('Invalid arguments'), 'bad add arguments get an isError result', ctx)
        for (const key of ['a', 'b']) if (!isNumber(args[key])) check(text.includes(`/${key}`), `the error names /${key}`, ctx)
        return
      }
      const sum = (args.a as number) + (args.b as number)
      if (Number.isFinite(sum)) check(!failed && (result.structuredContent as Obj).sum === sum, 'add adds', ctx)
      // ±Infinity has no JSON form: it must never go out as a success
      else check(failed, 'an overflowing sum is an isError result', ctx)
      return
    }
    case 'echo': {
      const ok = plainKeys(args, ['text']) && typeof args.text === 'string'
      if (ok) check(!failed && blocks.length === 1 && blocks[0]?.text === args.text, 'echo echoes', ctx)
      else check(failed && text.startsWith('Invalid arguments'), 'bad echo arguments get an isError result', ctx)
      return
    }
    case 'add_days': {
      const { date, days } = args
      if (typeof date !== 'string' || !Number.isInteger(days)) {
        check(failed && text.startsWith('Invalid arguments'), 'bad add_days arguments get an isError result', ctx)
        return
      }
      const start = Date.parse(date)
      // RFC 3339 has four-digit years: the expanded "+010000-…" form of toISOString is not one
      const canonical = !Number.isNaN(start) && new Date(start).toISOString() === date && /^\d{4}-/.test(date)
      const end = new Date(start + (days as number) * 86_400_000)
      if (!failed) {
        const out = result.structuredContent as Obj
        check(out.date === end.toISOString(), 'add_days adds days', ctx)
        check(out.weekday === weekdays[end.getUTCDay()], 'add_days names the weekday', ctx)
      } else if (canonical && !Number.isNaN(end.getTime()) && end.getUTCFullYear() >= 0 && end.getUTCFullYear() <= 9999)
        check(false, 'add_days fails on a valid date', ctx)
    }
  }
}

const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

// ---------------------------------------------------------------------------------------
// arbitraries

const shallow = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>

/** Strings with lone surrogates, control characters, quotes and newlines. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }),
  fc
    .array(fc.oneof(fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), fc.constantFrom('\n', '\r', '"', '\\', '\u2028', '\u0000', '\uFEFF', 'é')), { maxLength: 10 })
    .map((parts) => parts.join('')),
)

/** Ids MCP accepts, including -0, the extremes and a large string. */
export const validId: fc.Arbitrary<Id> = fc.oneof(
  fc.integer(),
  fc.maxSafeInteger(),
  fc.constantFrom(0, -0, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER),
  fc.string({ maxLength: 20 }),
  nastyString,
  fc.string({ minLength: 2_000, maxLength: 4_000 }),
)

/** Ids of every wrong type: null, fractions, unsafe integers, booleans, arrays, objects. */
export const badId: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isSafeInteger(d)),
  fc.constantFrom(0.5, -1.25, 2 ** 53, -(2 ** 53), 1e21, 1e300),
  fc.array(shallow, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), shallow, { maxKeys: 3 }),
)

const anyId: fc.Arbitrary<Json> = fc.oneof({ weight: 3, arbitrary: validId }, { weight: 2, arbitrary: badId })

const jsonrpcField: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('2.0') },
  { weight: 1, arbitrary: fc.constantFrom<Json>('1.0', '2', '2.00', ' 2.0', 2, 2.0, null, true, '', ['2.0'], { version: '2.0' }) },
  { weight: 1, arbitrary: shallow },
)

const knownMethod = fc.constantFrom(
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'resources/list',
  'prompts/list',
  'logging/setLevel',
  'server/discover',
  '',
  'tools/call ',
  'TOOLS/CALL',
  '__proto__',
  'constructor',
)

export const methodField: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: knownMethod },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.array(fc.string(), { maxLength: 2 }), fc.object({ maxDepth: 1 }) as fc.Arbitrary<Json>) },
)

/** A number for `add`: doubles (with overflow), integers, extremes, or anything else. */
const number: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 3, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(1e308, -1e308, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, -0) },
  // large enough that a sum may overflow to ±Infinity
  { weight: 2, arbitrary: fc.double({ min: 1e307, max: Number.MAX_VALUE, noNaN: true }).chain((d) => fc.constantFrom(d, -d)) },
  { weight: 1, arbitrary: shallow },
)

const isoDate = fc
  .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
  .map((d) => d.toISOString())

const dateField: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: isoDate },
  { weight: 1, arbitrary: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '2024-02-30T00:00:00Z',
      '2024-01-01',
      '2024-01-01T00:00:00+01:00',
      '2024-12-31T23:59:60Z',
      '+275760-09-13T00:00:00.000Z',
      'yesterday',
      '',
    ),
  },
  { weight: 1, arbitrary: nastyString },
  { weight: 1, arbitrary: shallow },
)

const daysField: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -1_000_000, max: 1_000_000 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(1e16, 2 ** 53, 1e300, -1e300, 0.5, -0) },
  { weight: 1, arbitrary: shallow },
)

/** A record of the fields given, some left out, plus (sometimes) foreign keys. */
const loose = (fields: { readonly [key: string]: fc.Arbitrary<Json> }): fc.Arbitrary<Json> =>
  fc
    .tuple(
      fc.record(fields, { requiredKeys: [] }),
      fc.option(fc.dictionary(fc.string({ maxLength: 6 }), shallow, { maxKeys: 2 }), { nil: undefined, freq: 4 }),
    )
    .map(([r, extra]) => ({ ...extra, ...r }) as Json)

const addArguments: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ a: number, b: number }) as fc.Arbitrary<Json> },
  { weight: 1, arbitrary: loose({ a: number, b: number }) },
)
const echoArguments: fc.Arbitrary<Json> = loose({ text: fc.oneof({ weight: 3, arbitrary: nastyString }, { weight: 1, arbitrary: shallow }) })
const addDaysArguments: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ date: dateField, days: daysField }) as fc.Arbitrary<Json> },
  { weight: 1, arbitrary: loose({ date: dateField, days: daysField }) },
)

/** `arguments` for tools/call: right and wrong for each tool, and of every wrong type. */
export const toolArguments: fc.Arbitrary<Json> = fc.oneof(
  addArguments,
  echoArguments,
  addDaysArguments,
  fc.dictionary(fc.string({ maxLength: 6 }), shallow, { maxKeys: 4 }),
  fc.oneof(fc.array(shallow, { maxLength: 3 }), fc.string(), fc.integer(), fc.constant(null), fc.boolean()),
)

export const toolName: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('add', 'echo', 'add_days') },
  { weight: 1, arbitrary: fc.constantFrom('ADD', 'add ', '', 'tool_0000', '__proto__', 'constructor', 'toString', 'hasOwnProperty') },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
  { weight: 1, arbitrary: shallow },
)

/** tools/call params: mostly a tool with arguments meant for it, else any name with any arguments. */
export const toolCallParams: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: addArguments.map((args) => ({ name: 'add', arguments: args })) },
  { weight: 2, arbitrary: echoArguments.map((args) => ({ name: 'echo', arguments: args })) },
  { weight: 3, arbitrary: addDaysArguments.map((args) => ({ name: 'add_days', arguments: args })) },
  { weight: 2, arbitrary: fc.record({ name: toolName, arguments: toolArguments }) as fc.Arbitrary<Json> },
  { weight: 1, arbitrary: loose({ name: toolName, arguments: toolArguments, _meta: shallow }) },
)

/** `params` of every kind: per method, arbitrary objects, and every wrong type. */
export const paramsField: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: toolCallParams },
  {
    weight: 1,
    arbitrary: loose({
      protocolVersion: fc.oneof(fc.constantFrom(...supportedVersions, '2026-07-28', '1999-01-01', ''), shallow),
      capabilities: shallow,
      clientInfo: shallow,
    }),
  },
  // ZW1jcC1wYWdlOjE is base64url of emcp-page:1, a page that does not exist here
  { weight: 1, arbitrary: loose({ cursor: fc.oneof(fc.constantFrom('ZW1jcC1wYWdlOjE', 'ZW1jcC1wYWdlOjA', ''), fc.string(), shallow) }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), shallow, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.oneof(fc.array(shallow, { maxLength: 3 }), fc.string(), fc.integer(), fc.constant(null), fc.boolean()) },
)

/** A request that is well formed except, possibly, its params. */
export const request: fc.Arbitrary<Json> = fc
  .tuple(validId, knownMethod, fc.option(paramsField, { nil: undefined, freq: 5 }))
  .map(([id, method, params]): Json => (params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params }))

/** A well-formed tools/call request. */
export const toolCall: fc.Arbitrary<Json> = fc
  .tuple(validId, toolCallParams)
  .map(([id, params]) => ({ jsonrpc: '2.0', id, method: 'tools/call', params }))

/** A notification, well formed except, possibly, its params. */
export const notification: fc.Arbitrary<Json> = fc
  .tuple(methodField, fc.option(paramsField, { nil: undefined, freq: 3 }))
  .map(([method, params]): Json => (params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }))

/** A response from the peer, right or wrong. */
export const response: fc.Arbitrary<Json> = fc.oneof(
  fc.record({ jsonrpc: jsonrpcField, id: anyId, result: shallow }),
  fc.record({
    jsonrpc: jsonrpcField,
    id: anyId,
    error: fc.oneof(fc.record({ code: fc.integer(), message: fc.string(), data: shallow }, { requiredKeys: ['code', 'message'] }), shallow),
  }),
)

/** An object shaped like a message with every member possibly missing or of the wrong type. */
export const mangled: fc.Arbitrary<Json> = fc.record(
  { jsonrpc: jsonrpcField, id: anyId, method: methodField, params: paramsField, result: shallow, error: shallow },
  { requiredKeys: [] },
)

/** One message of any kind, or any JSON value at all. */
export const single: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: request },
  { weight: 3, arbitrary: toolCall },
  { weight: 2, arbitrary: notification },
  { weight: 1, arbitrary: response },
  { weight: 3, arbitrary: mangled },
  { weight: 2, arbitrary: fc.jsonValue() as fc.Arbitrary<Json> },
)

/** A JSON-RPC batch (refused by MCP since 2025-06-18). */
export const batch: fc.Arbitrary<Json> = fc.array(single, { maxLength: 4 })

export const anyMessage: fc.Arbitrary<Json> = fc.oneof({ weight: 9, arbitrary: single }, { weight: 1, arbitrary: batch })

/** Bytes that are not UTF-8: stray continuation bytes, truncated sequences, surrogates, > U+10FFFF. */
export const invalidUtf8: fc.Arbitrary<Uint8Array> = fc
  .array(fc.constantFrom([0xff], [0xfe], [0x80], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf], [0xc3, 0xa9]), {
    minLength: 1,
    maxLength: 6,
  })
  .map((parts) => Uint8Array.from(parts.flat()))

// ---------------------------------------------------------------------------------------
// the probe: after each run the server must still add

let probes = 0

/** A fresh `tools/call add` request with an id no arbitrary produces. */
export const probe = (): { readonly id: string; readonly message: Json; readonly text: string } => {
  const id = `emcp-probe-${++probes}`
  const message = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } }
  return { id, message, text: JSON.stringify(message) }
}

/** Checks the answer to a probe. */
export const expectProbeAnswer = (a: WireResponse | undefined, id: string): void => {
  check(a !== undefined && a.id === id, 'the probe was not answered', a)
  const r = (a as WireResponse).result
  check(r?.isError === undefined && (r?.structuredContent as Obj | undefined)?.sum === 5, 'the probe add(2, 3) did not give 5', a)
  check(JSON.stringify(r?.content) === '[{"type":"text","text":"{\\"sum\\":5}"}]', 'the probe text is not {"sum":5}', a)
}
