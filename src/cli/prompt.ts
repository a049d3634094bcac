/**
 * Form elicitations answered at the terminal, for `emcp call`: an `ask` tool's review shows
 * each argument with the model's proposal in brackets; Enter keeps it, a new value replaces
 * it, `-` clears an optional one; then the person says yes or no to running the tool (to
 * sending the answer, for a question a tool asks while it runs). A
 * yes/no question is one line. `--yes` accepts the proposal without asking; without a
 * terminal (and without `--yes`) the question is declined.
 *
 * @example
 * import { answerForm } from './prompt.js'
 * const answer = await answerForm(
 *   { message: 'Review the arguments', requestedSchema: { type: 'object', properties: { days: { type: 'integer', default: 3 } } } },
 *   { err: (s) => process.stderr.write(s), ask: async () => '5' },
 *   false,
 * )
 * // after the final "Run it? [y/N]" (answered '5' here, so: declined)
 */
import * as E from 'fp-ts/lib/Either.js'
import { isObject } from '../util/json-object.js'
import { formatIssues, validatorOf, type JsonSchema } from '../schema/schema.js'
import { isReviewMessage } from '../sources/manifest/review.js'
import type { CommandIO } from './command.js'
import type { FormAnswer, FormRequest } from './wire.js'

/** How many times a field is asked again after a value that does not fit, before the review is cancelled. */
const tries = 3

/** Answers a form elicitation: with the defaults (`yes`), by asking at the terminal (`io.ask`), or by declining. */
export const answerForm = async (request: FormRequest, io: Pick<CommandIO, 'err' | 'ask'>, yes: boolean): Promise<FormAnswer> => {
  const fields = fieldsOf(request.requestedSchema)
  io.err(`${request.message}\n`)
  if (yes) return acceptDefaults(fields, io)
  const ask = io.ask
  if (ask === undefined) {
    io.err('declined: nobody can be asked here (standard input is not a terminal); rerun with --yes to accept the arguments as proposed\n')
    return { action: 'decline' }
  }
  const only = fields[0]
  if (fields.length === 1 && only !== undefined && only.schema.type === 'boolean' && only.schema.default === undefined) {
    const line = await ask(`${String(only.schema.title ?? only.name)}? [y/N] `)
    return line === undefined ? { action: 'cancel' } : isYes(line) ? { action: 'accept', content: { [only.name]: true } } : { action: 'decline' }
  }
  const entries: Array<[string, unknown]> = []
  for (const f of fields) {
    const value = await askField(f, ask, io)
    if (value === cancelled) return { action: 'cancel' }
    if (value !== undefined) entries.push([f.name, value])
  }
  const content = Object.fromEntries(entries)
  // an `ask` tool's review ends in running the tool; any other form only answers the tool's question
  const last = isReviewMessage(request.message) ? `Run it with ${JSON.stringify(content)}? [y/N] ` : `Send this answer to the tool: ${JSON.stringify(content)}? [y/N] `
  const line = await ask(last)
  return line === undefined ? { action: 'cancel' } : isYes(line) ? { action: 'accept', content } : { action: 'decline' }
}

// ---------------------------------------------------------------------------------------
// internals

interface Field {
  readonly name: string
  readonly schema: JsonSchema
  readonly required: boolean
}

const cancelled = Symbol('cancelled')

const fieldsOf = (form: { readonly [key: string]: unknown }): ReadonlyArray<Field> => {
  const props = isObject(form.properties) ? form.properties : {}
  const required = Array.isArray(form.required) ? form.required : []
  return Object.entries(props).map(([name, schema]) => ({ name, schema: isObject(schema) ? schema : {}, required: required.includes(name) }))
}

const isYes = (line: string): boolean => /^\s*(y|yes)\s*$/i.test(line)

/** `--yes`: every field as proposed; a yes/no field without a default says yes. */
const acceptDefaults = (fields: ReadonlyArray<Field>, io: Pick<CommandIO, 'err'>): FormAnswer => {
  const entries: Array<[string, unknown]> = []
  for (const f of fields) {
    const value = f.schema.default ?? (f.schema.type === 'boolean' ? true : undefined)
    if (value !== undefined) entries.push([f.name, value])
    else if (f.required) {
      io.err(`declined: ${f.name} has no proposed value to accept; run it in a terminal to give one\n`)
      return { action: 'decline' }
    }
  }
  io.err('accepted as proposed (--yes)\n')
  return { action: 'accept', content: Object.fromEntries(entries) }
}

/** One field: the value typed (checked against the field's schema), the default on Enter, undefined when left out. */
const askField = async (f: Field, ask: (q: string) => Promise<string | undefined>, io: Pick<CommandIO, 'err'>): Promise<unknown> => {
  const { default: proposed, ...schema } = f.schema
  const check = validatorOf(schema)
  const choices = choicesOf(f.schema)
  const label = `  ${f.name}${typeof f.schema.description === 'string' ? ` (${f.schema.description})` : ''}${choices.length > 0 ? ` {${choices.join('|')}}` : ''}${f.required ? '' : ', optional'}`
  for (let i = 0; i < tries; i++) {
    const line = await ask(`${label}${proposed === undefined ? '' : ` [${show(proposed)}]`}: `)
    if (line === undefined) return cancelled
    const typed = line.trim()
    if (typed === '' && proposed !== undefined) return proposed
    if ((typed === '' || typed === '-') && !f.required) return undefined
    if (typed === '') {
      io.err(`    ${f.name} is required\n`)
      continue
    }
    const value = parse(f.schema, typed)
    const checked = check.decode(value)
    if (E.isRight(checked)) return value
    io.err(`    ${formatIssues(checked.left).replace(/^\(root\): /, '')}\n`)
  }
  io.err(`cancelled: no value for ${f.name} after ${tries} tries\n`)
  return cancelled
}

const show = (v: unknown): string => (typeof v === 'string' ? v : Array.isArray(v) ? v.join(',') : JSON.stringify(v))

/** The allowed values a field lists (an enum, titled options, a multi-select's items). */
const choicesOf = (s: JsonSchema): ReadonlyArray<string> => {
  const items = isObject(s.items) ? s.items : undefined
  const list = s.enum ?? s.oneOf ?? items?.enum ?? items?.anyOf
  if (!Array.isArray(list)) return []
  return list.map((o: unknown) => (isObject(o) ? String(o.const) : String(o)))
}

/** A typed line as the field's type: numbers and yes/no read as such, a multi-select as a comma list. */
const parse = (s: JsonSchema, typed: string): unknown => {
  if (s.type === 'number' || s.type === 'integer') return /^[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i.test(typed) ? Number(typed) : typed
  if (s.type === 'boolean') return /^(y|yes|true)$/i.test(typed) ? true : /^(n|no|false)$/i.test(typed) ? false : typed
  if (s.type === 'array') return typed.split(',').map((x) => x.trim()).filter((x) => x !== '')
  return typed
}
