/**
 * Type tests of a handler's context (src/server/context.ts): progress and log take what MCP allows
 * (an unknown log level does not compile), and `elicit` types the user's answer from the
 * form it asks for: `content` is there only when the action is 'accept', a required string
 * is a string, an optional integer is `number | undefined`, and a form MCP cannot carry (a
 * nested object) does not compile. A raw shape (`{ name: z.string() }`, libraries mixed) types
 * the answer property by property; one mixing schemas with other values does not compile.
 */
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { z as zs } from 'zod'
import {
  emcp,
  mcpServer,
  type ElicitProperty,
  type ElicitResult,
  type ElicitSchema,
  type RequestId,
  type RequestOptions,
  type Root,
  type SamplingMessage,
  type SamplingRequest,
  type SamplingResult,
  type Session,
  type ToolContext,
} from 'emcp'

declare const ctx: ToolContext

// ---------------------------------------------------------------------------------------
// what the handler knows

expectType<RequestId>(ctx.requestId)
expectType<{ readonly [key: string]: unknown } | undefined>(ctx.meta)
expectType<Readonly<Session>>(ctx.session)
expectType<AbortSignal>(ctx.signal)
expectError((ctx.requestId = 2))
expectError((ctx.session.protocolVersion = '2025-06-18'))

// every handler gets it as its second argument
const look = emcp({ name: 'look', input: { type: 'object' } })
mcpServer([look], { name: 's', version: '1' }).implement({
  look: (_args, c) => {
    expectType<ToolContext>(c)
    return 'ok'
  },
})

// ---------------------------------------------------------------------------------------
// progress and log

expectType<void>(ctx.progress(1))
expectType<void>(ctx.progress(1, 10))
expectType<void>(ctx.progress(1, 10, 'one of ten'))
expectType<void>(ctx.progress(0.5, undefined, 'half'))
expectError(ctx.progress())
expectError(ctx.progress('1'))
expectError(ctx.progress(1, '10'))
expectError(ctx.progress(1, 10, 42))

expectType<void>(ctx.log('info', 'counted'))
expectType<void>(ctx.log('debug', { any: ['json'] }, 'my-logger'))
for (const level of ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const) ctx.log(level, null)
expectError(ctx.log('warn', 'x'))
expectError(ctx.log('verbose', 'x'))
expectError(ctx.log('INFO', 'x'))
expectError(ctx.log('info' as string, 'x'))
expectError(ctx.log('info', 'x', 42))
expectError(ctx.log('info'))

// ---------------------------------------------------------------------------------------
// elicit: the answer is typed by the form

const trip = async () => {
  const answer = await ctx.elicit({
    message: 'Where to?',
    requestedSchema: {
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 1 },
        nights: { type: 'integer', minimum: 1 },
        pets: { type: 'boolean' },
      },
      required: ['city'],
    },
  })
  expectType<'accept' | 'decline' | 'cancel'>(answer.action)
  // content is absent until the action says 'accept'
  expectType<true>({} as undefined extends typeof answer.content ? true : false)
  if (answer.action === 'accept') {
    expectType<string>(answer.content.city)
    expectType<number | undefined>(answer.content.nights)
    expectType<boolean | undefined>(answer.content.pets)
    // the form is open (JSON Schema's default): a property it does not name is unknown
    expectType<unknown>(answer.content.country)
    expectError(answer.content.city.toFixed())
  } else {
    expectType<'decline' | 'cancel'>(answer.action)
    expectType<undefined>(answer.content)
  }
}
expectType<() => Promise<void>>(trip)

// a form whose every property is required, and a multi-select with an enum
const picked = async () => {
  const answer = await ctx.elicit(
    {
      message: 'Pick',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          size: { type: 'string', enum: ['s', 'm', 'l'] },
          count: { type: 'number' },
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
        },
        required: ['name', 'size', 'count', 'tags'],
      },
    },
    { timeoutMs: 30_000 },
  )
  if (answer.action !== 'accept') return
  expectType<string>(answer.content.name)
  expectType<'s' | 'm' | 'l'>(answer.content.size)
  expectType<number>(answer.content.count)
  expectAssignable<ReadonlyArray<'a' | 'b'>>(answer.content.tags)
  expectNotAssignable<ReadonlyArray<'c'>>(answer.content.tags)
}
expectType<() => Promise<void>>(picked)

// the result type on its own
expectAssignable<ElicitResult<{ city: string }>>({ action: 'accept', content: { city: 'Oslo' } })
expectAssignable<ElicitResult<{ city: string }>>({ action: 'decline' })
expectAssignable<ElicitResult<{ city: string }>>({ action: 'cancel' })
expectNotAssignable<ElicitResult<{ city: string }>>({ action: 'accept' })
expectNotAssignable<ElicitResult<{ city: string }>>({ action: 'decline', content: { city: 'Oslo' } })
expectNotAssignable<ElicitResult<{ city: string }>>({ action: 'maybe' })

