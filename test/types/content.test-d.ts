/**
 * Type tests of content (src/contract/content.ts): content blocks, the CallToolResult, and the tool
 * error a handler returns or throws to produce `isError: true`.
 */
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import {
  text,
  toolError,
  ToolError,
  type AudioContent,
  type CallToolResult,
  type ContentBlock,
  type EmbeddedResource,
  type ImageContent,
  type ResourceLink,
  type TextContent,
  type ToolContent,
} from 'emcp'

// constructors
expectType<TextContent>(text('hello'))
expectError(text(42))
expectType<ToolError>(toolError('no such city'))
expectType<ToolError>(toolError([text('no such city'), { type: 'image', data: 'AAAA', mimeType: 'image/png' }]))
expectError(toolError(42))
expectError(toolError([{ type: 'text' }]))
expectType<ReadonlyArray<ContentBlock>>(toolError('x').content)
expectType<'ToolError'>(toolError('x')._tag)
expectType<ToolError>(new ToolError([text('x')]))

// the blocks
expectAssignable<TextContent>({ type: 'text', text: 'x', annotations: { audience: ['user'], priority: 0.5 } })
expectNotAssignable<TextContent>({ type: 'text', text: 'x', annotations: { audience: ['robot'] } })
expectAssignable<ImageContent>({ type: 'image', data: 'AAAA', mimeType: 'image/png' })
expectNotAssignable<ImageContent>({ type: 'image', data: 'AAAA' })
expectAssignable<AudioContent>({ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' })
expectAssignable<ResourceLink>({ type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' })
expectNotAssignable<ResourceLink>({ type: 'resource_link', uri: 'file:///a.txt' })
expectAssignable<EmbeddedResource>({ type: 'resource', resource: { uri: 'file:///a.txt', text: 'hello' } })
expectAssignable<EmbeddedResource>({ type: 'resource', resource: { uri: 'file:///a.bin', blob: 'AAAA', mimeType: 'application/octet-stream' } })
expectNotAssignable<EmbeddedResource>({ type: 'resource', resource: { uri: 'file:///a.txt' } })
expectAssignable<ContentBlock>({ type: 'text', text: 'x' })
expectNotAssignable<ContentBlock>({ type: 'video', url: 'x' })

// the result
expectAssignable<CallToolResult>({ content: [text('x')] })
expectAssignable<CallToolResult>({ content: [], structuredContent: { sum: 3 }, isError: false, _meta: { trace: 'abc' } })
expectNotAssignable<CallToolResult>({ structuredContent: { sum: 3 } })
expectNotAssignable<CallToolResult>({ content: 'x' })

// what a tool without output schema returns
expectAssignable<ToolContent>('plain text')
expectAssignable<ToolContent>([text('a'), text('b')])
expectAssignable<ToolContent>({ content: [text('a')], isError: true })
expectNotAssignable<ToolContent>(42)
expectNotAssignable<ToolContent>({ text: 'x' })
