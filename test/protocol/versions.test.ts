import { describe, expect, it } from 'vitest'
import { latestVersion, negotiate, supportedVersions } from '../../src/index.js'

describe('protocol/versions', () => {
  it('speaks the 2025-11-25 family, newest first', () => {
    expect(supportedVersions).toEqual(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'])
    expect(latestVersion).toBe(supportedVersions[0])
  })

  it.each(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'])('negotiates the supported %s to itself', (v) => {
    expect(negotiate(v)).toBe(v)
  })

  it.each(['1999-01-01', '2026-07-28', '', 'latest', '2025-11-25 ', undefined, null, 20251125])(
    'negotiates the unsupported %j to the latest, 2025-11-25',
    (v) => {
      expect(negotiate(v)).toBe('2025-11-25')
    },
  )
})
