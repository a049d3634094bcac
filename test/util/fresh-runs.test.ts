import { describe, expect, it } from 'vitest'
import { freshRuns } from '../../src/util/fresh-runs.js'

/** A run per call, each settled by the test: what each run saw of `state` when it began, and how many began. */
const controlled = () => {
  const runs: Array<{ key: string; seen: string; settle: () => void; fail: (e: Error) => void }> = []
  const state = { value: 'before' }
  const run = (key: string): Promise<string> =>
    new Promise((resolve, reject) => {
      // the value is read when the run begins, as a store read would be
      const seen = `${key}:${state.value}`
      runs.push({ key, seen, settle: () => resolve(seen), fail: reject })
    })
  return { runs, state, run }
}

/** Lets pending promise callbacks run until `n` runs began (a few turns of the microtask queue; no clock). */
const begun = async (runs: ReadonlyArray<unknown>, n: number): Promise<void> => {
  for (let i = 0; i < 20 && runs.length < n; i++) await Promise.resolve()
}

describe('freshRuns', () => {
  it('shares one run among the callers who ask before it begins, and never hands a caller a run begun before it asked', async () => {
    const { runs, state, run } = controlled()
    const fresh = freshRuns(run)
    const first = fresh('s')
    expect(runs).toHaveLength(1)
    // the state changes after the first run began: a caller asking now must see the change
    state.value = 'after'
    const second = fresh('s')
    const third = fresh('s')
    // they wait for the next run, which has not begun: one run in flight per key
    expect(runs).toHaveLength(1)
    runs[0]?.settle()
    expect(await first).toBe('s:before')
    // the next run began once the first ended, for both waiting callers
    await begun(runs, 2)
    expect(runs).toHaveLength(2)
    runs[1]?.settle()
    expect(await second).toBe('s:after')
    expect(await third).toBe('s:after')
    expect(runs).toHaveLength(2)
  })

  it('runs keys apart, begins anew once nothing is in flight, and gives a failure to the callers of its run only', async () => {
    const { runs, run } = controlled()
    const fresh = freshRuns(run)
    const a = fresh('a')
    const b = fresh('b')
    expect(runs.map((r) => r.key)).toEqual(['a', 'b'])
    const aAgain = fresh('a')
    runs[0]?.fail(new Error('store down'))
    await expect(a).rejects.toThrow('store down')
    // the waiting caller gets a run of its own, which succeeds
    await begun(runs, 3)
    expect(runs.map((r) => r.key)).toEqual(['a', 'b', 'a'])
    runs[2]?.settle()
    expect(await aAgain).toBe('a:before')
    runs[1]?.settle()
    expect(await b).toBe('b:before')
    // nothing in flight: a new caller begins a run at once
    const later = fresh('a')
    expect(runs).toHaveLength(4)
    runs[3]?.settle()
    expect(await later).toBe('a:before')
  })

  it('turns a run that throws into a rejection', async () => {
    const fresh = freshRuns((key: string): Promise<string> => {
      throw new Error(`no ${key}`)
    })
    await expect(fresh('x')).rejects.toThrow('no x')
  })
})
