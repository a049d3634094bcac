/**
 * The Content-Security-Policy and the iframe `allow` list a host builds for an MCP App from
 * its resource's `_meta.ui` (the `io.modelcontextprotocol/ui` extension, "Content Security
 * Policy Enforcement"). Pure, with no Node or DOM dependency: the playground page checks the
 * sources with it before it renders an app, and the server's sandbox route builds the header.
 *
 * Each declared source must be an origin (`https://api.example.com`, `wss://*.example.com:8443`):
 * a keyword, a path, a quote, a `;` or a space is refused, so a resource cannot widen the
 * policy beyond the origins it names. `connect-src` never holds `'self'`: in the playground
 * `'self'` is the MCP endpoint, which an app reaches only through the host bridge.
 *
 * @example
 * import { appPolicy } from './app-csp.js'
 * appPolicy({ connectDomains: ['https://api.example.com'] }) // "default-src 'none'; … connect-src https://api.example.com; …"
 */

/** The origins an app's resource declares (`_meta.ui.csp`). */
export interface AppCspDomains {
  readonly connectDomains?: ReadonlyArray<string>
  readonly resourceDomains?: ReadonlyArray<string>
  readonly frameDomains?: ReadonlyArray<string>
  readonly baseUriDomains?: ReadonlyArray<string>
}

/** The four keys of `_meta.ui.csp`. */
export const cspKeys = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const

/** The most sources one key may list, and the longest source: bounds on what a resource may declare. */
export const maxSources = 32
const maxSourceLength = 200

/** An origin with an optional `*.` subdomain wildcard and port: the only source form accepted. */
const origin = /^(?:https?|wss?):\/\/(?:\*\.)?[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*(?::(?:\d{1,5}|\*))?$/

/** True when `source` may go into the policy. */
export const isAllowedSource = (source: unknown): source is string =>
  typeof source === 'string' && source.length <= maxSourceLength && origin.test(source)

/** What is wrong with a declared `csp` value: one message per refused entry (empty: all good). */
export const cspProblems = (csp: unknown): ReadonlyArray<string> => {
  if (csp === undefined) return []
  if (typeof csp !== 'object' || csp === null || Array.isArray(csp)) return ['csp must be an object']
  const value = csp as Record<string, unknown>
  const problems: string[] = []
  for (const key of Object.keys(value)) if (!(cspKeys as ReadonlyArray<string>).includes(key)) problems.push(`csp.${key.slice(0, 40)} is not a known key`)
  for (const key of cspKeys) {
    const list = value[key]
    if (list === undefined) continue
    if (!Array.isArray(list)) problems.push(`csp.${key} must be a list of origins`)
    else if (list.length > maxSources) problems.push(`csp.${key} lists more than ${maxSources} origins`)
    else for (const s of list) if (!isAllowedSource(s)) problems.push(`csp.${key}: ${JSON.stringify(s).slice(0, 80)} is not an origin`)
  }
  return problems
}

/** Only the accepted origins of each key (what the page sends to the sandbox route). */
export const cleanCsp = (csp: unknown): AppCspDomains => {
  if (typeof csp !== 'object' || csp === null || Array.isArray(csp)) return {}
  const value = csp as Record<string, unknown>
  const out: Record<string, string[]> = {}
  for (const key of cspKeys) {
    const list = value[key]
    if (Array.isArray(list)) {
      const kept = list.slice(0, maxSources).filter(isAllowedSource)
      if (kept.length > 0) out[key] = kept
    }
  }
  return out
}

/**
 * The policy of an app: the extension's construction, with `connect-src` limited to the
 * declared origins (`'none'` when there are none) and `form-action 'none'` (a form may run
 * its submit handler; it may not send the frame elsewhere). Throws on a source that is not an origin.
 */
export const appPolicy = (csp: AppCspDomains = {}): string => {
  const problems = cspProblems(csp)
  if (problems.length > 0) throw new TypeError(problems.join('; '))
  const list = (l: ReadonlyArray<string> | undefined, fallback: string): string => (l === undefined || l.length === 0 ? fallback : l.join(' '))
  const resources = csp.resourceDomains === undefined || csp.resourceDomains.length === 0 ? '' : ` ${csp.resourceDomains.join(' ')}`
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline'${resources}`,
    `style-src 'self' 'unsafe-inline'${resources}`,
    `connect-src ${list(csp.connectDomains, "'none'")}`,
    `img-src 'self' data:${resources}`,
    `font-src 'self'${resources}`,
    `media-src 'self' data:${resources}`,
    `frame-src ${list(csp.frameDomains, "'none'")}`,
    "object-src 'none'",
    `base-uri ${list(csp.baseUriDomains, "'self'")}`,
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ')
}

/** The permissions an app may ask for, and their Permission Policy names. */
const features = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' } as const

/** The iframe `allow` attribute for the requested `permissions` (`"microphone; clipboard-write"`). */
export const allowAttribute = (permissions: unknown): string => {
  if (typeof permissions !== 'object' || permissions === null) return ''
  const asked = permissions as Record<string, unknown>
  return Object.entries(features).filter(([key]) => typeof asked[key] === 'object' && asked[key] !== null).map(([, name]) => name).join('; ')
}

/** The largest encoded `csp` the sandbox route reads. */
export const maxEncodedCsp = 16 * 1024

/** `csp` as one path segment (base64url of its JSON), for the sandbox route. */
export const encodeCsp = (csp: AppCspDomains): string =>
  btoa(JSON.stringify(csp)).replace(/\+/g, '-').replace(/\//g, '_').replace(/={1,2}$/, '')

/** The `csp` a path segment holds, or an error message. */
export const decodeCsp = (segment: string): AppCspDomains | string => {
  if (segment.length > maxEncodedCsp || !/^[A-Za-z0-9_-]*$/.test(segment)) return 'the policy segment is not base64url, or is too long'
  try {
    const value: unknown = segment === '' ? {} : JSON.parse(atob(segment.replace(/-/g, '+').replace(/_/g, '/')))
    const problems = cspProblems(value)
    return problems.length > 0 ? problems.join('; ') : (value as AppCspDomains)
  } catch {
    return 'the policy segment is not JSON'
  }
}
