/**
 * Which Host and Origin header values a server accepts: loopback names by default, else the
 * lists it was given. A Host is parsed strictly first (a name, a dotted address or a
 * bracketed IPv6 address, then an optional port of digits, nothing else), so that
 * `[::1]evil.com` or `127.0.0.1:4500@evil` never reach the comparison. Hosts compare by
 * name (with or without the port); origins compare whole (scheme, host and port), because
 * another port is another origin.
 *
 * @example
 * import { hostCheck, originCheck, parseHost } from './hosts.js'
 * hostCheck(undefined)('localhost:3000')                       // true
 * hostCheck(undefined)('[::1]evil.com')                        // false
 * parseHost('Example.COM:8443')                                // { name: 'example.com', port: '8443' }
 * originCheck(['https://ui.example.com'])('https://ui.example.com:8443') // false
 */

// ---------------------------------------------------------------------------------------
// model

/** A Host header value taken apart: the lower-cased name (IPv6 in brackets, canonical) and the port, if any. */
export interface HostParts {
  readonly name: string
  readonly port: string | undefined
}

// ---------------------------------------------------------------------------------------
// functions

/**
 * The parts of a Host header value (RFC 9110 §7.2: uri-host [":" port]), or undefined when
 * it is anything else. The name is a DNS-style name or dotted address (labels of letters,
 * digits, `-` and `_`, at most 63 each, 253 in all, one trailing dot allowed) or an IPv6
 * address in brackets; user info, paths, percent-escapes, zone ids and spaces are refused.
 */
export const parseHost = (value: string): HostParts | undefined => {
  if (value.length > maxHostLength) return undefined
  const m = hostGrammar.exec(value.toLowerCase())
  if (m === null) return undefined
  const port = m[3]
  if (port !== undefined && Number(port) > 65535) return undefined
  if (m[1] !== undefined) {
    const name = canonicalIpv6(m[1])
    return name === undefined ? undefined : { name, port }
  }
  const name = m[2]!
  return name.replace(/\.$/, '').length > 253 ? undefined : { name, port }
}

/** The Host check of a server: loopback names, or the values listed. */
export const hostCheck = (allowed: ReadonlyArray<string> | undefined): ((host: string) => boolean) =>
  allowed === undefined ? isLoopbackHost : listed(allowed)

/** The Origin check of a server: loopback origins, or exactly the values listed. */
export const originCheck = (allowed: ReadonlyArray<string> | undefined): ((origin: string) => boolean) =>
  allowed === undefined ? isLoopbackOrigin : exactly(allowed)

// ---------------------------------------------------------------------------------------
// internals

// an IPv6 name comes bracketed, from parseHost and from URL alike
const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]'])

// a name of 253 characters, its trailing dot, brackets and ":65535" fit in 262; anything
// longer is refused before the grammar runs
const maxHostLength = 262

// one alternative per form; each repetition is separated by a literal '.', so the match is
// linear in the length of the value
const hostGrammar = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9_-]{1,63}(?:\.[a-z0-9_-]{1,63})*\.?))(?::([0-9]{1,5}))?$/

// the WHATWG URL parser knows the IPv6 grammar (and its compressions); its answer is the
// canonical spelling, so that [0:0::1] and [::1] name the same host
const canonicalIpv6 = (inner: string): string | undefined => {
  try {
    return new URL(`http://[${inner}]/`).hostname
  } catch {
    return undefined
  }
}

const isLoopbackHost = (host: string): boolean => {
  const parts = parseHost(host)
  return parts !== undefined && loopbackNames.has(parts.name)
}

const isLoopbackOrigin = (origin: string): boolean => {
  try {
    const u = new URL(origin)
    return (u.protocol === 'http:' || u.protocol === 'https:') && loopbackNames.has(u.hostname)
  } catch {
    return false
  }
}

// an entry is a name ("api.example.com", any port) or a name with its port ("api.example.com:8443")
const listed = (allowed: ReadonlyArray<string>) => {
  const set = new Set(allowed.map(entryKey))
  return (value: string): boolean => {
    const parts = parseHost(value)
    return parts !== undefined && (set.has(parts.name) || (parts.port !== undefined && set.has(joined(parts))))
  }
}

// a bare IPv6 address in the list ("::1") means the bracketed one a Host header carries
const entryKey = (entry: string): string => {
  const bare = !entry.startsWith('[') && entry.split(':').length > 2
  const parts = parseHost(bare ? `[${entry}]` : entry)
  return parts === undefined ? entry.toLowerCase() : joined(parts)
}

const joined = (p: HostParts): string => (p.port === undefined ? p.name : `${p.name}:${p.port}`)

const exactly = (allowed: ReadonlyArray<string>) => {
  const set = new Set(allowed.map((a) => a.toLowerCase()))
  return (value: string): boolean => set.has(value.toLowerCase())
}
