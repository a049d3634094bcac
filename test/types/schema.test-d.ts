/**
 * Type tests of the schema bridge (src/schema/schema.ts): the static type of a schema slot (a JSON
 * Schema literal through json-schema-to-ts, an io-ts codec through `t.TypeOf`), and the
 * signatures of validators and the codec helpers.
 */
import type * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import {
  codecToJsonSchema,
  DateFromISOString,
  formatIssues,
  validatorOf,
  withSchema,
  type Codec,
  type Issue,
  type JsonSchema,
  type SchemaLiteral,
  type SchemaSpec,
  type TypeOfSpec,
  type Validator,
} from 'emcp'

// ---------------------------------------------------------------------------------------
// TypeOfSpec: JSON Schema literals

const point = {
  type: 'object',
  properties: { x: { type: 'number' }, y: { type: 'number' }, label: { type: 'string' } },
  required: ['x', 'y'],
  additionalProperties: false,
} as const
expectType<{ x: number; y: number; label?: string }>({} as TypeOfSpec<typeof point>)

const kinds = {
  type: 'object',
  properties: {
    n: { type: 'integer' },
    flag: { type: 'boolean' },
    color: { type: 'string', enum: ['red', 'green'] },
    nums: { type: 'array', items: { type: 'number' } },
    nested: { type: 'object', properties: { deep: { type: 'object', properties: { v: { const: 1 } }, required: ['v'], additionalProperties: false } }, required: ['deep'], additionalProperties: false },
    either: { anyOf: [{ type: 'string' }, { type: 'null' }] },
  },
  required: ['n', 'flag', 'color', 'nums', 'nested', 'either'],
  additionalProperties: false,
} as const
type Kinds = TypeOfSpec<typeof kinds>
expectType<number>({} as Kinds['n'])
expectType<boolean>({} as Kinds['flag'])
expectType<'red' | 'green'>({} as Kinds['color'])
expectType<number[]>({} as Kinds['nums'])
expectType<{ deep: { v: 1 } }>({} as Kinds['nested'])
expectType<string | null>({} as Kinds['either'])

// a property with a `default` is required in the handler's view: input validation fills it in
const paged = {
  type: 'object',
  properties: { limit: { type: 'integer', default: 10 }, cursor: { type: 'string' } },
  additionalProperties: false,
} as const
expectType<{ limit: number; cursor?: string }>({} as TypeOfSpec<typeof paged>)

// ---------------------------------------------------------------------------------------
// TypeOfSpec: io-ts codecs (the decoded type)

expectType<{ at: Date; n: number }>({} as TypeOfSpec<t.TypeC<{ at: typeof DateFromISOString; n: t.NumberC }>>)
const Event = t.intersection([t.type({ at: DateFromISOString }), t.partial({ note: t.string })])
expectType<{ at: Date } & { note?: string }>({} as TypeOfSpec<typeof Event>)
expectType<'a' | 'b'>({} as TypeOfSpec<t.KeyofC<{ a: null; b: null }>>)
// anything else is unknown
expectType<unknown>({} as TypeOfSpec<42>)

// ---------------------------------------------------------------------------------------
// what a slot accepts

expectAssignable<SchemaLiteral>(point)
expectAssignable<SchemaSpec>(point)
expectAssignable<SchemaSpec>(t.type({ a: t.string }))
expectAssignable<Codec>(DateFromISOString)
expectNotAssignable<SchemaLiteral>({ type: 'objekt' } as const)
expectNotAssignable<SchemaLiteral>({ type: 'object', required: 'a' } as const)
expectNotAssignable<SchemaSpec>(42)

// ---------------------------------------------------------------------------------------
// validators and helpers

expectType<t.Type<Date, string, unknown>>(DateFromISOString)
const v = validatorOf(point)
expectType<Validator>(v)
expectType<Validator>(validatorOf(t.type({ at: DateFromISOString })))
expectType<JsonSchema>(v.schema)
expectType<E.Either<ReadonlyArray<Issue>, unknown>>(v.decode({ x: 1, y: 2 }))
expectType<E.Either<ReadonlyArray<Issue>, unknown>>(v.encode({ x: 1, y: 2 }))
expectError(validatorOf(42))
expectType<string>(formatIssues([{ path: '/a', message: 'must be number' }]))
expectError(formatIssues([{ path: '/a' }]))
expectType<JsonSchema>(codecToJsonSchema(t.type({ a: t.string })))

// withSchema keeps the codec's own type
const Cents = new t.Type<bigint, string, unknown>('Cents', (u): u is bigint => typeof u === 'bigint', (u, c) => (typeof u === 'string' ? t.success(BigInt(u)) : t.failure(u, c)), String)
expectType<typeof Cents>(withSchema(Cents, { type: 'string', pattern: '^[0-9]+$' }))
expectType<bigint>({} as TypeOfSpec<typeof Cents>)
