/**
 * Alarms of one length on one timer: they ring in the order they were set, no earlier than
 * their length, a cancelled one never rings, a line with none pending holds no timer, and
 * however many are pending, one Node timer waits for them.
 */
import { describe, expect, it, vi } from 'vitest'
import { alarms } from '../../src/util/alarms.js'

/** Node's active timers now. */
const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length

describe('alarms', () => {
  it('rings alarms in the order they were set, each no earlier than its length, and never a cancelled one', async () => {
    const after = alarms(20)
    const rung: string[] = []
    const t0 = performance.now()
    let ringC: (ms: number) => void = () => undefined
    const lastRung = new Promise<number>((resolve) => (ringC = resolve))
    after(() => rung.push('a'))
    const b = after(() => rung.push('b'))
    after(() => {
      rung.push('c')
      ringC(performance.now() - t0)
    })
    b.cancel()
    const ms = await lastRung
    expect(rung).toEqual(['a', 'c'])
    expect(ms).toBeGreaterThanOrEqual(19)
    // cancelling one that rang already does nothing
    b.cancel()
    expect(rung).toEqual(['a', 'c'])
  })

  it('rings the next alarm when the first is cancelled, and one set while another rings', async () => {
    const after = alarms(10)
    const first = after(() => expect.fail('a cancelled alarm rang'))
    const rung = await new Promise<string>((resolve) => {
      after(() => after(() => resolve('set from a ring')))
      first.cancel()
    })
    expect(rung).toBe('set from a ring')
  })

  it('waits with one timer for any number of pending alarms, and holds none once they are cancelled', () => {
    const before = timers()
    const after = alarms(60_000)
    const pending = Array.from({ length: 100 }, () => after(() => expect.fail('a cancelled alarm rang')))
    expect(timers()).toBe(before + 1)
    for (const a of pending) a.cancel()
    expect(timers()).toBe(before)
  })

  it('keeps its timer for the next alarm when it empties, without keeping the process alive: no timer per alarm set and cancelled', () => {
    const before = timers()
    const after = alarms(60_000)
    const made = vi.spyOn(globalThis, 'setTimeout')
    try {
      for (let i = 0; i < 100; i++) {
        const a = after(() => expect.fail('a cancelled alarm rang'))
        expect(timers()).toBe(before + 1)
        a.cancel()
        expect(timers()).toBe(before)
      }
      // one timer for the line (and one probe of the runtime's timers, when this is the first line used)
      expect(made.mock.calls.length).toBeLessThanOrEqual(2)
    } finally {
      made.mockRestore()
    }
  })

  it('keeps no process alive with keepAlive false, and still rings', async () => {
    const before = timers()
    const after = alarms(5, false)
    const rung = new Promise<string>((resolve) => after(() => resolve('rung')))
    expect(timers()).toBe(before)
    expect(await rung).toBe('rung')
  })
})
