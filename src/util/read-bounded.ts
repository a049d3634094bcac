/**
 * A web stream's bytes as UTF-8 text, read up to a limit: past `max` bytes the read stops,
 * the stream is cancelled and the answer is undefined, so that a body or an answer larger
 * than allowed never sits whole in memory. Internal; the fetch adapter reads request bodies
 * with it, the OAuth verifier the authorization server's answers.
 *
 * @example
 * import { readBounded } from './read-bounded.js'
 * await readBounded(new Response('hello').body, 1024) // 'hello'
 * await readBounded(new Response('hello').body, 3)    // undefined
 */
import { joinUtf8 } from './bytes.js'

/** The text of `body` (empty when null), or undefined once it passes `max` bytes. */
export const readBounded = async (body: ReadableStream<Uint8Array> | null, max: number): Promise<string | undefined> => {
  if (body === null) return ''
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel().catch(() => undefined)
      return undefined
    }
    chunks.push(value)
  }
  return joinUtf8(chunks)
}
