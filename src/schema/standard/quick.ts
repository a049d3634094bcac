/**
 * The quick check of a raw shape none of whose properties does more than test a type
 * (`{ a: z.number(), b: z.string() }`, see type-test.ts): a valid object is known by emcp's own
 * tests, with none of the libraries' payloads, issue arrays and result objects, and gives the
 * object the libraries' answers would have been merged into. Anything else (an unknown or
 * absent key, a property its test does not pass) is not judged here: the shape asks the
 * libraries, for their verdict and their messages. A shape's Standard Schema is remembered
 * with its quick check, so that a slot's validator can take it without the Standard wrapping.
 *
 * @example
 * import { z } from 'zod'
 * import { shapeSchema } from './shape.js'
 * import { quickCheckFor } from './quick.js'
 * quickCheckFor(shapeSchema({ a: z.number() }))?.copy({ a: 1 }) // { a: 1 }
 * quickCheckFor(shapeSchema({ a: z.number() }))?.copy({ a: 'x' }) // undefined: zod says why
 * quickCheckFor(shapeSchema({ a: z.number().int() }))            // undefined: zod judges every value
 */
import { isObject } from '../../util/json-object.js'
import { isStandardSchema } from './detect.js'
import type { JsonSchema } from '../schema.js'
import type { StandardSchemaV1 } from './spec.js'
import { typeTestOf, type TypeTest } from './type-test.js'

// ---------------------------------------------------------------------------------------
// model

/** A shape's quick check: its keys, each one's type test, and the check itself. */
export interface QuickCheck {
  readonly keys: ReadonlyArray<string>
  readonly tests: ReadonlyArray<TypeTest>
  /**
   * The object the libraries would give for `value` (its keys in the shape's order, each read
   * once), or undefined when `value` is not plainly valid: the libraries then judge it.
   */
  readonly copy: (value: Record<string, unknown>) => Record<string, unknown> | undefined
}

// ---------------------------------------------------------------------------------------
// functions

/** The quick check of a shape's entries (`known` its keys), or undefined when some property does more than test a type. */
export const quickCheckOf = (keys: ReadonlyArray<string>, entries: Record<string, unknown>, known: ReadonlySet<string>): QuickCheck | undefined => {
  const found = keys.map((k) => { const e = entries[k]; return isStandardSchema(e) ? typeTestOf(e) : undefined })
  if (!found.every((t) => t !== undefined)) return undefined
  const tests = found as ReadonlyArray<TypeTest>
  // made on the first call (a server of many tools starts without making any), then kept
  let made: Copy | undefined
  const copy: Copy = (value) => (made ??= madeCopy(keys, tests, known))(value)
  return { keys, tests, copy }
}

/** `s`, remembered with its quick check (when it has one). */
export const remember = <S extends StandardSchemaV1>(quick: QuickCheck | undefined, s: S): S => {
  if (quick !== undefined) checks.set(s, quick)
  return s
}

/** The quick check of a shape's Standard Schema, or undefined for any other value. */
export const quickCheckFor = (s: unknown): QuickCheck | undefined => (typeof s === 'object' && s !== null ? checks.get(s) : undefined)

/**
 * True when every object `q` passes is valid against the JSON Schema `schema` too (so a
 * result that passed need not be checked against the listed schema again): an object schema
 * that says nothing but each property's type, the one its test passes, with annotations.
 */
export const passesSchema = (q: QuickCheck, schema: JsonSchema): boolean => {
  if (schema.type !== 'object' || !only(schema, objectKeywords) || !isObject(schema.properties)) return false
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return false
  // a required key must be one the check never lets be left out
  const always = q.keys.filter((_, i) => !q.tests[i]!.optional)
  if (schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.every((r) => always.includes(r)))) return false
  const properties = schema.properties
  return q.keys.every((k, i) => {
    const p = Object.hasOwn(properties, k) ? properties[k] : undefined
    return isObject(p) && p.type === q.tests[i]!.type && only(p, propertyKeywords)
  })
}

// ---------------------------------------------------------------------------------------
// internals

type Copy = QuickCheck['copy']

/**
 * The copy function of a shape: made from source where the runtime allows it (each key a
 * constant, the copy one object literal: about a quarter of the loop's cost), else the loop.
 * Both do the same reads in the same order: the value's keys (each must be one of the shape's:
 * an unknown one, even inherited, is left to the shape), then each property once, in the
 * shape's order, which must be the value's own (or be optional) and pass its test; an
 * optional property absent or `undefined` is left out.
 */
const madeCopy = (keys: ReadonlyArray<string>, tests: ReadonlyArray<TypeTest>, known: ReadonlySet<string>): Copy => {
  const each = tests.map((t) => t.test)
  // a "__proto__" key in an object literal would set its prototype: the loop's keyed store does not
  if (!keys.includes('__proto__'))
    try {
      const at = (k: string): string => JSON.stringify(k)
      const optional = tests.some((t) => t.optional)
      const source = [
        'return (value) => {',
        '  for (const k in value) if (!known.has(k)) return undefined',
        ...keys.map((k, i) =>
          tests[i]!.optional
            ? `  const v${i} = Object.hasOwn(value, ${at(k)}) ? value[${at(k)}] : undefined\n  if (!each[${i}](v${i})) return undefined`
            : `  if (!Object.hasOwn(value, ${at(k)})) return undefined\n  const v${i} = value[${at(k)}]\n  if (!each[${i}](v${i})) return undefined`,
        ),
        // every key required: one literal; else an absent or undefined optional property is left out, as the libraries' answers are merged
        optional
          ? `  const out = {}\n${keys.map((k, i) => `  if (v${i} !== undefined) out[${at(k)}] = v${i}`).join('\n')}\n  return out`
          : `  return { ${keys.map((k, i) => `${at(k)}: v${i}`).join(', ')} }`,
        '}',
      ].join('\n')
      return new Function('known', 'each', source)(known, each) as Copy
    } catch {
      // a runtime that refuses code from strings (an edge isolate serving requests): the loop
    }
  return (value) => {
    for (const k in value) if (!known.has(k)) return undefined
    const out: Record<string, unknown> = {}
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!
      const own = Object.hasOwn(value, k)
      if (!own && !tests[i]!.optional) return undefined
      const v = own ? value[k] : undefined
      if (!each[i]!(v)) return undefined
      if (v !== undefined) out[k] = v
    }
    return out
  }
}

const checks = new WeakMap<object, QuickCheck>()

/** Keywords that do not judge a value (annotations). */
const annotations = ['title', 'description', '$comment', 'examples', 'deprecated', 'readOnly', 'writeOnly', 'default']

/** The keywords of an object schema whose meaning `passesSchema` knows. */
const objectKeywords = new Set(['$schema', 'type', 'properties', 'required', 'additionalProperties', ...annotations])

/** The keywords of a property schema whose meaning `passesSchema` knows (`type`, annotations). */
const propertyKeywords = new Set(['type', ...annotations])

/** True when every key of `o` is in `allowed`. */
const only = (o: JsonSchema, allowed: ReadonlySet<string>): boolean => Object.keys(o).every((k) => allowed.has(k))
