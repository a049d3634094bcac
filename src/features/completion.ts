/**
 * Completion (`completion/complete`): completers suggest values for a prompt argument or a
 * resource template variable, and the server asks the features that own the reference.
 *
 * @example
 * import type { Completer } from 'emcp'
 * const city: Completer<{ city: string }> = (value) => ['Oslo', 'Osaka'].filter((c) => c.startsWith(value))
 */
import * as E from 'fp-ts/lib/Either.js'
import { clip } from '../util/clip.js'
import { map, type Eventually } from '../util/eventually.js'
import type { Completion, CompletionRequest, Feature } from '../server/feature.js'
import { isObject, isReadonlyArray } from '../util/json-object.js'
import { rpcError, type Request, type RpcError } from '../protocol/jsonrpc.js'
import type { Session } from '../server/session.js'

// ---------------------------------------------------------------------------------------
// model

/** The context of a completion: the other variables the client already resolved. */
export interface CompletionContext<P> {
  readonly arguments: { readonly [K in keyof P]?: string }
}

/** Suggests values for one variable (or argument): a list, or a `Completion` with a total. */
export type Completer<P> = (value: string, context: CompletionContext<P>) => Eventually<ReadonlyArray<string> | Completion>

// ---------------------------------------------------------------------------------------
// functions

/** Completes one argument through a table of completers (no values when it has none for it). */
export const completeWith = (
  completers: { readonly [name: string]: Completer<never> | undefined } | undefined,
  request: CompletionRequest,
): Eventually<Completion> => {
  const name = request.argument.name
  const completer = completers !== undefined && Object.hasOwn(completers, name) ? completers[name] : undefined
  if (completer === undefined) return { values: [] }
  const context = { arguments: request.context?.arguments ?? {} } as CompletionContext<never>
  return map(completer(request.argument.value, context), (c) => (isReadonlyArray(c) ? { values: c } : c))
}

/** `completion/complete`: the first feature that owns the reference answers; at most 100 values. */
export const complete = (completers: ReadonlyArray<Feature>, req: Request, session: Session): Eventually<E.Either<RpcError, unknown>> => {
  const p = req.params
  const ref = p?.ref as CompletionRequest['ref'] | undefined
  const argument = p?.argument as CompletionRequest['argument'] | undefined
  const validRef =
    isObject(ref) &&
    ((ref.type === 'ref/prompt' && typeof ref.name === 'string') || (ref.type === 'ref/resource' && typeof ref.uri === 'string'))
  if (!validRef || !isObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string')
    return E.left(rpcError('InvalidParams', 'completion/complete: params.ref (ref/prompt with a name, or ref/resource with a uri) and params.argument (name, value) are required'))
  const request = { ref, argument, context: isObject(p?.context) ? (p.context as CompletionRequest['context']) : undefined }
  const ask = (i: number): Eventually<E.Either<RpcError, unknown>> => {
    const f = completers[i]
    if (f?.complete === undefined)
      return E.left(rpcError('InvalidParams', `completion/complete: no ${ref.type === 'ref/prompt' ? `prompt named ${clip(ref.name)}` : `resource template ${clip(ref.uri)}`}`))
    return map(f.complete(request, session), (c) => (c === undefined ? ask(i + 1) : '_tag' in c ? E.left(c) : E.right({ completion: capped(c) })))
  }
  return ask(0)
}

const capped = (c: Completion): Completion => {
  if (c.values.length <= 100) return c
  return { values: c.values.slice(0, 100), total: c.total ?? c.values.length, hasMore: true }
}

// ---------------------------------------------------------------------------------------
// internals

