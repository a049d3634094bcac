/**
 * The JSON Schema engine for runtimes that forbid code generation from strings (`eval`,
 * `new Function`): Cloudflare Workers (workerd) and other edge isolates. Ajv compiles each
 * schema into JavaScript source and cannot run there; @cfworker/json-schema walks the schema
 * instead (draft-04 to 2020-12, formats included), so every tool keeps its full schema. Its
 * cost: an interpreted walk is slower per call than Ajv's compiled code (the bench's runtimes
 * section measures it), which matters little beside a network round trip. schema.ts picks it
 * only where code generation is refused; plain schemas keep emcp's own fast path everywhere.
 *
 * @example
 * import { interpretedCheck } from './interpreted.js'
 * const check = interpretedCheck({ anyOf: [{ type: 'string' }, { type: 'integer' }] }, '2020-12', 'input')
 * check(1.5) // [{ path: '', message: 'must match a schema in anyOf' }, ...]
 */
import type { OutputUnit, Schema, SchemaDraft, Validator } from '@cfworker/json-schema'
import { isObject } from '../util/json-object.js'
import { escapeToken } from '../util/json-pointer.js'
import type { CheckMode, PlainCheck } from './plain-validator.js'
import type { Issue, JsonSchema } from './schema.js'

// ---------------------------------------------------------------------------------------
// constructors

/**
 * True when this runtime lets code be made from strings, as Ajv needs. Asked on the first
 * check, not at load: workerd allows it while a worker's modules load and refuses it while
 * requests are served, which is when schemas are compiled.
 */
export const codeGenerationAllowed = (): boolean => (allowed ??= probe())

let allowed: boolean | undefined
const probe = (): boolean => {
  try {
    return new Function('return true')() === true
  } catch {
    return false
  }
}

/** The walker's class, as `@cfworker/json-schema` exports it. */
export type WalkerClass = typeof Validator

/**
 * Hands the walker's class over where it was imported statically: the entries for runtimes
 * without `require` (`emcp/fetch`, `emcp/workers`) do, so that their first check needs no wait.
 */
export const provideWalker = (walker: WalkerClass): void => {
  provided ??= walker
}

/** The check of any schema of `dialect`, by walking it; `input` fills in `default`s as Ajv's `useDefaults` does. */
export const interpretedCheck = (schema: JsonSchema, dialect: '2020-12' | '2019-09' | 'draft-07', mode: CheckMode): PlainCheck => {
  const Walker = walkerClass()
  // the walker writes resolved-reference marks into the schema it is given: a copy keeps the
  // tool's own schema (the one tools/list sends) as it was
  const validator = new Walker(structuredClone(schema) as Schema, drafts[dialect], false)
  return (u) => {
    if (mode === 'input') fillDefaults(schema, u, 0)
    const result = validator.validate(u)
    return result.valid ? undefined : issuesOf(result.errors)
  }
}

// ---------------------------------------------------------------------------------------
// internals

/**
 * The walker is loaded on the first schema that needs it, not with emcp: in Node (where Ajv
 * checks every schema the plain fast path cannot) nearly no process ever needs it, and its ten
 * modules cost about 20M instructions of every startup (measured on the bench server). In Node,
 * Bun and Deno it comes synchronously through `require`; elsewhere it is the one the entry
 * provided, or, on an entry that did not, a literal `import()` (which a bundler follows) has
 * started and this check fails with a message saying so.
 */
const walkerClass = (): WalkerClass => {
  const walker = (provided ??= requireWalker())
  if (walker !== undefined) return walker
  loading ??= import('@cfworker/json-schema').then((m) => provideWalker(m.Validator)).catch(() => undefined)
  throw new Error('the JSON Schema walker (@cfworker/json-schema) is still loading: import emcp from emcp/fetch on runtimes without require, or check again')
}

let provided: WalkerClass | undefined
let loading: Promise<void> | undefined

