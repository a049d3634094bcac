/**
 * Forms generated from a JSON Schema (a tool's input, an elicitation's requested schema):
 * strings (with enum and format), numbers, integers, booleans, arrays, nested objects,
 * optional fields, defaults, descriptions and required markers. Every string from the
 * schema is set as text, never as HTML.
 *
 * @example
 * const field = fieldFor({ type: 'object', properties: { a: { type: 'number' } } }, '', true)
 * form.append(field.element); const value = field.read()
 */
import { el } from './dom.js'

/** A JSON Schema as the form reads it (anything it does not know is ignored). */
export type Schema = Record<string, unknown>

/** One field: its element, and what it holds (`undefined`: left empty). */
export interface Field {
  readonly element: HTMLElement
  readonly read: () => unknown
}

const isObject = (u: unknown): u is Schema => typeof u === 'object' && u !== null && !Array.isArray(u)
/** How deep the form follows nested schemas (deeper ones are edited as JSON). */
const maxDepth = 8

/** The type a schema names (the first non-null one of a list). */
export const typeOf = (schema: Schema): string | undefined => {
  if (typeof schema.type === 'string') return schema.type
  if (Array.isArray(schema.type)) return schema.type.find((t): t is string => typeof t === 'string' && t !== 'null')
  if (isObject(schema.properties)) return 'object'
  if (Array.isArray(schema.enum)) return 'string'
  return undefined
}

/** The field for `schema` at `path` ('' is the root; `a.b`, `list.0` below). */
export const fieldFor = (schema: Schema, path: string, required: boolean, depth = 0): Field => {
  const type = typeOf(schema)
  if (depth > maxDepth) return jsonField(schema, path)
  if (type === 'object' && isObject(schema.properties)) return objectField(schema, path, depth)
  if (type === 'array' && isObject(schema.items)) return arrayField(schema, path, depth)
  if (type === 'boolean') return booleanField(schema, path, required)
  if (Array.isArray(schema.enum) || type === 'string' || type === 'number' || type === 'integer') return inputField(schema, path, type)
  return jsonField(schema, path)
}

/** A field's label: its name, a required marker and its description. */
export const labelled = (name: string, schema: Schema, required: boolean, control: HTMLElement): HTMLElement => {
  const title = typeof schema.title === 'string' ? schema.title : name
  const label = el('label', { class: 'field' }, el('span', { class: 'name' }, title), required ? el('span', { class: 'required', title: 'required' }, '*') : '')
  const wrap = el('div', { class: 'row' }, label, control)
  if (typeof schema.description === 'string') wrap.append(el('div', { class: 'description' }, schema.description))
  wrap.append(el('div', { class: 'problem', 'data-problem': name }))
  return wrap
}

const objectField = (schema: Schema, path: string, depth: number): Field => {
  const props = schema.properties as Record<string, unknown>
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [])
  const box = el('fieldset', { class: 'object' })
  if (path !== '') box.append(el('legend', {}, path.split('.').pop() ?? path))
  const fields: Array<[string, Field]> = []
  for (const [key, sub] of Object.entries(props)) {
    if (!isObject(sub)) continue
    const at = path === '' ? key : `${path}.${key}`
    const field = fieldFor(sub, at, required.has(key), depth + 1)
    fields.push([key, field])
    const row = labelled(key, sub, required.has(key), field.element)
    row.querySelector('.problem')?.setAttribute('data-problem', at)
    box.append(row)
  }
  if (fields.length === 0) box.append(el('p', { class: 'description' }, '(no arguments)'))
  const read = (): unknown => {
    const value: Record<string, unknown> = {}
    for (const [key, field] of fields) {
      const v = field.read()
      if (v !== undefined) value[key] = v
    }
    return path !== '' && Object.keys(value).length === 0 ? undefined : value
  }
  return { element: box, read }
}

const arrayField = (schema: Schema, path: string, depth: number): Field => {
  const items = schema.items as Schema
  const list = el('div', { class: 'array' })
  const entries: Array<{ row: HTMLElement; field: Field }> = []
  const add = (initial?: unknown): void => {
    const field = fieldFor(initial === undefined ? items : { ...items, default: initial }, `${path}.${entries.length}`, true, depth + 1)
    const remove = el('button', { type: 'button', class: 'remove', title: 'remove this item' }, '−')
    const row = el('div', { class: 'item' }, field.element, remove)
    const entry = { row, field }
    remove.addEventListener('click', () => {
      entries.splice(entries.indexOf(entry), 1)
      row.remove()
    })
    entries.push(entry)
    list.insertBefore(row, addButton)
  }
  const addButton = el('button', { type: 'button', class: 'add', 'data-add': path }, '+ item')
  addButton.addEventListener('click', () => add())
  list.append(addButton)
  if (Array.isArray(schema.default)) for (const v of schema.default.slice(0, 100)) add(v)
  const read = (): unknown => (entries.length === 0 ? undefined : entries.map((e) => e.field.read()))
  return { element: list, read }
}

const booleanField = (schema: Schema, path: string, required: boolean): Field => {
  if (required) {
    const box = el('input', { type: 'checkbox', name: path })
    box.checked = schema.default === true
    return { element: box, read: () => box.checked }
  }
  // optional: unset, true or false, so that leaving it out is possible
  const select = el('select', { name: path }, el('option', { value: '' }, '(unset)'), el('option', { value: 'true' }, 'true'), el('option', { value: 'false' }, 'false'))
  if (typeof schema.default === 'boolean') select.value = String(schema.default)
  return { element: select, read: () => (select.value === '' ? undefined : select.value === 'true') }
}

/** Input types for string formats the browser can help with. */
const inputTypes: Readonly<Record<string, string>> = { date: 'date', email: 'email', uri: 'url', url: 'url', time: 'time' }

const inputField = (schema: Schema, path: string, type: string | undefined): Field => {
  if (Array.isArray(schema.enum)) {
    const select = el('select', { name: path }, el('option', { value: '' }, '(unset)'))
    schema.enum.forEach((v, i) => select.append(el('option', { value: String(i) }, JSON.stringify(v))))
    const at = schema.enum.findIndex((v) => v === schema.default)
    if (at >= 0) select.value = String(at)
    const values = schema.enum
    return { element: select, read: () => (select.value === '' ? undefined : values[Number(select.value)]) }
  }
  const numeric = type === 'number' || type === 'integer'
  const format = typeof schema.format === 'string' ? schema.format : ''
  const input = el('input', { name: path, type: numeric ? 'text' : (inputTypes[format] ?? 'text'), inputmode: numeric ? 'decimal' : 'text' })
  if (format !== '') input.placeholder = format === 'date-time' ? '2026-01-31T12:00:00Z' : format
  else if (numeric) input.placeholder = type
  if (schema.default !== undefined && schema.default !== null) input.value = String(schema.default)
  // numbers are typed as text so that a wrong entry reaches the validator and gets a message
  const read = (): unknown => {
    const raw = input.value
    if (raw === '') return undefined
    if (!numeric) return raw
    const n = Number(raw.trim())
    return raw.trim() !== '' && Number.isFinite(n) ? n : raw
  }
  return { element: input, read }
}

const jsonField = (schema: Schema, path: string): Field => {
  const area = el('textarea', { name: path, rows: '3', placeholder: 'JSON' })
  if (schema.default !== undefined) area.value = JSON.stringify(schema.default, null, 2)
  const read = (): unknown => {
    if (area.value.trim() === '') return undefined
    try {
      return JSON.parse(area.value) as unknown
    } catch {
      return { __invalidJson: area.value }
    }
  }
  return { element: area, read }
}
