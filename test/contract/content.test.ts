import { describe, expect, it } from 'vitest'
import { emcp, inMemoryClient, mcpServer, text, toolError, ToolError, type ContentBlock } from '../../src/index.js'

describe('content: constructors', () => {
  it('text() builds a text block', () => {
    expect(text('hi')).toEqual({ type: 'text', text: 'hi' })
  })

  it('toolError() wraps a message in one text block, or keeps the blocks given', () => {
    const fromMessage = toolError('no such city')
    expect(fromMessage).toBeInstanceOf(ToolError)
    expect(fromMessage.content).toEqual([{ type: 'text', text: 'no such city' }])
    const blocks: ContentBlock[] = [text('a'), { type: 'image', data: 'AAAA', mimeType: 'image/png' }]
    expect(toolError(blocks).content).toEqual(blocks)
  })
})

describe('content: what the client receives for each content kind', () => {
  const show = emcp({ name: 'show', description: 'Returns one block of every kind.', input: { type: 'object' } })
  const blocks: ContentBlock[] = [
    text('plain'),
    { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
    { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
    { type: 'resource_link', uri: 'file:///tmp/a.txt', name: 'a.txt', mimeType: 'text/plain' },
    { type: 'resource', resource: { uri: 'file:///tmp/b.txt', mimeType: 'text/plain', text: 'inside' } },
  ]
  const server = mcpServer([show], { name: 'c', version: '1' }).implement({ show: () => blocks })

  it('passes every content block through unchanged, in order', async () => {
    const result = await inMemoryClient(server).callResult('show', {})
    expect(result.isError).toBeUndefined()
    expect(result.content).toEqual(blocks)
  })

  it('sends a thrown ToolError as isError with its blocks', async () => {
    const fails = emcp({ name: 'fails', description: 'Always fails.', input: { type: 'object' } })
    const s = mcpServer([fails], { name: 'f', version: '1' }).implement({
      fails: () => {
        throw toolError([text('first'), text('second')])
      },
    })
    expect(await inMemoryClient(s).callResult('fails', {})).toEqual({ content: [text('first'), text('second')], isError: true })
  })
})
