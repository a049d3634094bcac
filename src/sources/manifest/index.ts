/**
 * emcp/manifest: tool manifests and large catalogs. Export a server's tools as a
 * deterministic manifest (`toManifest`), build a server from a manifest and handlers
 * (`fromManifest`), check a manifest file (`validateManifest`), re-export without losing
 * hand edits (`mergeManifests`), and serve curated subsets of a catalog within a token
 * budget (`catalogServer`).
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
export { fromManifest, serverOfManifest } from './import.js'
export type { Codecs, DispatchNameOf, DistinctNames, EntryOf, EntryTool, FromManifestOptions, ManifestHandlers, ManifestTools } from './import.js'
export { lintTool } from './lint.js'
export type { LintIssue } from './lint.js'
export { metaKeys, policies } from './manifest.js'
export type { Excluded, Manifest, ManifestTool, Policy } from './manifest.js'
export { mergeManifests } from './merge.js'
export type { MergeConflict, MergeResult } from './merge.js'
export { policyOf, readPolicy } from './policy.js'
export type { PolicyProblem } from './policy.js'
export { confirmByElicitation, reviewByConfirm, reviewByElicitation, reviewForm } from './review.js'
export type { Confirm, Review, Reviewed, WireArguments } from './review.js'
export { schemaErrors } from './schema-errors.js'
export { dialect2020, selfContained } from './self-contained.js'
export { carriedEntryKeys, dispatchNameOf, displayLocations, semossKeys } from './semoss.js'
export { charsPerToken, estimateTokens, listingBudget } from './tokens.js'
export type { ListingBudget } from './tokens.js'
export { readManifest, validateManifest } from './validate.js'
export type { ManifestProblem, ValidateOptions, ValidationReport } from './validate.js'
