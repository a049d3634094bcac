/**
 * Elicitation as a form: the server's message (as text), a form generated from its
 * requested schema, and the three answers MCP knows: accept (with the content, validated
 * first), decline, cancel. One question at a time; later ones wait their turn.
 *
 * @example
 * const answer = await askUser(panel, { message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } })
 */
import { clear, el } from './dom.js'
import { fieldFor, type Schema } from './form.js'
import { showProblems } from './problems.js'
import { checkForm } from './validate.js'

let queue: Promise<unknown> = Promise.resolve()

/** Shows the elicitation in `panel` and resolves with the user's answer. */
export const askUser = (panel: HTMLElement, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
  const turn = queue.then(() => ask(panel, params))
  queue = turn.catch(() => {})
  return turn
}

const ask = (panel: HTMLElement, params: Record<string, unknown>): Promise<Record<string, unknown>> =>
  new Promise((resolve) => {
    const schema: Schema = typeof params.requestedSchema === 'object' && params.requestedSchema !== null ? (params.requestedSchema as Schema) : { type: 'object', properties: {} }
    const field = fieldFor(schema, '', true)
    const form = el('form', { class: 'elicitation', 'data-testid': 'elicitation' }, el('h3', {}, 'The server asks'), el('p', { class: 'message' }, String(params.message ?? '')), field.element)
    const done = (answer: Record<string, unknown>): void => {
      clear(panel)
      panel.hidden = true
      resolve(answer)
    }
    const button = (label: string, action: string): HTMLButtonElement => {
      const b = el('button', { type: action === 'accept' ? 'submit' : 'button', 'data-action': action }, label)
      if (action !== 'accept') b.addEventListener('click', () => done({ action }))
      return b
    }
    form.append(el('div', { class: 'actions' }, button('Accept', 'accept'), button('Decline', 'decline'), button('Cancel', 'cancel')))
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      const content = field.read() ?? {}
      void checkForm(schema, content).then(({ problems, notes }) => {
        if (showProblems(form, problems, notes)) done({ action: 'accept', content })
      })
    })
    clear(panel)
    panel.append(form)
    panel.hidden = false
  })
