/**
 * emcp: MCP servers whose tool contracts are checked by the compiler. This barrel is the
 * public surface of the core, the stdio transport included (also at `emcp/stdio`: a stdio
 * server that imports everything from here spares Node's loader a second package resolution,
 * about a millisecond of its start); HTTP lives at `emcp/http`, manifests and catalogs at
 * `emcp/manifest`, the command line's `Command` interface at `emcp/cli`.
 *
 * @example
 * import { emcp, mcpServer, inMemoryClient } from 'emcp'
 * const add = emcp({
 *   name: 'add',
 *   description: 'Add two numbers.',
 *   input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
 *   output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
 * })
 * const server = mcpServer([add], { name: 'calc', version: '1.0.0' }).implement({ add: ({ a, b }) => ({ sum: a + b }) })
 * const { sum } = await inMemoryClient(server).call('add', { a: 1, b: 2 })
 */
export { emcp } from './contract/emcp.js'
export type { AnyTool, Icon, InputOf, InputShape, InputSpec, ListedTool, NameOf, OutputOf, OutputSpec, StandardWire, TaskSupport, WireOf, Tool, ToolAnnotations, ToolDef, ToolMeta, ValidName } from './contract/emcp.js'
export { runtimeTool } from './contract/runtime-tool.js'
export type { RuntimeArgs, RuntimeTool, RuntimeToolDef } from './contract/runtime-tool.js'
export { pure } from './contract/annotations.js'
export { mcpServer } from './server/server.js'
export { hub } from './server/hub.js'
export type { Hub } from './server/hub.js'
export { abbreviations } from './features/tool-search/abbreviations.js'
export type { Abbreviations } from './features/tool-search/abbreviations.js'
export { callToolName, maxQueryChars, maxSearchLimit, searchToolName } from './features/tool-search/mode.js'
export type { SearchHit, ToolSearchOptions } from './features/tool-search/mode.js'
export type { Answer, Completion, CompletionRequest, Feature, FeatureContext, FeatureFactory, ListenFilter, MethodHandler, Screen, ToolCall } from './server/feature.js'
export type { Server, ServerBuilder, ServerInfo, ServerOptions } from './server/server.js'
export { serveStdio, startStdio } from './transport/stdio.js'
export type { StdioOptions, StdioServer } from './transport/stdio.js'
export type { InterimResult, Middleware, NotificationInfo, NotificationStep, Outcome, RequestInfo, RequestStep, ToolCallInfo, ToolCallStep, ToolOutcome } from './server/middleware.js'
export { mount, mounted } from './compose/mount.js'
export type { CheckedParts, MountOptions, MountPart, MountServer, Mounted, MountedOptions, ToolsOfPart } from './compose/mount.js'
export { separator } from './compose/names.js'
export type { Namespaced, Prefixed } from './compose/names.js'
export type { HiddenValue, ToolTransform, Transformed, TransformedAll, TransformContext, Transforms } from './compose/transform.js'
export type { EntryKind, Visibility, VisibilityContext } from './compose/visibility.js'
export { sumOf } from './contract/sum.js'
export type { CheckedList, DuplicateNames, NamesOf, SumError, ToolList, ToolNamed } from './contract/sum.js'
export type { Handler, HandlerResult, Handlers } from './server/call.js'
export type { ElicitContent, ElicitProperty, ElicitResult, ElicitSchema, Root, SamplingMessage, SamplingRequest, SamplingResult, ToolContext } from './server/context.js'
export { ClientError, outbound } from './server/outbound.js'
export type { Outbound, RequestOptions, ServerMessage } from './server/outbound.js'
export { text, toolError, ToolError } from './contract/content.js'
export type {
  AudioContent,
  CallToolResult,
  ContentAnnotations,
  ContentBlock,
  EmbeddedResource,
  ImageContent,
  ResourceLink,
  TextContent,
  ToolContent,
} from './contract/content.js'
export { DateFromISOString, codecToJsonSchema, formatIssues, validatorOf, withSchema } from './schema/schema.js'
/** Loads the general validator engine (Ajv) ahead of its first use; only needed where it cannot be loaded synchronously (a bundle without node_modules). */
export { loadSchemaEngine } from './schema/schema-engine.js'
export type { Codec, Issue, JsonSchema, SchemaLiteral, SchemaSpec, TypeOfSpec, Validator } from './schema/schema.js'
export type { InferInput, InferOutput, StandardJsonConverter, StandardSchemaV1, StandardTypedV1 } from './schema/standard/spec.js'
export type { DefaultedEntry, OptionalEntry, ShapeType, ShapeValue, StandardShape } from './schema/standard/shape.js'
export { anyEncoding, dispatchOf, wireCodec, wireNameOf } from './schema/wire-codec.js'
export type { AnyEncodingDef, Dispatch, WireCodecDef, WireForm } from './schema/wire-codec.js'
export { fromManifest, manifestText, toManifest, validateManifest } from './sources/manifest/index.js'
export type { Manifest, ManifestTool, Policy } from './sources/manifest/index.js'
export { InputRequiredError, inMemoryClient, RpcCallError, ToolCallError } from './transport/in-memory.js'
export type { ArgsOf, Client, ClientOptions, ResultOf } from './transport/in-memory.js'
export { logLevels, newSession } from './server/session.js'
export type { ClientInfo, Identity, LogLevel, Session, SessionOrigin, TransportName } from './server/session.js'
export { batchesAllowed, isModernVersion, latestVersion, modernVersions, negotiate, supportedVersions } from './protocol/versions.js'
export type { AnyProtocolVersion, Era, ModernVersion, ProtocolVersion } from './protocol/versions.js'
export type { CacheableMethod, CacheHints, CacheOptions } from './protocol/2026-07-28/modern.js'
export { memoryStore } from './stores/memory.js'
export type { MemoryStore, MemoryStoreOptions } from './stores/memory.js'
export { channels, StoreUnavailable } from './stores/store.js'
export type { Bus, BusMessage, EventLog, EventReplay, SessionRecord, SessionRecords, SharedStore, StoredTask, TaskRecords } from './stores/store.js'
export { requestStateKeysFrom } from './protocol/2026-07-28/request-state.js'
export type { RequestStateOptions } from './protocol/2026-07-28/request-state.js'
export type { SubscriptionFilter } from './protocol/2026-07-28/subscriptions.js'
export { decode, encode, errorCodes, parse, rpcError } from './protocol/jsonrpc.js'
export type { Message, Notification, Outgoing, Reply, Request, RequestId, RpcError, RpcErrorObject, RpcErrorTag } from './protocol/jsonrpc.js'
export { expand, match, uriTemplate } from './features/uri-template.js'
export type { UriParams, UriTemplate } from './features/uri-template.js'
export { resource } from './features/resource.js'
export { resourceTemplate } from './features/resource-template.js'
export { resources } from './features/resources.js'
export type { Completer, CompletionContext } from './features/completion.js'
export type {
  BlobResourceContents,
  ListedResource,
  ListedResourceTemplate,
  ReadResourceResult,
  ReadResult,
  Resource,
  ResourceContents,
  ResourceContext,
  ResourceDef,
  ResourceMeta,
  TextResourceContents,
} from './features/resource.js'
export type { ResourceTemplate, ResourceTemplateDef } from './features/resource-template.js'
export type { AnyResource, ResourcesFeature, ResourcesOptions } from './features/resources.js'
export { prompt, prompts } from './features/prompts.js'
export type {
  AnyPrompt,
  CheckedArguments,
  CheckedPrompts,
  GetPromptResult,
  ListedPrompt,
  ListedPromptArgument,
  Prompt,
  PromptArgs,
  PromptArgumentSpec,
  PromptArguments,
  PromptArgumentsSpec,
  PromptContext,
  PromptDef,
  PromptMessage,
  PromptResult,
  PromptsFeature,
  PromptsOptions,
} from './features/prompts.js'
export { tasks, tasksExtension } from './features/tasks/extension.js'
export type { TasksFeature, TasksOptions } from './features/tasks/extension.js'
export { isTerminal, taskStore } from './features/tasks/store.js'
export type { AskOptions, DetailedTask, InputRequest, Task, TaskRecord, TaskStatus, TaskStore, TaskStoreOptions } from './features/tasks/store.js'
export type { CreateTaskResult } from './features/tasks/run.js'
export { appResource, linkApp, linkedAppOf, appsExtension, appMimeType } from './features/apps.js'
export type { AppResource, AppDef, AppCsp, AppPermissions, AppVisibility, Linked, MissingApps } from './features/apps.js'
