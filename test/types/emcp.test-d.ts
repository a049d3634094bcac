/**
 * Type tests of `emcp` (src/contract/emcp.ts): the contract value keeps its name as a literal, its
 * argument type comes from the input schema (json-schema-to-ts for literals, `t.TypeOf` for
 * io-ts codecs), its result type from the output schema, and invalid names do not compile.
 */
import * as t from 'io-ts'
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import {
  DateFromISOString,
  emcp,
  type AnyTool,
  type InputOf,
  type NameOf,
  type OutputOf,
  type Tool,
  type ToolContent,
  type ToolDef,
  type ValidName,
} from 'emcp'

// ---------------------------------------------------------------------------------------
// JSON Schema literals: argument and result types

const add = emcp({
  name: 'add',
  description: 'Add two numbers.',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'], additionalProperties: false },
  annotations: { readOnlyHint: true, idempotentHint: true },
})
expectType<'add'>(add.name)
expectType<{ a: number; b: number }>(add._I)
expectType<{ sum: number }>(add._O)
expectType<true>(add._S)
// the result-key fast path of `implement`: a result with exactly the keys the closed output allows
expectType<{ readonly sum: any }>(add._R())
expectType<'add'>(add._R.name)
expectType<Tool<'add', { a: number; b: number }, { sum: number }, true, never, never, never>>(add)
expectAssignable<AnyTool>(add)

// the helpers read the cached types back
expectType<'add'>({} as NameOf<typeof add>)
expectType<{ a: number; b: number }>({} as InputOf<typeof add>)
expectType<{ sum: number }>({} as OutputOf<typeof add>)

// required / optional properties, integer, boolean, enum, array, nested object
const search = emcp({
  name: 'search',
  input: {
    type: 'object',
    properties: {
      query: { type: 'string' },
      limit: { type: 'integer' },
      exact: { type: 'boolean' },
      sort: { enum: ['asc', 'desc'] },
      tags: { type: 'array', items: { type: 'string' } },
      range: {
        type: 'object',
        properties: { from: { type: 'number' }, to: { type: 'number' } },
        required: ['from'],
        additionalProperties: false,
      },
    },
    required: ['query', 'sort'],
    additionalProperties: false,
  },
})
expectType<string>(search._I.query)
expectType<number | undefined>(search._I.limit)
expectType<boolean | undefined>(search._I.exact)
expectType<'asc' | 'desc'>(search._I.sort)
expectType<string[] | undefined>(search._I.tags)
expectType<{ from: number; to?: number } | undefined>(search._I.range)
// a property the schema does not declare is not there (additionalProperties: false)
expectError(search._I.nope)

// without `additionalProperties: false` the object stays open, as JSON Schema says
const echo = emcp({ name: 'echo', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
expectType<{ [x: string]: unknown; text: string }>(echo._I)

// `{}` declares no argument: the handler gets any object (the server publishes `{ type: 'object' }`)
expectType<{}>(emcp({ name: 'no_args', input: {} })._I)
expectType<{}>(emcp({ name: 'no_args_out', input: {}, output: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } })._I)
expectType<{ [x: string]: unknown; ok: boolean }>(emcp({ name: 'no_args_out', input: {}, output: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } })._O)

// no output schema: the handler returns content, and the tool is marked unstructured
expectType<ToolContent>(echo._O)
expectType<false>(echo._S)
expectType<any>(echo._R()) // no output schema: no result key to check
// an open output keeps its index signature (a result with other keys fails this fast path, and the key-by-key check lets it through)
expectType<{ readonly [x: string]: any; readonly [x: number]: any }>(emcp({ name: 'open_out', input: { type: 'object' }, output: { type: 'object', properties: { n: { type: 'number' } } } })._R())
expectType<Tool<'echo', { [x: string]: unknown; text: string }, ToolContent, false, never, never, never>>(echo)

