/// <reference types="node" preserve="true" />
/**
 * Crash isolation: MEOS calls run in worker processes (worker.ts), never in the server's.
 * Each worker runs one call at a time; calls wait in one queue (bounded) for the next idle
 * worker. A call that ends its worker (`exit(1)` from a MEOS error path, SIGSEGV, SIGABRT)
 * answers with what happened, with the worker's last words on standard error, and the
 * worker is replaced; calls on other workers go on. A call past its deadline has its worker
 * killed and replaced the same way. A library that cannot be opened fails every call with
 * the reason, rather than restarting forever.
 *
 * @example
 * import { startPool } from './pool.js'
 * const pool = startPool({ library: '/usr/local/lib/libmeos.so', plans, decoders, universal: true, workers: 2, timeoutMs: 10_000 })
 * const missing = await pool.ready
 * await pool.call('temporal_num_instants', { temp: '{t@2000-01-01, f@2000-01-02}' }) // { kind: 'value', value: 2 }
 */
import { fork, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Outcome } from './invoke.js'
import type { CallPlan, Decoders } from './plan.js'
import type { StartMessage, WorkerMessage } from './worker.js'

// ---------------------------------------------------------------------------------------
// model

/** How the pool runs. */
export interface PoolOptions {
  readonly library: string
  readonly plans: ReadonlyArray<CallPlan>
  readonly decoders: Decoders
  readonly universal: boolean
  /** Worker processes. */
  readonly workers: number
  /** A call's deadline in milliseconds; its worker is killed when it passes. */
  readonly timeoutMs: number
  /** Calls that may wait for a worker (default 1024); one more is refused. */
  readonly maxQueue?: number
  /**
   * Calls a worker serves before it is replaced (default 10 000): what MEOS leaks on its
   * error paths stays bounded, whatever a client sends.
   */
  readonly recycleAfter?: number
  /** The worker script (default: the built one beside this module). */
  readonly script?: string
}

/** A pool of MEOS worker processes. */
export interface Pool {
  /** Settles once the first worker has opened the library: the symbols it lacks; rejects when it cannot be opened. */
  readonly ready: Promise<ReadonlyArray<string>>
  /** Runs one call; never rejects. */
  readonly call: (tool: string, args: { readonly [name: string]: unknown }, signal?: AbortSignal) => Promise<Outcome>
  /** The live workers' process ids. */
  readonly pids: () => ReadonlyArray<number>
  /** Workers started since the pool was (restarts included). */
  readonly started: () => number
  /** Ends every worker; calls still waiting answer that the server is closing. */
  readonly close: () => Promise<void>
}

interface Job {
  readonly id: number
  readonly tool: string
  readonly args: { readonly [name: string]: unknown }
  readonly resolve: (o: Outcome) => void
  readonly signal?: AbortSignal | undefined
}

interface Slot {
  readonly child: ChildProcess
  ready: boolean
  /** Calls answered so far. */
  served: number
  /** Replaced after its share of calls: its exit is expected. */
  retired: boolean
  job?: Job | undefined
  timer?: NodeJS.Timeout | undefined
  overdue: boolean
  tail: string
}

// ---------------------------------------------------------------------------------------
// functions

/** Starts `options.workers` workers and answers calls through them. */
export const startPool = (options: PoolOptions): Pool => {
  let settle: State['settle']
  const ready = new Promise<ReadonlyArray<string>>((resolve, reject) => (settle = { resolve, reject }))
  // a rejection nobody awaits must not end the process
  ready.catch(() => undefined)
  const st: State = {
    options, script: options.script ?? workerScript(), queue: [], slots: new Set(),
    nextId: 1, started: 0, closing: false, broken: undefined, earlyDeaths: 0, settle,
  }
  for (let i = 0; i < Math.max(1, options.workers); i++) spawnWorker(st)
  const maxQueue = options.maxQueue ?? 1024
  return {
    ready,
    call: (tool, args, signal) =>
      new Promise<Outcome>((resolve) => {
        if (st.broken !== undefined) return resolve({ kind: 'error', message: st.broken })
        if (st.closing) return resolve({ kind: 'error', message: 'the MEOS server is closing' })
        if (st.queue.length >= maxQueue) return resolve({ kind: 'error', message: `the MEOS workers are busy: ${st.queue.length} calls are waiting; try again later` })
        st.queue.push({ id: st.nextId++, tool, args, resolve, signal })
        pump(st)
      }),
    pids: () => [...st.slots].flatMap((s) => (s.child.pid === undefined ? [] : [s.child.pid])),
    started: () => st.started,
    close: async () => {
      st.closing = true
      for (const j of st.queue.splice(0)) j.resolve({ kind: 'error', message: 'the MEOS server is closing' })
      const ends = [...st.slots].map((s) => new Promise<void>((resolve) => (s.child.exitCode !== null || s.child.signalCode !== null ? resolve() : s.child.once('exit', () => resolve()))))
      for (const s of st.slots) s.child.kill('SIGKILL')
      await Promise.all(ends)
    },
  }
}

/** The default worker count: one per core, at most four (each worker holds its own copy of libmeos's state). */
export const defaultWorkers = (cores: number): number => Math.max(1, Math.min(4, cores))

// ---------------------------------------------------------------------------------------
// internals

