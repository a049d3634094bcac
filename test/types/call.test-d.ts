/**
 * Type tests of handlers (src/server/call.ts): what a handler may return. A tool with an output
 * schema returns its output as a value, a Promise, an fp-ts Either or TaskEither, or a tool
 * error; a result of the wrong type does not compile in any of these forms. A tool without
 * one returns content (text, blocks or a whole CallToolResult).
 */
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import * as t from 'io-ts'
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import {
  DateFromISOString,
  emcp,
  mcpServer,
  text,
  toolError,
  type CallToolResult,
  type Handler,
  type HandlerResult,
  type Handlers,
  type ToolContent,
  type ToolContext,
  type ToolError,
} from 'emcp'

const add = emcp({
  name: 'add',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'], additionalProperties: false },
})
const echo = emcp({ name: 'echo', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
const when = emcp({
  name: 'when',
  input: t.type({ date: DateFromISOString }),
  output: t.type({ date: DateFromISOString, label: t.string }),
})
const info = { name: 'calls', version: '1' }
const adder = mcpServer([add], info)
const echoer = mcpServer([echo], info)

// ---------------------------------------------------------------------------------------
// the handler type

expectType<Parameters<Handler<typeof add>>[0]>({} as { a: number; b: number })
expectType<Parameters<Handler<typeof add>>[1]>({} as ToolContext)
expectType<HandlerResult<{ sum: number }>>({} as ReturnType<Handler<typeof add>>)
expectType<HandlerResult<ToolContent>>({} as ReturnType<Handler<typeof echo>>)
expectType<Handler<typeof add>>({} as Handlers<typeof add | typeof echo>['add'])
expectType<'add' | 'echo'>({} as keyof Handlers<typeof add | typeof echo>)

// ---------------------------------------------------------------------------------------
// structured output: every return form with the right type compiles

adder.implement({ add: ({ a, b }) => ({ sum: a + b }) })
adder.implement({ add: async ({ a, b }) => ({ sum: a + b }) })
adder.implement({ add: ({ a, b }) => Promise.resolve({ sum: a + b }) })
adder.implement({ add: ({ a, b }) => E.right({ sum: a + b }) })
adder.implement({ add: ({ a, b }) => (a > 0 ? E.right({ sum: a + b }) : E.left('negative')) })
adder.implement({ add: ({ a, b }) => TE.right({ sum: a + b }) })
adder.implement({ add: ({ a, b }) => TE.tryCatch(async () => ({ sum: a + b }), String) })
adder.implement({ add: () => toolError('cannot add today') })
adder.implement({ add: ({ a, b }) => (Number.isFinite(a + b) ? { sum: a + b } : toolError('overflow')) })
adder.implement({ add: async ({ a, b }) => (Number.isFinite(a + b) ? { sum: a + b } : toolError('overflow')) })
adder.implement({
  add: () => {
    throw new Error('a thrown error becomes isError at run time')
  },
})
expectType<'when'>(when.name)
mcpServer([when], info).implement({ when: ({ date }) => ({ date, label: date.toISOString() }) })

// ---------------------------------------------------------------------------------------
// structured output: the wrong type does not compile, whatever the form

// { sum: 'x' } for `sum: number`
expectError(adder.implement({ add: () => ({ sum: 'x' }) }))
expectError(adder.implement({ add: async () => ({ sum: 'x' }) }))
expectError(adder.implement({ add: () => Promise.resolve({ sum: 'x' }) }))
expectError(adder.implement({ add: () => E.right({ sum: 'x' }) }))
expectError(adder.implement({ add: () => TE.right({ sum: 'x' }) }))
expectError(adder.implement({ add: () => TE.tryCatch(async () => ({ sum: 'x' }), String) }))
// a missing property, a bare number
// (an undeclared extra property, `({ sum, extra: true })`, compiles: TypeScript does not check
// excess properties of an arrow function's inferred result; the output schema refuses it at run time)
expectError(adder.implement({ add: () => ({}) }))
expectError(adder.implement({ add: ({ a, b }) => a + b }))
// text is not a structured result
expectError(adder.implement({ add: () => 'three' }))
// a codec output takes the decoded type: a Date, not its wire string
expectError(mcpServer([when], info).implement({ when: ({ date }) => ({ date: date.toISOString(), label: 'x' }) }))

// ---------------------------------------------------------------------------------------
// no output schema: content

echoer.implement({ echo: ({ text }) => text })
echoer.implement({ echo: async ({ text }) => text })
echoer.implement({ echo: ({ text: s }) => [text(s), { type: 'image', data: 'AAAA', mimeType: 'image/png' }] })
echoer.implement({ echo: ({ text: s }) => ({ content: [text(s)], isError: false }) })
echoer.implement({ echo: ({ text: s }) => E.right(s) })
echoer.implement({ echo: ({ text: s }) => TE.right(s) })
echoer.implement({ echo: () => toolError([text('no'), text('really not')]) })

expectError(echoer.implement({ echo: () => 42 }))
expectError(echoer.implement({ echo: async () => ({ text: 'not a content block list' }) }))
expectError(echoer.implement({ echo: () => [{ type: 'video', url: 'x' }] }))
expectError(echoer.implement({ echo: () => E.right(42) }))

// ---------------------------------------------------------------------------------------
// HandlerResult as a type

expectAssignable<HandlerResult<{ sum: number }>>({ sum: 1 })
expectAssignable<HandlerResult<{ sum: number }>>(Promise.resolve({ sum: 1 }))
expectAssignable<HandlerResult<{ sum: number }>>(E.right({ sum: 1 }))
expectAssignable<HandlerResult<{ sum: number }>>(E.left(new Error('x')))
expectAssignable<HandlerResult<{ sum: number }>>(TE.right({ sum: 1 }))
expectAssignable<HandlerResult<{ sum: number }>>(toolError('x'))
expectAssignable<HandlerResult<{ sum: number }>>(Promise.resolve(toolError('x') as ToolError | { sum: number }))
expectNotAssignable<HandlerResult<{ sum: number }>>({ sum: 'x' })
expectNotAssignable<HandlerResult<{ sum: number }>>(Promise.resolve({ sum: 'x' }))
expectNotAssignable<HandlerResult<{ sum: number }>>(E.right({ sum: 'x' }))
expectNotAssignable<HandlerResult<{ sum: number }>>(TE.right({ sum: 'x' }))
expectAssignable<HandlerResult<ToolContent>>({ content: [], structuredContent: { a: 1 } } satisfies CallToolResult)
