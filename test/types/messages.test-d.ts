/**
 * The compiler's messages for the mistakes a server's author makes most: each lead with the
 * problem (the tool's name, the key) rather than a printout of the whole list or record.
 * tsd checks that each case is rejected; scripts/type-rejections.mjs checks the same cases
 * with TypeScript 5.9 and 7.0 and the text of each message against the `// message:`
 * pattern above it (`message 5.9:` / `message 7.0:` where the two compilers word it
 * differently). docs/errors.md shows these messages.
 */
import { expectError } from 'tsd'
import { emcp, mcpServer } from 'emcp'

const add = emcp({
  name: 'add',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'], additionalProperties: false },
})
const echo = emcp({ name: 'echo', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
const weather = emcp({ name: 'get_weather', input: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } })
const otherAdd = emcp({ name: 'add', input: { type: 'object' } })
const info = { name: 'calc', version: '1.0.0' }
const calc = mcpServer([add, echo], info)

// a name given twice: reported at each position that repeats it, the name first
// message: /^Property '"duplicate tool name: add"' is missing in type 'Tool<"add", /
expectError(mcpServer([add, echo, otherAdd], info))

// a missing handler: TypeScript 7 leads with the tool; 5.9 prints the record first, then the tool
// message 7.0: /^Property 'echo' is missing in type /
// message 5.9: /^Argument of type .*\n\s*Property 'echo' is missing in type /
expectError(calc.implement({ add: ({ a, b }) => ({ sum: a + b }) }))

// a misspelt handler key: the key, then the nearest tool name (TypeScript's own suggestion; with
// the parameter's type left to the compiler it also says the parameter is implicitly any)
// message: /^Object literal may only specify known properties, but 'get_wether' does not exist in type .*Did you mean to write 'get_weather'\?/
expectError(mcpServer([add, weather], info).implement({ add: ({ a, b }) => ({ sum: a + b }), get_wether: ({ city }: { city: string }) => city }))

// a handler for a tool the server does not have: the key, and that no tool has its name
// message: /^Object literal may only specify known properties, and 'multiply' does not exist in type '\{ readonly "no tool is named multiply": true; \}/
expectError(calc.implement({ add: ({ a, b }) => ({ sum: a + b }), echo: ({ text }) => text, multiply: () => 'x' }))

// the same, kept in a variable: the nearest name without a handler is suggested
const misspelt = { add: ({ a, b }: { a: number; b: number }) => ({ sum: a + b }), ehco: ({ text }: { text: string }) => text }
// message: /"no tool is named ehco; did you mean echo\?"/
expectError(calc.implement(misspelt))

// a result of the wrong type: reported at the key (`sum`)
// message: /^Type 'string' is not assignable to type 'number'\.$/
expectError(calc.implement({ add: ({ a, b }) => ({ sum: String(a + b) }), echo: ({ text }) => text }))

// a wrong kind of result: the message lists what a handler may return
// message: /^Type 'number' is not assignable to type '(?=.*ToolContent)(?=.*ToolError)(?=.*PromiseLike<)(?=.*Either<unknown, ToolContent>)/
expectError(calc.implement({ add: ({ a, b }) => ({ sum: a + b }), echo: ({ text }) => text.length }))
// message: /^Type 'number' is not assignable to type '(?=.*\{ sum: number; \})(?=.*ToolError)(?=.*PromiseLike<)(?=.*Either<unknown, \{ sum: number; \}>)/
expectError(calc.implement({ add: ({ a, b }) => a + b, echo: ({ text }) => text }))

// a result key its closed output schema (additionalProperties: false) does not allow: named
// message: /Property '"result key extra of add is not in its output schema \(additionalProperties: false\)"' is missing/
expectError(calc.implement({ add: ({ a, b }) => ({ sum: a + b, extra: 1 }), echo: ({ text }) => text }))
// message: /"result key extra of add is not in its output schema/
expectError(calc.implement({ add: async ({ a, b }) => ({ sum: a + b, extra: 1 }), echo: ({ text }) => text }))
