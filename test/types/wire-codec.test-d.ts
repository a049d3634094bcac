/**
 * Type tests of wire codecs (src/schema/wire-codec.ts): a codec made by `wireCodec<A>` is an io-ts
 * codec from a wire string to `A`, and its definition is checked against `A`.
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import { expectError, expectType } from 'tsd'
import { dispatchOf, wireCodec, wireNameOf, type Dispatch } from 'emcp'

const hexInt = wireCodec<number>({
  name: 'int/hex',
  description: 'an integer in hexadecimal',
  is: (u): u is number => typeof u === 'number',
  decode: (s) => E.right(parseInt(s, 16)),
  encode: (n) => n.toString(16),
})
expectType<t.Type<number, string, unknown>>(hexInt)
expectType<string | undefined>(wireNameOf(hexInt))
expectType<Dispatch | undefined>(dispatchOf(hexInt, undefined))

// the decoder must give an A, and the encoder take one
expectError(wireCodec<number>({ name: 'x', description: 'x', is: (u): u is number => true, decode: (s) => E.right(s), encode: (n) => String(n) }))
expectError(wireCodec<number>({ name: 'x', description: 'x', is: (u): u is number => true, decode: () => E.right(1), encode: (n: string) => n }))
