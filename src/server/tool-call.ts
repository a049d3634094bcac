/**
 * `tools/call`, step by step: admit the call (a tool of that name, enabled, whose scopes the
 * caller holds and whom the server's authorization lets in, with object arguments, the
 * claim-bound ones filled from the token), then the tool-call middleware, then a feature
 * that takes the call over (the tasks extension) or the handler, and last the era's wire
 * shape (2025-11-25 clients see a non-object structured result wrapped). Internal: the
 * tool table (tools.ts) builds it over its registry.
 *
 * @example
 * import { toolCaller } from './tool-call.js'
 * // const call = toolCaller({ find: reg.get, isEnabled: reg.isEnabled, chain, takeovers: [] })
 * // call(request, session) // Right(CallToolResult), now or later
 */
import * as E from 'fp-ts/lib/Either.js'
import { runCall, type Callable } from './call.js'
import { clip } from '../util/clip.js'
import type { CallToolResult } from '../contract/content.js'
import { runWith } from './context.js'
import type { AnyTool } from '../contract/emcp.js'
import { map, type Eventually } from '../util/eventually.js'
import type { Answer, Feature } from './feature.js'
import { isObject } from '../util/json-object.js'
import { insufficientScope, rpcError, type Request, type RpcError } from '../protocol/jsonrpc.js'
import { questionsAsData } from '../protocol/2026-07-28/input-required.js'
import { wrapsOutput } from '../protocol/2025-11-25/legacy-output.js'
import { isModernVersion } from '../protocol/versions.js'
import type { Session } from './session.js'
import { runToolCall, type ToolCallStep, type ToolOutcome } from './middleware.js'
import { missingScopes } from './scopes.js'
import { bindClaims } from './claims.js'

// ---------------------------------------------------------------------------------------
// model

/** The hooks a server's middleware installs, read on every request (a server may gain more). */
export interface Chain {
  readonly toolCall: ToolCallStep[]
  readonly authorize: Array<(tool: AnyTool, session: Readonly<Session>) => boolean>
}

/** What a call needs from the tool table: its tools by name, and the server's hooks. */
export interface CallSetup {
  readonly find: (name: string) => Callable | undefined
  readonly isEnabled: (name: string) => boolean
  readonly chain: Chain
  /** Features that may take a call over (the tasks extension). */
  readonly takeovers: ReadonlyArray<Feature>
}

/** The arguments of an admitted call: an object, claim-bound ones filled. */
type Arguments = { readonly [key: string]: unknown }

// ---------------------------------------------------------------------------------------
// functions

/** True when every authorization predicate of `chain` lets `session` use `tool`. */
export const authorized = (chain: Chain, tool: AnyTool, session: Session): boolean => chain.authorize.every((f) => f(tool, session))

/** The `tools/call` method over the tools of `setup`. */
export const toolCaller = (setup: CallSetup): ((req: Request, session: Session) => Answer) => (req, session) => {
  const c = admitTool(setup, req, session)
  if (c instanceof Refusal) return c.answer
  const args = admitArguments(c, req, session)
  return args instanceof Refusal ? args.answer : callWith(setup, c, req, session, args)
}

// ---------------------------------------------------------------------------------------
// internals

/**
 * The answer that refuses a call before any middleware runs. A class of its own, so that an
 * admitted call needs no wrapper: nothing a client sends is an instance of it.
 */
class Refusal {
  constructor(readonly answer: E.Either<RpcError, unknown>) {}
}

/** The tool a call names, if the caller may call it. */
const admitTool = (setup: CallSetup, req: Request, session: Session): Callable | Refusal => {
  const name = req.params?.name
  if (typeof name !== 'string') return refuse(rpcError('InvalidParams', 'tools/call: params.name must be a string'))
  const c = setup.find(name)
  if (c === undefined) return refuse(rpcError('UnknownTool', `Unknown tool: ${clip(name)}`))
  if (!setup.isEnabled(name)) return refuse(rpcError('UnknownTool', `Tool ${name} is disabled`))
  const missing = missingScopes(c.tool, session)
  if (missing.length > 0) return refuse(insufficientScope(`Forbidden: tool ${name} needs the scope ${missing.join(' ')}`, c.tool.scopes ?? missing))
  if (setup.chain.authorize.length > 0 && !authorized(setup.chain, c.tool, session))
    return refuse(rpcError('Forbidden', `Forbidden: ${session.identity === undefined ? 'an anonymous caller' : `${session.identity.subject}`} may not call tool ${clip(name)}`))
  return c
}

/** The call's arguments: an object, the claim-bound ones filled from the token. */
const admitArguments = (c: Callable, req: Request, session: Session): Arguments | Refusal => {
  const args = req.params?.arguments ?? {}
  if (!isObject(args)) return refuse(rpcError('InvalidParams', 'tools/call: params.arguments must be an object'))
  if (c.tool.claims === undefined) return args
  // the arguments a contract binds to token claims: filled here, before middleware and handler see
  // them; a claim that does not bind is an answer already (an error, or an isError result)
  const bound = bindClaims(c.tool, args, session)
  return E.isLeft(bound) ? new Refusal(bound.left) : bound.right
}

const refuse = (e: RpcError): Refusal => new Refusal(E.left(e))

/** The call once its arguments are known: the tool-call middleware, then the tool. */
const callWith = (setup: CallSetup, c: Callable, req: Request, session: Session, args: Arguments): Answer => {
  const { toolCall } = setup.chain
  const out =
    toolCall.length === 0
      ? runTool(setup, c, req, session, args)
      : runToolCall(toolCall, { id: req.id, method: req.method, params: req.params, session, tool: c.tool, arguments: args }, (a) =>
          questionsAsData(() => runTool(setup, c, req, session, a)) as Eventually<ToolOutcome>,
        )
  // the era shapes the wire: middleware sees the contract's own structured results
  return wrapsOutput(c.tool.outputSchema) && !isModernVersion(session.protocolVersion) ? map(out, legacyWrapped) : out
}

/** The handler (or a feature that takes the call over, e.g. to run it as a task). */
const runTool = (setup: CallSetup, c: Callable, req: Request, session: Session, args: Arguments): Answer => {
  // without features that take calls over (the common case), no closure per call
  if (setup.takeovers.length === 0) return map(runWith(req, session, runCall, c, args), E.right)
  const run = (s: Session): Eventually<CallToolResult> => runWith(req, s, runCall, c, args)
  for (const f of setup.takeovers) {
    const taken = f.call?.({ tool: c.tool, request: req, session, run })
    if (taken !== undefined) return taken
  }
  return map(run(session), E.right)
}

/** A 2025-11-25 answer: the structured result of a non-object output schema, wrapped as `{ result }`. */
const legacyWrapped = (out: E.Either<RpcError, unknown>): E.Either<RpcError, unknown> => {
  if (E.isLeft(out)) return out
  const r = out.right as CallToolResult
  return isObject(r) && r.structuredContent !== undefined && r.resultType === undefined ? E.right({ ...r, structuredContent: { result: r.structuredContent } }) : out
}
