/**
 * The checks and tables a server is assembled from: its declared capabilities, the one
 * handler per tool rule, the method table shared with features, the answer to an unknown
 * method, and the eras option. Internal to server.ts, kept apart to keep that file short.
 *
 * @example
 * import { checkEras } from './assembly.js'
 * checkEras(['2026-07-28']) // fine; checkEras([]) throws
 */
import * as E from 'fp-ts/lib/Either.js'
import { clip } from '../util/clip.js'
import type { AnyTool } from '../contract/emcp.js'
import type { Callable } from './call.js'
import { rpcError, type Request } from '../protocol/jsonrpc.js'
import type { Answer, Feature, MethodHandler } from './feature.js'
import { knownMirrorFree, mirrorProblems } from '../protocol/headers.js'
import { allEras, type Era } from '../protocol/versions.js'
import { isObject } from '../util/json-object.js'

/**
 * What the server declares: its features' capabilities, completions when a feature completes,
 * tools and logging. `extensions` and `experimental` are maps by name, merged across features
 * (two features declaring one extension each both appear); any other key, the last feature's.
 */
export const capabilitiesOf = (features: ReadonlyArray<Feature>, completes: boolean): { readonly [key: string]: unknown } => {
  const merged: { [key: string]: unknown } = Object.assign({}, ...features.map((f) => f.capabilities), completes ? { completions: {} } : {}, { tools: { listChanged: true }, logging: {} })
  for (const key of byName) {
    const maps = features.map((f) => f.capabilities[key]).filter(isObject)
    if (maps.length > 1) merged[key] = Object.assign({}, ...maps)
  }
  return merged
}

/** The capabilities that are maps by name (of extensions, of experimental features). */
const byName = ['extensions', 'experimental'] as const

/**
 * The handler of each tool, in the order of `byName`, read once (a record changed after
 * `implement` changes nothing); fails unless there is exactly one handler per tool, and every
 * tool's header mirrors are well formed.
 */
export const checkHandlers = (byName: ReadonlyMap<string, AnyTool>, handlers: Record<string, unknown>): ReadonlyArray<Callable['handler']> => {
  const problems: string[] = []
  const mirrorErrors: string[] = []
  const found: Array<Callable['handler']> = []
  for (const tool of byName.values()) {
    // the map's key is its tool's name (sumOf)
    const handler = handlers[tool.name]
    if (typeof handler === 'function') found.push(handler as Callable['handler'])
    else problems.push(`missing handler for tool ${tool.name}`)
    // a schema whose contract's walk found no header mirror needs no second look (nearly every
    // tool): asked here, mirrorProblems is not called, nor compiled, for a server of such tools
    if (knownMirrorFree(tool)) continue
    const mirrors = mirrorProblems(tool)
    if (mirrors.length > 0) mirrorErrors.push(...mirrors)
  }
  // every key looked at: a handler found may be inherited (a prototype's, Object's own `constructor`), so no count of them says none is unknown
  for (const key of Object.keys(handlers)) if (!byName.has(key)) problems.push(`handler for unknown tool ${key}`)
  problems.push(...mirrorErrors)
  if (problems.length > 0) throw new TypeError(`emcp: ${problems.join('; ')}`)
  return found
}

/**
 * One table of every method answered: the server's own, then the features' (which may
 * neither take one of the server's nor share one between them).
 */
export const methodTable = (features: ReadonlyArray<Feature>, own: ReadonlyArray<readonly [string, MethodHandler]>): ReadonlyMap<string, MethodHandler> => {
  const methods = new Map<string, MethodHandler>(own)
  for (const f of features)
    for (const [method, handler] of Object.entries(f.methods)) {
      if (methods.has(method))
        throw new TypeError(own.some(([m]) => m === method) ? `emcp: a feature cannot answer ${method}: the server answers it` : `emcp: two features answer ${method}`)
      methods.set(method, handler)
    }
  return methods
}

/** A method no table answers: a notification sent with an id, or an unknown method. */
export const unknownMethod = (req: Request): Answer =>
  E.left(
    req.method.startsWith('notifications/')
      ? rpcError('InvalidRequest', `Invalid Request: ${clip(req.method)} is a notification; send it without an id`)
      : rpcError('MethodNotFound', `Method not found: ${clip(req.method)}`),
  )

/** Fails unless `eras` names one or both eras. */
export const checkEras = (eras: ReadonlyArray<Era> | undefined): void => {
  if (eras === undefined) return
  if (eras.length === 0 || !eras.every((e) => allEras.includes(e)))
    throw new TypeError(`emcp: eras must name one or both of ${allEras.join(', ')}, got ${JSON.stringify(eras)}`)
}