// an input slot must describe an object
expectError(emcp({ name: 'scalar', input: { type: 'string' } }))
expectError(emcp({ name: 'scalar', input: { type: 'array', items: { type: 'number' } } }))
// an output slot may describe any JSON value (2026-07-28); its type follows the schema
expectType<number>(emcp({ name: 'scalar', input: { type: 'object' }, output: { type: 'number' } })._O)
expectType<string[]>(emcp({ name: 'names', input: { type: 'object' }, output: { type: 'array', items: { type: 'string' } } })._O)
// the input slot is required
expectError(emcp({ name: 'no_input' }))

// ---------------------------------------------------------------------------------------
// io-ts codecs: the handler sees decoded values (a DateFromISOString field is a Date)

const Weekday = t.keyof({ Monday: null, Tuesday: null })
const addDays = emcp({
  name: 'add_days',
  input: t.type({ date: DateFromISOString, days: t.Int }),
  output: t.type({ date: DateFromISOString, weekday: Weekday }),
})
expectType<'add_days'>(addDays.name)
expectType<Date>(addDays._I.date)
expectType<t.Branded<number, t.IntBrand>>(addDays._I.days)
expectNotAssignable<string>(addDays._I.date)
expectType<{ date: Date; weekday: 'Monday' | 'Tuesday' }>(addDays._O)
expectType<true>(addDays._S)

const partial = emcp({ name: 'partial', input: t.partial({ since: DateFromISOString, n: t.number }) })
expectType<Date | undefined>(partial._I.since)
expectType<number | undefined>(partial._I.n)
expectType<ToolContent>(partial._O)

// a codec whose decoded type is not an object is still a codec; the schema rules are checked at run time
expectAssignable<AnyTool>(emcp({ name: 'strings', input: t.type({ xs: t.array(t.string) }) }))
expectType<string[]>(emcp({ name: 'strings', input: t.type({ xs: t.array(t.string) }) })._I.xs)

// ---------------------------------------------------------------------------------------
// names: 1 to 128 of A-Z a-z 0-9 _ - .

expectType<'Get_weather-v2.1'>(emcp({ name: 'Get_weather-v2.1', input: { type: 'object' } }).name)
const name128 =
  'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_' as const // 128 characters
expectType<typeof name128>(emcp({ name: name128, input: { type: 'object' } }).name)

// a space, a slash, an @, a colon, a non-ASCII letter
expectError(emcp({ name: 'bad name', input: { type: 'object' } }))
expectError(emcp({ name: 'a/b', input: { type: 'object' } }))
expectError(emcp({ name: 'user@host', input: { type: 'object' } }))
expectError(emcp({ name: 'ns:tool', input: { type: 'object' } }))
// empty
expectError(emcp({ name: '', input: { type: 'object' } }))
// 129 characters
expectError(emcp({ name: `${name128}x`, input: { type: 'object' } }))
expectError(emcp({ name: `${name128}${name128}`, input: { type: 'object' } }))

// the check as a type: valid names come back, invalid ones become a message
expectType<'ok.name'>({} as ValidName<'ok.name'>)
expectType<'invalid tool name "bad name": use 1-128 of A-Z a-z 0-9 _ - .'>({} as ValidName<'bad name'>)
expectType<'invalid tool name "": use 1-128 of A-Z a-z 0-9 _ - .'>({} as ValidName<''>)
expectType<`invalid tool name "${typeof name128}x": use 1-128 of A-Z a-z 0-9 _ - .`>({} as ValidName<`${typeof name128}x`>)
// a name only known at run time is checked at run time (by mcpServer)
expectType<string>({} as ValidName<string>)
declare const dynamicName: string
expectType<string>(emcp({ name: dynamicName, input: { type: 'object' } }).name)

// a name that is not one literal (a pattern or plain string) is left to the run-time check
declare const generated: `tool_${string}`
expectType<`tool_${string}`>(emcp({ name: generated, input: { type: 'object' } }).name)
declare const anyName: string
expectType<string>(emcp({ name: anyName, input: { type: 'object' } }).name)

