/**
 * Type tests of prompts (src/features/prompts.ts): `get` receives the arguments typed from the
 * literal declaration (`required: true` gives a string, anything else an optional string);
 * an undeclared argument, a completer for one, or a duplicate prompt name do not compile.
 * Arguments given as a raw shape (`{ code: z.string() }`, libraries mixed): `get` reads each
 * property's output, optional ones `| undefined`; an object mixing schemas with declarations
 * does not compile, with a message saying what to pass.
 */
import { expectAssignable, expectError, expectType } from 'tsd'
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { z as zs } from 'zod'
import {
  emcp,
  mcpServer,
  prompt,
  prompts,
  type AnyPrompt,
  type AnyTool,
  type FeatureFactory,
  type Prompt,
  type PromptArgs,
  type PromptContext,
  type PromptsFeature,
} from 'emcp'
import type { RemoteClient } from 'emcp/client'

const trip = prompt({
  name: 'trip',
  arguments: { city: { description: 'Where to', required: true }, days: { description: 'How long' }, note: { required: false } },
  get: (args, ctx) => {
    expectType<{ readonly city: string; readonly days?: string; readonly note?: string }>(args)
    expectType<PromptContext>(ctx)
    return `Plan ${args.days ?? 'a few'} days in ${args.city}`
  },
  complete: {
    city: (value, context) => {
      expectType<string>(value)
      expectType<string | undefined>(context.arguments.days)
      return ['Oslo', 'Osaka'].filter((c) => c.startsWith(value))
    },
  },
})
expectAssignable<Prompt<'trip'>>(trip)
expectAssignable<AnyPrompt>(trip)
expectType<{ readonly a: string }>({} as PromptArgs<{ a: { required: true } }>)

// no arguments: get receives an empty object
const hello = prompt({ name: 'hello', get: (args) => (expectType<{}>(args), 'Hello!') })

// every message shape and content kind
prompt({
  name: 'mixed',
  get: async () => ({
    description: 'all kinds',
    messages: [
      { role: 'user', content: { type: 'text', text: 'hi' } },
      { role: 'assistant', content: { type: 'image', data: 'AA==', mimeType: 'image/png' } },
      { role: 'user', content: { type: 'audio', data: 'AA==', mimeType: 'audio/wav' } },
      { role: 'user', content: { type: 'resource_link', uri: 'docs://a', name: 'a' } },
      { role: 'user', content: { type: 'resource', resource: { uri: 'docs://a', text: 'a' } } },
    ],
  }),
})
prompt({ name: 'single', get: () => ({ role: 'assistant', content: { type: 'text', text: 'ok' } }) })

// wrong keys and wrong shapes do not compile
expectError(prompt({ name: 'p', arguments: { a: { required: true } }, get: ({ b }) => b }))
expectError(prompt({ name: 'p', arguments: { a: {} }, get: () => '', complete: { b: () => [] } }))
expectError(prompt({ name: 'p', get: () => ({ role: 'system', content: { type: 'text', text: 'x' } }) }))
expectError(prompt({ name: 'p', get: () => 42 }))
expectError(prompt({ name: 'p', arguments: { a: { required: 'yes' } }, get: () => '' }))

// a duplicate name does not compile; the result is a feature and a handle
expectError(prompts([trip, trip]))
const ps = prompts([trip, hello], { pageSize: 5 })
expectType<PromptsFeature>(ps)
expectAssignable<FeatureFactory>(ps)
expectType<boolean>(ps.remove('trip'))
const noop = emcp({ name: 'noop', input: { type: 'object' } })
mcpServer([noop], { name: 's', version: '1' }, { features: [ps] }).implement({ noop: () => 'ok' })

// scopes: a list of scope names, as on tools
expectAssignable<AnyPrompt>(prompt({ name: 'scoped', get: () => 'x', scopes: ['docs:read'] }))
expectError(prompt({ name: 'scoped', get: () => 'x', scopes: 'docs:read' }))

// arguments from a Standard Schema: get receives its output, complete names its properties
prompt({
  name: 'zreview',
  arguments: zs.object({ code: zs.string(), lines: zs.string().transform(Number).optional() }),
  get: (args) => {
    expectType<{ code: string; lines?: number | undefined }>(args)
    return args.code
  },
  complete: { code: () => [] },
})
expectError(prompt({ name: 'zwrong', arguments: zs.object({ code: zs.string() }), get: ({ code }) => code.toFixed(1) }))
expectError(prompt({ name: 'zcomplete', arguments: zs.object({ code: zs.string() }), get: () => 'x', complete: { nope: () => [] } }))

// arguments as a raw shape, libraries mixed: get reads each property's output (transforms
// applied, optional ones `| undefined`), complete names its properties
const tone = type("'dry' | 'warm'")
const brief = prompt({
  name: 'brief',
  arguments: {
    topic: zs.string().describe('What to brief on'),
    words: zs.string().transform(Number).optional(),
    lang: toStandardJsonSchema(v.optional(v.picklist(['en', 'fr']))),
    tone,
  },
  get: (args) => {
    expectType<{ topic: string; words: number | undefined; lang: 'en' | 'fr' | undefined; tone: 'dry' | 'warm' }>(args)
    return args.topic
  },
  complete: {
    lang: (value, context) => {
      // completion sees the arguments as the client sent them so far: strings
      expectType<string | undefined>(context.arguments.words)
      return ['en', 'fr'].filter((l) => l.startsWith(value))
    },
  },
})
expectAssignable<AnyPrompt>(brief)
expectType<{ topic: string; words: number | undefined; lang: 'en' | 'fr' | undefined; tone: 'dry' | 'warm' }>({} as PromptArgs<typeof brief.arguments & {}>)
// callers (a typed client) send each property's input: the optional ones may be left out
declare const remote: RemoteClient<AnyTool, typeof brief>
void remote.prompts.get('brief', { topic: 't', tone: 'dry' })
void remote.prompts.get('brief', { topic: 't', tone: 'dry', words: '3', lang: 'fr' })
expectError(remote.prompts.get('brief', { tone: 'dry' }))
expectError(remote.prompts.get('brief', { topic: 't', tone: 'loud' }))
expectError(remote.prompts.get('brief', { topic: 't', tone: 'dry', words: 3 }))
// a wrong use of an argument, an argument the shape has not, a completer for one
expectError(prompt({ name: 'swrong', arguments: { n: zs.string().transform(Number) }, get: ({ n }) => n.toUpperCase() }))
expectError(prompt({ name: 'sunknown', arguments: { code: zs.string() }, get: ({ cod }) => String(cod) }))
expectError(prompt({ name: 'scomplete', arguments: { code: zs.string() }, get: () => 'x', complete: { nope: () => [] } }))
// an optional argument used as if always there
expectError(prompt({ name: 'soptional', arguments: { note: zs.string().optional() }, get: ({ note }) => ((s: string) => s)(note) }))
// an object mixing schemas with declarations is neither a raw shape nor declarations
// message: /arguments mixes schemas with declarations: make every value a Standard Schema/
expectError(prompt({ name: 'smixed', arguments: { code: zs.string(), note: { description: 'A note' } }, get: () => 'x' }))

