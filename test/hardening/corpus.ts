/**
 * The malformed-input corpus: one table of hostile messages, each with what JSON-RPC 2.0 and
 * MCP 2025-11-25 say it must get back, run unchanged against every transport
 * (corpus.test.ts). Every body is one line (no raw newline) so that stdio can carry it.
 * The server is the calculator (add, echo, add_days); a session is initialized at the
 * case's revision before the case is sent.
 *
 * The rules applied (quoted in the expectations' names):
 * - a text that is not JSON gets -32700 with id null;
 * - a JSON value that is not a valid request gets -32600, with its id when the id can be read
 *   and is valid, else id null; MCP ids are strings or integers and "MUST NOT be null";
 * - notifications and responses are never answered ("MUST NOT send a response");
 * - batches were removed in 2025-06-18: one -32600 with id null; at 2025-03-26 each member
 *   is answered in one array, and "initialize" must not be part of a batch;
 * - duplicate member names: the last one counts (as ECMAScript's JSON.parse does);
 * - invalid UTF-8 is decoded with U+FFFD (WHATWG), which JSON then carries as text;
 * - a message over the transport's limit (16 MiB in these tests) is refused and the server
 *   goes on (stdio: -32600 under the id when it leads the line; HTTP: 413).
 */

// ---------------------------------------------------------------------------------------
// model

/** A JSON-RPC id as MCP allows it. */
export type Id = string | number

/** What one answer must be. */
export type Answer =
  | { readonly error: number; readonly id: Id | null }
  /** A result (matched with toMatchObject when given). */
  | { readonly result?: unknown; readonly id: Id }

/** What a case must get back. */
export type Expectation =
  /** No answer at all (HTTP: 202 and no body). */
  | { readonly kind: 'none' }
  | ({ readonly kind: 'one' } & { readonly answer: Answer })
  /** One array answer, member by member (a batch at 2025-03-26). */
  | { readonly kind: 'batch'; readonly answers: ReadonlyArray<Answer> }
  /** Over the transport's limit: stdio answers -32600 under `id`, HTTP 413. */
  | { readonly kind: 'too-large'; readonly id: Id | null }

/** One corpus entry. */
export interface Case {
  readonly name: string
  /** The bytes sent: one line, one body. */
  readonly body: Buffer
  /** The revision the session was initialized at (default 2025-11-25). */
  readonly version?: '2025-11-25' | '2025-03-26'
  readonly expect: Expectation
}

// ---------------------------------------------------------------------------------------
// helpers

const none: Expectation = { kind: 'none' }
const error = (code: number, id: Id | null = null): Expectation => ({ kind: 'one', answer: { error: code, id } })
const result = (id: Id, r?: unknown): Expectation => ({ kind: 'one', answer: r === undefined ? { id } : { id, result: r } })
const isError = (id: Id): Expectation => result(id, { isError: true })
const text = (id: Id, t: string): Expectation => result(id, { content: [{ type: 'text', text: t }] })

const bytes = (s: string | Buffer): Buffer => (typeof s === 'string' ? Buffer.from(s, 'utf8') : s)
const json = (u: unknown): Buffer => Buffer.from(JSON.stringify(u), 'utf8')
const cat = (...parts: ReadonlyArray<string | Buffer>): Buffer => Buffer.concat(parts.map(bytes))

const c = (name: string, body: string | Buffer, expect: Expectation, version?: '2025-03-26'): Case =>
  version === undefined ? { name, body: bytes(body), expect } : { name, body: bytes(body), expect, version }

const ping = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'ping' })
const echo = (id: unknown, t: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: t } } })
const add = (id: unknown, a: unknown, b: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'add', arguments: { a, b } } })

const deepArray = (n: number): string => '['.repeat(n) + ']'.repeat(n)
const deepObject = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n)
const DEEP = 100_000

const MiB = 1024 * 1024
const big = (n: number): string => 'x'.repeat(n)
const decoded = (b: Buffer): string => new TextDecoder('utf-8').decode(b)

