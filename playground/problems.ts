/**
 * Validation messages on a generated form: each next to its field (by path), the rest in a
 * summary at the top. Returns true when there is nothing to show, so the form may be sent.
 * Notes (a pattern not checked in the browser) are shown in a list of their own and do not
 * hold the form back.
 *
 * @example
 * const { problems, notes } = await checkForm(schema, value)
 * if (showProblems(form, problems, notes)) send(value)
 */
import { el } from './dom.js'
import type { Problem } from './validate.js'

/** Writes `problems` and `notes` into `form`; true when there are no problems. */
export const showProblems = (form: HTMLElement, problems: ReadonlyArray<Problem>, notes: ReadonlyArray<Problem> = []): boolean => {
  for (const slot of Array.from(form.querySelectorAll('[data-problem]'))) slot.textContent = ''
  form.querySelector('.problems')?.remove()
  form.querySelector('.notes')?.remove()
  if (notes.length > 0) form.prepend(el('ul', { class: 'notes', 'data-testid': 'notes' }, ...notes.map((n) => el('li', {}, `${n.path === '' ? '(input)' : n.path}: ${n.message}`))))
  if (problems.length === 0) return true
  const summary = el('ul', { class: 'problems', 'data-testid': 'problems' })
  for (const p of problems) {
    summary.append(el('li', {}, `${p.path === '' ? '(input)' : p.path}: ${p.message}`))
    const slot = Array.from(form.querySelectorAll('[data-problem]')).find((s) => s.getAttribute('data-problem') === p.path)
    if (slot !== undefined) slot.textContent = p.message
  }
  form.prepend(summary)
  return false
}
