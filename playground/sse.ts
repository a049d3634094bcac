/**
 * Server-sent events read from a fetch body, for the playground's MCP client: the `data`
 * of each event, joined across lines, parsed as JSON. Bounded: an event larger than
 * `maxEventBytes` ends the stream with an error (every byte from the server is untrusted).
 *
 * @example
 * for await (const message of sseMessages(response.body!)) console.log(message)
 */

/** The largest event accepted (8 MiB of text). */
export const maxEventBytes = 8 * 1024 * 1024

/** Yields the JSON value of each event's data on `body`; comments and empty events are skipped. */
export async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      buffer += decoder.decode(value, { stream: true })
      if (buffer.length > maxEventBytes) throw new Error('an event from the server is larger than 8 MiB')
      // events end with a blank line; CRLF and CR are line ends too
      buffer = buffer.replace(/\r\n?/g, '\n')
      let end: number
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const data = dataOf(buffer.slice(0, end))
        buffer = buffer.slice(end + 2)
        if (data !== undefined) yield JSON.parse(data)
      }
    }
  } finally {
    reader.releaseLock()
    void body.cancel().catch(() => {})
  }
}

/** The data of one event's lines, or undefined when it has none. */
const dataOf = (event: string): string | undefined => {
  const lines = event.split('\n').filter((l) => l.startsWith('data:'))
  if (lines.length === 0) return undefined
  const data = lines.map((l) => l.slice(l.startsWith('data: ') ? 6 : 5)).join('\n')
  return data.trim() === '' ? undefined : data
}
