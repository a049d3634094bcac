import { expectError, expectType } from 'tsd'
import { emcp } from 'emcp'

const add = emcp({
  name: 'add',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'], additionalProperties: false },
})
expectType<'add'>(add.name)
expectType<{ a: number; b: number }>(add._I)
expectError(emcp({ name: 'bad name', input: { type: 'object' } }))
