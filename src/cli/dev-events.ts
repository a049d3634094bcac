/// <reference types="node" preserve="true" />
/**
 * The dev server's event channel, `/__emcp/events`: server-sent events to every open
 * playground page, `reload` when a new generation serves and `failed` (with the message)
 * when a change did not load. Bounded: at most 64 pages listen at once; a comment line every
 * 15 s keeps idle streams open through proxies.
 *
 * @example
 * const events = devEvents(); events.attach(req, res); events.send('reload', 'generation 2')
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

/** The most pages that listen at once; the oldest is dropped past it. */
const maxListeners = 64

/** The channel: attach pages, send events, close all. */
export const devEvents = () => {
  const pages = new Set<ServerResponse>()
  let last: { readonly event: string; readonly data: string } | undefined
  const write = (res: ServerResponse, event: string, data: string): void => {
    res.write(`event: ${event}\n${data.split(/\r?\n/).map((line) => `data: ${line}`).join('\n')}\n\n`)
  }
  const beat = setInterval(() => {
    for (const res of pages) res.write(': keep-alive\n\n')
  }, 15_000)
  beat.unref()
  return {
    /** Opens the stream for one page; a page that arrives after a failure sees it at once. */
    attach: (req: IncomingMessage, res: ServerResponse): void => {
      if (pages.size >= maxListeners) {
        const oldest = pages.values().next().value
        if (oldest !== undefined) oldest.end()
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
      res.write(': emcp dev\n\n')
      if (last?.event === 'failed') write(res, last.event, last.data)
      pages.add(res)
      req.once('close', () => pages.delete(res))
    },
    /** Sends one event to every page. */
    send: (event: 'reload' | 'failed', data: string): void => {
      last = { event, data }
      for (const res of pages) write(res, event, data)
    },
    /** Ends every stream. */
    close: (): void => {
      clearInterval(beat)
      for (const res of pages) res.end()
      pages.clear()
    },
  }
}

/** The channel's type. */
export type DevEvents = ReturnType<typeof devEvents>
