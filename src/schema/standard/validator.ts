/**
 * Validation of a slot through its Standard Schema (`~standard.validate`): the library's own
 * refinements, transforms, defaults, coercion and messages, sync or async. Its issues become
 * emcp's (a JSON pointer and a message), so that a client sees the same invalid-arguments
 * result as for a JSON Schema literal.
 *
 * @example
 * import { z } from 'zod'
 * import { standardValidator } from './validator.js'
 * const v = standardValidator(z.object({ a: z.number() }), { type: 'object' })
 * v.decode({ a: 'x' }) // Left([{ path: '/a', message: 'Invalid input: expected number, received string' }])
 */
import * as E from 'fp-ts/lib/Either.js'
import { clip } from '../../util/clip.js'
import { escapeToken } from '../../util/json-pointer.js'
import { isThenable, type Eventually } from '../../util/eventually.js'
import { isObject } from '../../util/json-object.js'
import type { Issue, JsonSchema } from '../schema.js'
import { quickCheckFor, type QuickCheck } from './quick.js'
import type { StandardIssue, StandardResult, StandardSchemaV1 } from './spec.js'

/** A check of one slot that may answer now or later (a Standard Schema may validate asynchronously). */
export interface SlotValidator {
  /** The JSON Schema clients are shown for the slot. */
  readonly schema: JsonSchema
  /** Validates a wire value and gives what the handler receives (the library's output). */
  readonly decode: (u: unknown) => Eventually<E.Either<ReadonlyArray<Issue>, unknown>>
  /** Validates a handler's result and gives what goes on the wire. */
  readonly encode: (a: unknown) => Eventually<E.Either<ReadonlyArray<Issue>, unknown>>
  /** The issues of a wire value that is itself the decoded value (a JSON Schema slot without codec); see `Validator`. */
  readonly checkInput?: (u: unknown) => ReadonlyArray<Issue> | undefined
  /** The issues of a result that goes on the wire as it is; see `Validator`. */
  readonly checkOutput?: (u: unknown) => ReadonlyArray<Issue> | undefined
  /**
   * What a plainly valid value decodes (or encodes) to, known without the library (a raw
   * shape of plain types: quick.ts), or undefined: then `decode` (or `encode`) judges it.
   */
  readonly quick?: (u: unknown) => unknown
}

/**
 * The validator of a Standard Schema slot whose published JSON Schema is `schema`. Both
 * directions run the library's `validate`: arguments become its output (transforms and
 * defaults applied), and so does a result, which is what the output JSON Schema describes.
 */
export const standardValidator = (spec: StandardSchemaV1, schema: JsonSchema): SlotValidator => {
  const run = (u: unknown): Eventually<E.Either<ReadonlyArray<Issue>, unknown>> => {
    let result: StandardResult<unknown> | Promise<StandardResult<unknown>>
    try {
      result = spec['~standard'].validate(u)
    } catch (e) {
      return E.left([thrownIssue(e)])
    }
    return isThenable(result) ? Promise.resolve(result).then(settled, (e: unknown) => E.left([thrownIssue(e)])) : settled(result)
  }
  const q = quickCheckFor(spec)
  return q === undefined ? { schema, decode: run, encode: run } : { schema, decode: run, encode: run, quick: quickOf(q) }
}

/**
 * Standard issues as emcp's: the path as a JSON pointer, the message clipped (a library may
 * quote the input). All of them are kept, so that the count `formatIssues` gives is true;
 * the library made them all already, and one more small object each is linear.
 */
export const standardIssues = (issues: ReadonlyArray<StandardIssue>): ReadonlyArray<Issue> =>
  issues.map((i) => ({ path: pointerOf(i.path), message: clip(typeof i.message === 'string' ? i.message : 'is invalid', maxMessage) }))

// ---------------------------------------------------------------------------------------
// internals

/** The longest message kept from a library (its messages may quote a client's value). */
const maxMessage = 512

/** A quick check as a slot's: undefined for a value that is no object, or whose reading throws (`decode` then says so). */
const quickOf = (q: QuickCheck): ((u: unknown) => unknown) => (u) => {
  if (!isObject(u)) return undefined
  try {
    return q.copy(u)
  } catch {
    return undefined
  }
}

const settled = (r: StandardResult<unknown>): E.Either<ReadonlyArray<Issue>, unknown> => {
  if (typeof r !== 'object' || r === null) return E.left([{ path: '', message: 'the schema library gave no result' }])
  return r.issues ? E.left(r.issues.length === 0 ? [{ path: '', message: 'is invalid' }] : standardIssues(r.issues)) : E.right(r.value)
}

const pointerOf = (path: StandardIssue['path']): string => {
  if (path === undefined || !Array.isArray(path)) return ''
  let out = ''
  for (const seg of path as ReadonlyArray<unknown>) {
    const key = typeof seg === 'object' && seg !== null ? (seg as { readonly key?: unknown }).key : seg
    out += `/${escapeToken(typeof key === 'symbol' ? key.toString() : String(key))}`
  }
  return out
}

const thrownIssue = (e: unknown): Issue => ({ path: '', message: clip(`the schema failed: ${e instanceof Error ? e.message : String(e)}`, maxMessage) })
