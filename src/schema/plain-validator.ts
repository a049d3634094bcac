/**
 * The validator for plain schemas: the keywords most tool schemas are made of (type, enum,
 * const, properties, required, additionalProperties, items, and the length, size, range and
 * pattern limits), checked by closures built once per schema, with the verdicts, messages,
 * paths, order and `default` filling of the general engine (ajv, with the options of
 * schema.ts). A schema that uses anything else, or a keyword with an odd value, is not
 * plain: `plainValidator` returns undefined and the general engine takes it. Why: the general
 * engine costs about 80 ms and 14 MB of memory to load and compile, on a server's first call.
 * A value is first judged by the schema's predicate (plain-predicate.ts), which keeps no
 * issues or paths; only a value it refuses is walked here for its issues.
 * Internal: the public face is `validatorOf` in schema.ts.
 *
 * @example
 * import { plainValidator } from './plain-validator.js'
 * const check = plainValidator({ type: 'object', properties: { a: { type: 'number' } }, required: ['a'] }, 'input')
 * check?.({}) // [{ path: '/a', message: 'is required' }]
 */
import { isObject } from '../util/json-object.js'
import { escapeToken } from '../util/json-pointer.js'
import type { Issue, JsonSchema } from './schema.js'
import { plainPredicate } from './plain-predicate.js'
import { codePoints, copyOf, equal, groupKeywords, patternOf, typeTests, typesOf, type Group } from './plain-values.js'

// ---------------------------------------------------------------------------------------
// model

/** Checks a value: undefined when it is valid, else its issues in the general engine's order. */
export type PlainCheck = (u: unknown) => ReadonlyArray<Issue> | undefined

/** `input` fills in the `default`s of missing properties (as arguments get them); `output` leaves the value alone. */
export type CheckMode = 'input' | 'output'

// ---------------------------------------------------------------------------------------
// constructors

/** The check of a plain schema, or undefined when the schema is not plain. */
export const plainValidator = (schema: JsonSchema, mode: CheckMode): PlainCheck | undefined => {
  if (!isPlain(schema, 0)) return undefined
  const fill = mode === 'input'
  // a valid value (nearly every one) is known by the predicate alone; a refused one is walked
  // again for its issues, by a walk made on the first refusal (most schemas never see one)
  const valid = plainPredicate(schema, fill)
  if (valid === undefined) return reporter(schema, fill)
  let walk: PlainCheck | undefined
  return (u) => (valid(u) ? undefined : (walk ??= reporter(schema, fill))(u))
}

/**
 * True when a schema is plain: only the plain keywords, each with a well-formed value. Such a
 * schema needs no check against its meta-schema (and no general engine) to be known sound.
 */
export const isPlainSchema = (schema: JsonSchema): boolean => isPlain(schema, 0)

// ---------------------------------------------------------------------------------------
// internals

/** The reporting walk of a plain schema: each issue with its path, in the general engine's order. */
const reporter = (schema: JsonSchema, fill: boolean): PlainCheck => {
  const root = build(schema, fill)
  // one run is reused from check to check (a check is synchronous): no state allocated per
  // value; a check entered again while one runs (a result's getter that checks) gets its own
  let spare: Run | undefined = { issues: undefined, path: [] }
  const issues: PlainCheck = (u) => {
    const run = spare ?? { issues: undefined, path: [] }
    spare = undefined
    try {
      root(u, run)
      return run.issues
    } finally {
      run.issues = undefined
      run.path.length = 0
      spare = run
    }
  }
  return issues
}

/** One validation's state: the issues so far and the path to the value being checked. */
interface Run {
  issues: Issue[] | undefined
  readonly path: string[]
}

type Step = (data: unknown, run: Run) => void

const annotations = new Set(['title', 'description', 'examples', '$comment', 'deprecated', 'readOnly', 'writeOnly', 'default', '$schema'])

/** Every keyword a plain schema may use beside annotations: the untyped ones, then each group's. */
const keywords: ReadonlySet<string> = new Set(['type', 'enum', 'const', ...Object.values(groupKeywords).flat()])

// the dialects the general engine knows, for which the plain keywords mean the same; it
// refuses others (draft-04, draft-06), so they are left to it
const dialects = new Set(
  ['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2019-09/schema', 'http://json-schema.org/draft-07/schema'].flatMap((d) => [d, `${d}#`]),
)

// deep enough for any tool schema; deeper ones go to the general engine (and its limits)
const maxDepth = 32

const isCount = (u: unknown): boolean => typeof u === 'number' && Number.isInteger(u) && u >= 0
const isFiniteNumber = (u: unknown): boolean => typeof u === 'number' && Number.isFinite(u)
// a property named like an Object.prototype member reads through to it in the general
// engine (it tests `data[key] !== undefined`); such schemas are left to it
const isSafeKey = (key: string): boolean => !(key in Object.prototype)

