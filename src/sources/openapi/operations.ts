/**
 * The operations of an OpenAPI 3.0 or 3.1 document, read as tool contracts: the name from
 * `operationId` (written in MCP's alphabet, at most 128 characters; `method_path` without
 * one), the description from `summary` and `description`, the input schema from the path,
 * query and header parameters (each a property, with its description) plus the JSON request
 * body (`body`), and the output schema from the first 2xx JSON response. Every schema is
 * self-contained (refs.ts). Two operations whose names collide are reported together.
 *
 * @example
 * import { operationsOf } from './operations.js'
 * const doc = { openapi: '3.1.0', paths: { '/pets/{id}': { get: { operationId: 'getPet', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }] } } } }
 * operationsOf(doc) // { operations: [{ name: 'getPet', method: 'GET', path: '/pets/{id}', ... }], problems: [] }
 */
import { isObject } from '../../util/json-object.js'
import { inlined, resolve } from './refs.js'
import { trimRuns } from '../../util/trim-runs.js'

// ---------------------------------------------------------------------------------------
// model

/** Where a parameter goes in the request. */
export type ParameterPlace = 'path' | 'query' | 'header'

/** One parameter: its name in the request, and the argument that carries it. */
export interface Parameter {
  readonly name: string
  readonly in: ParameterPlace
  readonly argument: string
}

/** One operation, as a tool. */
export interface Operation {
  /** The tool's name (MCP's alphabet). */
  readonly name: string
  /** The `operationId` as written, if any. */
  readonly operationId: string | undefined
  readonly method: string
  readonly path: string
  readonly tags: ReadonlyArray<string>
  readonly description: string
  readonly deprecated: boolean
  readonly parameters: ReadonlyArray<Parameter>
  /** The argument carrying the JSON body, when the operation takes one. */
  readonly body: string | undefined
  readonly inputSchema: { readonly [key: string]: unknown }
  /** The 2xx JSON response's schema, when there is one. */
  readonly outputSchema: { readonly [key: string]: unknown } | undefined
}

/** An operation left out, and why (a collision, a schema that cannot be read). */
export interface OperationProblem {
  readonly operation: string
  readonly message: string
}

// ---------------------------------------------------------------------------------------
// functions

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/** The operations of a bundled document (internal `$ref`s only), and the problems found on the way. */
export const operationsOf = (doc: unknown): { operations: Operation[]; problems: OperationProblem[]; cycles: string[] } => {
  const operations: Operation[] = []
  const problems: OperationProblem[] = []
  const cycles: string[] = []
  const paths = isObject(doc) && isObject(doc.paths) ? doc.paths : {}
  for (const [path, rawItem] of Object.entries(paths)) {
    let item: unknown
    try {
      item = isObject(rawItem) && typeof rawItem.$ref === 'string' ? resolve(doc, rawItem.$ref) : rawItem
    } catch (e) {
      problems.push({ operation: path, message: (e as Error).message })
      continue
    }
    if (!isObject(item)) continue
    for (const method of methods) {
      const op = item[method]
      if (!isObject(op)) continue
      const label = typeof op.operationId === 'string' ? op.operationId : `${method.toUpperCase()} ${path}`
      try {
        operations.push(operationOf(doc, path, method, item, op, cycles))
      } catch (e) {
        problems.push({ operation: label, message: (e as Error).message })
      }
    }
  }
  return { operations, problems: [...problems, ...collisions(operations)], cycles }
}

/** `text` in MCP's tool-name alphabet (`A-Z a-z 0-9 _ - .`), at most 128 characters, never empty. */
export const toolNameOf = (text: string): string => {
  const name = trimRuns(text.replace(/[^A-Za-z0-9_.-]+/g, '_'), '_').slice(0, 128)
  return name === '' ? 'operation' : name
}

// ---------------------------------------------------------------------------------------
// internals

