/**
 * What a tool call returns on the wire: content blocks, the `CallToolResult`, and the
 * explicit tool error a handler can return to produce `isError: true`.
 *
 * @example
 * import { text, toolError } from 'emcp'
 * const ok = [text('hello')]                    // content blocks
 * const failed = toolError('no such city: Xy')  // becomes { isError: true, content: [...] }
 */

// ---------------------------------------------------------------------------------------
// model

/** Optional hints on a content block. */
export interface ContentAnnotations {
  readonly audience?: ReadonlyArray<'user' | 'assistant'>
  readonly priority?: number
  readonly lastModified?: string
}

/** A text block. */
export interface TextContent {
  readonly type: 'text'
  readonly text: string
  readonly annotations?: ContentAnnotations
  readonly _meta?: { readonly [key: string]: unknown }
}

/** An image block: base64 data with its MIME type. */
export interface ImageContent {
  readonly type: 'image'
  readonly data: string
  readonly mimeType: string
  readonly annotations?: ContentAnnotations
  readonly _meta?: { readonly [key: string]: unknown }
}

/** An audio block: base64 data with its MIME type. */
export interface AudioContent {
  readonly type: 'audio'
  readonly data: string
  readonly mimeType: string
  readonly annotations?: ContentAnnotations
  readonly _meta?: { readonly [key: string]: unknown }
}

/** A link to a resource the client may read. */
export interface ResourceLink {
  readonly type: 'resource_link'
  readonly uri: string
  readonly name: string
  readonly title?: string
  readonly description?: string
  readonly mimeType?: string
  readonly size?: number
  readonly annotations?: ContentAnnotations
  readonly _meta?: { readonly [key: string]: unknown }
}

/** A resource embedded in the result, as text or base64 blob. */
export interface EmbeddedResource {
  readonly type: 'resource'
  readonly resource:
    | { readonly uri: string; readonly mimeType?: string; readonly text: string }
    | { readonly uri: string; readonly mimeType?: string; readonly blob: string }
  readonly annotations?: ContentAnnotations
  readonly _meta?: { readonly [key: string]: unknown }
}

/** Any content block a tool result may carry. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource

/** The result of `tools/call`. */
export interface CallToolResult {
  readonly content: ReadonlyArray<ContentBlock>
  /** Any JSON value since 2026-07-28 (an object for 2025-11-25 clients). */
  readonly structuredContent?: unknown
  readonly isError?: boolean
  readonly _meta?: { readonly [key: string]: unknown }
}

/** What a handler of a tool without an output schema may return. */
export type ToolContent = string | ReadonlyArray<ContentBlock> | CallToolResult

/** A failure the handler reports on purpose; the client sees `isError: true`. */
export class ToolError {
  readonly _tag = 'ToolError' as const
  constructor(readonly content: ReadonlyArray<ContentBlock>) {}
}

// ---------------------------------------------------------------------------------------
// constructors

/** A text content block. */
export const text = (value: string): TextContent => ({ type: 'text', text: value })

/** A tool error from a message or content blocks; return it (or throw it) from a handler. */
export const toolError = (message: string | ReadonlyArray<ContentBlock>): ToolError =>
  new ToolError(typeof message === 'string' ? [text(message)] : message)

// ---------------------------------------------------------------------------------------
// functions

/** The `isError` result for a tool error. */
export const errorResult = (e: ToolError): CallToolResult => ({ content: e.content, isError: true })

/** The `isError` result for a plain message. */
export const errorMessage = (message: string): CallToolResult => ({ content: [text(message)], isError: true })

/** True for a value shaped like a `CallToolResult`. */
export const isCallToolResult = (u: unknown): u is CallToolResult =>
  typeof u === 'object' && u !== null && Array.isArray((u as CallToolResult).content)

/** True for a value shaped like a content block. */
export const isContentBlock = (u: unknown): u is ContentBlock =>
  typeof u === 'object' && u !== null && typeof (u as ContentBlock).type === 'string'
