/**
 * The tool list `emcp types` writes: each tool's name, title, description and schemas as it
 * was listed, sorted by name, as a TypeScript module of const data that types `connect` for a
 * server emcp did not build; and the same module read back, for `--check`. Pure: no client,
 * no file system; the command does the I/O.
 *
 * @example
 * import { typesModule, readTypesModule } from './listed.js'
 * const text = typesModule([{ name: 'add', inputSchema: { type: 'object' } }], 'http://127.0.0.1:3000/mcp') // or '-- node server.js'
 * readTypesModule(text) // Right([{ name: 'add', inputSchema: { type: 'object' } }])
 */
import * as E from 'fp-ts/lib/Either.js'
import type { JsonSchema } from '../schema/schema.js'
import { deeperThan } from '../util/json-depth.js'
import { isObject } from '../util/json-object.js'

/** A listed tool as `emcp types` keeps it (a type alias: manifests' diff reads it as one of their tools). */
export type TypedTool = {
  readonly name: string
  readonly title?: string
  readonly description?: string
  readonly inputSchema: JsonSchema
  readonly outputSchema?: JsonSchema
}

/** The deepest schema kept (64 levels): deeper ones are refused, as no type could be read from them. */
export const maxSchemaDepth = 64

/** The largest module `emcp types` writes or reads (16 MiB): a listing past it is refused, not half-written. */
export const maxModuleBytes = 16 * 1024 * 1024

const opening = 'export const tools = '
const closing = ' as const'

/** What `emcp types` keeps of each listed tool, sorted by name (code units) so diffs are reviewable. */
export const typedTools = (listed: ReadonlyArray<unknown>): E.Either<string, ReadonlyArray<TypedTool>> => {
  const out: TypedTool[] = []
  for (const [i, t] of listed.entries()) {
    if (!isObject(t) || typeof t.name !== 'string') return E.left(`tool ${i} has no name`)
    if (!isObject(t.inputSchema)) return E.left(`tool ${t.name} has no inputSchema object`)
    if (t.outputSchema !== undefined && !isObject(t.outputSchema)) return E.left(`tool ${t.name}: outputSchema is not an object`)
    if (deeperThan(t.inputSchema, maxSchemaDepth) || (t.outputSchema !== undefined && deeperThan(t.outputSchema, maxSchemaDepth)))
      return E.left(`tool ${t.name}: a schema nests deeper than ${maxSchemaDepth} levels`)
    out.push({
      name: t.name,
      ...(typeof t.title === 'string' ? { title: t.title } : {}),
      ...(typeof t.description === 'string' ? { description: t.description } : {}),
      inputSchema: t.inputSchema,
      ...(t.outputSchema === undefined ? {} : { outputSchema: t.outputSchema }),
    })
  }
  // one pass with a set: a server listing thousands of tools is checked in linear time
  const seen = new Set<string>()
  const twice = out.find((t) => seen.size === seen.add(t.name).size)?.name
  if (twice !== undefined) return E.left(`the server lists two tools named ${JSON.stringify(twice)}`)
  return E.right(out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)))
}

/**
 * The module text. The data is JSON, which is a TypeScript literal too, except for a
 * `"__proto__"` key, which in a literal would set the prototype: it is written computed.
 */
export const typesModule = (tools: ReadonlyArray<TypedTool>, source: string): string => {
  const data = JSON.stringify(tools, null, 2).replace(/^( *)"__proto__":/gm, '$1["__proto__"]:')
  return [
    `// The tool contracts of \`${oneLine(source)}\`, as its tools/list gave them, written by emcp types.`,
    '// Type a client with them: `const client = await connect(target, { contracts: tools })` (emcp/client).',
    `// Check them for drift: \`emcp types --check <this file> ${oneLine(source)}\`.`,
    "import type { ListedContract } from 'emcp/client'",
    '',
    `${opening}${data}${closing} satisfies ReadonlyArray<ListedContract>`,
    '',
    'export default tools',
    '',
  ].join('\n')
}

/** The tools of a module `typesModule` wrote, or why they cannot be read. */
export const readTypesModule = (text: string): E.Either<string, ReadonlyArray<TypedTool>> => {
  if (text.length > maxModuleBytes) return E.left(`it is larger than ${maxModuleBytes} bytes`)
  const start = text.indexOf(opening)
  const end = text.lastIndexOf(closing)
  if (start < 0 || end < start) return E.left('it has no `export const tools = [...] as const` written by emcp types')
  const data = text.slice(start + opening.length, end).replace(/^( *)\["__proto__"\]:/gm, '$1"__proto__":')
  let parsed: unknown
  try {
    parsed = JSON.parse(data)
  } catch (e) {
    return E.left(`its tool list is not the JSON emcp types writes (edited by hand?): ${e instanceof Error ? e.message : String(e)}`)
  }
  return Array.isArray(parsed) ? typedTools(parsed) : E.left('its tool list is not an array')
}

/** A source named on one comment line. */
const oneLine = (s: string): string => s.replace(/[\r\n\u2028\u2029]+/g, ' ').slice(0, 200)