const compilesAsUnicode = (pattern: string): boolean => {
  try {
    patternOf(pattern)
    return true
  } catch {
    return false
  }
}

/** True when every keyword is known and well formed (an ill-formed one is the general engine's to refuse). */
const isPlain = (s: unknown, depth: number): s is JsonSchema => {
  if (!isObject(s) || depth > maxDepth) return false
  for (const key in s) {
    const v = s[key]
    // extension keywords (x-mcp-header among them): the general engine ignores them too
    if (key.startsWith('x-')) continue
    if (annotations.has(key)) {
      if (key === '$schema' && !dialects.has(v as string)) return false
      continue
    }
    if (!keywords.has(key)) return false
    switch (key) {
      case 'type':
        if (typeof v === 'string') {
          if (!Object.hasOwn(typeTests, v)) return false
        } else if (!Array.isArray(v) || v.length === 0 || new Set(v).size !== v.length || !v.every((t) => typeof t === 'string' && Object.hasOwn(typeTests, t))) return false
        break
      case 'enum':
        if (!Array.isArray(v) || v.length === 0) return false
        break
      case 'const':
        if (v === undefined) return false
        break
      case 'properties':
        if (!isObject(v)) return false
        for (const p in v) if (!isSafeKey(p) || !isPlain(v[p], depth + 1)) return false
        break
      case 'required':
        if (!Array.isArray(v) || new Set(v).size !== v.length || !v.every((r) => typeof r === 'string' && isSafeKey(r))) return false
        break
      case 'additionalProperties':
        if (typeof v !== 'boolean' && !isPlain(v, depth + 1)) return false
        break
      case 'items':
        if (!isPlain(v, depth + 1)) return false
        break
      case 'pattern':
        if (typeof v !== 'string' || !compilesAsUnicode(v)) return false
        break
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        if (!isFiniteNumber(v)) return false
        break
      default:
        // the counts: minItems, maxItems, minLength, maxLength, minProperties, maxProperties
        if (!isCount(v)) return false
    }
  }
  return true
}

const pointer = (path: ReadonlyArray<string>): string => (path.length === 0 ? '' : `/${path.join('/')}`)

const report = (run: Run, message: string, child?: string): void => {
  const path = pointer(run.path)
  ;(run.issues ??= []).push({ path: child === undefined ? path : `${path}/${child}`, message })
}

/**
 * The steps of one schema in the general engine's order: the type test (up front, unless
 * the schema has one type whose own keywords it uses: then where that group stands), const,
 * enum, then the number, string, array and object groups, each only for data of its type.
 */
const build = (s: JsonSchema, fill: boolean): Step => {
  const types = typesOf(s)
  const groups: { readonly [G in Group]: ReadonlyArray<Step> } = {
    number: numberSteps(s),
    string: stringSteps(s),
    array: arraySteps(s, fill),
    object: objectSteps(s, fill),
  }
  const steps = ordered(s, types, valueSteps(s), groups)
  if (steps.length === 1) return steps[0] as Step
  return (d, run) => {
    for (const step of steps) step(d, run)
  }
}

/** The type test, the value steps, then each group's steps behind its type test. */
const ordered = (s: JsonSchema, types: ReadonlyArray<string>, untyped: ReadonlyArray<Step>, groups: { readonly [G in Group]: ReadonlyArray<Step> }): Step[] => {
  const typeMessage = `must be ${types.join(',')}`
  // the general engine tests the type where the group stands when the schema names that one
  // type and uses its keywords; otherwise up front
  const single = types.length === 1 ? (types[0] as string) : undefined
  const inGroup = single !== undefined && single in groupKeywords && groupKeywords[single as Group].some((k) => s[k] !== undefined) ? (single as Group) : undefined
  const steps: Step[] = []
  if (types.length > 0 && inGroup === undefined) {
    const tests = types.map((t) => typeTests[t] as (u: unknown) => boolean)
    steps.push((d, run) => {
      for (const test of tests) if (test(d)) return
      report(run, typeMessage)
    })
  }
  steps.push(...untyped)
  for (const g of ['number', 'string', 'array', 'object'] as const) {
    const own = groups[g]
    if (own.length === 0 && inGroup !== g) continue
    const isOwn = typeTests[g] as (u: unknown) => boolean
    const typeError = inGroup === g
    steps.push((d, run) => {
      if (isOwn(d)) for (const step of own) step(d, run)
      else if (typeError) report(run, typeMessage)
    })
  }
  return steps
}

/** `const` and `enum`, for data of any type. */
const valueSteps = (s: JsonSchema): Step[] => {
  const steps: Step[] = []
  if ('const' in s) {
    const c = s.const
    const message = `must be ${JSON.stringify(c)}`
    steps.push((d, run) => {
      if (!equal(d, c)) report(run, message)
    })
  }
  if (s.enum !== undefined) {
    const values = s.enum as ReadonlyArray<unknown>
    const message = `must be one of ${JSON.stringify(values)}`
    steps.push((d, run) => {
      for (const v of values) if (equal(d, v)) return
      report(run, message)
    })
  }
  return steps
}

