/**
 * The tool table's side of tool-search mode (features/tool-search): which tools
 * `tools/list` shows while it is on, the `search_tools` callable over the session's visible
 * tools, and `call_tool`, answered by re-entering `tools/call` with the named tool, so that
 * the tool's own admission, middleware and validation run, and nothing else. Internal.
 *
 * @example
 * import { searchGate } from './search-gate.js'
 * // const gate = searchGate({ tools: () => reg.view().enabled, has: reg.isEnabled, chain })
 * // gate.set({ pinned: ['add'] }, reg.list().map((c) => c.tool))
 */
import * as E from 'fp-ts/lib/Either.js'
import { callable, type Callable } from './call.js'
import { errorMessage, type CallToolResult } from '../contract/content.js'
import type { AnyTool } from '../contract/emcp.js'
import type { Answer } from './feature.js'
import { clip } from '../util/clip.js'
import { isObject } from '../util/json-object.js'
import { once } from '../util/once.js'
import { rpcError, type Request } from '../protocol/jsonrpc.js'
import { legacyOutputSchema, wrapsOutput } from '../protocol/2025-11-25/legacy-output.js'
import { isModernVersion } from '../protocol/versions.js'
import type { Session } from './session.js'
import { missingScopes } from './scopes.js'
import { authorized, type Chain } from './tool-call.js'
import {
  callTool,
  callToolName,
  listedInSearch,
  nearestNames,
  searchAnswer,
  searchMode,
  searchTool,
  searchToolName,
  type SearchMode,
  type ToolSearchOptions,
} from '../features/tool-search/mode.js'

// ---------------------------------------------------------------------------------------
// model

/** What the gate needs from the tool table. */
export interface GateSetup {
  /** The enabled tools, the same array until the table changes. */
  readonly enabled: () => ReadonlyArray<AnyTool>
  /** True when a name is an enabled tool of the table that the session may see. */
  readonly has: (name: string, session: Session) => boolean
  readonly chain: Chain
  /** What else hides a tool from a session (a mount's visibility); absent when nothing does. */
  readonly visible?: (tool: AnyTool, session: Session) => boolean
}

/** Tool-search mode, as the tool table consults it. */
export interface SearchGate {
  /** The mode now; undefined when off. */
  readonly mode: () => SearchMode | undefined
  /** Turns the mode on with these options over `tools` (checked: gateway names free, pinned names known), or off. */
  readonly set: (options: ToolSearchOptions | undefined, tools: ReadonlyArray<AnyTool>) => void
  /** The tools `tools/list` shows while the mode is on. */
  readonly listed: (enabled: ReadonlyArray<AnyTool>) => ReadonlyArray<AnyTool>
  /** A gateway's callable (`search_tools`; `call_tool`, whose calls `callThrough` answers), when the mode is on. */
  readonly find: (name: string) => Callable | undefined
  /** Answers a `tools/call` of `call_tool` by calling the tool it names with `call`. */
  readonly callThrough: (req: Request, session: Session, call: (req: Request, session: Session) => Answer) => Answer
}

// ---------------------------------------------------------------------------------------
// constructors

/** The gate over a tool table. */
export const searchGate = (setup: GateSetup): SearchGate => {
  const state: { mode?: SearchMode; listedOf?: ReadonlyArray<AnyTool>; listed?: ReadonlyArray<AnyTool> } = {}
  const visibleTo = (session: Readonly<Session>) => (t: AnyTool): boolean =>
    missingScopes(t, session).length === 0 && authorized(setup.chain, t, session as Session) && (setup.visible === undefined || setup.visible(t, session as Session))
  // the gateways' callables are made when search mode first finds one: a server without it never pays for them
  const search = once(() =>
    callable(searchTool(), (args, ctx) => {
      const mode = state.mode
      // the mode was turned off while this call waited: nothing to search
      if (mode === undefined) return errorMessage(`tool ${searchToolName} is not served now`)
      // `args` passed searchTool's input schema before the handler runs; the output schemas are
      // shown as tools/list shows them to this session's era
      const legacy = !isModernVersion(ctx.session.protocolVersion)
      const outputSchema = (t: AnyTool) => (legacy && t.outputSchema !== undefined && wrapsOutput(t.outputSchema) ? legacyOutputSchema(t.outputSchema) : t.outputSchema)
      return searchAnswer(mode.indexOf(setup.enabled()), args as Parameters<typeof searchAnswer>[1], mode.defaultLimit, { visible: visibleTo(ctx.session), outputSchema })
    }),
  )
  const gateway = once(() => callable(callTool(), () => errorMessage(`${callToolName} is answered by the tool it names`)))
  return {
    mode: () => state.mode,
    set: (options, tools) => {
      state.mode = options === undefined ? undefined : searchMode(options, tools)
      state.listedOf = undefined
    },
    listed: (enabled) => {
      const mode = state.mode
      if (mode === undefined) return enabled
      if (state.listedOf !== enabled || state.listed === undefined) {
        state.listed = listedInSearch(mode, enabled)
        state.listedOf = enabled
      }
      return state.listed
    },
    find: (name) => (state.mode === undefined ? undefined : name === searchToolName ? search() : name === callToolName ? gateway() : undefined),
    callThrough: (req, session, call) => {
      const mode = state.mode
      if (mode === undefined) return call(req, session)
      if (setup.chain.authorize.length > 0 && !authorized(setup.chain, callTool(), session))
        return E.left(rpcError('Forbidden', `Forbidden: ${session.identity === undefined ? 'an anonymous caller' : session.identity.subject} may not call tool ${callToolName}`))
      const target = targetOf(req.params?.arguments)
      if (typeof target === 'string') return E.right(errorMessage(`Invalid arguments for tool ${callToolName}: ${target}`))
      if (target.name === callToolName) return E.right(errorMessage(`${callToolName} cannot call itself: give the name of the tool to call`))
      if (target.name !== searchToolName && !setup.has(target.name, session)) return E.right(unknownTool(mode, setup.enabled(), target.name, visibleTo(session)))
      const params = { ...req.params, name: target.name, arguments: target.arguments }
      return call({ ...req, params }, session)
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** The tool and arguments a `call_tool` call names, or what is wrong with them (as SEP-1303 words argument errors). */
const targetOf = (args: unknown): { readonly name: string; readonly arguments: { readonly [key: string]: unknown } } | string => {
  if (args !== undefined && !isObject(args)) return '(root): must be an object'
  const a = args ?? {}
  const extra = Object.keys(a).filter((k) => k !== 'name' && k !== 'arguments')
  if (extra.length > 0) return `(root): unexpected property ${clip(extra[0] as string)}: give the tool's arguments inside "arguments"`
  if (a.name === undefined) return '/name: is required: the name of the tool to call'
  if (typeof a.name !== 'string') return '/name: must be a string'
  if (a.name.length === 0 || a.name.length > 128) return `/name: must have 1 to 128 characters, not ${a.name.length}`
  if (a.arguments !== undefined && !isObject(a.arguments)) return '/arguments: must be an object'
  return { name: a.name, arguments: (a.arguments ?? {}) as { readonly [key: string]: unknown } }
}

/** The answer for a name that no tool the caller may see has: the nearest names it may see. */
const unknownTool = (mode: SearchMode, enabled: ReadonlyArray<AnyTool>, name: string, visible: (t: AnyTool) => boolean): CallToolResult => {
  const near = nearestNames(mode.indexOf(enabled), enabled, name, visible)
  return errorMessage(`${callToolName}: no tool is named ${clip(name)}${near.length > 0 ? `; the nearest: ${near.join(', ')}` : ''}. Find tools with ${searchToolName}.`)
}
