/**
 * The playground's check of a form's value against the schema it was built from, before
 * anything is sent: type, required, enum/const, bounds, lengths, pattern, item counts and
 * the formats a form can get wrong. The server checks again, fully; this gives the user the
 * message next to the field first. Bounded: depth and the number of problems reported.
 * `validate` does all but `pattern`, which runs a pattern the server wrote and may backtrack
 * for hours: `checkForm` adds those checks, each in a worker with a time limit (patterns.ts).
 *
 * @example
 * validate({ type: 'object', properties: { a: { type: 'number' } }, required: ['a'] }, {})
 * // [{ path: 'a', message: 'required' }]
 * await checkForm({ type: 'string', pattern: '^(a+)+$' }, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaa!')
 * // { problems: [], notes: [{ path: '', message: 'pattern not checked here: ...' }] }
 */
import { typeOf, type Schema } from './form.js'
import { checkPatterns, type PatternCheck, type PatternVerdicts } from './patterns.js'

/** One problem: the dotted path of the field and what is wrong. */
export interface Problem {
  readonly path: string
  readonly message: string
}

const isObject = (u: unknown): u is Schema => typeof u === 'object' && u !== null && !Array.isArray(u)
const maxProblems = 50

const formats: Readonly<Record<string, RegExp>> = {
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  time: /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})?$/,
  email: /^[^\s@]+@[^\s@]+$/,
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/,
  uuid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
}

/** The problems of `value` against `schema` but its patterns (`patterns` gets those checks, when given). */
export const validate = (schema: Schema, value: unknown, patterns: PatternCheck[] = []): ReadonlyArray<Problem> => {
  const problems: Problem[] = []
  check(schema, value, '', problems, 0, patterns)
  return problems.slice(0, maxProblems)
}

/** Every check of `value` against `schema`, patterns included: the problems (none: the form may be sent) and the notes on what was not checked. */
export const checkForm = async (schema: Schema, value: unknown): Promise<PatternVerdicts> => {
  const patterns: PatternCheck[] = []
  const problems = validate(schema, value, patterns)
  // the patterns of fields that already have a problem need no test
  const failing = new Set(problems.map((p) => p.path))
  const verdicts = await checkPatterns(patterns.filter((c) => !failing.has(c.path)).slice(0, maxProblems))
  return { problems: [...problems, ...verdicts.problems].slice(0, maxProblems), notes: verdicts.notes }
}

const check = (schema: Schema, value: unknown, path: string, out: Problem[], depth: number, patterns: PatternCheck[]): void => {
  if (out.length >= maxProblems || depth > 32) return
  const at = (message: string): void => void out.push({ path, message })
  if (isObject(value) && '__invalidJson' in value) return at('is not valid JSON')
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) return at(`must be ${JSON.stringify(schema.const)}`)
  if (Array.isArray(schema.enum) && !schema.enum.some((v) => JSON.stringify(v) === JSON.stringify(value)))
    return at(`must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`)
  const type = typeOf(schema)
  if (type === 'number' || type === 'integer') return checkNumber(schema, value, type, at)
  if (type === 'string') return checkString(schema, value, at, (pattern) => void patterns.push({ path, pattern, value: value as string }))
  if (type === 'boolean' && typeof value !== 'boolean') return at('must be true or false')
  if (type === 'array') {
    if (!Array.isArray(value)) return at('must be a list')
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) at(`needs at least ${schema.minItems} items`)
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) at(`takes at most ${schema.maxItems} items`)
    if (isObject(schema.items)) value.forEach((v, i) => check(schema.items as Schema, v, join(path, String(i)), out, depth + 1, patterns))
    return
  }
  if (type === 'object') {
    if (!isObject(value)) return at('must be an object')
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : [])
    const props = isObject(schema.properties) ? schema.properties : {}
    // in the order of the form's fields, then required keys the form does not show
    for (const key of [...Object.keys(props), ...[...required].filter((k) => !(k in props))]) {
      const sub = props[key]
      if (value[key] === undefined) {
        if (required.has(key)) out.push({ path: join(path, key), message: 'required' })
      } else if (isObject(sub)) check(sub, value[key], join(path, key), out, depth + 1, patterns)
    }
  }
}

const checkNumber = (schema: Schema, value: unknown, type: string, at: (m: string) => void): void => {
  if (typeof value !== 'number' || !Number.isFinite(value)) return at(`must be a ${type === 'integer' ? 'whole number' : 'number'}`)
  if (type === 'integer' && !Number.isInteger(value)) return at('must be a whole number')
  if (typeof schema.minimum === 'number' && value < schema.minimum) at(`must be at least ${schema.minimum}`)
  if (typeof schema.maximum === 'number' && value > schema.maximum) at(`must be at most ${schema.maximum}`)
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) at(`must be more than ${schema.exclusiveMinimum}`)
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) at(`must be less than ${schema.exclusiveMaximum}`)
}

const checkString = (schema: Schema, value: unknown, at: (m: string) => void, testPattern: (pattern: string) => void): void => {
  if (typeof value !== 'string') return at('must be text')
  const length = [...value].length
  if (typeof schema.minLength === 'number' && length < schema.minLength) at(`needs at least ${schema.minLength} characters`)
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) at(`takes at most ${schema.maxLength} characters`)
  const format = typeof schema.format === 'string' ? formats[schema.format] : undefined
  if (format !== undefined && !format.test(value)) at(`must be a ${String(schema.format)}`)
  // tested off this thread (patterns.ts); a long value is left to the server
  if (typeof schema.pattern === 'string' && value.length <= 10_000) testPattern(schema.pattern)
}

const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`)
