/**
 * emcp/manifest: tool manifests and large catalogs. Export a server's tools as a
 * deterministic manifest (`toManifest`), build a server from a manifest and handlers
 * (`fromManifest`), check a manifest file (`validateManifest`), and serve curated subsets
 * of a catalog within a token budget (`catalogServer`).
 *
 * @example
 * import { fromManifest, manifestText, toManifest } from 'emcp/manifest'
 * const manifest = { tools: [{ name: 'hello', description: 'Greets.', inputSchema: { type: 'object', properties: { who: { type: 'string' } } } }] } as const
 * const server = fromManifest(manifest, { hello: ({ who }) => `hello ${who ?? 'world'}` })
 * const text = manifestText(toManifest(server))
 */
export { canonicalJson, fingerprint } from './canonical.js'
export { catalogServer, categories, categoryOf, namespaced, selected, tagsOf } from './catalog.js'
export type { CatalogEntry, CatalogOptions, Selection } from './catalog.js'
export { diffManifests } from './diff.js'
export type { Drift } from './diff.js'
export { manifestOf, manifestText, toManifest, toolFingerprint } from './export.js'
export type { ManifestIssue, ManifestOptions } from './export.js'
export { confirmByElicitation, fromManifest, serverOfManifest } from './import.js'
export type { Codecs, DistinctNames, Confirm, EntryOf, EntryTool, FromManifestOptions, ManifestHandlers, ManifestTools } from './import.js'
export { lintTool } from './lint.js'
export type { LintIssue } from './lint.js'
export { metaKeys, policies, policyOf } from './manifest.js'
export type { Excluded, Manifest, ManifestTool, Policy } from './manifest.js'
export { dialect2020, selfContained } from './self-contained.js'
export { charsPerToken, estimateTokens, listingBudget } from './tokens.js'
export type { ListingBudget } from './tokens.js'
export { readManifest, validateManifest } from './validate.js'
export type { ManifestProblem, ValidateOptions, ValidationReport } from './validate.js'
