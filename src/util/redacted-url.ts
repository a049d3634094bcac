/**
 * A connection URL fit for a message: its password replaced, so that an error naming the
 * server a store could not reach never prints the credentials it was given.
 *
 * @example
 * import { redactedUrl } from './redacted-url.js'
 * redactedUrl('redis://app:secret@127.0.0.1:6379') // 'redis://app:***@127.0.0.1:6379'
 */

/** `url` with its password shown as `***`; a text that is no URL is not repeated at all. */
export const redactedUrl = (url: string): string => {
  try {
    const u = new URL(url)
    if (u.password !== '') u.password = '***'
    return u.href
  } catch {
    return '(an unparsable URL)'
  }
}