/** The pool's state, shared by the functions below. */
interface State {
  readonly options: PoolOptions
  readonly script: string
  readonly queue: Job[]
  readonly slots: Set<Slot>
  nextId: number
  started: number
  closing: boolean
  broken: string | undefined
  /** Workers that ended before they were ready, in a row: three mean the library cannot be served. */
  earlyDeaths: number
  settle: { resolve: (missing: ReadonlyArray<string>) => void; reject: (e: Error) => void } | undefined
}

/** The pool cannot serve (the library cannot be opened): every waiting call and every later one gets the reason. */
const fail = (st: State, message: string): void => {
  st.broken = message
  st.settle?.reject(new Error(message))
  st.settle = undefined
  for (const j of st.queue.splice(0)) j.resolve({ kind: 'error', message })
}

/** Gives waiting calls to idle workers. */
const pump = (st: State): void => {
  for (const slot of st.slots) {
    if (!slot.ready || slot.job !== undefined) continue
    let job = st.queue.shift()
    while (job?.signal?.aborted === true) {
      job.resolve({ kind: 'error', message: 'the call was cancelled before a MEOS worker took it' })
      job = st.queue.shift()
    }
    if (job === undefined) return
    dispatch(st, slot, job)
  }
}

const dispatch = (st: State, slot: Slot, job: Job): void => {
  slot.job = job
  // the last words reported for a call are its own, not an earlier call's warnings
  slot.tail = ''
  slot.timer = setTimeout(() => {
    slot.overdue = true
    slot.child.kill('SIGKILL')
  }, st.options.timeoutMs)
  try {
    slot.child.send({ kind: 'call', id: job.id, tool: job.tool, args: job.args })
  } catch {
    // the channel closed under us: the exit handler answers the job
    slot.child.kill('SIGKILL')
  }
}

const spawnWorker = (st: State): void => {
  st.started++
  const child = fork(st.script, [], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], serialization: 'json' })
  const slot: Slot = { child, ready: false, served: 0, retired: false, overdue: false, tail: '' }
  st.slots.add(slot)
  const keepTail = (chunk: Buffer): void => {
    slot.tail = (slot.tail + chunk.toString('utf8')).slice(-2048)
  }
  child.stdout?.on('data', keepTail)
  child.stderr?.on('data', keepTail)
  child.on('error', (e) => keepTail(Buffer.from(`\n${e.message}\n`)))
  child.on('message', (m: WorkerMessage) => onMessage(st, slot, m))
  child.once('exit', (code, signal) => onExit(st, slot, code, signal))
  const o = st.options
  const start: StartMessage = { kind: 'start', library: o.library, plans: o.plans, decoders: o.decoders, universal: o.universal }
  child.send(start)
}

const onMessage = (st: State, slot: Slot, m: WorkerMessage): void => {
  if (m.kind === 'ready') {
    slot.ready = true
    st.earlyDeaths = 0
    st.settle?.resolve(m.missing)
    st.settle = undefined
    pump(st)
  } else if (m.kind === 'failed') {
    fail(st, `the MEOS worker could not start: ${m.message}`)
    slot.child.kill('SIGKILL')
  } else if (slot.job !== undefined && slot.job.id === m.id) {
    clearTimeout(slot.timer)
    const job = slot.job
    slot.job = undefined
    job.resolve(m.outcome)
    if (++slot.served >= (st.options.recycleAfter ?? 10_000)) {
      // no more calls for it: it exits on the disconnect, and onExit starts its successor
      slot.ready = false
      slot.retired = true
      slot.child.disconnect()
    }
    pump(st)
  }
}

/** A worker ended: its call (if any) is told how, and another worker takes its place. */
const onExit = (st: State, slot: Slot, code: number | null, signal: NodeJS.Signals | null): void => {
  st.slots.delete(slot)
  clearTimeout(slot.timer)
  const how = signal !== null ? signal : `exit code ${String(code)}`
  const words = lastWords(slot.tail)
  if (slot.job !== undefined) {
    const message = slot.overdue
      ? `the MEOS call did not finish within ${st.options.timeoutMs} ms: its worker was ended (${how}) and restarted`
      : `the MEOS call ended its worker: ${how}${words === '' ? '' : ` (${words})`}; the worker was restarted`
    slot.job.resolve({ kind: 'error', message })
  }
  if (st.closing || st.broken !== undefined) return
  if (!slot.ready && !slot.retired && ++st.earlyDeaths >= 3) {
    fail(st, `the MEOS worker ended before it was ready, three times: ${how}${words === '' ? '' : ` (${words})`}`)
    return
  }
  spawnWorker(st)
  pump(st)
}

/** The last non-empty line a worker wrote, bounded: what MEOS printed before it ended the process. */
const lastWords = (tail: string): string => {
  const lines = tail.split('\n').map((l) => l.trim()).filter((l) => l !== '')
  const last = lines.at(-1) ?? ''
  return last.length > 300 ? `${last.slice(0, 300)}…` : last
}

/** The built worker: beside the bundle (dist/bundle/meos-worker.js), beside dist/src's module, or the package's from the sources. */
const workerScript = (): string => {
  for (const place of ['./meos-worker.js', './worker.js', '../../../dist/bundle/meos-worker.js']) {
    const path = fileURLToPath(new URL(place, import.meta.url))
    if (existsSync(path) && !path.endsWith('.ts')) return path
  }
  throw new Error('the MEOS worker is not built (meos-worker.js not found): run `npm run build` in the emcp package')
}
