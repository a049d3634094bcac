/** Reading Server-Sent Events in tests, by the WHATWG rules: `field: value`, one optional space, a blank line ends an event. */

/** One event as a client sees it. */
export interface SseEvent {
  readonly id: string | undefined
  readonly event: string | undefined
  readonly retry: string | undefined
  /** The data lines joined by newlines; undefined when the event had no data field. */
  readonly data: string | undefined
}

/** One event from its frame (the text between blank lines). */
export const parseFrame = (frame: string): SseEvent => {
  const fields: { id?: string; event?: string; retry?: string } = {}
  const data: string[] = []
  for (const line of frame.split('\n')) {
    if (line.startsWith(':')) continue
    const colon = line.indexOf(':')
    const name = colon === -1 ? line : line.slice(0, colon)
    const raw = colon === -1 ? '' : line.slice(colon + 1)
    const value = raw.startsWith(' ') ? raw.slice(1) : raw
    if (name === 'data') data.push(value)
    else if (name === 'id' || name === 'event' || name === 'retry') fields[name] = value
  }
  return { id: fields.id, event: fields.event, retry: fields.retry, data: data.length === 0 ? undefined : data.join('\n') }
}

/** Every event of a stream's text. */
export const parseSse = (text: string): SseEvent[] =>
  text
    .replace(/\r\n?/g, '\n')
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map(parseFrame)
