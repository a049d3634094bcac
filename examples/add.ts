/**
 * The `add` tool's definition as plain data, with no imports: the calculator makes it a
 * contract, and the benchmark server does the same through the bundled package, without
 * loading the calculator's modules.
 *
 *   import { emcp } from 'emcp'
 *   const add = emcp(addDefinition)
 */

/** What `emcp` takes for the tool `add`: two numbers in, their sum out. */
export const addDefinition = {
  name: 'add',
  title: 'Add',
  description: 'Add two numbers and return their sum.',
  input: {
    type: 'object',
    properties: { a: { type: 'number', description: 'First addend' }, b: { type: 'number', description: 'Second addend' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'], additionalProperties: false },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
} as const
