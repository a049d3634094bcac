/**
 * The one way the playground makes elements: attributes set one by one and children added
 * as text nodes, so no string from the server is ever parsed as HTML.
 *
 * @example
 * document.body.append(el('p', { class: 'note' }, 'text from anywhere, shown as text'))
 */

/** An element with attributes and children; string children become text nodes. */
export const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Readonly<Record<string, string>> = {},
  ...children: ReadonlyArray<Node | string>
): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value)
  for (const child of children) node.append(typeof child === 'string' ? document.createTextNode(child) : child)
  return node
}

/** Removes every child of `node`. */
export const clear = (node: Element): void => node.replaceChildren()
