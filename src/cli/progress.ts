/**
 * A progress indicator on standard error for long work (validating thousands of tools): a
 * bar redrawn in place on a terminal, a line every tenth otherwise, nothing for work that
 * ends within half a second.
 *
 * @example
 * import { progress } from './progress.js'
 * const p = progress(io, 'validating')
 * for (let i = 1; i <= 2000; i++) p.update(i, 2000)
 * p.end()
 */
import type { CommandIO } from './command.js'

/** A running indicator. */
export interface Progress {
  readonly update: (done: number, total: number) => void
  readonly end: () => void
}

/** Starts an indicator labelled `label`; `now` is injectable for tests. */
export const progress = (io: CommandIO, label: string, delayMs = 500, now: () => number = Date.now): Progress => {
  const started = now()
  let shown = false
  let lastTenth = -1
  let lastDraw = 0
  const update = (done: number, total: number): void => {
    const t = now()
    // nothing at all for work that ends within the delay, however far it got
    if (total === 0 || (!shown && t - started < delayMs)) return
    const ratio = done / total
    if (io.interactive) {
      if (done < total && t - lastDraw < 50) return
      lastDraw = t
      const width = 30
      const filled = Math.round(ratio * width)
      io.err(`\r${label} [${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${total}`)
      shown = true
    } else {
      const tenth = Math.floor(ratio * 10)
      if (tenth === lastTenth) return
      lastTenth = tenth
      io.err(`${label}: ${done}/${total} (${Math.floor(ratio * 100)}%)\n`)
      shown = true
    }
  }
  const end = (): void => {
    if (shown && io.interactive) io.err('\n')
  }
  return { update, end }
}
