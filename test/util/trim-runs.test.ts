/** trimRuns: the ends' runs of one character go, in linear time, whatever sits between them. */
import { describe, expect, it } from 'vitest'
import { trimRuns } from '../../src/util/trim-runs.js'

describe('trimRuns', () => {
  it('trims both ends, or the end only', () => {
    expect(trimRuns('--my-server--', '-')).toBe('my-server')
    expect(trimRuns('abc==', '=', 'end')).toBe('abc')
    expect(trimRuns('==abc', '=', 'end')).toBe('==abc')
    expect(trimRuns('----', '-')).toBe('')
    expect(trimRuns('', '_')).toBe('')
    expect(trimRuns('a_b', '_')).toBe('a_b')
  })

  it('keeps a long run that is not at an end, at one pass', () => {
    const hostile = `x${'/'.repeat(200_000)}x/`
    expect(trimRuns(hostile, '/', 'end')).toBe(hostile.slice(0, -1))
    expect(trimRuns(`${'_'.repeat(200_000)}\u0000${'_'.repeat(200_000)}`, '_')).toBe('\u0000')
  })
})
