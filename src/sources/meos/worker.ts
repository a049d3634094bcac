/**
 * A MEOS worker process: the only place libmeos runs. Started by the pool (pool.ts) with
 * `child_process.fork`; its first message says which library to open and which plans to
 * serve, it answers with the symbols the library lacks, then it runs one call per message
 * and answers each with its outcome. Some MEOS functions end the process on bad input
 * (`exit(1)` from their PostgreSQL error paths) or crash (SIGSEGV, SIGABRT): that ends this
 * process only, and the pool says so to the caller and starts another.
 *
 * @example
 * // fork(new URL('./meos-worker.js', import.meta.url), [], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
 * // then send { kind: 'start', library, plans, decoders, universal } and { kind: 'call', id, tool, args }
 */
import { openMeos, type Meos } from './ffi.js'
import { invoke, type Outcome } from './invoke.js'
import type { CallPlan, Decoders } from './plan.js'

// ---------------------------------------------------------------------------------------
// model

/** The first message: what to open and serve. */
export interface StartMessage {
  readonly kind: 'start'
  readonly library: string
  readonly plans: ReadonlyArray<CallPlan>
  readonly decoders: Decoders
  readonly universal: boolean
}

/** One call. */
export interface CallMessage {
  readonly kind: 'call'
  readonly id: number
  readonly tool: string
  readonly args: { readonly [name: string]: unknown }
}

/** What the worker says: ready (with the symbols it lacks), unable to start, or a call's outcome. */
export type WorkerMessage =
  | { readonly kind: 'ready'; readonly missing: ReadonlyArray<string> }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'outcome'; readonly id: number; readonly outcome: Outcome }

// ---------------------------------------------------------------------------------------
// the process

const send = (m: WorkerMessage): void => {
  process.send?.(m)
}

let meos: Meos | undefined
let start: StartMessage | undefined
const plans = new Map<string, CallPlan>()

const onStart = async (m: StartMessage): Promise<void> => {
  try {
    meos = await openMeos(m.library)
  } catch (e) {
    send({ kind: 'failed', message: e instanceof Error ? e.message : String(e) })
    return
  }
  start = m
  const missing: string[] = []
  for (const p of m.plans) {
    if (meos.has(p.symbol)) plans.set(p.tool, p)
    else missing.push(p.symbol)
  }
  send({ kind: 'ready', missing })
}

const onCall = (m: CallMessage): void => {
  const plan = plans.get(m.tool)
  let outcome: Outcome
  if (meos === undefined || start === undefined) outcome = { kind: 'error', message: 'the MEOS worker has not started' }
  else if (plan === undefined) outcome = { kind: 'error', message: `no MEOS function is served for tool ${m.tool}` }
  else {
    try {
      outcome = invoke(meos, plan, m.args, { decoders: start.decoders, universal: start.universal })
    } catch (e) {
      outcome = { kind: 'error', message: `${m.tool}: ${e instanceof Error ? e.message : String(e)}` }
    }
  }
  send({ kind: 'outcome', id: m.id, outcome })
}

process.on('message', (m: StartMessage | CallMessage) => {
  if (m.kind === 'start') void onStart(m)
  else if (m.kind === 'call') onCall(m)
})
// the pool gone: nothing left to serve
process.on('disconnect', () => process.exit(0))