// a form MCP cannot carry does not compile: nested objects, arrays of non-strings, a non-object form
expectError(ctx.elicit({ message: 'm', requestedSchema: { type: 'object', properties: { address: { type: 'object' } } } }))
expectError(
  ctx.elicit({ message: 'm', requestedSchema: { type: 'object', properties: { address: { type: 'object', properties: { street: { type: 'string' } } } } } }),
)
expectError(ctx.elicit({ message: 'm', requestedSchema: { type: 'object', properties: { ns: { type: 'array', items: { type: 'number' } } } } }))
expectError(ctx.elicit({ message: 'm', requestedSchema: { type: 'object', properties: { n: { type: 'null' } } } }))
expectError(ctx.elicit({ message: 'm', requestedSchema: { type: 'array', items: { type: 'string' } } }))
expectError(ctx.elicit({ message: 'm', requestedSchema: { type: 'object' } }))
expectError(ctx.elicit({ requestedSchema: { type: 'object', properties: {} } }))
expectNotAssignable<ElicitProperty>({ type: 'object' })
expectAssignable<ElicitProperty>({ type: 'string', format: 'email' })
expectAssignable<ElicitProperty>({ type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }] } })
expectAssignable<ElicitSchema>({ type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] })

// ---------------------------------------------------------------------------------------
// elicitUrl, sample, roots

expectType<Promise<{ readonly action: 'accept' | 'decline' | 'cancel' }>>(
  ctx.elicitUrl({ message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' }),
)
expectType<Promise<{ readonly action: 'accept' | 'decline' | 'cancel' }>>(
  ctx.elicitUrl({ message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' }, { signal: AbortSignal.timeout(1000) }),
)
expectError(ctx.elicitUrl({ message: 'Sign in', url: 'https://example.com/login' }))
expectError(ctx.elicitUrl({ message: 'Sign in', url: new URL('https://example.com'), elicitationId: 'e1' }))

const question: SamplingRequest = { messages: [{ role: 'user', content: { type: 'text', text: 'Hi?' } }], maxTokens: 100 }
expectType<Promise<SamplingResult>>(ctx.sample(question))
expectType<Promise<SamplingResult>>(ctx.sample({ ...question, systemPrompt: 'Be brief.', includeContext: 'thisServer', temperature: 0 }, { timeoutMs: 5000 }))
expectError(ctx.sample({ messages: [] }))
expectError(ctx.sample({ messages: [{ role: 'system', content: { type: 'text', text: 'x' } }], maxTokens: 1 }))
expectError(ctx.sample({ ...question, includeContext: 'everything' }))
expectAssignable<SamplingMessage>({ role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] })
const sampled = async () => {
  const r = await ctx.sample(question)
  expectType<string>(r.model)
  expectType<'user' | 'assistant'>(r.role)
  expectType<string | undefined>(r.stopReason)
}
expectType<() => Promise<void>>(sampled)

expectType<Promise<ReadonlyArray<Root>>>(ctx.roots())
expectType<Promise<ReadonlyArray<Root>>>(ctx.roots({ timeoutMs: 1000, signal: new AbortController().signal }))
expectError(ctx.roots({ timeoutMs: '1000' }))
expectError(ctx.roots({ signal: true }))
expectAssignable<Root>({ uri: 'file:///home' })
expectNotAssignable<Root>({ name: 'home' })
expectAssignable<RequestOptions>({})

// elicit with a Standard Schema form: the answer is the schema's output
void (async () => {
  const answer = await ctx.elicit({ message: 'm', requestedSchema: zs.object({ name: zs.string(), age: zs.number().default(30), n: zs.string().transform(Number) }) })
  if (answer.action === 'accept') expectType<{ name: string; age: number; n: number }>(answer.content)
})

// elicit with a raw shape, libraries mixed: the answer is each property's output
void (async () => {
  const answer = await ctx.elicit({
    message: 'm',
    requestedSchema: { name: zs.string(), age: zs.number().default(30), plan: toStandardJsonSchema(v.optional(v.picklist(['free', 'team']))), pro: type('boolean') },
  })
  if (answer.action === 'accept') expectType<{ name: string; age: number; plan: 'free' | 'team' | undefined; pro: boolean }>(answer.content)
  // the empty shape: a confirmation, nothing to read
  const sure = await ctx.elicit({ message: 'Sure?', requestedSchema: {} })
  if (sure.action === 'accept') expectType<{}>(sure.content)
})
// a wrong use of a property of the answer
void (async () => {
  const r = await ctx.elicit({ message: 'm', requestedSchema: { age: zs.number() } })
  if (r.action === 'accept') expectError(r.content.age.toUpperCase())
})
// a shape mixing schemas with JSON Schema properties: the property that is no schema is named
// message: /'type' does not exist in type 'ShapeValue[ |']/
expectError(ctx.elicit({ message: 'm', requestedSchema: { name: zs.string(), age: { type: 'number' } } }))

