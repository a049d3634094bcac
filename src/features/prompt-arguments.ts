/**
 * A prompt's arguments given as a Standard Schema (zod, valibot, arktype, effect), a raw shape
 * of them (`{ code: z.string() }`, as the official SDK's `registerPrompt` takes), or as a JSON
 * Schema literal of an object (TypeBox's `Type.Object`, or one written by hand): the named
 * string arguments MCP lists, derived from the object schema's properties when the prompt is
 * made (a property that is not a string is refused there, naming the prompt and it), and
 * the check of `prompts/get` arguments through the library's own `~standard.validate` (a
 * literal's: the JSON Schema validator, which fills in its `default`s).
 *
 * @example
 * import { z } from 'zod'
 * import { schemaArguments } from './prompt-arguments.js'
 * schemaArguments('review', z.object({ code: z.string().describe('The code'), focus: z.string().optional() }))
 * // { spec: { code: { description: 'The code', required: true }, focus: {} }, decode: ... }
 */
import * as E from 'fp-ts/lib/Either.js'
import { formatIssues, maxIssuesNamed, validatorOf, type Issue, type JsonSchema } from '../schema/schema.js'
import { flatForm, literalForm, stringProperty, type FlatForm } from '../schema/standard/flat-form.js'
import { isStandardSchema } from '../schema/standard/detect.js'
import { isShape, mixedShape, shapeSchema } from '../schema/standard/shape.js'
import type { StandardSchemaV1 } from '../schema/standard/spec.js'
import { standardValidator, type SlotValidator } from '../schema/standard/validator.js'
import { rpcError, type RpcError } from '../protocol/jsonrpc.js'
import { map, type Eventually } from '../util/eventually.js'
import { isObject, stripUndefined } from '../util/json-object.js'
import { clip } from '../util/clip.js'

/** One argument as declared (or derived from a schema property). */
export interface ArgumentDeclaration {
  readonly title?: string
  readonly description?: string
  readonly required?: boolean
}

/** A prompt's arguments by name, and the check of the Standard Schema they came from, if any. */
export interface PromptArgumentsOf {
  readonly spec: { readonly [name: string]: ArgumentDeclaration }
  /** The schema library's check of `prompts/get` arguments, made once with the prompt. */
  readonly decode?: SlotValidator['decode']
}

/** The named arguments a Standard Schema `schema` of prompt `name` stands for; a TypeError naming a property that is not a string. */
export const schemaArguments = (name: string, schema: StandardSchemaV1): PromptArgumentsOf =>
  declarationsOf(flatForm('prompt', name, schema, stringProperty), standardValidator(schema, {}).decode)

/** The named arguments a JSON Schema literal of an object (TypeBox's `Type.Object`) stands for, checked by the JSON Schema validator (its defaults filled in). */
export const literalArguments = (name: string, schema: JsonSchema): PromptArgumentsOf =>
  declarationsOf(literalForm('prompt', name, schema, stringProperty), validatorOf(schema).decode)

/**
 * True for a JSON Schema of an object given as a prompt's arguments, rather than declarations
 * by name: a declaration is an object, a schema's `type` is the string `"object"`.
 */
export const isObjectSchema = (u: unknown): u is JsonSchema => isObject(u) && u.type === 'object' && !isStandardSchema(u)

/** The declarations of a flat form's properties, and the check of the schema it came from. */
const declarationsOf = (form: FlatForm, decode: SlotValidator['decode']): PromptArgumentsOf => {
  const required = new Set(form.required)
  const spec = Object.fromEntries(
    Object.entries(form.properties).map(([k, p]) => [
      k,
      stripUndefined({
        title: typeof p.title === 'string' ? p.title : undefined,
        description: typeof p.description === 'string' ? p.description : undefined,
        required: required.has(k) ? true : undefined,
      }),
    ]),
  )
  return { spec, decode }
}

