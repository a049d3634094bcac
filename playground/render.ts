/**
 * How the playground shows what a tool returns: text as text, structured content as a JSON
 * tree, images and audio only as data URLs of the media types below (checked base64), and
 * resource links as names and URIs (a link only for http and https). `isError` is marked.
 *
 * @example
 * output.replaceChildren(renderResult({ content: [{ type: 'text', text: '5' }] }))
 */
import { el } from './dom.js'

type Json = Record<string, unknown>
const isObject = (u: unknown): u is Json => typeof u === 'object' && u !== null && !Array.isArray(u)

const imageTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp'])
const audioTypes = new Set(['audio/wav', 'audio/x-wav', 'audio/mpeg', 'audio/mp3', 'audio/ogg', 'audio/webm', 'audio/flac', 'audio/aac', 'audio/mp4'])
const base64 = /^[A-Za-z0-9+/]*={0,2}$/

/** The element showing a `tools/call` result. */
export const renderResult = (result: Json): HTMLElement => {
  const box = el('div', { class: result.isError === true ? 'result error' : 'result', 'data-testid': 'result' })
  if (result.isError === true) box.append(el('div', { class: 'badge' }, 'isError'))
  const content = Array.isArray(result.content) ? result.content : []
  for (const block of content.slice(0, 500)) box.append(renderBlock(block))
  if (result.structuredContent !== undefined) box.append(el('div', { class: 'label' }, 'structuredContent'), jsonTree(result.structuredContent))
  return box
}

/** The element showing one content block (a tool result's, a prompt message's). */
export const renderBlock = (block: unknown): HTMLElement => {
  if (!isObject(block)) return el('pre', { class: 'block' }, JSON.stringify(block))
  const mime = typeof block.mimeType === 'string' ? block.mimeType.toLowerCase() : ''
  const data = typeof block.data === 'string' && base64.test(block.data) ? block.data : undefined
  switch (block.type) {
    case 'text':
      return el('pre', { class: 'block text' }, String(block.text))
    case 'image':
      if (data !== undefined && imageTypes.has(mime)) return el('img', { class: 'block', src: `data:${mime};base64,${data}`, alt: 'image from the tool' })
      return el('div', { class: 'block refused' }, `an image of type ${mime || '(none)'} is not shown`)
    case 'audio':
      if (data !== undefined && audioTypes.has(mime)) return el('audio', { class: 'block', controls: '', src: `data:${mime};base64,${data}` })
      return el('div', { class: 'block refused' }, `audio of type ${mime || '(none)'} is not played`)
    case 'resource_link':
      return resourceLink(block)
    case 'resource': {
      const r = isObject(block.resource) ? block.resource : {}
      return el('div', { class: 'block resource' }, el('div', { class: 'uri' }, String(r.uri ?? '')), typeof r.text === 'string' ? el('pre', {}, r.text) : el('span', {}, `(${typeof r.blob === 'string' ? r.blob.length : 0} base64 characters)`))
    }
    default:
      return el('div', { class: 'block' }, jsonTree(block))
  }
}

const resourceLink = (block: Json): HTMLElement => {
  const uri = String(block.uri ?? '')
  const name = String(block.title ?? block.name ?? uri)
  const target = /^https?:\/\//i.test(uri) ? el('a', { href: uri, rel: 'noopener noreferrer', target: '_blank' }, uri) : el('code', {}, uri)
  return el('div', { class: 'block link' }, el('span', { class: 'name' }, name), ' ', target)
}

/** A collapsible tree of any JSON value (first 200 entries of each level). */
export const jsonTree = (value: unknown, depth = 0): HTMLElement => {
  if (value === null || typeof value !== 'object') return el('span', { class: `json ${value === null ? 'null' : typeof value}` }, JSON.stringify(value) ?? 'undefined')
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value)
  const details = el('details', { class: 'json-tree' })
  if (depth < 2) details.open = true
  details.append(el('summary', {}, Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`))
  const list = el('ul', {})
  for (const [key, v] of entries.slice(0, 200)) list.append(el('li', {}, el('span', { class: 'key' }, `${key}: `), depth > 20 ? el('span', {}, '…') : jsonTree(v, depth + 1)))
  if (entries.length > 200) list.append(el('li', {}, `… ${entries.length - 200} more`))
  details.append(list)
  return details
}
