/**
 * Alarms of one fixed length on one timer: a call's deadline is set on every asynchronous
 * request and almost always cancelled a few milliseconds later, so each one as a Node timer
 * (a Timeout object, an async resource, a read of the loop's clock, a list insert and
 * removal) is work and memory spent per call for nothing. Alarms of one length fall due in
 * the order they were set: they wait in a doubly linked list (set: append; cancel: unlink,
 * both O(1), nothing left behind), and one timer waits for the first of them; it outlives the
 * alarms it waited for (without keeping the process alive), so that a line that empties after
 * every call does not cost a timer per call. Where timers are
 * plain numbers (workerd, Deno), a runtime may tie a timer to the request that set it, so
 * there each alarm keeps a timer of its own.
 *
 * @example
 * import { alarms } from './alarms.js'
 * const after5s = alarms(5_000)
 * const alarm = after5s(() => console.log('five seconds'))
 * alarm.cancel() // before then: nothing is logged
 */
// ---------------------------------------------------------------------------------------
// model

/** One alarm: `cancel` before it rings and it never does (after, it does nothing). */
export interface Alarm {
  cancel(): void
}

// ---------------------------------------------------------------------------------------
// constructors

/**
 * A setter of alarms that ring `ms` milliseconds after they are set (at the earliest; a busy
 * event loop rings them late, as it would a timer). While one is pending, its timer keeps the
 * process alive, as a timer of its own would, unless `keepAlive` is false.
 */
export const alarms = (ms: number, keepAlive = true): ((ring: () => void) => Alarm) => {
  const line = new Line(ms, keepAlive)
  return (ring) => ((sharedTimers ??= timersAreShared()) ? line.add(ring) : new OwnTimer(unrefUnless(keepAlive, setTimeout(ring, ms))))
}

// ---------------------------------------------------------------------------------------
// internals

/**
 * Node's and Bun's timers are objects of one process-wide event loop; a number may belong to
 * one request (workerd). Probed at the first alarm, inside a request: workerd sets no timer
 * while a module loads.
 */
const timersAreShared = (): boolean => {
  const probe = setTimeout(() => undefined, 0)
  clearTimeout(probe)
  return typeof probe === 'object' && typeof (probe as { unref?: unknown }).unref === 'function'
}
let sharedTimers: boolean | undefined

/** `timer`, unref'd when it must not keep the process alive (runtimes whose timers are numbers have nothing to unref). */
const unrefUnless = (keepAlive: boolean, timer: ReturnType<typeof setTimeout>): ReturnType<typeof setTimeout> => {
  if (!keepAlive) (timer as { unref?: () => void }).unref?.()
  return timer
}

/** An alarm on a timer of its own. */
class OwnTimer implements Alarm {
  constructor(readonly timer: ReturnType<typeof setTimeout>) {}
  cancel(): void {
    clearTimeout(this.timer)
  }
}

/** The pending alarms of one length, first due first, and the timer for the first. */
class Line {
  head: Entry | undefined = undefined
  tail: Entry | undefined = undefined
  // set for the first alarm's time; when that one is cancelled it rings nothing and is set again
  timer: ReturnType<typeof setTimeout> | undefined = undefined
  // whether the timer keeps the process alive now (only while an alarm is pending, on a keepAlive line)
  holding = false

  constructor(
    readonly ms: number,
    readonly keepAlive: boolean,
  ) {}

  add(ring: () => void): Entry {
    const e = new Entry(this, performance.now() + this.ms, ring)
    if (this.tail === undefined) this.head = e
    else {
      this.tail.next = e
      e.prev = this.tail
    }
    this.tail = e
    if (this.timer === undefined) this.arm()
    else if (this.keepAlive && !this.holding) {
      this.holding = true
      ;(this.timer as { ref?: () => void }).ref?.()
    }
    return e
  }

  remove(e: Entry): void {
    if (e.prev === undefined) this.head = e.next
    else e.prev.next = e.next
    if (e.next === undefined) this.tail = e.prev
    else e.next.prev = e.prev
    e.prev = e.next = undefined
    // nothing left: the timer stays, for the next alarm (a line that empties after each call would
    // otherwise make a timer per call), but no longer keeps the process alive; ringing nothing, it ends
    if (this.head === undefined && this.timer !== undefined && this.holding) {
      this.holding = false
      ;(this.timer as { unref?: () => void }).unref?.()
    }
  }

  arm(): void {
    const first = this.head
    if (first === undefined) return
    this.timer = unrefUnless(this.keepAlive, setTimeout(() => this.fire(), Math.max(1, Math.ceil(first.due - performance.now()))))
    this.holding = this.keepAlive
  }

  fire(): void {
    this.timer = undefined
    this.holding = false
    const now = performance.now()
    // rung in order; one that rings may cancel or set others meanwhile
    for (let e = this.head; e !== undefined && e.due <= now; e = this.head) {
      this.remove(e)
      e.rung = true
      e.ring()
    }
    if (this.timer === undefined) this.arm()
  }
}

/** One pending alarm, a link of its line. */
class Entry implements Alarm {
  prev: Entry | undefined = undefined
  next: Entry | undefined = undefined
  rung = false

  constructor(
    readonly line: Line,
    readonly due: number,
    readonly ring: () => void,
  ) {}

  cancel(): void {
    if (this.rung) return
    this.rung = true
    this.line.remove(this)
  }
}
