/**
 * Who is behind a stateful HTTP session, for the limits that apply per caller: the
 * identity's subject when the request was authenticated, else the client's address. IPv6
 * addresses count by their /64 prefix (one host is usually given a whole /64), and an IPv4
 * address mapped into IPv6 counts as the IPv4 address.
 *
 * @example
 * import { callerOf } from './caller.js'
 * callerOf({ subject: 'alice', roles: [] }, '10.0.0.7') // { key: 'subject:alice', authenticated: true }
 * callerOf(undefined, '::ffff:10.0.0.7')                 // { key: 'address:10.0.0.7', authenticated: false }
 * callerOf(undefined, '2001:db8:1:2:3:4:5:6')            // { key: 'address:2001:db8:1:2::/64', authenticated: false }
 */
import type { Identity } from '../../server/session.js'

// ---------------------------------------------------------------------------------------
// model

/** The caller of a session: the key its per-caller limit counts under, and whether a token named it. */
export interface Caller {
  /** `subject:<subject>`, `address:<address>`, or undefined when neither is known (no per-caller limit then). */
  readonly key: string | undefined
  readonly authenticated: boolean
}

// ---------------------------------------------------------------------------------------
// functions

/** The caller of a request with this identity (undefined: anonymous) from this address (undefined: unknown). */
export const callerOf = (identity: Identity | undefined, address: string | undefined): Caller =>
  identity !== undefined
    ? { key: `subject:${identity.subject}`, authenticated: true }
    : { key: address === undefined || address === '' ? undefined : `address:${addressKey(address)}`, authenticated: false }

/** An address as limits count it: IPv4 as is, IPv4-mapped IPv6 as IPv4, other IPv6 by its /64 prefix. */
export const addressKey = (address: string): string => {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)
  if (mapped !== null) return mapped[1] as string
  const bare = address.split('%')[0] as string
  if (!isIPv6(bare)) return address
  return `${prefix64(bare)}::/64`
}

// ---------------------------------------------------------------------------------------
// internals

/** True when `address` is an IPv6 address: the WHATWG URL parser, which every runtime has, checks it as a bracketed host. */
const isIPv6 = (address: string): boolean => {
  if (!address.includes(':')) return false
  try {
    new URL(`http://[${address}]/`)
    return true
  } catch {
    return false
  }
}

/** The first four groups of an IPv6 address, written without leading zeros. */
const prefix64 = (address: string): string => {
  const groupsIn = (part: string): string[] => (part === '' ? [] : part.split(':'))
  // an embedded IPv4 tail (::1.2.3.4) stands for two groups; only the first four matter here
  const width = (groups: ReadonlyArray<string>): number => groups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0)
  const [head = '', tail] = address.split('::')
  const front = groupsIn(head)
  const groups = tail === undefined ? front : [...front, ...Array<string>(Math.max(0, 8 - width(front) - width(groupsIn(tail)))).fill('0'), ...groupsIn(tail)]
  return groups
    .slice(0, 4)
    .map((g) => (g.includes('.') ? g : parseInt(g, 16).toString(16)))
    .join(':')
}
