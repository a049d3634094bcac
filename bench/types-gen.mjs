/**
 * The servers `npm run bench:types` checks, generated from seeded tool specs: the same tools
 * written with emcp (JSON Schema literals, `mcpServer([...]).implement({...})`), with the
 * official SDK (`McpServer.registerTool` with zod 4 shapes), and with emcp again taking the
 * SDK's zod schemas (the same shapes, each in `z.object(...)`). Every tool has an output schema
 * (the SDK's typed path: `outputSchema` and `structuredContent`); properties vary in kind
 * (string, number, integer, boolean, enum, array, nested object) and in required sets;
 * handlers read every argument and return a typed result.
 */
// ---------------------------------------------------------------------------------------
// tool specs: seeded, so every run (and both libraries) see the same tools

const mulberry32 = (seed) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const verbs = ['get', 'list', 'find', 'create', 'update', 'delete', 'sum', 'count', 'convert', 'check', 'render', 'send']
const nouns = ['user', 'order', 'invoice', 'city', 'file', 'ticket', 'metric', 'event', 'price', 'note', 'route', 'image']
const propNames = [
  'query', 'limit', 'offset', 'city', 'country', 'amount', 'currency', 'verbose', 'tags', 'ids', 'from', 'to', 'unit',
  'mode', 'format', 'page', 'size', 'owner', 'title', 'body', 'priority', 'dryRun', 'timeout', 'retries', 'region',
  'label', 'color', 'scale', 'depth', 'filter', 'sort', 'target', 'source', 'weight', 'height', 'width', 'lang',
]
const enumPool = ['asc', 'desc', 'fast', 'slow', 'metric', 'imperial', 'json', 'text', 'low', 'high', 'red', 'green']
const outNames = ['result', 'total', 'label', 'ok', 'items', 'count', 'message', 'score']
const scalarKinds = ['string', 'number', 'integer', 'boolean']
const inputKinds = ['string', 'number', 'integer', 'boolean', 'enum', 'array', 'object']

const pick = (rnd, xs) => xs[Math.floor(rnd() * xs.length)]
const pickDistinct = (rnd, xs, n) => {
  const pool = [...xs]
  const out = []
  while (out.length < n && pool.length > 0) out.push(pool.splice(Math.floor(rnd() * pool.length), 1)[0])
  return out
}

/** A property spec: { kind, values?, items?, props?, required? }. */
const propSpec = (rnd, depth) => {
  const kind = depth > 0 ? pick(rnd, scalarKinds) : pick(rnd, inputKinds)
  if (kind === 'enum') return { kind, values: pickDistinct(rnd, enumPool, 2 + Math.floor(rnd() * 3)) }
  if (kind === 'array') return { kind, items: pick(rnd, ['string', 'number']) }
  if (kind === 'object') {
    const names = pickDistinct(rnd, ['x', 'y', 'z', 'name', 'enabled', 'level'], 1 + Math.floor(rnd() * 3))
    const props = names.map((name) => ({ name, ...propSpec(rnd, depth + 1) }))
    return { kind, props, required: names.filter((_, i) => i === 0 || rnd() < 0.5) }
  }
  return { kind }
}

export const toolSpec = (i) => {
  const rnd = mulberry32(i * 7919 + 17)
  const names = pickDistinct(rnd, propNames, 1 + Math.floor(rnd() * 6))
  const props = names.map((name) => ({ name, ...propSpec(rnd, 0), described: rnd() < 0.5 }))
  const required = names.filter(() => rnd() < 0.6)
  rnd() // was: whether the tool has an output schema; kept so that the other choices stay as they were
  // every tool has an output schema: the SDK's typed path (outputSchema + structuredContent) is its costliest
  const output = pickDistinct(rnd, outNames, 1 + Math.floor(rnd() * 3)).map((name) => ({ name, kind: pick(rnd, ['number', 'string', 'boolean', 'integer', 'strings']) }))
  return {
    name: `${pick(rnd, verbs)}_${pick(rnd, nouns)}_${String(i).padStart(4, '0')}`,
    description: `Tool ${i}: ${names.join(', ')}.`,
    props,
    required,
    closed: rnd() < 0.7,
    output,
  }
}

// ---------------------------------------------------------------------------------------
// handler bodies (the same arithmetic for both libraries: it uses every argument)

