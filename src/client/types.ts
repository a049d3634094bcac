/// <reference types="node" preserve="true" />
/**
 * The types of the typed client (`emcp/client`), all read from one value: an emcp server
 * (`typeof server`), its list of contracts, or the const tool list `emcp types` writes for a
 * server emcp did not build. Nothing here is written twice: a tool's arguments and result
 * come from its contract (`ArgsOf`, `ResultOf`) or, for listed tools, from their JSON Schemas.
 *
 * @example
 * import type { ToolsOf } from 'emcp/client'
 * const tools = [{ name: 'add', inputSchema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] } }] as const
 * type Add = ToolsOf<typeof tools> // a contract named 'add' whose arguments are { a: number }
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts'
import type { CallToolResult } from '../contract/content.js'
import type { AnyTool, ListedTool, Tool } from '../contract/emcp.js'
import type { ToolNamed } from '../contract/sum.js'
import type { ArgsOf, ResultOf } from '../transport/in-memory.js'
import type { AnyPrompt, Prompt, PromptArgs } from '../features/prompts.js'
import type { InferInput, StandardSchemaV1 } from '../schema/standard/spec.js'
import type { ShapeType, StandardShape } from '../schema/standard/shape.js'

/** A tool as `tools/list` shows it, and as `emcp types` writes it: a name and its schemas. */
export interface ListedContract {
  readonly name: string
  readonly title?: string
  readonly description?: string
  readonly inputSchema: JSONSchema
  readonly outputSchema?: JSONSchema
}

/** A listed tool read as a contract: arguments from its input schema, result from its output schema. */
export type ListedAsContract<T> = T extends ListedContract
  ? Tool<T['name'], FromSchema<T['inputSchema']>, T extends { readonly outputSchema: infer O extends JSONSchema } ? FromSchema<O> : CallToolResult, T extends { readonly outputSchema: JSONSchema } ? true : false, never, never, never, unknown>
  : never

/**
 * The contracts a client is typed with, read from `S`: a server (`typeof server`), a list of
 * emcp contracts, or a const list of listed tools (what `emcp types` writes).
 */
export type ToolsOf<S> = S extends { readonly tools: ReadonlyArray<infer U extends AnyTool>; readonly dispatch: unknown }
  ? U
  : S extends ReadonlyArray<infer U extends AnyTool>
    ? U
    : S extends ReadonlyArray<infer L extends ListedContract>
      ? ListedAsContract<L>
      : S extends { readonly tools: ReadonlyArray<infer L extends ListedContract> }
        ? ListedAsContract<L>
        : never

/** What a client may be typed with: a server, contracts, or listed tools (see `ToolsOf`). */
export type Described = { readonly tools: ReadonlyArray<AnyTool | ListedContract> } | ReadonlyArray<AnyTool> | ReadonlyArray<ListedContract>

/** Options of one call: progress, cancellation and a time limit. */
export interface CallOptions {
  /** Called for each `notifications/progress` of the call (the client sends a progress token). */
  readonly onProgress?: (progress: { readonly progress: number; readonly total?: number; readonly message?: string }) => void
  /** Cancels the call: the server is sent `notifications/cancelled` and the promise rejects. */
  readonly signal?: AbortSignal
  /** The longest the call may take, in ms (default 60 000); progress resets it when `resetTimeoutOnProgress`. */
  readonly timeoutMs?: number
  /** Restart the time limit on each progress notification (default true when `onProgress` is given). */
  readonly resetTimeoutOnProgress?: boolean
}

/** A prompt as listed. */
export interface ListedPrompt {
  readonly name: string
  readonly title?: string
  readonly description?: string
  readonly arguments?: ReadonlyArray<{ readonly name: string; readonly description?: string; readonly required?: boolean }>
}

/** A resource (or template) as listed. */
export interface ListedResource {
  readonly uri?: string
  readonly uriTemplate?: string
  readonly name: string
  readonly title?: string
  readonly description?: string
  readonly mimeType?: string
}

/** One message of a rendered prompt. */
export interface PromptMessage {
  readonly role: 'user' | 'assistant'
  readonly content: { readonly type: string; readonly [key: string]: unknown }
}

/** The contents of a read resource. */
export interface ResourceContents {
  readonly uri: string
  readonly mimeType?: string
  readonly text?: string
  readonly blob?: string
}

/** The arguments a caller sends to prompt `P` (strings on the wire): a schema's input, else the declared ones, the required ones required. */
export type PromptArgsOf<P> = P extends Prompt<string, infer A>
  ? 0 extends 1 & A
    ? { readonly [argument: string]: string }
    : A extends StandardSchemaV1
      ? InferInput<A>
      : A extends StandardShape
        ? ShapeType<A, 'input'>
        : PromptArgs<A>
  : never

/** The prompt of `P` named `K` (all of them when names are not known). */
export type PromptNamed<P extends AnyPrompt, K extends string> = string extends P['name'] ? P : Extract<P, { readonly name: K }>

/**
 * The arguments of each prompt of `P`, by name: `get` indexes it with its generic name, so
 * the compiler defers the lookup instead of walking every argument form for an unknown name.
 */
export type PromptArgsByName<P extends AnyPrompt> = string extends P['name'] ? { readonly [name: string]: PromptArgsOf<P> } : { readonly [Q in P as Q['name']]: PromptArgsOf<Q> }

/** A connected, typed client of a server whose tools are the union `U` and prompts `P` (typed when given as `prompts`). */
export interface RemoteClient<U extends AnyTool, P extends AnyPrompt = AnyPrompt> extends AsyncDisposable {
  /** Calls a tool; resolves to its typed (decoded) output, rejects with `ToolCallError` on `isError`. */
  readonly call: <K extends U['name']>(name: K, args: ArgsOf<ToolNamed<U, K>>, options?: CallOptions) => Promise<ResultOf<ToolNamed<U, K>>>
  /** Calls a tool and resolves to the whole `CallToolResult`, tool errors included. */
  readonly callResult: <K extends U['name']>(name: K, args: ArgsOf<ToolNamed<U, K>>, options?: CallOptions) => Promise<CallToolResult>
  /** Lists every tool, following pagination to the end. */
  readonly list: () => Promise<ReadonlyArray<ListedTool>>
  /** Prompts: listed (every page) and rendered with their arguments. */
  readonly prompts: {
    readonly list: () => Promise<ReadonlyArray<ListedPrompt>>
    readonly get: <K extends P['name']>(name: K, args?: PromptArgsByName<P>[K], options?: CallOptions) => Promise<{ readonly description?: string; readonly messages: ReadonlyArray<PromptMessage> }>
  }
  /** Resources: listed (every page), their templates, and read. */
  readonly resources: {
    readonly list: () => Promise<ReadonlyArray<ListedResource>>
    readonly templates: () => Promise<ReadonlyArray<ListedResource>>
    readonly read: (uri: string, options?: CallOptions) => Promise<ReadonlyArray<ResourceContents>>
  }
  /** Sends `ping`. */
  readonly ping: () => Promise<void>
  /** The revision spoken (`2026-07-28`, or the 2025 one `initialize` agreed on). */
  readonly protocolVersion: () => string | undefined
  /** The server's name and version, as it gave them. */
  readonly serverInfo: () => { readonly name: string; readonly version: string } | undefined
  /** Closes the connection (and ends a stdio server's process). */
  readonly close: () => Promise<void>
}