/** An echo call whose text holds raw bytes (spliced in as they are, not escaped). */
const echoRaw = (id: number, raw: Buffer): Buffer => cat(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"`, raw, '"}}}')

// ---------------------------------------------------------------------------------------
// the corpus

export const corpus: ReadonlyArray<Case> = [
  // -- not JSON: -32700, id null
  c('truncated mid-string', '{"jsonrpc":"2.0","id":1,"method":"pi', error(-32700)),
  c('truncated before the closing brace', '{"jsonrpc":"2.0","id":1,"method":"ping"', error(-32700)),
  c('a lone opening brace', '{', error(-32700)),
  c('a lone opening bracket', '[', error(-32700)),
  c('an unterminated string', '"abc', error(-32700)),
  c('a trailing comma', '{"jsonrpc":"2.0","id":1,"method":"ping",}', error(-32700)),
  c('single quotes', "{'jsonrpc':'2.0','id':1,'method':'ping'}", error(-32700)),
  c('a trailing comment', '{"jsonrpc":"2.0","id":1,"method":"ping"} // hi', error(-32700)),
  c('plain text', 'hello', error(-32700)),
  c('NaN as an id', '{"jsonrpc":"2.0","id":NaN,"method":"ping"}', error(-32700)),
  c('two messages on one line', cat(json(ping(1)), json(ping(2))), error(-32700)),
  c('a byte order mark before the message', cat(Buffer.from([0xef, 0xbb, 0xbf]), json(ping(1))), error(-32700)),
  c('invalid UTF-8 between members', cat('{"jsonrpc":"2.0","id":1,', Buffer.from([0xff]), '"method":"ping"}'), error(-32700)),
  c('a NUL byte after the message', cat(json(ping(1)), Buffer.from([0])), error(-32700)),
  c('a control character inside a string', '{"jsonrpc":"2.0","id":"a\tb","method":"ping"}', error(-32700)),

  // -- JSON, but not a message: -32600, id null
  c('a number', '1', error(-32600)),
  c('a string', '"ping"', error(-32600)),
  c('null', 'null', error(-32600)),
  c('true', 'true', error(-32600)),
  c('an empty object', '{}', error(-32600)),
  c('an empty array', '[]', error(-32600)),

  // -- every field of the wrong type
  c('jsonrpc missing', json({ id: 7, method: 'ping' }), error(-32600, 7)),
  c('jsonrpc "1.0"', json({ jsonrpc: '1.0', id: 7, method: 'ping' }), error(-32600, 7)),
  c('jsonrpc a number', json({ jsonrpc: 2.0, id: 7, method: 'ping' }), error(-32600, 7)),
  c('jsonrpc null', json({ jsonrpc: null, id: 7, method: 'ping' }), error(-32600, 7)),
  c('jsonrpc an array', json({ jsonrpc: ['2.0'], id: 7, method: 'ping' }), error(-32600, 7)),
  c('method a number', json({ jsonrpc: '2.0', id: 7, method: 1 }), error(-32600, 7)),
  c('method null', json({ jsonrpc: '2.0', id: 7, method: null }), error(-32600, 7)),
  c('method an array', json({ jsonrpc: '2.0', id: 7, method: ['ping'] }), error(-32600, 7)),
  c('method an object', json({ jsonrpc: '2.0', id: 7, method: {} }), error(-32600, 7)),
  c('method missing, no result or error', json({ jsonrpc: '2.0', id: 7 }), error(-32600, 7)),
  c('params an array (MCP params are objects)', json({ jsonrpc: '2.0', id: 7, method: 'ping', params: [] }), error(-32600, 7)),
  c('params a string', json({ jsonrpc: '2.0', id: 7, method: 'ping', params: 'x' }), error(-32600, 7)),
  c('params a number', json({ jsonrpc: '2.0', id: 7, method: 'ping', params: 1 }), error(-32600, 7)),
  c('params null', json({ jsonrpc: '2.0', id: 7, method: 'ping', params: null }), error(-32600, 7)),
  c('params an empty object', json({ jsonrpc: '2.0', id: 7, method: 'ping', params: {} }), result(7, {})),
  c('unknown extra members are ignored', json({ ...ping(7), extra: [1, 2] }), result(7, {})),
  c('tools/call name a number', json({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 1 } }), error(-32602, 7)),
  c('tools/call name null', json({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: null } }), error(-32602, 7)),
  c('tools/call name an object', json({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: {} } }), error(-32602, 7)),
  c('tools/call without params', json({ jsonrpc: '2.0', id: 7, method: 'tools/call' }), error(-32602, 7)),
  c('tools/call arguments an array', json({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'add', arguments: [1, 2] } }), error(-32602, 7)),
  c('tools/call arguments a string', json({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'add', arguments: '1,2' } }), error(-32602, 7)),
  c('tools/call arguments null (taken as none: the schema then fails)', json({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'add', arguments: null } }), isError(7)),
  c('tools/call an argument of the wrong type (SEP-1303: a tool error)', json(add(7, '1', 2)), isError(7)),
  c('tools/call _meta a string and progressToken an object are ignored', json({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'm' }, _meta: 'x' } }), text(7, 'm')),
  c('tools/call progressToken an object is ignored', json({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'm' }, _meta: { progressToken: {} } } }), text(7, 'm')),
  c('initialize protocolVersion a number', json({ jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: 20251125 } }), error(-32602, 7)),
  c('initialize without params', json({ jsonrpc: '2.0', id: 7, method: 'initialize' }), error(-32602, 7)),
  c('logging/setLevel level a number', json({ jsonrpc: '2.0', id: 7, method: 'logging/setLevel', params: { level: 5 } }), error(-32602, 7)),
  c('logging/setLevel an unknown level', json({ jsonrpc: '2.0', id: 7, method: 'logging/setLevel', params: { level: 'loud' } }), error(-32602, 7)),
  c('tools/list cursor a number', json({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { cursor: 5 } }), error(-32602, 7)),
  c('tools/list cursor an object', json({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { cursor: {} } }), error(-32602, 7)),

  // -- ids of every odd kind
  c('id an object', json(ping({})), error(-32600)),
  c('id an array', json(ping([1])), error(-32600)),
  c('id true', json(ping(true)), error(-32600)),
  c('id null (MCP: the ID MUST NOT be null)', json(ping(null)), error(-32600)),
  c('id a fraction', json(ping(1.5)), error(-32600)),
  c('id beyond 2^53 (not exactly representable)', '{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}', error(-32600)),
  c('id 1e400 (Infinity once parsed)', '{"jsonrpc":"2.0","id":1e400,"method":"ping"}', error(-32600)),
  c('id written 1e3 is the integer 1000', '{"jsonrpc":"2.0","id":1e3,"method":"ping"}', result(1000, {})),
  c('id written 2.0 is the integer 2', '{"jsonrpc":"2.0","id":2.0,"method":"ping"}', result(2, {})),
  c('id -0 is the integer 0', '{"jsonrpc":"2.0","id":-0,"method":"ping"}', result(0, {})),
  c('id negative', json(ping(-42)), result(-42, {})),
  c('id the largest safe integer', json(ping(Number.MAX_SAFE_INTEGER)), result(Number.MAX_SAFE_INTEGER, {})),
  c('id an empty string', json(ping('')), result('', {})),
  c('id a 1 MB string', json(ping(big(MiB))), result(big(MiB), {})),
  c('id with escapes, NUL and emoji', json(ping('a"\\\u0000\u2028🙂')), result('a"\\\u0000\u2028🙂', {})),
  c('id with a lone surrogate (escaped)', '{"jsonrpc":"2.0","id":"\\ud800x","method":"ping"}', result('\ud800x', {})),
  c('id null on a notification method', json({ jsonrpc: '2.0', id: null, method: 'notifications/initialized' }), error(-32600)),

  // -- deep nesting: no stack overflow anywhere
  c(`an array nested ${DEEP} deep`, deepArray(DEEP), error(-32600)),
  c(`an object nested ${DEEP} deep`, deepObject(DEEP), error(-32600)),
  // params nesting deeper than the server's maxDepth (512): -32602 before anything walks them
  c('a deep argument', `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"text":${deepObject(DEEP)}}}}`, error(-32602, 8)),
  c('a deep extra argument', `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"text":"t","more":${deepArray(DEEP)}}}}`, error(-32602, 8)),
  c('a deep _meta', `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"text":"t"},"_meta":${deepObject(DEEP)}}}`, error(-32602, 8)),
  c('params nested 512 deep, the limit', `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"text":${deepObject(510)}}}}`, isError(8)),
  c('params nested 513 deep', `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"text":${deepObject(511)}}}}`, error(-32602, 8)),
  c('a deep cursor', `{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"cursor":${deepObject(DEEP)}}}`, error(-32602, 8)),
  c('a deep id', `{"jsonrpc":"2.0","id":${deepObject(DEEP)},"method":"ping"}`, error(-32600)),
  c('a deep tool name', `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":${deepArray(DEEP)}}}`, error(-32602, 8)),
  c('a deep result in a response from the client', `{"jsonrpc":"2.0","id":99,"result":${deepObject(DEEP)}}`, none),

  // -- big strings and lines (the limit in these tests is 16 MiB)
  c('a 10 MB string argument', json(echo(9, big(10 * MiB))), text(9, big(10 * MiB))),
  c('a 20 MB line with its id first', json(echo(10, big(20 * MiB))), { kind: 'too-large', id: 10 }),
  c('a 20 MB line with its id last', cat(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":{"text":"${big(20 * MiB)}"}},"id":"last"}`), { kind: 'too-large', id: 'last' }),
  c('20 MB of garbage', big(20 * MiB), { kind: 'too-large', id: null }),
  c('a 20 MB method name', json({ jsonrpc: '2.0', id: 11, method: big(20 * MiB) }), { kind: 'too-large', id: 11 }),
  c('10 000 unknown arguments', json({ jsonrpc: '2.0', id: 12, method: 'tools/call', params: { name: 'echo', arguments: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i])) } }), isError(12)),

  // -- invalid UTF-8 inside strings: U+FFFD, then carried as text
  ...([
    ['a stray continuation byte', [0x80]],
    ['0xFF and 0xFE', [0xff, 0xfe]],
    ['an overlong slash', [0xc0, 0xaf]],
    ['a UTF-16 surrogate encoded in UTF-8', [0xed, 0xa0, 0x80]],
    ['a truncated three-byte sequence', [0xe2, 0x82]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ] as const).map(([name, raw], i) => c(`invalid UTF-8 in a string: ${name}`, echoRaw(20 + i, Buffer.from(raw)), text(20 + i, decoded(Buffer.from(raw))))),
  c('valid multi-byte UTF-8 is kept', json(echo(30, 'é水🙂')), text(30, 'é水🙂')),

  // -- duplicate keys: the last one counts
  c('a duplicate id', '{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}', result(2, {})),
  c('a duplicate method', '{"jsonrpc":"2.0","id":3,"method":"tools/call","method":"ping"}', result(3, {})),
  c('a duplicate jsonrpc, the last valid', '{"jsonrpc":"1.0","jsonrpc":"2.0","id":4,"method":"ping"}', result(4, {})),
  c('a duplicate jsonrpc, the last invalid', '{"jsonrpc":"2.0","jsonrpc":"1.0","id":4,"method":"ping"}', error(-32600, 4)),
  c('a duplicate argument', '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2,"a":10}}}', result(5, { structuredContent: { sum: 12 } })),
  c('an id that turns a notification into a request', '{"jsonrpc":"2.0","method":"ping","id":6}', result(6, {})),

  // -- method names that are object keys elsewhere
  c('method __proto__', json({ jsonrpc: '2.0', id: 13, method: '__proto__' }), error(-32601, 13)),
  c('method constructor', json({ jsonrpc: '2.0', id: 13, method: 'constructor' }), error(-32601, 13)),
  c('method hasOwnProperty', json({ jsonrpc: '2.0', id: 13, method: 'hasOwnProperty' }), error(-32601, 13)),
  c('an empty method', json({ jsonrpc: '2.0', id: 13, method: '' }), error(-32601, 13)),
  c('tool __proto__', json({ jsonrpc: '2.0', id: 13, method: 'tools/call', params: { name: '__proto__', arguments: {} } }), error(-32602, 13)),
  c('tool toString', json({ jsonrpc: '2.0', id: 13, method: 'tools/call', params: { name: 'toString', arguments: {} } }), error(-32602, 13)),
  c('an argument named __proto__', '{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"echo","arguments":{"text":"t","__proto__":{"polluted":true}}}}', isError(14)),

  // -- requests that are notifications, and the other way round
  c('tools/call without an id (a notification: never run, never answered)', json({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } }), none),
  c('ping without an id', json({ jsonrpc: '2.0', method: 'ping' }), none),
  c('an unknown method without an id', json({ jsonrpc: '2.0', method: 'no/such' }), none),
  c('a notification with wrong params (no answer, even so)', json({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: {} } }), none),
  c('notifications/initialized with an id', json({ jsonrpc: '2.0', id: 15, method: 'notifications/initialized' }), error(-32600, 15)),
  c('notifications/cancelled with an id', json({ jsonrpc: '2.0', id: 16, method: 'notifications/cancelled', params: { requestId: 1 } }), error(-32600, 16)),
  c('a response to a request never sent', json({ jsonrpc: '2.0', id: 17, result: {} }), none),
  c('an error response to a request never sent', json({ jsonrpc: '2.0', id: 17, error: { code: -1, message: 'no' } }), none),
  c('a malformed error response', json({ jsonrpc: '2.0', id: 17, error: 'no' }), none),
  c('an error response with id null', json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }), none),
  c('a method beside a result (a request)', json({ jsonrpc: '2.0', id: 18, method: 'ping', result: {} }), result(18, {})),

  // -- batches: refused since 2025-06-18, answered member by member at 2025-03-26
  c('a batch at 2025-11-25', json([ping(1), ping(2)]), error(-32600)),
  c('a batch of notifications at 2025-11-25', json([{ jsonrpc: '2.0', method: 'notifications/initialized' }]), error(-32600)),
  c('a batch of requests at 2025-03-26', json([ping(1), add(2, 1, 2)]), { kind: 'batch', answers: [{ id: 1, result: {} }, { id: 2, result: { structuredContent: { sum: 3 } } }] }, '2025-03-26'),
  c('a batch of notifications only at 2025-03-26', json([{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', method: 'ping' }]), none, '2025-03-26'),
  c('a batch of responses only at 2025-03-26', json([{ jsonrpc: '2.0', id: 1, result: {} }]), none, '2025-03-26'),
  c('a mixed batch at 2025-03-26', json([ping(1), { jsonrpc: '2.0', method: 'notifications/initialized' }, 5, { jsonrpc: '2.0', id: 2, method: 1 }]), { kind: 'batch', answers: [{ id: 1, result: {} }, { error: -32600, id: null }, { error: -32600, id: 2 }] }, '2025-03-26'),
  c('initialize inside a batch at 2025-03-26 (MUST NOT be part of a batch)', json([{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }, ping(2)]), { kind: 'batch', answers: [{ error: -32600, id: 1 }, { id: 2, result: {} }] }, '2025-03-26'),
  c('a nested batch at 2025-03-26', json([[ping(1)]]), { kind: 'batch', answers: [{ error: -32600, id: null }] }, '2025-03-26'),
  c('a batch of non-messages at 2025-03-26', json([1, 'x']), { kind: 'batch', answers: [{ error: -32600, id: null }, { error: -32600, id: null }] }, '2025-03-26'),
  c('an empty batch at 2025-03-26', '[]', error(-32600), '2025-03-26'),
  c('a truncated batch at 2025-03-26', '[{"jsonrpc":"2.0","id":1,"method":"ping"},', error(-32700), '2025-03-26'),
]
