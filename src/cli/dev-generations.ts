/**
 * The generations of `emcp dev`: each load of the module runs in a child process of its own
 * (src/cli/dev-child.ts). Why a process and not `import('./m.js?v=2')`: Node 20 keeps every
 * ES module it has loaded, so a query string reloads the entry module but not what it
 * imports, and each reload would leak the whole previous graph; a worker thread has the same
 * per-thread cache and shares the port badly. A process loads the whole graph afresh, and
 * ending it frees everything. At most two live at once: the one serving, and the one
 * starting; the old one is ended (drained) as soon as the new one is ready, and a failed one
 * leaves the last good one serving.
 *
 * @example
 * const gens = generations(childScript, 'dist/examples/calculator.js', process.cwd(), console.log)
 * await gens.reload() // { ok: true, generation: 1 } once it serves; gens.port() is then its port
 */
import { fork, type ChildProcess } from 'node:child_process'
import type { ChildMessage } from './dev-child.js'

/** How one load ended, and the files the module loaded (none when the child never said). */
export type LoadOutcome = ({ readonly ok: true; readonly generation: number } | { readonly ok: false; readonly generation: number; readonly error: string }) & {
  readonly files: ReadonlyArray<string>
}

/** The longest a generation may take to load and listen before it counts as failed. */
const startTimeoutMs = 60_000

/** The generations of one module. */
export const generations = (script: string, modulePath: string, cwd: string) => {
  let serving: { readonly child: ChildProcess; readonly port: number } | undefined
  let count = 0
  let running: Promise<LoadOutcome> | undefined
  let again = false

  const start = (): Promise<LoadOutcome> => {
    const generation = ++count
    const child = fork(script, [modulePath, cwd], { cwd, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    return new Promise<LoadOutcome>((resolve) => {
      const fail = (error: string, files: ReadonlyArray<string> = []): void => {
        clearTimeout(timer)
        child.kill('SIGKILL')
        resolve({ ok: false, generation, error, files })
      }
      const timer = setTimeout(() => fail(`it did not start serving within ${startTimeoutMs / 1000} s`), startTimeoutMs)
      child.once('message', (m: ChildMessage) => {
        if ('failed' in m) return fail(m.failed, m.files)
        clearTimeout(timer)
        const old = serving
        serving = { child, port: m.ready }
        // the old generation drains (answers what it was answering) and exits
        old?.child.disconnect()
        old?.child.kill('SIGTERM')
        resolve({ ok: true, generation, files: m.files })
      })
      child.once('exit', (code, signal) => {
        if (serving?.child === child) serving = undefined
        fail(`it exited (${signal ?? `code ${String(code)}`}) before serving`)
      })
    })
  }

  /** Loads the module again; a reload asked for while one runs runs once after it (changes coalesce). */
  const reload = (): Promise<LoadOutcome> => {
    if (running !== undefined) {
      again = true
      return running
    }
    running = start().then(async (outcome) => {
      running = undefined
      if (!again) return outcome
      again = false
      return reload()
    })
    return running
  }

  return {
    reload,
    /** The port of the generation serving, if any. */
    port: (): number | undefined => serving?.port,
    /** Ends the generation serving. */
    close: (): void => {
      serving?.child.kill('SIGTERM')
      serving = undefined
    },
  }
}
