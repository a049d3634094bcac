/// <reference types="node" preserve="true" />
/**
 * Module hooks for a generation of `emcp dev` (registered with `node:module`'s `register`):
 * they tell the generation each file its module graph loads, so that `emcp dev` watches
 * what the module really imports, wherever it lies, and not only the module's folder. They
 * run on Node's hooks thread and talk over the MessagePort given as `data.port`: a `file:`
 * URL per module loaded, and `'flushed'` in answer to `'flush'` (the port keeps order, so
 * every URL posted before is read before it).
 *
 * @example
 * import { register } from 'node:module'
 * import { MessageChannel } from 'node:worker_threads'
 * const { port1, port2 } = new MessageChannel()
 * register(new URL('./cli-dev-hooks.js', import.meta.url), { data: { port: port2 }, transferList: [port2] })
 * port1.on('message', (m) => console.log(m)) // 'file:///…/server.js', …
 */
import type { MessagePort } from 'node:worker_threads'

/** What the generation gives the hooks. */
export interface HooksData {
  readonly port: MessagePort
}

let port: MessagePort | undefined

/** Keeps the port, and answers each `'flush'` once what was posted before it is on its way. */
export const initialize = (data: HooksData): void => {
  port = data.port
  port.on('message', (m: unknown) => {
    if (m === 'flush') port?.postMessage('flushed')
  })
  port.unref()
}

/** Passes every load on unchanged, and names each file loaded to the generation. */
export const load = (url: string, context: unknown, nextLoad: (url: string, context: unknown) => unknown): unknown => {
  if (url.startsWith('file:')) port?.postMessage(url)
  return nextLoad(url, context)
}
