import { expect, test } from 'vitest'
import { counted } from '../../src/util/counted.js'

test('a count takes the singular for exactly one and the plural otherwise', () => {
  expect(counted(1, 'tool')).toBe('1 tool')
  expect(counted(0, 'tool')).toBe('0 tools')
  expect(counted(2, 'tool')).toBe('2 tools')
  expect(counted(2, 'entry', 'entries')).toBe('2 entries')
  expect(counted(1, 'entry', 'entries')).toBe('1 entry')
})
