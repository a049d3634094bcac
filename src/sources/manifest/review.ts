/**
 * `ask` tools, as SEMOSS means it: before the tool runs, the user reviews the arguments the
 * model proposed and may change them. The server elicits a form built from the tool's input
 * schema with the proposed arguments as defaults (2025-11-25: `elicitation/create`;
 * 2026-07-28: an `input_required` result whose retry carries the answer). Arguments a flat
 * form cannot carry (nested objects, arrays that are not a multi-select) are shown as JSON
 * and the user answers yes or no. The edited arguments are validated again by the caller
 * (`fromManifest`) before the handler runs with them.
 *
 * @example
 * import { reviewForm } from './review.js'
 * reviewForm(
 *   { type: 'object', properties: { table: { type: 'string', description: 'The table' } }, required: ['table'] },
 *   { table: 'users' },
 * )
 * // { type: 'object', properties: { table: { type: 'string', description: 'The table', default: 'users' } }, required: ['table'] }
 */
import type { ElicitProperty, ElicitSchema, ToolContext } from '../../server/context.js'
import { isObject } from '../../util/json-object.js'
import type { JsonSchema } from '../../schema/schema.js'
import type { ManifestTool } from './manifest.js'

// ---------------------------------------------------------------------------------------
// model

/** A tool's arguments, as they travel on the wire. */
export type WireArguments = { readonly [name: string]: unknown }

/** What a review decided: run the tool with these (wire) arguments, or do not, and why. */
export type Reviewed = { readonly run: true; readonly arguments: WireArguments } | { readonly run: false; readonly reason: string }

/**
 * Reviews an `ask` tool's arguments before it runs. A rejection (the client cannot be asked)
 * becomes an `isError` result; the tool never runs without a `run: true`.
 */
export type Review = (tool: ManifestTool, args: WireArguments, ctx: ToolContext) => Promise<Reviewed>

/** Asks the user whether an `ask` tool may run with these arguments, as they are. */
export type Confirm = (tool: ManifestTool, args: unknown, ctx: ToolContext) => Promise<boolean>

// ---------------------------------------------------------------------------------------
// constructors

/**
 * The default review: a form of the tool's arguments, prefilled with the model's proposal;
 * when the input schema cannot be a flat form, the yes/no question of `confirmByElicitation`.
 * Accept runs the tool with what the user submitted, decline and cancel do not run it.
 */
export const reviewByElicitation: Review = async (tool, args, ctx) => {
  const form = reviewForm(tool.inputSchema, args)
  if (form === undefined) return (await confirmByElicitation(tool, args, ctx)) ? { run: true, arguments: args } : notAllowed(tool)
  const answer = await ctx.elicit({ message: reviewMessage(tool), requestedSchema: form })
  if (answer.action === 'accept') {
    // only what the form showed: an answer cannot slip in arguments the user never saw
    const content = answer.content as WireArguments
    return { run: true, arguments: Object.fromEntries(Object.keys(form.properties).filter((k) => Object.hasOwn(content, k)).map((k) => [k, content[k]])) }
  }
  return answer.action === 'decline' ? notAllowed(tool) : { run: false, reason: `the user cancelled the review of tool ${tool.name}; it did not run` }
}

/**
 * A yes/no question: an elicitation with one boolean field (`allow`), the arguments shown as
 * JSON in the message. True only when the user accepts with `allow: true`.
 */
export const confirmByElicitation: Confirm = async (tool, args, ctx) => {
  const answer = await ctx.elicit({
    message: `Allow the tool "${tool.title ?? tool.name}" to run with these arguments?\n${JSON.stringify(args, null, 2)}`,
    requestedSchema: {
      type: 'object',
      properties: { allow: { type: 'boolean', title: `Run ${tool.name}`, description: tool.description ?? '' } },
      required: ['allow'],
    },
  })
  return answer.action === 'accept' && answer.content.allow === true
}

/** A review that asks `confirm` and runs the tool with the arguments unchanged when it says yes. */
export const reviewByConfirm =
  (confirm: Confirm): Review =>
  async (tool, args, ctx) =>
    (await confirm(tool, args, ctx)) ? { run: true, arguments: args } : notAllowed(tool)

// ---------------------------------------------------------------------------------------
// functions

/**
 * The form of an input schema with `args` as defaults, or undefined when a flat form cannot
 * carry it: a property that is an object, an array other than a multi-select of strings, a
 * composition (`anyOf`, `$ref`, …), or a proposed argument the form has no field for.
 */