const operationOf = (doc: unknown, path: string, method: string, item: { readonly [k: string]: unknown }, op: { readonly [k: string]: unknown }, cycles: string[]): Operation => {
  const operationId = typeof op.operationId === 'string' ? op.operationId : undefined
  const name = toolNameOf(operationId ?? `${method}${path}`)
  const properties: { [name: string]: unknown } = {}
  const required: string[] = []
  const parameters: Parameter[] = []
  // path-level parameters apply unless the operation overrides one (same name and place)
  const declared = new Map<string, { readonly [k: string]: unknown }>()
  for (const raw of [...arrayOf(item.parameters), ...arrayOf(op.parameters)]) {
    const p = isObject(raw) && typeof raw.$ref === 'string' ? resolve(doc, raw.$ref) : raw
    if (isObject(p) && typeof p.name === 'string' && typeof p.in === 'string') declared.set(`${p.in} ${p.name}`, p)
  }
  for (const p of declared.values()) {
    const place = p.in as string
    // cookies are the browser's; Accept, Content-Type and Authorization are set by the call itself (OpenAPI says they are ignored)
    if (place !== 'path' && place !== 'query' && place !== 'header') continue
    if (place === 'header' && /^(accept|content-type|authorization)$/i.test(p.name as string)) continue
    const argument = properties[p.name as string] === undefined ? (p.name as string) : `${place}_${p.name as string}`
    const schema = schemaOfParameter(doc, p, cycles)
    properties[argument] = typeof p.description === 'string' && isObject(schema) && schema.description === undefined ? { ...schema, description: p.description } : schema
    if (p.required === true || place === 'path') required.push(argument)
    parameters.push({ name: p.name as string, in: place, argument })
  }
  const body = bodyOf(doc, op.requestBody, cycles)
  const bodyArgument = body === undefined ? undefined : properties.body === undefined ? 'body' : 'requestBody'
  if (body !== undefined && bodyArgument !== undefined) {
    properties[bodyArgument] = body.schema
    if (body.required) required.push(bodyArgument)
  }
  const description = [op.summary, op.description].filter((d): d is string => typeof d === 'string' && d.trim() !== '').join('\n\n')
  return {
    name,
    operationId,
    method: method.toUpperCase(),
    path,
    tags: arrayOf(op.tags).filter((t): t is string => typeof t === 'string'),
    description: description === '' ? `${method.toUpperCase()} ${path}` : description,
    deprecated: op.deprecated === true,
    parameters,
    body: bodyArgument,
    inputSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false },
    outputSchema: outputOf(doc, op.responses, cycles),
  }
}

const arrayOf = (u: unknown): ReadonlyArray<unknown> => (Array.isArray(u) ? u : [])

const schemaOfParameter = (doc: unknown, p: { readonly [k: string]: unknown }, cycles: string[]): unknown => {
  if (p.schema !== undefined) return inlined(doc, p.schema, cycles)
  // a parameter described by `content` (one media type) carries its schema there
  const media = isObject(p.content) ? Object.values(p.content)[0] : undefined
  return isObject(media) && media.schema !== undefined ? inlined(doc, media.schema, cycles) : { type: 'string' }
}

/** The JSON request body's schema, when the operation takes one. */
const bodyOf = (doc: unknown, raw: unknown, cycles: string[]): { schema: unknown; required: boolean } | undefined => {
  const body = isObject(raw) && typeof raw.$ref === 'string' ? resolve(doc, raw.$ref) : raw
  if (!isObject(body) || !isObject(body.content)) return undefined
  const media = jsonMedia(body.content)
  if (media === undefined) return undefined
  const schema = media.schema === undefined ? {} : inlined(doc, media.schema, cycles)
  const described = typeof body.description === 'string' && isObject(schema) && schema.description === undefined ? { ...schema, description: body.description } : schema
  return { schema: described, required: body.required === true }
}

/** The schema of the first 2xx response with a JSON body (200 before 201 before 2XX). */
const outputOf = (doc: unknown, responses: unknown, cycles: string[]): { readonly [key: string]: unknown } | undefined => {
  if (!isObject(responses)) return undefined
  const codes = Object.keys(responses).filter((c) => /^2(\d\d|XX)$/i.test(c)).sort()
  for (const code of codes) {
    const raw = responses[code]
    const response = isObject(raw) && typeof raw.$ref === 'string' ? resolve(doc, raw.$ref) : raw
    if (!isObject(response) || !isObject(response.content)) continue
    const media = jsonMedia(response.content)
    if (media === undefined || media.schema === undefined) continue
    const schema = inlined(doc, media.schema, cycles)
    return isObject(schema) ? schema : undefined
  }
  return undefined
}

/** The JSON media type of a content map (`application/json`, `application/problem+json`, `application/json; charset=utf-8`). */
const jsonMedia = (content: { readonly [k: string]: unknown }): { readonly [k: string]: unknown } | undefined => {
  const key = Object.keys(content).find((k) => /^application\/([\w.-]+\+)?json\b/i.test(k))
  const media = key === undefined ? undefined : content[key]
  return isObject(media) ? media : undefined
}

/** Operations whose tool names collide, each pair named. */
const collisions = (operations: Operation[]): OperationProblem[] => {
  const byName = new Map<string, Operation[]>()
  for (const o of operations) {
    const same = byName.get(o.name)
    if (same === undefined) byName.set(o.name, [o])
    else same.push(o)
  }
  const problems: OperationProblem[] = []
  for (const [name, same] of byName)
    if (same.length > 1)
      problems.push({ operation: name, message: `${same.length} operations are named ${name} as tools: ${same.slice(0, 10).map((o) => `${o.method} ${o.path}${o.operationId === undefined ? '' : ` (operationId ${o.operationId})`}`).join(', ')}${same.length > 10 ? ', …' : ''}; exclude all but one, or give them distinct operationIds` })
  return problems
}
