/**
 * 2026-07-28: a request's headers must match its body (SEP-2243): `MCP-Protocol-Version`
 * and `Mcp-Method` always, `Mcp-Name` for the methods that name something, and
 * `Mcp-Param-*` for tool parameters annotated with `x-mcp-header`. The check says why they
 * do not (the caller answers 400 with -32020), or nothing when they do.
 *
 * @example
 * import { headerCheck } from './modern-headers.js'
 * const mismatch = headerCheck(server)
 * mismatch(req, { method: 'tools/call', params: { name: 'echo', _meta: { ... } } }) // undefined, or why not
 */
import * as E from 'fp-ts/lib/Either.js'
import { clip, shown } from '../../util/clip.js'
import type { AnyTool } from '../../contract/emcp.js'
import { decodeHeader, sameValue, toolMirrors, valueAt, type MirroredParam } from '../../protocol/headers.js'
import { metaKeys } from '../../protocol/2026-07-28/modern.js'
import type { Server } from '../../server/server.js'
import type { HttpRequestHead } from './model.js'

// ---------------------------------------------------------------------------------------
// constructors

/** The header check of `server`'s tools (their mirrored parameters found once per tool). */
export const headerCheck = (server: Server) => {
  const mirrored = new WeakMap<AnyTool, ReadonlyArray<MirroredParam>>()
  // the tools by name, rebuilt when the server's list changes (it keeps the same array until then)
  const byName: { of?: ReadonlyArray<AnyTool>; tools: Map<string, AnyTool> } = { tools: new Map() }
  const toolNamed = (name: unknown): AnyTool | undefined => {
    const all = server.tools
    if (byName.of !== all) {
      byName.of = all
      byName.tools = new Map(all.map((t) => [t.name, t]))
    }
    return typeof name === 'string' ? byName.tools.get(name) : undefined
  }
  const paramsOf = (tool: AnyTool): ReadonlyArray<MirroredParam> => {
    let ps = mirrored.get(tool)
    if (ps === undefined) {
      const found = toolMirrors(tool)
      mirrored.set(tool, (ps = E.isRight(found) ? found.right : []))
    }
    return ps
  }

  /** Why the headers do not match the body, or undefined when they do. */
  const mismatch = (req: HttpRequestHead, m: { readonly method: string; readonly params: { readonly [key: string]: unknown } }): string | undefined => {
    const version = (m.params._meta as { readonly [key: string]: unknown })[metaKeys.protocolVersion]
    const header = req.header('mcp-protocol-version')
    if (header === undefined) return 'the MCP-Protocol-Version header is required'
    if (header !== version) return `MCP-Protocol-Version header ${shown(header)} does not match the body's ${shown(version)}`
    const method = req.header('mcp-method')
    if (method === undefined) return 'the Mcp-Method header is required'
    if (method !== m.method) return `Mcp-Method header ${shown(method)} does not match the body's ${shown(m.method)}`
    const source = nameSource[m.method]
    if (source !== undefined) {
      const raw = req.header('mcp-name')
      if (raw === undefined) return `the Mcp-Name header is required for ${clip(m.method)}`
      const name = decodeHeader(raw)
      if (E.isLeft(name)) return `Mcp-Name header is invalid: ${name.left}`
      if (name.right !== m.params[source]) return `Mcp-Name header ${shown(name.right)} does not match the body's ${source} ${shown(m.params[source])}`
    }
    if (m.method !== 'tools/call') return undefined
    const tool = toolNamed(m.params.name)
    if (tool === undefined) return undefined
    for (const p of paramsOf(tool)) {
      const body = valueAt(m.params.arguments, p.path)
      const raw = req.header(`mcp-param-${p.header.toLowerCase()}`)
      const label = `Mcp-Param-${p.header}`
      if (body === undefined || body === null) {
        if (raw !== undefined) return `${label} header is present but the arguments carry no ${p.path.join('.')}`
        continue
      }
      if (raw === undefined) return `the ${label} header is required: the arguments carry ${p.path.join('.')}`
      const value = decodeHeader(raw)
      if (E.isLeft(value)) return `${label} header is invalid: ${value.left}`
      if (!sameValue(value.right, body, p.type)) return `${label} header ${shown(value.right)} does not match the body's ${p.path.join('.')} ${shown(body)}`
    }
    return undefined
  }
  return mismatch
}

// ---------------------------------------------------------------------------------------
// internals

/** Where `Mcp-Name` comes from, by method (SEP-2243; the tasks extension, SEP-2663, adds its taskId). */
const nameSource: { readonly [method: string]: string } = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
}
