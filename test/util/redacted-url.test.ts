import { expect, test } from 'vitest'
import { redactedUrl } from '../../src/util/redacted-url.js'

test('a password never reaches a message; a URL without one is kept as it is', () => {
  expect(redactedUrl('redis://app:secret@127.0.0.1:6379/2')).toBe('redis://app:***@127.0.0.1:6379/2')
  expect(redactedUrl('postgres://postgres@127.0.0.1:5432/app')).toBe('postgres://postgres@127.0.0.1:5432/app')
  expect(redactedUrl('not a url with secret')).toBe('(an unparsable URL)')
})
