/**
 * The Accept header's two questions, asked by every HTTP path: does it admit JSON, does it admit
 * an SSE stream. Each keeps its last answer (a client sends the same Accept on every request), so
 * these check that a header that changes between requests is judged afresh.
 */
import { describe, expect, it } from 'vitest'
import { acceptsEventStream, acceptsJson } from '../../../src/transport/http/negotiate.js'

describe('Accept negotiation', () => {
  it('admits an SSE stream only when text/event-stream is named, in any case, judged afresh when the header changes', () => {
    const sequence: ReadonlyArray<readonly [string | undefined, boolean]> = [
      ['application/json, text/event-stream', true],
      ['application/json, text/event-stream', true],
      ['application/json', false],
      ['TEXT/EVENT-STREAM', true],
      [undefined, false],
      ['text/event-stream', true],
      ['', false],
    ]
    for (const [accept, admitted] of sequence) expect(acceptsEventStream(accept), String(accept)).toBe(admitted)
  })

  it('keeps the two questions apart: asking one does not answer the other', () => {
    expect(acceptsJson('text/event-stream')).toBe(false)
    expect(acceptsEventStream('text/event-stream')).toBe(true)
    expect(acceptsJson('application/json')).toBe(true)
    expect(acceptsEventStream('application/json')).toBe(false)
  })
})
