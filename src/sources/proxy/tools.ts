/**
 * The upstream's tools as emcp tools: each listed tool becomes a `runtimeTool` with the same
 * name, schemas, description, title, annotations and icons, whose handler calls the upstream.
 * The call carries the downstream call's progress (both ways), cancellation (its signal) and
 * the upstream's questions (routes.ts). Because they are ordinary tools of an ordinary server,
 * mount, transforms, visibility, middleware and telemetry apply to them as to any other.
 *
 * @example
 * import { proxyTool } from './tools.js'
 * const tool = proxyTool({ name: 'add', inputSchema: { type: 'object' } }) // a RuntimeTool named add
 */
import type { CallToolResult as UpstreamResult, Client, Tool as ListedTool } from '@modelcontextprotocol/client'
import { runtimeToolOf, type RuntimeArgs, type RuntimeTool } from '../../contract/runtime-tool.js'
import { toolError, type CallToolResult, type ContentBlock } from '../../contract/content.js'
import type { ToolContext } from '../../server/context.js'
import { isObject } from '../../util/json-object.js'
import { errorCodes } from '../../protocol/jsonrpc.js'
import { MissingClientCapability } from '../../protocol/2026-07-28/input-required.js'
import type { Routes } from './routes.js'
import { relaysTasks, upstreamMeta, withOwnMeta } from './meta.js'
import { maxTaskIdLength, type TaskRelay } from './tasks.js'
import { asItCame } from './tap.js'
import { declaresTasks } from '../../features/tasks/extension.js'
import { reasonOf, UpstreamDown, type Upstream } from './upstream.js'
import { clip } from '../../util/clip.js'
import { limitCode } from '../../client/bounds.js'

// ---------------------------------------------------------------------------------------
// constructors

/** The emcp contract of one upstream tool, as listed; throws a TypeError (naming it) for a schema emcp cannot serve. */
export const proxyTool = (listed: ListedTool): RuntimeTool => {
  const { name, title, description, annotations, icons, _meta, inputSchema, outputSchema } = listed
  return runtimeToolOf(
    {
      name,
      // the conformance suite, and models, want a description: say where the tool comes from when it has none
      description: description ?? `${name} (relayed from an upstream MCP server)`,
      ...(title === undefined ? {} : { title }),
      ...(annotations === undefined ? {} : { annotations }),
      ...(icons === undefined ? {} : { icons: icons as never }),
      ...(_meta === undefined ? {} : { _meta }),
      input: inputSchema as { readonly [keyword: string]: unknown },
      ...(outputSchema === undefined ? {} : { output: outputSchema as { readonly [keyword: string]: unknown } }),
    },
    // upstream schemas are someone else's: unknown keywords are carried, not refused
    'allow',
  )
}

/** The handler of upstream tool `name`: calls it, relaying progress, cancellation, questions and (with `tasks`) task creation. */
export const relayCall =
  (up: Upstream, r: Routes, name: string, structured: boolean, tasks?: TaskRelay) =>
  async (args: RuntimeArgs, ctx: ToolContext): Promise<unknown> => {
    let client: Client
    try {
      client = await up.client()
    } catch (e) {
      return toolError(reasonOf(e))
    }
    let result: UpstreamResult
    const signal = attemptSignal(ctx)
    const options = {
      signal,
      onprogress: (p: { progress: number; total?: number; message?: string }) => ctx.progress(p.progress, p.total, p.message),
      resetTimeoutOnProgress: true,
      // the downstream call's own deadline (callTimeoutMs) bounds it
      timeout: 2 ** 31 - 1,
    }
    // a call that may become a task: sent as it is, its answer taken as it came (the SDK client has no tasks)
    const asTask = tasks !== undefined && relaysTasks(client) && declaresTasks(ctx.session)
    const params = { name, arguments: { ...args }, ...upstreamMeta(client, ctx) }
    try {
      result = await r.within(ctx, () => (asTask ? (client.request({ method: 'tools/call', params }, asItCame, options) as Promise<UpstreamResult>) : client.callTool(params, options)))
    } catch (e) {
      // a question the client could not be asked fails the call as the protocol says (-32021); a cancelled call says nothing about the connection
      const missing = r.missing(ctx)
      if (missing !== undefined) throw missing
      if (signal.aborted) return toolError(`${name} was cancelled`)
      return failed(up, name, e)
    }
    const missing = r.missing(ctx)
    if (missing !== undefined) throw missing
    const task = asTask ? tasks.tap.take(result) : undefined
    if (task === undefined) return answerOf(result, structured)
    // the task is handed to the takeover of the call (tasks.ts), which answers with it as it came
    return tasks?.created(ctx.session, task) === true ? '' : toolError(`the upstream answered ${name} with a task the proxy cannot relay (its taskId is not a string of 1 to ${maxTaskIdLength} characters)`)
  }


// ---------------------------------------------------------------------------------------
// internals

/**
 * The signal of one attempt at the call: the client cancelled it, or (2026-07-28) the attempt
 * ended because the client is being asked for input; the call then runs again, with the
 * answer, and the upstream is asked again.
 */
const attemptSignal = (ctx: ToolContext): AbortSignal => {
  const ended = ctx.session.ask?.ended()
  if (ended === undefined) return ctx.signal
  const attempt = new AbortController()
  const stop = (): void => attempt.abort('the client is asked for input; the call runs again with the answer')
  ended.then(stop, stop)
  return AbortSignal.any([ctx.signal, attempt.signal])
}

/** What the handler returns for the upstream's result: the structured value, or the result as it came. */
const answerOf = (result: UpstreamResult, structured: boolean): unknown => {
  const content = (Array.isArray(result.content) ? result.content : []) as ReadonlyArray<ContentBlock>
  if (result.isError === true) return toolError(content)
  // emcp writes the text block of a structured result itself, from the value it checked
  if (structured) return result.structuredContent === undefined ? toolError('the upstream tool returned no structuredContent although it declares an output schema') : result.structuredContent
  const out: CallToolResult = { content }
  return isObject(result._meta) ? withOwnMeta({ ...out, _meta: result._meta }) : out
}

/** A failed upstream call as a tool error; a lost connection is forgotten so that the next call connects again. */
const failed = (up: Upstream, name: string, e: unknown): unknown => {
  if (e instanceof UpstreamDown) return toolError(e.message)
  const code = (e as { code?: unknown } | null)?.code
  // the upstream asked what the client did not declare: the protocol's error (-32021) here too
  if (code === errorCodes.MissingRequiredClientCapability) {
    const data = (e as { data?: { requiredCapabilities?: unknown } }).data
    throw new MissingClientCapability(isObject(data?.requiredCapabilities) ? data.requiredCapabilities : {}, reasonOf(e).replace(/^MCP error -?\d+: (Missing required client capability: )?/, ''))
  }
  // an answer past one of the proxy's limits: the connection is fine, the answer was not passed on
  if (code === limitCode && isObject((e as { data?: unknown }).data) && typeof (e as { data: { limit?: unknown } }).data.limit === 'string')
    return toolError(`${name}: ${clip(reasonOf(e).replace(/^MCP error -?\d+: /, ''), 1000)}`)
  // a JSON-RPC error from the upstream: the connection is fine, the call was refused
  if (typeof code === 'number' && code < 0 && code > -33000) return toolError(`the upstream refused ${name}: ${clip(reasonOf(e), 1000)}`)
  const reason = reasonOf(e)
  up.reset(reason)
  return toolError(`the upstream MCP server ${up.label} did not answer ${name}: ${clip(reason, 1000)}; the proxy connects again on the next request`)
}
