/**
 * Type tests of the compile-time keyword check of JSON Schema literals: a key that is not a
 * JSON Schema keyword, at the root or in a property's schema, is an error at that key whose
 * message leads with the problem and names the nearest keyword; other libraries' keys on a
 * literal (`_def`, `_zod`, `kind`/`expects`, a `~standard` that is not a Standard Schema) are
 * refused the same way; annotations (`x-*`, `$comment`) and the libraries' own schemas pass.
 */
import { Type } from '@sinclair/typebox'
import { z } from 'zod'
import { expectError, expectType } from 'tsd'
import { emcp, mcpServer, type InputOf } from 'emcp'

// every keyword, annotations and `$comment` compile, and keep their types
const clean = emcp({
  name: 'clean',
  input: {
    type: 'object',
    $comment: 'why',
    'x-ui': { order: 1 },
    properties: { a: { type: 'string', minLength: 1, 'x-widget': 'text', $comment: 'a' }, n: { type: 'integer', exclusiveMinimum: 0 } },
    required: ['a'],
    additionalProperties: false,
  },
  output: { type: 'object', properties: { ok: { type: 'boolean', description: 'Done.' } }, required: ['ok'], additionalProperties: false },
})
expectType<{ a: string; n?: number }>(clean._I)
expectType<{ ok: boolean }>(clean._O)

// message: /^Type 'string\[\]' is not assignable to type '"unknown JSON Schema keyword \\"requird\\" \(did you mean \\"required\\"\?\)"'/
expectError(emcp({ name: 'a', input: { type: 'object', properties: { a: { type: 'string' } }, requird: ['a'] } }))
// message: /^Type 'number' is not assignable to type '"unknown JSON Schema keyword \\"minLenght\\" \(did you mean \\"minLength\\"\?\)"'/
expectError(emcp({ name: 'b', input: { type: 'object', properties: { s: { type: 'string', minLenght: 3 } } } }))
// message: /^Type 'false' is not assignable to type '"unknown JSON Schema keyword \\"addtionalProperties\\" \(did you mean \\"additionalProperties\\"\?\)"'/
expectError(emcp({ name: 'c', input: { type: 'object', addtionalProperties: false } }))
// case is ignored in the suggestion, as at run time
// message: /^Type 'string\[\]' is not assignable to type '"unknown JSON Schema keyword \\"Required\\" \(did you mean \\"required\\"\?\)"'/
expectError(emcp({ name: 'd', input: { type: 'object', Required: ['x'] } }))
// the output slot too
// message: /^Type '"date"' is not assignable to type '"unknown JSON Schema keyword \\"formt\\" \(did you mean \\"format\\"\?\)"'/
expectError(emcp({ name: 'e', input: { type: 'object' }, output: { type: 'object', properties: { at: { type: 'string', formt: 'date' } } } }))
// a key near no keyword: the hint names the annotation prefix
// message: /^Type 'number' is not assignable to type '"unknown JSON Schema keyword \\"widget\\" \(annotations start with \\"x-\\"\)"'/
expectError(emcp({ name: 'f', input: { type: 'object', widget: 1 } }))

// other libraries' keys on something that is not their schema
// message: /^Type '\{\}' is not assignable to type '"unknown JSON Schema keyword \\"_def\\"/
expectError(emcp({ name: 'g', input: { type: 'object', _def: {} } }))
// message: /^Type '\{\}' is not assignable to type '"unknown JSON Schema keyword \\"_zod\\"/
expectError(emcp({ name: 'h', input: { type: 'object', _zod: {} } }))
// message: /^Type '"schema"' is not assignable to type '"unknown JSON Schema keyword \\"kind\\"/
expectError(emcp({ name: 'i', input: { type: 'object', kind: 'schema', expects: 'Object' } }))
// message: /^Type 'number' is not assignable to type '"unknown JSON Schema keyword \\"~standard\\" \(this is not a Standard Schema v1, version 1 with a validate function/
expectError(emcp({ name: 'j', input: { type: 'object', '~standard': 42 } }))
// a ~standard with types but no validate is not a Standard Schema either
// message: /^Type '\{ readonly version: 1; readonly vendor: ["']x["']; \}' is not assignable to type '"unknown JSON Schema keyword \\"~standard\\"/
expectError(emcp({ name: 'k2', input: { type: 'object', '~standard': { version: 1, vendor: 'x' } as const } }))

// the libraries' schemas are theirs: zod's keys, TypeBox's index signature, never read as keywords
const lib = emcp({ name: 'lib', input: z.object({ a: z.string() }), output: Type.Object({ n: Type.Number() }) })
expectType<{ a: string }>(lib._I)
// a literal beside a library's schema is still checked
expectError(emcp({ name: 'k', input: z.object({ a: z.string() }), output: { type: 'object', requird: [] } }))
// and beside a raw zod shape (whose keys the compiler skips), with the same message
// message: /^Type 'never\[\]' is not assignable to type '"unknown JSON Schema keyword \\"requird\\" \(did you mean \\"required\\"\?\)"'/
expectError(emcp({ name: 'k3', input: { a: z.string() }, output: { type: 'object', requird: [] } }))
// a shape with a value that is no schema is refused
expectError(emcp({ name: 'k4', input: { a: z.string(), requird: ['a'] } }))
// a zod shape in both slots compiles, whatever its property names
const zodShapes = emcp({ name: 'shapes', input: { requird: z.string(), type: z.number() }, output: { minLenght: z.boolean() } })
expectType<{ requird: string; type: number }>(zodShapes._I)
// a TypeBox schema inside a literal is left to the run-time check
const mixed = emcp({ name: 'mixed', input: { type: 'object', properties: { q: Type.String() }, required: ['q'] } })
expectType<string>({} as InputOf<typeof mixed>['q'])

// the server still checks everything else about such contracts
expectError(mcpServer([clean], { name: 's', version: '1' }).implement({ clean: () => ({ ok: 'yes' }) }))
