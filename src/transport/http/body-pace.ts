/**
 * The pace a request body must keep: a deadline for the whole body, and a minimum average
 * rate after its first second. A body that falls behind is given up ('too-slow', answered
 * 408), so that a client declaring megabytes and sending a byte now and then holds neither
 * its share of the budget nor its socket for long. While other requests wait for the budget,
 * a body must also be on its way to its end (the rest within `pressedFinishSec` at its pace
 * of the last second): one sent quickly to a byte short of its end keeps a fine average, and
 * would otherwise hold its share until its deadline. Time spent waiting for the budget (the
 * server's doing, not the client's) does not count. The fetch adapter reads a Request's
 * stream under it here; the Node adapter reads its IncomingMessage in node-io.ts.
 *
 * @example
 * import { paceWatch } from './body-pace.js'
 * const watch = paceWatch({ timeoutMs: 60_000, minBytesPerSecond: 1024 }, 4096, () => console.error('too slow'))
 * watch.received(4096)
 * watch.stop()
 */
import type { BodyPace, BodyRead } from './model.js'
import { alarms, type Alarm } from '../../util/alarms.js'
import { joinUtf8 } from '../../util/bytes.js'

/** The first pace check of every body, a second after its read began, on one shared timer (no process kept alive for it). */
const firstSecond = alarms(1000, false)

// ---------------------------------------------------------------------------------------
// model

/** A running check of one body's pace. */
export interface PaceWatch {
  /** Counts the bytes received so far. */
  readonly received: (total: number) => void
  /** Waits for `reservation`, with the clock stopped meanwhile. */
  readonly waiting: (reservation: Promise<void>) => Promise<void>
  /** Stops the checks (the body is read, or given up). */
  readonly stop: () => void
}

// ---------------------------------------------------------------------------------------
// constructors

/**
 * While others wait for the budget, the seconds within which a body must be able to finish at
 * its pace of the last second: a body sent quickly up to just short of its end keeps a fine
 * average, and would otherwise hold its share, and stall everyone, until its deadline.
 */
export const pressedFinishSec = 5

/** Calls `onSlow` once if a body of `expected` bytes (undefined: unknown) falls behind `pace`. */
export const paceWatch = (pace: BodyPace, expected: number | undefined, onSlow: () => void): PaceWatch => {
  const started = Date.now()
  let got = 0
  let waited = 0
  let waitingSince: number | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  // the last check's count and active time: the pace of the last second
  let last = { got: 0, ms: 0 }
  const active = (): number => Date.now() - started - waited
  const check = (): void => {
    timer = undefined
    first = undefined
    if (waitingSince === undefined) {
      const ms = active()
      // counted in whole seconds after the first: a check that fires a moment late owes nothing more for it
      const owed = Math.min(expected ?? Number.POSITIVE_INFINITY, pace.minBytesPerSecond * Math.floor((ms - 1000) / 1000))
      if ((pace.timeoutMs > 0 && ms >= pace.timeoutMs) || got < owed) return onSlow()
      if (stalling(ms)) {
        pace.onHeldUp?.()
        return onSlow()
      }
      last = { got, ms }
    }
    schedule()
  }
  /** Under pressure: the rest of the body would not come within `pressedFinishSec` at the pace of the last second. */
  const stalling = (ms: number): boolean => {
    // a rate rule: off with the minimum rate
    if (pace.minBytesPerSecond <= 0 || pace.pressed?.() !== true || ms - last.ms < 500) return false
    const size = expected ?? pace.limit
    if (size === undefined) return false
    const rest = size - got
    const perSecond = ((got - last.got) * 1000) / (ms - last.ms)
    return rest > perSecond * pressedFinishSec
  }
  // one timer per body, at most a second apart, and due at the deadline
  const schedule = (): void => {
    const toDeadline = pace.timeoutMs > 0 ? Math.max(pace.timeoutMs - active(), 1) : Number.POSITIVE_INFINITY
    const next = Math.min(pace.minBytesPerSecond > 0 ? 1000 : Number.POSITIVE_INFINITY, toDeadline)
    if (next === Number.POSITIVE_INFINITY) return
    timer = setTimeout(check, next)
    // a pending check must not keep a process alive; runtimes whose timers are numbers have nothing to unref
    ;(timer as { unref?: () => void }).unref?.()
  }
  // the first check, a second in, on the alarms all bodies share: most bodies are read long before it
  let first: Alarm | undefined = pace.minBytesPerSecond > 0 && (pace.timeoutMs <= 0 || pace.timeoutMs > 1000) ? firstSecond(check) : undefined
  if (first === undefined) schedule()
  return {
    received: (total) => {
      got = total
    },
    waiting: async (reservation) => {
      waitingSince = Date.now()
      try {
        await reservation
      } finally {
        waited += Date.now() - waitingSince
        waitingSince = undefined
        // the pace of the last second starts again: the body was held back, not slow
        last = { got, ms: active() }
      }
    },
    stop: () => {
      first?.cancel()
      clearTimeout(timer)
    },
  }
}

// ---------------------------------------------------------------------------------------
// functions

/** A Web body read up to `limit` bytes at `pace`: past the limit or behind the pace, the stream is cancelled. */
export const readWebBody = async (body: ReadableStream<Uint8Array> | null, declared: number | undefined, limit: number, pace?: BodyPace): Promise<BodyRead> => {
  if (declared !== undefined && declared > limit) return 'too-large'
  if (body === null) return { text: '' }
  const reader = body.getReader()
  let slow = (): void => {}
  const tooSlow = new Promise<'too-slow'>((resolve) => (slow = () => resolve('too-slow')))
  const watch = pace === undefined ? undefined : paceWatch(pace, declared, slow)
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), tooSlow])
      if (next === 'too-slow' || (!next.done && size + next.value.byteLength > limit)) {
        void reader.cancel().catch(() => undefined)
        return next === 'too-slow' ? next : 'too-large'
      }
      if (next.done) break
      size += next.value.byteLength
      chunks.push(next.value)
      watch?.received(size)
      const reservation = pace?.reserve?.(size)
      if (reservation !== undefined) await (watch?.waiting(reservation) ?? reservation)
    }
  } finally {
    watch?.stop()
  }
  return { text: joinUtf8(chunks) }
}

/** The declared length of a body, when it is a number. */
export const declaredLength = (value: string | null | undefined): number | undefined => {
  const n = Number(value ?? Number.NaN)
  return Number.isFinite(n) && n >= 0 ? n : undefined
}
