/**
 * Validation messages on a generated form: each next to its field (by path), the rest in a
 * summary at the top. Returns true when there is nothing to show, so the form may be sent.
 *
 * @example
 * if (showProblems(form, validate(schema, value))) send(value)
 */
import { el } from './dom.js'
import type { Problem } from './validate.js'

/** Writes `problems` into `form`; true when there are none. */
export const showProblems = (form: HTMLElement, problems: ReadonlyArray<Problem>): boolean => {
  for (const slot of Array.from(form.querySelectorAll('[data-problem]'))) slot.textContent = ''
  form.querySelector('.problems')?.remove()
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