// literals stay literal types without `as const` (the slots' constraint keeps them): numeric
// and boolean enums, const values (nested objects too), tuple items, anyOf in order
const literals = emcp({
  name: 'literals',
  input: {
    type: 'object',
    properties: {
      level: { enum: [1, 2, 3] },
      flag: { enum: [true, null] },
      fixed: { const: { kind: 'point', at: [0, 1] } },
      pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], minItems: 2, maxItems: 2 },
      either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
    },
    required: ['level', 'flag', 'fixed', 'pair', 'either'],
    additionalProperties: false,
  },
})
expectType<1 | 2 | 3>(literals._I.level)
expectType<true | null>(literals._I.flag)
expectType<'point'>(literals._I.fixed.kind)
expectType<string>(literals._I.pair[0])
expectType<number>(literals._I.pair[1])
expectType<string | number>(literals._I.either)
// a description is only text: its literal is not kept
const described = emcp({ name: 'described', description: 'Says hi.', input: { type: 'object', description: 'The input.' } })
expectType<string | undefined>(described.description)

// ToolDef is what emcp takes: the name checked, the slots as given
expectAssignable<ToolDef<'add', { type: 'object' }>>({ name: 'add', description: 'Adds.', input: { type: 'object' } })
expectNotAssignable<ToolDef<'add', { type: 'object' }>>({ name: 'adx', input: { type: 'object' } })
expectNotAssignable<ToolDef<'bad name', { type: 'object' }>>({ name: 'bad name', input: { type: 'object' } })

// the compiler looks for space, tab, line breaks, ASCII punctuation, Latin-1 letters with
// diacritics and typographic marks; other characters compile and are refused when the server
// is built (test/contract/sum.test.ts)
expectError(emcp({ name: 'a\tb', input: { type: 'object' } }))
expectError(emcp({ name: 'a\nb', input: { type: 'object' } }))
expectError(emcp({ name: 'github/search', input: { type: 'object' } }))
// message: /^Type '"café"' is not assignable to type '"invalid tool name \\"café\\": use 1-128 of A-Z a-z 0-9 _ - \."'/
expectError(emcp({ name: 'café', input: { type: 'object' } }))
// message: /invalid tool name \\"Über_naïve\\": use 1-128 of A-Z a-z 0-9 _ - \./
expectError(emcp({ name: 'Über_naïve', input: { type: 'object' } }))
expectError(emcp({ name: 'señor', input: { type: 'object' } }))
expectError(emcp({ name: 'straße', input: { type: 'object' } }))
expectError(emcp({ name: 'cœur', input: { type: 'object' } }))
// a typographic dash or quote, a no-break space
expectError(emcp({ name: 'get–user', input: { type: 'object' } }))
expectError(emcp({ name: 'get—user', input: { type: 'object' } }))
expectError(emcp({ name: 'it’s', input: { type: 'object' } }))
expectError(emcp({ name: 'get\u00a0user', input: { type: 'object' } }))
expectType<'invalid tool name "café": use 1-128 of A-Z a-z 0-9 _ - .'>({} as ValidName<'café'>)
expectType<'invalid tool name "get–user": use 1-128 of A-Z a-z 0-9 _ - .'>({} as ValidName<'get–user'>)
// a union of names is checked name by name
expectType<'ok' | 'invalid tool name "café": use 1-128 of A-Z a-z 0-9 _ - .'>({} as ValidName<'ok' | 'café'>)
// other scripts are left to the run-time check
expectType<'ツール'>({} as ValidName<'ツール'>)
// upper-case ASCII passes, and so do patterns and plain strings (checked at run time)
expectType<'Add_Numbers.V2'>({} as ValidName<'Add_Numbers.V2'>)
expectType<`tool_${string}`>({} as ValidName<`tool_${string}`>)
