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
import { emcp, inMemoryClient, mcpServer, type AnyTool, type ArgsOf, type InputOf, type ResultOf } from 'emcp'

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
