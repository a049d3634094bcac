/**
 * The yes-or-no form of the plain validator: the same verdict for the same plain schema, from
 * closures specialised once per schema (a property that only names a type is the type test
 * itself; an object is one loop over its required names and one over its properties) that
 * keep no issue list, no path and no state. Nearly every call's arguments and result are
 * valid, so plain-validator.ts asks this first and walks a value again for its issues only
 * when it is refused. Built without `new Function`, so it runs where code generation is
 * forbidden (workerd). Internal.
 *
 * @example
 * import { plainPredicate } from './plain-predicate.js'
 * const valid = plainPredicate({ type: 'object', properties: { a: { type: 'number' } }, required: ['a'] }, false)
 * valid?.({ a: 1 }) // true
 * valid?.({ a: 'x' }) // false
 */
import { isObject } from '../util/json-object.js'
import type { JsonSchema } from './schema.js'
import { codePoints, copyOf, equal, patternOf, typesOf, typeTests } from './plain-values.js'

// ---------------------------------------------------------------------------------------
// model

/** True when a value is valid; an input's missing `default`s are filled in on the way. */
export type Predicate = (u: unknown) => boolean

// ---------------------------------------------------------------------------------------
// constructors

/**
 * The predicate of a schema the plain validator takes (`isPlainSchema`), or undefined when
 * it cannot stand in for the reporting walk. That is one case: filling `default`s (`fill`)
 * below a `const` or `enum`. A value refused half-way would then be walked again with some
 * defaults already in, and the `const` or `enum` above them, which the general engine checks
 * before it fills them, would see them.
 */
export const plainPredicate = (schema: JsonSchema, fill: boolean): Predicate | undefined =>
  fill && hasValueKeyword(schema) && hasDefault(schema) ? undefined : predicate(schema, fill)

// ---------------------------------------------------------------------------------------
// internals

const always: Predicate = () => true

/** Every predicate of a list, in order, stopping at the first that fails. */
const all = (tests: ReadonlyArray<Predicate>): Predicate => {
  if (tests.length === 0) return always
  if (tests.length === 1) return tests[0] as Predicate
  if (tests.length === 2) {
    const [first, second] = tests as [Predicate, Predicate]
    return (d) => first(d) && second(d)
  }
  return (d) => {
    for (let i = 0; i < tests.length; i++) if (!(tests[i] as Predicate)(d)) return false
    return true
  }
}

/**
 * The tests of one schema in the reporting walk's order (the type, `const`, `enum`, then each
 * group for data of its type), so that defaults are filled where and when it fills them.
 */
const predicate = (s: JsonSchema, fill: boolean): Predicate => {
  const tests: Predicate[] = []
  const types = typesOf(s)
  if (types.length === 1) tests.push(typeTests[types[0] as string] as Predicate)
  else if (types.length > 1) {
    const each = types.map((t) => typeTests[t] as Predicate)
    tests.push((d) => {
      for (let i = 0; i < each.length; i++) if ((each[i] as Predicate)(d)) return true
      return false
    })
  }
  if ('const' in s) {
    const c = s.const
    tests.push((d) => equal(d, c))
  }
  if (s.enum !== undefined) {
    const values = s.enum as ReadonlyArray<unknown>
    tests.push((d) => {
      for (let i = 0; i < values.length; i++) if (equal(d, values[i])) return true
      return false
    })
  }
  const groups = [
    [typeTests.number, numberTests(s)],
    [typeTests.string, stringTests(s)],
    [Array.isArray, arrayTests(s, fill)],
    [isObject, objectTest(s, fill)],
  ] as const
  for (const [isOwn, own] of groups) {
    if (own === undefined) continue
    // a single type already tested: its own group needs no second test
    tests.push(types.length === 1 && typeTests[types[0] as string] === isOwn ? own : (d) => !(isOwn as Predicate)(d) || own(d))
  }
  return all(tests)
}

/** maximum, minimum and their exclusive forms. */
const numberTests = (s: JsonSchema): Predicate | undefined => {
  const tests: Predicate[] = []
  const limit = (kw: string, passes: (n: number, l: number) => boolean): void => {
    if (s[kw] === undefined) return
    const l = s[kw] as number
    tests.push((d) => passes(d as number, l))
  }
  limit('maximum', (n, l) => n <= l)
  limit('minimum', (n, l) => n >= l)
  limit('exclusiveMaximum', (n, l) => n < l)
  limit('exclusiveMinimum', (n, l) => n > l)
  return tests.length === 0 ? undefined : all(tests)
}