/** An expression of type number that reads `v` (of property spec `p`). */
const numberOf = (p, v, optional) => {
  switch (p.kind) {
    case 'string':
      return optional ? `(${v} ?? '').length` : `${v}.length`
    case 'number':
    case 'integer':
      return optional ? `(${v} ?? 0)` : v
    case 'boolean':
      return `(${v} === true ? 1 : 0)`
    case 'enum':
      return `(${v} === '${p.values[0]}' ? 1 : 0)`
    case 'array':
      return p.items === 'number'
        ? `(${v}${optional ? ' ?? []' : ''}).reduce((s, x) => s + x, 0)`
        : `(${v}${optional ? ' ?? []' : ''}).join('').length`
    case 'object': {
      const o = optional ? `${v}?.` : `${v}.`
      const parts = p.props.map((q) => {
        const req = p.required.includes(q.name) && !optional
        return numberOf(q, `${o}${q.name}`, !req)
      })
      return `(${parts.join(' + ')})`
    }
  }
  throw new Error(p.kind)
}

const bodyOf = (s) => `${s.props.map((p) => numberOf(p, p.name, !s.required.includes(p.name))).join(' + ')}`

const outputValue = (o) => {
  switch (o.kind) {
    case 'number':
      return 'n'
    case 'integer':
      return 'Math.round(n)'
    case 'string':
      return '`${n}`'
    case 'boolean':
      return 'n > 0'
    case 'strings':
      return '[String(n)]'
  }
  throw new Error(o.kind)
}
const outputObject = (s) => `{ ${s.output.map((o) => `${o.name}: ${outputValue(o)}`).join(', ')} }`

// ---------------------------------------------------------------------------------------
// emcp

const jsonSchemaOf = (p) => {
  const d = p.described ? `, description: 'The ${p.name}.'` : ''
  switch (p.kind) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      return `{ type: '${p.kind}'${d} }`
    case 'enum':
      return `{ type: 'string', enum: [${p.values.map((v) => `'${v}'`).join(', ')}]${d} }`
    case 'array':
      return `{ type: 'array', items: { type: '${p.items}' }${d} }`
    case 'object':
      return `{ type: 'object', properties: { ${p.props.map((q) => `${q.name}: ${jsonSchemaOf(q)}`).join(', ')} }, required: [${p.required.map((r) => `'${r}'`).join(', ')}], additionalProperties: false${d} }`
  }
  throw new Error(p.kind)
}
const jsonOutputOf = (o) =>
  o.kind === 'strings' ? `{ type: 'array', items: { type: 'string' } }` : `{ type: '${o.kind}' }`

const emcpContract = (s, i) => {
  const req = s.required.length > 0 ? ` required: [${s.required.map((r) => `'${r}'`).join(', ')}],` : ''
  const closed = s.closed ? ' additionalProperties: false,' : ''
  const out = s.output
    ? `\n  output: { type: 'object', properties: { ${s.output.map((o) => `${o.name}: ${jsonOutputOf(o)}`).join(', ')} }, required: [${s.output.map((o) => `'${o.name}'`).join(', ')}], additionalProperties: false },`
    : ''
  return `export const t${i} = emcp({
  name: '${s.name}',
  description: '${s.description}',
  input: { type: 'object', properties: { ${s.props.map((p) => `${p.name}: ${jsonSchemaOf(p)}`).join(', ')} },${req}${closed} },${out}
})`
}

const emcpHandler = (s) => {
  const args = `{ ${s.props.map((p) => p.name).join(', ')} }`
  const result = s.output ? outputObject(s) : '`${n}`'
  return `  ${s.name}: (${args}) => {\n    const n = ${bodyOf(s)}\n    return ${result}\n  },`
}

/** stage: 'contracts' | 'sum' | 'full' */
export const emcpFile = (specs, stage) => {
  const lines = [`import { emcp${stage === 'contracts' ? '' : ', mcpServer'} } from 'emcp'`, '']
  specs.forEach((s, i) => lines.push(emcpContract(s, i)))
  if (stage === 'contracts') return `${lines.join('\n')}\n`
  const list = specs.map((_, i) => `t${i}`).join(', ')
  lines.push('', `const builder = mcpServer([${list}], { name: 'bench', version: '1.0.0' })`)
  if (stage === 'sum') return `${lines.join('\n')}\nexport default builder\n`
  lines.push('', 'export const server = builder.implement({')
  for (const s of specs) lines.push(emcpHandler(s))
  lines.push('})', '')
  return lines.join('\n')
}

