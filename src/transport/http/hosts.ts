/**
 * Which Host and Origin header values a server accepts: loopback names by default, else the
 * lists it was given. Hosts compare by name (with or without the port); origins compare
 * whole (scheme, host and port), because another port is another origin.
 *
 * @example
 * import { hostCheck, originCheck } from './hosts.js'
 * hostCheck(undefined)('localhost:3000')                       // true
 * originCheck(['https://ui.example.com'])('https://ui.example.com:8443') // false
 */

// ---------------------------------------------------------------------------------------
// functions

/** The Host check of a server: loopback names, or the values listed. */
export const hostCheck = (allowed: ReadonlyArray<string> | undefined): ((host: string) => boolean) =>
  allowed === undefined ? isLoopbackHost : listed(allowed)

/** The Origin check of a server: loopback origins, or exactly the values listed. */
export const originCheck = (allowed: ReadonlyArray<string> | undefined): ((origin: string) => boolean) =>
  allowed === undefined ? isLoopbackOrigin : exactly(allowed)

// ---------------------------------------------------------------------------------------
// internals

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])

const hostnameOf = (host: string): string => {
  const h = host.trim().toLowerCase()
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1)
  const colon = h.lastIndexOf(':')
  return colon === -1 ? h : h.slice(0, colon)
}

const isLoopbackHost = (host: string): boolean => loopbackNames.has(hostnameOf(host))

const isLoopbackOrigin = (origin: string): boolean => {
  try {
    const u = new URL(origin)
    return (u.protocol === 'http:' || u.protocol === 'https:') && loopbackNames.has(u.hostname)
  } catch {
    return false
  }
}

const listed = (allowed: ReadonlyArray<string>) => {
  const set = new Set(allowed.map((a) => a.toLowerCase()))
  return (value: string): boolean => set.has(value.toLowerCase()) || set.has(hostnameOf(value))
}

const exactly = (allowed: ReadonlyArray<string>) => {
  const set = new Set(allowed.map((a) => a.toLowerCase()))
  return (value: string): boolean => set.has(value.toLowerCase())
}
