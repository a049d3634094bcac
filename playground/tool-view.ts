/**
 * One tool in the playground: its description, the form generated from its input schema,
 * the review step of `ask` tools (the arguments shown as editable JSON before they go), a
 * progress bar fed by progress notifications, and the rendered result.
 *
 * @example
 * main.replaceChildren(toolView(tool, { call: (args, token) => client.request('tools/call', { name: tool.name, arguments: args }, { progressToken: token }), progress }))
 */
import { el } from './dom.js'
import { fieldFor, type Schema } from './form.js'
import { showProblems } from './problems.js'
import { renderResult } from './render.js'
import { validate } from './validate.js'

type Json = Record<string, unknown>
const isObject = (u: unknown): u is Json => typeof u === 'object' && u !== null && !Array.isArray(u)

/** What the view needs from the page. */
export interface ToolActions {
  /** Calls the tool; `token` names its progress notifications. */
  readonly call: (args: Json, token: string) => Promise<Json>
  /** Registers the progress bar of a call under its token (removed when the call ends). */
  readonly progress: (token: string, update: ((params: Json) => void) | undefined) => void
}

let calls = 0

/** True when the tool's policy asks the user to review its inputs first (emcp's or SEMOSS's key). */
export const isAsk = (tool: Json): boolean => {
  const meta = isObject(tool._meta) ? tool._meta : {}
  return meta['emcp/policy'] === 'ask' || meta.SMSS_MCP_EXECUTION === 'ask'
}

/** The view of `tool` (an entry of `tools/list`). */
export const toolView = (tool: Json, actions: ToolActions): HTMLElement => {
  const schema: Schema = isObject(tool.inputSchema) ? tool.inputSchema : { type: 'object', properties: {} }
  const field = fieldFor(schema, '', true)
  const submit = el('button', { type: 'submit', 'data-testid': 'call' }, isAsk(tool) ? 'Review…' : 'Call')
  const form = el('form', { class: 'tool-form', 'data-tool': String(tool.name) }, field.element, el('div', { class: 'actions' }, submit))
  const output = el('div', { class: 'output' })
  const review = el('div', { class: 'review', hidden: '' })
  const view = el('section', { class: 'tool' }, el('h2', {}, String(tool.title ?? tool.name)), el('p', { class: 'description' }, String(tool.description ?? '')))
  if (isAsk(tool)) view.append(el('p', { class: 'ask' }, 'This tool asks for review: its arguments are shown before they are sent.'))
  view.append(form, review, output)

  const run = async (args: Json): Promise<void> => {
    const token = `call-${++calls}`
    const bar = el('progress', { 'data-testid': 'progress' })
    const note = el('span', { class: 'progress-note' })
    output.replaceChildren(el('div', { class: 'running' }, 'calling… ', bar, note))
    actions.progress(token, (p) => {
      if (typeof p.total === 'number' && p.total > 0) bar.max = p.total
      if (typeof p.progress === 'number') bar.value = p.progress
      bar.setAttribute('data-progress', String(p.progress))
      note.textContent = typeof p.message === 'string' ? ` ${p.message}` : ` ${String(p.progress)}${typeof p.total === 'number' ? ` / ${p.total}` : ''}`
    })
    try {
      const result = await actions.call(args, token)
      output.replaceChildren(renderResult(result))
    } catch (e) {
      output.replaceChildren(el('div', { class: 'result error', 'data-testid': 'result' }, el('div', { class: 'badge' }, 'error'), el('pre', {}, e instanceof Error ? e.message : String(e))))
    } finally {
      actions.progress(token, undefined)
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const args = (field.read() ?? {}) as Json
    if (!showProblems(form, validate(schema, args))) return
    if (!isAsk(tool)) return void run(args)
    showReview(review, schema, args, run)
  })
  return view
}

/** The review step of an `ask` tool: the arguments as editable JSON, validated again, then sent or dropped. */
const showReview = (panel: HTMLElement, schema: Schema, args: Json, run: (args: Json) => Promise<void>): void => {
  const area = el('textarea', { rows: '8', 'data-testid': 'review-json' })
  area.value = JSON.stringify(args, null, 2)
  const send = el('button', { type: 'submit', 'data-action': 'send' }, 'Send')
  const drop = el('button', { type: 'button', 'data-action': 'drop' }, 'Cancel')
  const form = el('form', {}, el('h3', {}, 'Review the arguments'), area, el('div', { class: 'actions' }, send, drop))
  const close = (): void => {
    panel.replaceChildren()
    panel.hidden = true
  }
  drop.addEventListener('click', close)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    let edited: unknown
    try {
      edited = JSON.parse(area.value)
    } catch {
      return void showProblems(form, [{ path: '', message: 'is not valid JSON' }])
    }
    if (!showProblems(form, validate(schema, edited)) || !isObject(edited)) return
    close()
    void run(edited)
  })
  panel.replaceChildren(form)
  panel.hidden = false
}