/** Lengths in code points, and the pattern. */
const stringTests = (s: JsonSchema): Predicate | undefined => {
  const max = s.maxLength as number | undefined
  const min = s.minLength as number | undefined
  const re = s.pattern === undefined ? undefined : patternOf(s.pattern as string)
  if (max === undefined && min === undefined && re === undefined) return undefined
  return (d) => {
    const text = d as string
    if (max !== undefined || min !== undefined) {
      const n = codePoints(text)
      if ((max !== undefined && n > max) || (min !== undefined && n < min)) return false
    }
    return re === undefined || re.test(text)
  }
}

/** Item counts, and each item. */
const arrayTests = (s: JsonSchema, fill: boolean): Predicate | undefined => {
  const max = s.maxItems as number | undefined
  const min = s.minItems as number | undefined
  const item = s.items === undefined ? undefined : predicate(s.items as JsonSchema, fill)
  if (max === undefined && min === undefined && item === undefined) return undefined
  return (d) => {
    const a = d as unknown[]
    if ((max !== undefined && a.length > max) || (min !== undefined && a.length < min)) return false
    if (item !== undefined) for (let i = 0; i < a.length; i++) if (!item(a[i])) return false
    return true
  }
}

/** Defaults (when filling), property counts, required, additional properties, each property: one closure. */
const objectTest = (s: JsonSchema, fill: boolean): Predicate | undefined => {
  const properties = (s.properties ?? {}) as { readonly [key: string]: JsonSchema }
  const defaults = fill ? Object.keys(properties).filter((n) => properties[n]?.default !== undefined) : []
  const maxProperties = s.maxProperties as number | undefined
  const minProperties = s.minProperties as number | undefined
  const counted = maxProperties !== undefined || minProperties !== undefined
  const required = (s.required ?? []) as ReadonlyArray<string>
  const closed = s.additionalProperties === false
  const extra = isObject(s.additionalProperties) ? predicate(s.additionalProperties, fill) : undefined
  // a property whose schema allows anything needs no test
  const checked = Object.keys(properties).map((n) => [n, predicate(properties[n] as JsonSchema, fill)] as const).filter(([, p]) => p !== always)
  const names = checked.map(([n]) => n)
  const tests = checked.map(([, p]) => p)
  if (defaults.length === 0 && !counted && required.length === 0 && !closed && extra === undefined && names.length === 0) return undefined
  const declared = (key: string): boolean => Object.prototype.hasOwnProperty.call(properties, key)
  return (d) => {
    const o = d as Record<string, unknown>
    for (let i = 0; i < defaults.length; i++) {
      const n = defaults[i] as string
      if (o[n] === undefined) o[n] = copyOf(properties[n]?.default)
    }
    if (counted) {
      const n = Object.keys(o).length
      if ((maxProperties !== undefined && n > maxProperties) || (minProperties !== undefined && n < minProperties)) return false
    }
    for (let i = 0; i < required.length; i++) if (o[required[i] as string] === undefined) return false
    if (closed) {
      for (const key in o) if (!declared(key)) return false
    } else if (extra !== undefined) {
      for (const key in o) if (!declared(key) && !extra(o[key])) return false
    }
    for (let i = 0; i < names.length; i++) {
      const v = o[names[i] as string]
      if (v !== undefined && !(tests[i] as Predicate)(v)) return false
    }
    return true
  }
}

/** True when a schema (or any schema inside it) has a `const` or an `enum`. */
const hasValueKeyword = (s: unknown): boolean => someSchema(s, (n) => 'const' in n || n.enum !== undefined)

/** True when a property schema (at any depth) has a `default`: what input checks fill in. */
const hasDefault = (s: unknown): boolean =>
  someSchema(s, (n) => isObject(n.properties) && Object.values(n.properties).some((p) => isObject(p) && p.default !== undefined))

/** True when `test` holds for `s` or a schema inside it (properties, additionalProperties, items). */
const someSchema = (s: unknown, test: (node: JsonSchema) => boolean): boolean => {
  if (!isObject(s)) return false
  if (test(s)) return true
  const inner = [...(isObject(s.properties) ? Object.values(s.properties) : []), s.additionalProperties, s.items]
  return inner.some((c) => someSchema(c, test))
}
