/**
 * Drift between two manifests, tool by tool: which tools were added or removed, and for
 * each changed tool the paths that differ with their old and new values, so that
 * `emcp manifest --check` can say exactly what moved.
 *
 * @example
 * import { diffManifests } from 'emcp/manifest'
 * const a = { tools: [{ name: 'f', description: 'old', inputSchema: { type: 'object' } }] }
 * const b = { tools: [{ name: 'f', description: 'new', inputSchema: { type: 'object' } }] }
 * diffManifests(a, b) // [{ tool: 'f', kind: 'changed', changes: [{ path: '/description', before: 'old', after: 'new' }] }]
 */
import { isObject } from '../../util/json-object.js'
import { escapeToken } from '../../util/json-pointer.js'
import { canonicalJson } from './canonical.js'
import type { Manifest, ManifestTool } from './manifest.js'
import { metaKeys } from './manifest.js'

/** One difference between the expected manifest and the actual one. */
export type Drift =
  | { readonly tool: string; readonly kind: 'added' }
  | { readonly tool: string; readonly kind: 'removed' }
  | {
      readonly tool: string
      readonly kind: 'changed'
      readonly changes: ReadonlyArray<{ readonly path: string; readonly before: unknown; readonly after: unknown }>
    }
  | { readonly tool: ''; readonly kind: 'document'; readonly changes: ReadonlyArray<{ readonly path: string; readonly before: unknown; readonly after: unknown }> }

/**
 * How `after` differs from `before`: tools by name (fingerprints are left out of the
 * comparison, they follow from the rest), then the document's own `_meta`.
 */
export const diffManifests = (before: Manifest, after: Manifest): ReadonlyArray<Drift> => {
  const out: Drift[] = []
  const old = new Map(before.tools.map((t) => [t.name, t]))
  const now = new Map(after.tools.map((t) => [t.name, t]))
  const names = [...new Set([...old.keys(), ...now.keys()])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  for (const name of names) {
    const a = old.get(name)
    const b = now.get(name)
    if (a === undefined) out.push({ tool: name, kind: 'added' })
    else if (b === undefined) out.push({ tool: name, kind: 'removed' })
    else {
      const changes = diffValues(strip(a), strip(b), '')
      if (changes.length > 0) out.push({ tool: name, kind: 'changed', changes })
    }
  }
  const { [metaKeys.fingerprint]: _a, ...metaA } = before._meta ?? {}
  const { [metaKeys.fingerprint]: _b, ...metaB } = after._meta ?? {}
  const doc = diffValues(metaA, metaB, '/_meta')
  if (doc.length > 0) out.push({ tool: '', kind: 'document', changes: doc })
  return out
}

// ---------------------------------------------------------------------------------------
// internals

const strip = (t: ManifestTool): unknown => {
  const { [metaKeys.fingerprint]: _, ...meta } = t._meta ?? {}
  return { ...t, _meta: meta }
}

const diffValues = (a: unknown, b: unknown, path: string): Array<{ path: string; before: unknown; after: unknown }> => {
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])]
    return keys.flatMap((k) => diffValues(a[k], b[k], `${path}/${escapeToken(k)}`))
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) return a.flatMap((v, i) => diffValues(v, b[i], `${path}/${i}`))
  const same = a === undefined || b === undefined ? a === b : canonicalJson(a) === canonicalJson(b)
  return same ? [] : [{ path, before: a, after: b }]
}