export const reviewForm = (schema: JsonSchema, args: WireArguments): ElicitSchema | undefined => {
  for (const k of ['$ref', 'anyOf', 'oneOf', 'allOf', 'not', 'if', 'patternProperties', 'dependentSchemas'])
    if (k in schema) return undefined
  const props = schema.properties ?? {}
  if (!isObject(props)) return undefined
  const fields: Array<[string, ElicitProperty]> = []
  for (const [name, p] of Object.entries(props)) {
    const field = fieldOf(p, Object.hasOwn(args, name) ? args[name] : undefined)
    if (field === undefined) return undefined
    fields.push([name, field])
  }
  // own properties whatever their names (an argument may be called __proto__)
  const properties: Record<string, ElicitProperty> = Object.fromEntries(fields)
  if (Object.keys(args).some((k) => !Object.hasOwn(properties, k))) return undefined
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string' && Object.hasOwn(properties, r)) : []
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties }
}

// ---------------------------------------------------------------------------------------
// internals

const notAllowed = (tool: ManifestTool): Reviewed => ({ run: false, reason: `the user did not allow tool ${tool.name} to run` })

/** True for the message of an argument review (so a client can word its last question as running the tool). */
export const isReviewMessage = (message: string): boolean => /^The tool "[^\n]*" is about to run\./.test(message)

const reviewMessage = (tool: ManifestTool): string =>
  `The tool "${tool.title ?? tool.name}" is about to run. Review its arguments, change any that need it, and accept to run it; decline to stop it.${
    tool.description === undefined || tool.description === '' ? '' : `\n\n${tool.name}: ${tool.description}`
  }`

/** The keywords each kind of form field keeps (MCP's restricted schema). */
const kept = {
  string: ['title', 'description', 'minLength', 'maxLength', 'format', 'enum', 'oneOf'],
  number: ['title', 'description', 'minimum', 'maximum'],
  boolean: ['title', 'description'],
  array: ['title', 'description', 'minItems', 'maxItems', 'items'],
} as const

const formats = new Set(['date', 'date-time', 'email', 'uri'])

type Primitive = 'string' | 'number' | 'integer' | 'boolean'

/** One form field, or undefined when the property cannot be one. */
const fieldOf = (p: unknown, value: unknown): ElicitProperty | undefined => {
  if (!isObject(p)) return undefined
  const type = fieldType(p, value)
  if (type === undefined) return undefined
  const keys = type === 'integer' ? kept.number : kept[type]
  const field: Record<string, unknown> = { type }
  for (const k of keys) if (p[k] !== undefined) field[k] = p[k]
  if (typeof field.format === 'string' && !formats.has(field.format)) delete field.format
  if (field.enum !== undefined && !stringList(field.enum)) return undefined
  if (field.oneOf !== undefined && !titledOptions(field.oneOf)) return undefined
  if (type === 'array' && !multiSelect(field.items)) return undefined
  const given = value !== undefined && fits(type, value) ? value : p.default !== undefined && fits(type, p.default) ? p.default : undefined
  if (given !== undefined) field.default = given
  return field as ElicitProperty
}

/** The form type of a property: its own type, or a nullable one's when the value is not null. */
const fieldType = (p: { readonly [k: string]: unknown }, value: unknown): Primitive | 'array' | undefined => {
  for (const k of ['$ref', 'anyOf', 'allOf', 'not', 'if', 'const']) if (k in p) return undefined
  if ('oneOf' in p && p.type !== 'string') return undefined
  const t = Array.isArray(p.type) && p.type.length === 2 && p.type.includes('null') && value !== null ? p.type.find((x) => x !== 'null') : p.type
  if (t === undefined && stringList(p.enum)) return 'string'
  return t === 'string' || t === 'number' || t === 'integer' || t === 'boolean' || t === 'array' ? t : undefined
}

const fits = (type: Primitive | 'array', v: unknown): boolean =>
  type === 'array'
    ? Array.isArray(v) && v.every((x) => typeof x === 'string')
    : type === 'integer'
      ? Number.isInteger(v)
      : typeof v === type

const stringList = (u: unknown): boolean => Array.isArray(u) && u.length > 0 && u.every((x) => typeof x === 'string')

const titledOptions = (u: unknown): boolean =>
  Array.isArray(u) && u.length > 0 && u.every((o) => isObject(o) && typeof o.const === 'string' && typeof o.title === 'string')

const multiSelect = (items: unknown): boolean =>
  isObject(items) && ((items.type === 'string' && stringList(items.enum)) || titledOptions(items.anyOf))
