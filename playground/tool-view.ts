/**
 * One tool in the playground: its description, the form generated from its input schema, a
 * progress bar fed by progress notifications, and the rendered result. An `ask` tool is
 * marked: its review is the server's (an elicitation prefilled with the arguments, which the
 * page shows as a form to edit and accept), so the page does not review twice.
 *
 * @example
 * main.replaceChildren(toolView(tool, { call: (args, token) => client.request('tools/call', { name: tool.name, arguments: args }, { progressToken: token }), progress }))
 */
import { el } from './dom.js'
import { fieldFor, type Schema } from './form.js'
import { showProblems } from './problems.js'
import { renderResult } from './render.js'
import { checkForm } from './validate.js'

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

/**
 * Calls through `actions` and shows the call in `output`: a progress bar fed by its progress
 * notifications, then the result or the error. Returns the result; throws the error after
 * showing it. The generated form and the apps' bridge both call tools through it.
 */
export const callInto = async (output: HTMLElement, actions: ToolActions, args: Json): Promise<Json> => {
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
    return result
  } catch (e) {
    output.replaceChildren(el('div', { class: 'result error', 'data-testid': 'result' }, el('div', { class: 'badge' }, 'error'), el('pre', {}, e instanceof Error ? e.message : String(e))))
    throw e
  } finally {
    actions.progress(token, undefined)
  }
}

/** True when the tool's policy asks the user to review its inputs first (emcp's or SEMOSS's key). */
export const isAsk = (tool: Json): boolean => {
  const meta = isObject(tool._meta) ? tool._meta : {}
  return meta['emcp/policy'] === 'ask' || meta.SMSS_MCP_EXECUTION === 'ask'
}

/** The view of `tool` (an entry of `tools/list`). */
export const toolView = (tool: Json, actions: ToolActions): HTMLElement => {
  const schema: Schema = isObject(tool.inputSchema) ? tool.inputSchema : { type: 'object', properties: {} }
  const field = fieldFor(schema, '', true)
  const submit = el('button', { type: 'submit', 'data-testid': 'call' }, isAsk(tool) ? 'Call (review first)' : 'Call')
  const form = el('form', { class: 'tool-form', 'data-tool': String(tool.name) }, field.element, el('div', { class: 'actions' }, submit))
  const output = el('div', { class: 'output' })
  const view = el('section', { class: 'tool' }, el('h2', {}, String(tool.title ?? tool.name)), el('p', { class: 'description' }, String(tool.description ?? '')))
  // the server runs the review (an elicitation prefilled with the arguments, shown beside the form)
  if (isAsk(tool)) view.append(el('p', { class: 'ask' }, 'This tool runs after review: the server shows its arguments for you to check and edit before it runs.'))
  view.append(form, output)

  const run = (args: Json): Promise<void> => callInto(output, actions, args).then(() => {}, () => {})

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const args = (field.read() ?? {}) as Json
    void checkForm(schema, args).then(({ problems, notes }) => {
      if (showProblems(form, problems, notes)) void run(args)
    })
  })
  return view
}