/** The walker through `require` where the runtime has one (Node 20.16+, Bun, Deno); undefined elsewhere, or where it cannot be resolved. */
const requireWalker = (): WalkerClass | undefined => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  if (typeof proc?.getBuiltinModule !== 'function') return undefined
  try {
    const node = proc.getBuiltinModule('node:module') as { createRequire: (from: string) => (id: string) => unknown }
    return (node.createRequire(import.meta.url)('@cfworker/json-schema') as { Validator: WalkerClass }).Validator
  } catch {
    return undefined
  }
}

const drafts: { readonly [D in '2020-12' | '2019-09' | 'draft-07']: SchemaDraft } = { '2020-12': '2020-12', '2019-09': '2019-09', 'draft-07': '7' }

/** Keywords whose own unit only says that a subschema failed: the subschema's units say where and why. */
const summaries: ReadonlySet<string> = new Set(['properties', 'patternProperties', 'items', 'prefixItems', 'additionalItems', 'allOf', '$ref', '$recursiveRef', '$dynamicRef', 'dependentSchemas', 'if', 'then', 'else', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'propertyNames'])

/** The walker's output units as emcp's issues, worded as the compiled engine words them. */
const issuesOf = (units: ReadonlyArray<OutputUnit>): ReadonlyArray<Issue> => {
  const out: Issue[] = []
  const refused = new Set<string>()
  for (const unit of units) {
    const path = pointerOf(unit.instanceLocation)
    if (unit.keyword === 'required') out.push({ path: `${path}/${escapeToken(quoted(unit.error))}`, message: 'is required' })
    else if (unit.keyword === 'additionalProperties') {
      const at = `${path}/${escapeToken(quoted(unit.error))}`
      refused.add(at)
      out.push({ path: at, message: 'is not allowed' })
    } else if (unit.keyword === 'false' && refused.has(path)) continue
    else if (summaries.has(unit.keyword)) continue
    else if (unit.keyword === 'type') out.push({ path, message: `must be ${expected(unit.error)}` })
    else if (unit.keyword === 'anyOf' || unit.keyword === 'oneOf') out.push({ path, message: `must match ${unit.keyword === 'oneOf' ? 'exactly one schema' : 'a schema'} in ${unit.keyword}` })
    else out.push({ path, message: unit.error })
  }
  return out.length === 0 ? [{ path: '', message: units[0]?.error ?? 'is invalid' }] : out
}

/** `#/a/b` (the walker's instance location, its tokens URI-encoded) as the JSON pointer `/a/b`. */
const pointerOf = (location: string): string => {
  const pointer = location.startsWith('#') ? location.slice(1) : location
  try {
    return decodeURIComponent(pointer)
  } catch {
    return pointer
  }
}

/** The name the walker quotes last in a message (`... property "x".`). */
const quoted = (message: string): string => {
  const end = message.lastIndexOf('"')
  const start = message.lastIndexOf('"', end - 1)
  return start < 0 ? '' : message.slice(start + 1, end)
}

/** The types a `type` failure expected: `Expected "number"` → `number`. */
const expected = (message: string): string => {
  const at = message.indexOf('Expected ')
  return at < 0 || !message.endsWith('.') ? 'of another type' : message.slice(at + 'Expected '.length, -1).replace(/"/g, '')
}

/** The most nesting `fillDefaults` follows (deeper values are left as they are). */
const maxDepth = 64

/** Writes the `default` of each missing property into `u`, through `properties` and `items`, as the compiled engine does. */
const fillDefaults = (schema: unknown, u: unknown, depth: number): void => {
  if (!isObject(schema) || depth > maxDepth) return
  if (isObject(u) && isObject(schema.properties))
    for (const [key, sub] of Object.entries(schema.properties)) {
      if (!isObject(sub)) continue
      if (u[key] === undefined && sub.default !== undefined) (u as { [key: string]: unknown })[key] = structuredClone(sub.default)
      else fillDefaults(sub, u[key], depth + 1)
    }
  if (Array.isArray(u) && isObject(schema.items)) for (const item of u) fillDefaults(schema.items, item, depth + 1)
}