// ---------------------------------------------------------------------------------------
// the official SDK with zod 4

const zodOf = (p, optional) => {
  let z
  switch (p.kind) {
    case 'string':
      z = 'z.string()'
      break
    case 'number':
      z = 'z.number()'
      break
    case 'integer':
      z = 'z.number().int()'
      break
    case 'boolean':
      z = 'z.boolean()'
      break
    case 'enum':
      z = `z.enum([${p.values.map((v) => `'${v}'`).join(', ')}])`
      break
    case 'array':
      z = `z.array(z.${p.items}())`
      break
    case 'object':
      z = `z.object({ ${p.props.map((q) => `${q.name}: ${zodOf(q, !p.required.includes(q.name))}`).join(', ')} }).strict()`
      break
    default:
      throw new Error(p.kind)
  }
  if (p.described) z += `.describe('The ${p.name}.')`
  return optional ? `${z}.optional()` : z
}
const zodOutputOf = (o) =>
  ({ number: 'z.number()', integer: 'z.number().int()', string: 'z.string()', boolean: 'z.boolean()', strings: 'z.array(z.string())' })[o.kind]

/** The zod shape of a tool's arguments, as the SDK's `inputSchema` takes it. */
export const zodInputShape = (s) => `{ ${s.props.map((p) => `${p.name}: ${zodOf(p, !s.required.includes(p.name))}`).join(', ')} }`
/** The zod shape of a tool's result, as the SDK's `outputSchema` takes it. */
export const zodOutputShape = (s) => `{ ${s.output.map((o) => `${o.name}: ${zodOutputOf(o)}`).join(', ')} }`

const sdkTool = (s, wrap = (shape) => shape) => {
  const input = wrap(zodInputShape(s))
  const out = s.output ? `\n    outputSchema: ${wrap(zodOutputShape(s))},` : ''
  const args = `{ ${s.props.map((p) => p.name).join(', ')} }`
  const result = s.output
    ? `{ const structuredContent = ${outputObject(s)}\n    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent } }`
    : '({ content: [{ type: \'text\', text: `${n}` }] })'
  const ret = s.output ? result : `return ${result}`
  return `server.registerTool(
  '${s.name}',
  {
    description: '${s.description}',
    inputSchema: ${input},${out}
  },
  async (${args}) => {
    const n = ${bodyOf(s)}
    ${ret}
  },
)`
}

/**
 * The SDK server of `specs`: its schemas as zod shapes (the SDK's documented form), or with
 * `objects`, each shape in `z.object(...)` (which the SDK takes too): the very values the
 * `emcpZodFile` server passes, so that the two compare with the same schemas.
 */
export const sdkFile = (specs, objects = false) =>
  [
    `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'`,
    `import * as z from 'zod'`,
    '',
    `export const server = new McpServer({ name: 'bench', version: '1.0.0' })`,
    '',
    ...specs.map((s) => sdkTool(s, objects ? (shape) => `z.object(${shape})` : undefined)),
    '',
  ].join('\n')

// ---------------------------------------------------------------------------------------
// emcp with the SDK's zod schemas: the same shapes, in `z.object(...)` (emcp takes a schema,
// not a shape; the SDK wraps its shapes in `z.object` itself)

const emcpZodContract = (objects) => (s, i) => `export const t${i} = emcp({
  name: '${s.name}',
  description: '${s.description}',
  input: ${objects ? `z.object(${zodInputShape(s)})` : zodInputShape(s)},
  output: ${objects ? `z.object(${zodOutputShape(s)})` : zodOutputShape(s)},
})`

/**
 * The emcp server of `specs` with the same zod schemas as `sdkFile(specs)`: the very raw shapes
 * the SDK takes, or with `objects`, each shape in `z.object(...)`.
 */
export const emcpZodFile = (specs, objects = false) =>
  [
    `import { emcp, mcpServer } from 'emcp'`,
    `import * as z from 'zod'`,
    '',
    ...specs.map(emcpZodContract(objects)),
    '',
    `export const server = mcpServer([${specs.map((_, i) => `t${i}`).join(', ')}], { name: 'bench', version: '1.0.0' }).implement({`,
    ...specs.map(emcpHandler),
    '})',
    '',
  ].join('\n')
