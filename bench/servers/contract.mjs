/**
 * The benchmark contract shared by every server under test, exactly as examples/bench.ts
 * builds it: tool `add` ({a:number, b:number} required, output {sum:number}, the text block
 * the JSON of the output) and TOOLS=N filler tools `tool_0000`, ... with 2 or 3 described
 * properties of varied types (only p0 required). Filler handlers answer the JSON of their
 * arguments as text.
 */
const kinds = ['string', 'number', 'integer', 'boolean']

export const add = {
  name: 'add',
  title: 'Add',
  description: 'Add two numbers and return their sum.',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number', description: 'First addend' }, b: { type: 'number', description: 'Second addend' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'], additionalProperties: false },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
}

/** Filler tool number `i` as a plain JSON tool description. */
export const filler = (i) => {
  const count = 2 + (i % 2)
  const properties = {}
  for (let p = 0; p < count; p++)
    properties[`p${p}`] = { type: kinds[(i + p) % kinds.length], description: `Parameter ${p} of filler tool ${i}` }
  return {
    name: `tool_${String(i).padStart(4, '0')}`,
    description: `Filler tool number ${i}, for benchmarks with many tools registered.`,
    inputSchema: { type: 'object', properties, required: ['p0'] },
  }
}

export const fillers = (n) => Array.from({ length: n }, (_, i) => filler(i))

export const toolCount = () => Number(process.env.TOOLS ?? 0)
export const port = () => Number(process.env.PORT ?? 3000)

/** The result of `add`, as every server sends it. */
export const addResult = (a, b) => {
  const out = { sum: a + b }
  return { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out }
}

/** The result of a filler tool. */
export const fillerResult = (args) => ({ content: [{ type: 'text', text: JSON.stringify(args ?? {}) }] })

/** zod shape of a filler tool's input (for the SDK servers), from its JSON description. */
export const zodShape = (z, tool) => {
  const shape = {}
  for (const [key, prop] of Object.entries(tool.inputSchema.properties)) {
    let s = prop.type === 'string' ? z.string() : prop.type === 'boolean' ? z.boolean() : prop.type === 'integer' ? z.number().int() : z.number()
    s = s.describe(prop.description)
    shape[key] = tool.inputSchema.required.includes(key) ? s : s.optional()
  }
  return shape
}
