/**
 * Type tests of Standard Schema slots (zod 4, valibot 1 through @valibot/to-json-schema,
 * arktype 2) and of TypeBox schemas as JSON Schema literals: the handler gets the input
 * schema's output type (transforms and defaults applied), callers pass its input type, the
 * handler returns what the output schema accepts, clients get its output type; every check
 * `implement` makes still holds (missing or extra handler, wrong result type).
 */
import { Type, type Static } from '@sinclair/typebox'
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { Schema } from 'effect'
import { z } from 'zod'
import { expectAssignable, expectError, expectType } from 'tsd'
import { emcp, inMemoryClient, mcpServer, prompt, type AnyPrompt, type AnyTool, type ArgsOf, type InputOf, type ResultOf } from 'emcp'

// zod: a transform, a default, an optional
const measure = emcp({
  name: 'measure',
  description: 'Measure a word.',
  input: z.object({ word: z.string().transform((s) => s.length), unit: z.enum(['cm', 'in']).default('cm'), note: z.string().optional() }),
  output: z.object({ size: z.number(), at: z.string().transform((s) => new Date(s)) }),
})
expectAssignable<AnyTool>(measure)
expectType<'measure'>(measure.name)
expectType<{ word: number; unit: 'cm' | 'in'; note?: string | undefined }>(measure._I)
expectType<{ size: number; at: string }>(measure._O)
expectType<{ word: string; unit?: 'cm' | 'in' | undefined; note?: string | undefined }>({} as ArgsOf<typeof measure>)
expectType<{ size: number; at: Date }>({} as ResultOf<typeof measure>)

// valibot, converted by its official package
const post = emcp({
  name: 'post',
  description: 'Post.',
  input: toStandardJsonSchema(v.object({ title: v.string(), tags: v.optional(v.array(v.string()), []) })),
  output: toStandardJsonSchema(v.object({ id: v.number() })),
})
expectType<{ title: string; tags: string[] }>(post._I)
expectType<{ title: string; tags?: string[] | undefined }>({} as ArgsOf<typeof post>)

// arktype
const greet = emcp({ name: 'greet', description: 'Greet.', input: type({ name: 'string', 'age?': 'number' }), output: type({ hello: 'string' }) })
expectType<{ name: string; age?: number }>(greet._I)

// effect: its Standard Schema and Standard JSON Schema forms together
const person = emcp({
  name: 'person',
  description: 'Person.',
  input: Schema.toStandardJSONSchemaV1(Schema.toStandardSchemaV1(Schema.Struct({ name: Schema.String, age: Schema.optional(Schema.Number) }))),
})
expectType<{ readonly name: string; readonly age?: number }>(person._I)
expectError(mcpServer([person], { name: 's', version: '1' }).implement({ person: ({ name }) => name.length }))

// TypeBox: a JSON Schema literal already; its Static type is the handler's
const SearchInput = Type.Object({ q: Type.String(), n: Type.Optional(Type.Integer()) })
const SearchOutput = Type.Object({ hits: Type.Array(Type.String()) })
const search = emcp({ name: 'search', description: 'Search.', input: SearchInput, output: SearchOutput })
// an open object (TypeBox's default, as JSON Schema's) also allows other keys, which Static leaves out: the two fit each other
expectAssignable<InputOf<typeof search>>({} as Static<typeof SearchInput>)
expectAssignable<Static<typeof SearchInput>>(search._I)
expectType<{ [x: string]: unknown; hits: string[] }>(search._O)
expectAssignable<Static<typeof SearchOutput>>(search._O)

const server = mcpServer([measure, post, greet, search], { name: 's', version: '1' }).implement({
  measure: ({ word, unit }) => ({ size: word, at: unit }),
  post: ({ title, tags }) => ({ id: title.length + tags.length }),
  greet: ({ name, age }) => ({ hello: `${name}${age ?? ''}` }),
  search: ({ q, n }) => ({ hits: [q.repeat(n ?? 1)] }),
})
const client = inMemoryClient(server)
expectType<Promise<{ size: number; at: Date }>>(client.call('measure', { word: 'abc' }))
expectType<Promise<{ id: number }>>(client.call('post', { title: 'x' }))

// mistakes: a handler missing, a wrong result type, a caller passing the handler's type
expectError(mcpServer([measure, post], { name: 's', version: '1' }).implement({ measure: ({ word }) => ({ size: word, at: 'now' }) }))
expectError(mcpServer([post], { name: 's', version: '1' }).implement({ post: () => ({ id: 'one' }) }))
expectError(mcpServer([measure], { name: 's', version: '1' }).implement({ measure: () => ({ size: 1, at: new Date() }) }))
expectError(client.call('measure', { word: 3 }))
expectError(client.call('greet', { name: 1 }))
// a bare valibot schema has no JSON Schema form: it types (as a Standard Schema), and is refused when built
expectType<{ title: string }>(emcp({ name: 'bare', input: v.object({ title: v.string() }) })._I)

