/**
 * Type tests of raw shapes of Standard Schemas (`{ title: z.string() }`, as the official SDK
 * takes them) in a contract's slots: the handler reads each property's output type (transforms
 * and defaults applied; a property whose schema takes undefined is `| undefined`), callers
 * pass each property's input type (optional where it takes undefined), the handler returns
 * the output shape's input types (optional likewise) and clients get its output types; the
 * checks `implement` makes still hold, and a value that is not a schema is refused.
 */
import { type } from 'arktype'
import { z } from 'zod'
import { expectAssignable, expectError, expectType } from 'tsd'
import { emcp, inMemoryClient, mcpServer, runtimeTool, type AnyTool, type ArgsOf, type ResultOf } from 'emcp'

// zod and arktype in one shape: a transform, a default, an optional
const note = emcp({
  name: 'note',
  description: 'Save a note.',
  input: { title: z.string().min(1), size: z.string().transform((s) => s.length), tag: z.enum(['a', 'b']).default('a'), n: z.number().optional(), at: type('string') },
  output: { id: z.string(), extra: z.number().optional(), when: z.string().transform((s) => new Date(s)) },
})
expectAssignable<AnyTool>(note)
expectType<'note'>(note.name)
expectType<{ title: string; size: number; tag: 'a' | 'b'; n: number | undefined; at: string }>(note._I)
expectAssignable<typeof note._O>({ id: 'x', when: 'y' })
expectAssignable<typeof note._O>({ id: 'x', when: 'y', extra: 1 })
expectError<typeof note._O>({ when: 'y' })
expectAssignable<ArgsOf<typeof note>>({ title: 't', size: 's', at: 'a' })
expectAssignable<ArgsOf<typeof note>>({ title: 't', size: 's', at: 'a', tag: 'b', n: 1 })
expectError<ArgsOf<typeof note>>({ size: 's', at: 'a' })
expectType<{ id: string; extra: number | undefined; when: Date }>({} as ResultOf<typeof note>)

const server = mcpServer([note], { name: 's', version: '1' }).implement({
  note: ({ title, size, tag, n }) => ({ id: `${tag}${title}${size}${n ?? 0}`, when: '2026-01-01' }), // extra may be left out
})
const client = inMemoryClient(server)
expectType<Promise<{ id: string; extra: number | undefined; when: Date }>>(client.call('note', { title: 't', size: 'xyz', at: 'x' }))

// a wrong result type
expectError(mcpServer([note], { name: 's', version: '1' }).implement({ note: () => ({ id: 1, when: 'x' }) }))
// a missing result key
expectError(mcpServer([note], { name: 's', version: '1' }).implement({ note: () => ({ id: 'x' }) }))
// a handler that uses an argument as the wrong type
expectError(mcpServer([note], { name: 's', version: '1' }).implement({ note: ({ size }) => ({ id: size.toUpperCase(), when: 'x' }) }))
// a missing handler
expectError(mcpServer([note], { name: 's', version: '1' }).implement({}))
// callers: a missing required argument, a wrong type, an unknown argument
expectError(client.call('note', { size: 'x', at: 'x' }))
expectError(client.call('note', { title: 't', size: 3, at: 'x' }))
expectError(client.call('note', { title: 't', size: 'x', at: 'x', titel: 'y' }))
// a shape value that is not a schema, and a literal with a schema among its values
expectError(emcp({ name: 'bad', input: { title: z.string(), n: 3 } }))
expectError(emcp({ name: 'bad2', input: { type: 'object', title: z.string() } }))
expectError(emcp({ name: 'bad3', input: { title: 'string' } }))

// arktype's optional and defaulted entries (`[schema, '?']`, `[schema, '=', value]`), as its own type({ ... }) reads them
const tagged = emcp({
  name: 'tagged',
  input: { label: type('string'), colour: type('string').optional(), weight: type('number').default(1) },
  output: { text: type('string'), note: type('string').optional() },
})
expectType<{ label: string; colour: string | undefined; weight: number }>(tagged._I)
expectAssignable<ArgsOf<typeof tagged>>({ label: 'a' })
expectAssignable<ArgsOf<typeof tagged>>({ label: 'a', colour: 'red', weight: 2 })
expectError<ArgsOf<typeof tagged>>({ colour: 'red' })
expectError<ArgsOf<typeof tagged>>({ label: 'a', colour: 3 })
expectError<ArgsOf<typeof tagged>>({ label: 'a', weight: 'heavy' })
expectAssignable<typeof tagged._O>({ text: 'x' })
expectAssignable<typeof tagged._O>({ text: 'x', note: 'y' })
expectError<typeof tagged._O>({ note: 'y' })
expectType<{ text: string; note: string | undefined }>({} as ResultOf<typeof tagged>)
expectType<Promise<{ text: string; note: string | undefined }>>(
  inMemoryClient(mcpServer([tagged], { name: 's', version: '1' }).implement({ tagged: ({ label, colour, weight }) => ({ text: `${label}${colour ?? ''}${weight.toFixed()}` }) })).call('tagged', { label: 'a' }),
)
// a tuple around a schema that is neither of arktype's
expectError(emcp({ name: 'bad4', input: { a: type('string'), b: [type('string'), '!'] } }))
expectError(emcp({ name: 'bad5', input: { a: type('string'), b: ['string', '?'] } }))

// runtimeTool takes a shape too
expectAssignable<AnyTool>(runtimeTool({ name: 'rt', input: { a: z.string() } }))