/** A bound on a size (`maxLength`, `minItems`, ...), when the schema sets it. */
const countStep = <D>(s: JsonSchema, kw: string, noun: string, size: (d: D) => number): Step[] => {
  if (s[kw] === undefined) return []
  const l = s[kw] as number
  const isMax = kw.startsWith('max')
  const text = `must NOT have ${isMax ? 'more' : 'fewer'} than ${l} ${noun}`
  return [
    (d, run) => {
      const n = size(d as D)
      if (isMax ? n > l : n < l) report(run, text)
    },
  ]
}

/** The number keywords: maximum, minimum and their exclusive forms. */
const numberSteps = (s: JsonSchema): Step[] => {
  const limit = (kw: string, fails: (n: number, l: number) => boolean, comparison: string): Step[] => {
    if (s[kw] === undefined) return []
    const l = s[kw] as number
    const text = `must be ${comparison} ${l}`
    return [
      (d, run) => {
        if (fails(d as number, l)) report(run, text)
      },
    ]
  }
  return [
    ...limit('maximum', (n, l) => n > l, '<='),
    ...limit('minimum', (n, l) => n < l, '>='),
    ...limit('exclusiveMaximum', (n, l) => n >= l, '<'),
    ...limit('exclusiveMinimum', (n, l) => n <= l, '>'),
  ]
}

/** The string keywords: lengths in code points, pattern. */
const stringSteps = (s: JsonSchema): Step[] => {
  const steps = [...countStep(s, 'maxLength', 'characters', codePoints), ...countStep(s, 'minLength', 'characters', codePoints)]
  if (s.pattern !== undefined) {
    const re = patternOf(s.pattern as string)
    const text = `must match pattern "${s.pattern as string}"`
    steps.push((d, run) => {
      if (!re.test(d as string)) report(run, text)
    })
  }
  return steps
}

/** The array keywords: item counts, each item against `items`. */
const arraySteps = (s: JsonSchema, fill: boolean): Step[] => {
  const steps = [...countStep(s, 'maxItems', 'items', (d: unknown[]) => d.length), ...countStep(s, 'minItems', 'items', (d: unknown[]) => d.length)]
  if (s.items !== undefined) {
    const item = build(s.items as JsonSchema, fill)
    steps.push((d, run) => {
      const a = d as unknown[]
      for (let i = 0; i < a.length; i++) {
        run.path.push(String(i))
        item(a[i], run)
        run.path.pop()
      }
    })
  }
  return steps
}

/** The object keywords: defaults (when filling), property counts, required, additional properties, each property. */
const objectSteps = (s: JsonSchema, fill: boolean): Step[] => {
  const properties = (s.properties ?? {}) as { readonly [key: string]: JsonSchema }
  const names = Object.keys(properties)
  const steps: Step[] = []
  if (fill) {
    const defaults = names.filter((n) => properties[n]?.default !== undefined).map((n) => [n, properties[n]?.default] as const)
    if (defaults.length > 0)
      steps.push((d) => {
        const o = d as Record<string, unknown>
        for (const [n, v] of defaults) if (o[n] === undefined) o[n] = copyOf(v)
      })
  }
  const keysOf = (d: object): number => Object.keys(d).length
  steps.push(...countStep(s, 'maxProperties', 'properties', keysOf), ...countStep(s, 'minProperties', 'properties', keysOf))
  if (s.required !== undefined) {
    const required = (s.required as string[]).map((r) => [r, escapeToken(r)] as const)
    steps.push((d, run) => {
      const o = d as Record<string, unknown>
      for (const [r, escaped] of required) if (o[r] === undefined) report(run, 'is required', escaped)
    })
  }
  if (s.additionalProperties !== undefined && s.additionalProperties !== true) {
    const extra = s.additionalProperties === false ? undefined : build(s.additionalProperties as JsonSchema, fill)
    steps.push((d, run) => {
      const o = d as Record<string, unknown>
      for (const key in o) {
        if (Object.prototype.hasOwnProperty.call(properties, key)) continue
        if (extra === undefined) report(run, 'is not allowed', escapeToken(key))
        else {
          run.path.push(escapeToken(key))
          extra(o[key], run)
          run.path.pop()
        }
      }
    })
  }
  if (names.length > 0) {
    const children = names.map((n) => [n, escapeToken(n), build(properties[n] as JsonSchema, fill)] as const)
    steps.push((d, run) => {
      const o = d as Record<string, unknown>
      for (const [n, escaped, check] of children) {
        const v = o[n]
        if (v === undefined) continue
        run.path.push(escaped)
        check(v, run)
        run.path.pop()
      }
    })
  }
  return steps
}