/** True when a prompt's `arguments` is a schema (a library's, a raw shape of them, or a JSON Schema literal) rather than declarations by name. */
export const isArgumentSchema = (u: unknown): boolean => isStandardSchema(u) || isObjectSchema(u) || isShape(u)

/**
 * The arguments of a prompt whose `arguments` is `declared` (a schema is derived once per
 * prompt object). A raw shape is made one object schema, each property validated by its own
 * library; an object mixing schemas with declarations is a TypeError saying what to pass.
 */
export const argumentsOf = (owner: object, name: string, declared: unknown): PromptArgumentsOf => {
  const mixed = mixedShape(declared)
  if (mixed !== undefined) throw new TypeError(`emcp: prompt ${name}: arguments: ${mixed}; or declare every argument as { description?, required? }`)
  if (!isArgumentSchema(declared)) return { spec: (declared ?? {}) as PromptArgumentsOf['spec'] }
  const known = derived.get(owner)
  if (known !== undefined) return known
  const made = isStandardSchema(declared) ? schemaArguments(name, declared) : isShape(declared) ? schemaArguments(name, shapeSchema(declared)) : literalArguments(name, declared as JsonSchema)
  derived.set(owner, made)
  return made
}

/** What `get` receives: the arguments as sent, or the library's output for them; -32602 naming its issues. */
export const validArguments = (name: string, of: PromptArgumentsOf, args: unknown): Eventually<E.Either<RpcError, unknown>> => {
  if (of.decode === undefined) return E.right(args)
  return map(of.decode(args), (r) =>
    E.isRight(r) ? r : E.left(rpcError('InvalidParams', `prompts/get: prompt ${name}: invalid arguments: ${formatIssues(r.left)}`, { name, issues: issuesData(r.left) })),
  )
}

/**
 * MCP: a missing required argument, an unknown one or one that is not a string is -32602,
 * naming each: at most `maxIssuesNamed` of each kind, every name clipped, so that a client
 * sending thousands of long keys gets a short answer.
 */
export const checkArguments = (name: string, declared: PromptArgumentsOf['spec'], args: { readonly [key: string]: unknown }): E.Either<RpcError, void> => {
  const unknown = Object.keys(args).filter((k) => !Object.hasOwn(declared, k))
  const notStrings = Object.keys(args).filter((k) => Object.hasOwn(declared, k) && typeof args[k] !== 'string')
  const missing = Object.keys(declared).filter((k) => declared[k]?.required === true && args[k] === undefined)
  if (unknown.length + notStrings.length + missing.length === 0) return E.right(undefined)
  const say = (what: string, names: ReadonlyArray<string>): string[] =>
    names.length === 0
      ? []
      : [`${what}${names.length > 1 ? 's' : ''} ${bounded(names).map((n) => JSON.stringify(n)).join(', ')}${names.length > maxIssuesNamed ? ` and ${names.length - maxIssuesNamed} more` : ''}`]
  const problems = [...say('missing required argument', missing), ...say('unknown argument', unknown), ...say('non-string argument', notStrings)]
  const data = stripUndefined({
    name,
    missing: missing.length > 0 ? bounded(missing) : undefined,
    unknown: unknown.length > 0 ? bounded(unknown) : undefined,
    notStrings: notStrings.length > 0 ? bounded(notStrings) : undefined,
  })
  return E.left(rpcError('InvalidParams', `prompts/get: prompt ${name}: ${problems.join('; ')}`, data))
}

// ---------------------------------------------------------------------------------------
// internals

/** The first `maxIssuesNamed` names, each clipped (a client's keys may be long and many). */
const bounded = (names: ReadonlyArray<string>): ReadonlyArray<string> => names.slice(0, maxIssuesNamed).map((n) => clip(n))

/** Derived once per prompt object: `prompts/list` and every `prompts/get` read it. */
const derived = new WeakMap<object, PromptArgumentsOf>()

/** At most as many issues in the error's data as `formatIssues` names. */
const issuesData = (issues: ReadonlyArray<Issue>): ReadonlyArray<Issue> => issues.slice(0, maxIssuesNamed)