// effect and TypeBox beside zod: tools (transforms, optional keys, unions), prompts and forms
const std = <S extends Schema.Top & Schema.ConstraintDecoder<unknown>>(s: S) => Schema.toStandardJSONSchemaV1(Schema.toStandardSchemaV1(s))
const effectTool = emcp({
  name: 'effect_tool',
  description: 'Effect.',
  input: std(Schema.Struct({ n: Schema.NumberFromString, kind: Schema.Literals(['a', 'b']), note: Schema.optionalKey(Schema.String) })),
  output: std(Schema.Struct({ total: Schema.Number })),
})
// the handler gets effect's decoded type (a number from the wire's string); callers send the encoded one
expectType<{ readonly n: number; readonly kind: 'a' | 'b'; readonly note?: string }>(effectTool._I)
expectType<{ readonly n: string; readonly kind: 'a' | 'b'; readonly note?: string }>({} as ArgsOf<typeof effectTool>)
const unionBox = emcp({ name: 'union_box', description: 'TypeBox.', input: Type.Object({ s: Type.String(), n: Type.Optional(Type.Number({ default: 1 })) }) })
expectType<string>(unionBox._I.s)
// an optional property with a default: filled in at run time, optional in the type (as TypeBox's Static has it)
expectType<number | undefined>(unionBox._I.n)
const both = mcpServer([effectTool, unionBox], { name: 's', version: '1' }).implement({ effect_tool: ({ n }) => ({ total: n * 2 }), union_box: ({ s }) => s })
expectType<Promise<{ readonly total: number }>>(inMemoryClient(both).call('effect_tool', { n: '2', kind: 'a' }))
// mistakes, per library: a missing handler, a wrong result type, a wrong use of an argument, a caller's wrong type
expectError(mcpServer([effectTool, unionBox], { name: 's', version: '1' }).implement({ effect_tool: () => ({ total: 1 }) }))
expectError(mcpServer([effectTool], { name: 's', version: '1' }).implement({ effect_tool: () => ({ total: '1' }) }))
expectError(mcpServer([effectTool], { name: 's', version: '1' }).implement({ effect_tool: ({ n }) => ({ total: n.toUpperCase() }) }))
expectError(mcpServer([unionBox], { name: 's', version: '1' }).implement({ union_box: ({ s }) => s.toFixed() }))
expectError(inMemoryClient(both).call('effect_tool', { n: 2, kind: 'a' }))
expectError(inMemoryClient(both).call('union_box', { s: 1 }))

// prompts: effect's output, TypeBox's static type (its open object), and their mistakes
const effectPrompt = prompt({
  name: 'effect_prompt',
  arguments: std(Schema.Struct({ topic: Schema.String, count: Schema.optionalKey(Schema.NumberFromString) })),
  get: ({ topic, count }) => `${topic} ${count === undefined ? '' : count.toFixed(0)}`,
})
expectAssignable<AnyPrompt>(effectPrompt)
const boxPrompt = prompt({
  name: 'box_prompt',
  arguments: Type.Object({ q: Type.String(), lang: Type.Optional(Type.String()) }),
  get: ({ q, lang }) => `${q.toUpperCase()} ${lang ?? ''}`,
})
expectAssignable<AnyPrompt>(boxPrompt)
expectError(prompt({ name: 'bad_effect', arguments: std(Schema.Struct({ topic: Schema.String })), get: ({ topic }) => topic.toFixed() }))
expectError(prompt({ name: 'bad_box', arguments: Type.Object({ q: Type.String() }), get: ({ q }) => q.toFixed() }))
expectError(prompt({ name: 'bad_result', arguments: Type.Object({ q: Type.String() }), get: () => 42 }))

// forms: ctx.elicit's content typed by each library
mcpServer([emcp({ name: 'forms', input: { type: 'object' } })], { name: 's', version: '1' }).implement({
  forms: async (_args, ctx) => {
    const e = await ctx.elicit({ message: 'E?', requestedSchema: std(Schema.Struct({ name: Schema.String, age: Schema.optionalKey(Schema.Finite) })) })
    if (e.action === 'accept') expectType<{ readonly name: string; readonly age?: number }>(e.content)
    const b = await ctx.elicit({ message: 'B?', requestedSchema: Type.Object({ city: Type.String(), nights: Type.Optional(Type.Integer()) }) })
    if (b.action === 'accept') {
      expectType<string>(b.content.city)
      expectType<number | undefined>(b.content.nights)
    }
    return 'ok'
  },
})

// unions and each mistake for valibot and arktype
const shape = emcp({
  name: 'shape',
  description: 'Shape.',
  input: toStandardJsonSchema(v.object({ kind: v.picklist(['circle', 'square']), size: v.optional(v.number(), 1) })),
  output: type({ area: 'number', unit: "'cm' | 'in'" }),
})
expectType<'circle' | 'square'>(shape._I.kind)
expectType<number>(shape._I.size)
expectType<{ kind: 'circle' | 'square'; size?: number | undefined }>({} as ArgsOf<typeof shape>)
expectType<{ area: number; unit: 'cm' | 'in' }>({} as ResultOf<typeof shape>)
mcpServer([shape], { name: 's', version: '1' }).implement({ shape: ({ kind, size }) => ({ area: kind === 'circle' ? 3 * size * size : size * size, unit: 'cm' }) })
expectError(mcpServer([shape], { name: 's', version: '1' }).implement({ shape: () => ({ area: 1, unit: 'm' }) }))
expectError(mcpServer([shape], { name: 's', version: '1' }).implement({ shape: ({ kind }) => ({ area: kind.toFixed(), unit: 'cm' }) }))
expectError(mcpServer([shape, greet], { name: 's', version: '1' }).implement({ shape: () => ({ area: 1, unit: 'cm' }) }))
expectError(mcpServer([greet], { name: 's', version: '1' }).implement({ greet: ({ name }) => ({ hello: name.length }) }))
expectError(inMemoryClient(mcpServer([shape], { name: 's', version: '1' }).implement({ shape: () => ({ area: 1, unit: 'cm' }) })).call('shape', { kind: 'triangle' }))
