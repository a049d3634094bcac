/**
 * SEMOSS manifests as their users write them: the per-tool `_meta` keys SEMOSS reads, and
 * what emcp makes of each. `SMSS_MCP_EXECUTION` is the execution policy (the same as
 * `emcp/policy`, see policy.ts), `SMSS_FUNCTION_NAME` names the handler a tool dispatches to
 * (so a tool renamed in the manifest keeps its handler), `SMSS_MCP_UI` describes the
 * platform's own UI for the tool and is carried as it is, like the entry's `_type`.
 *
 * @example
 * import { dispatchNameOf } from './semoss.js'
 * const entry = {
 *   name: 'weather_forecast',
 *   inputSchema: { type: 'object' },
 *   _meta: { SMSS_FUNCTION_NAME: 'GetWeather', SMSS_MCP_EXECUTION: 'ask', SMSS_MCP_UI: { resourceURI: '/#/forecast' } },
 * }
 * dispatchNameOf(entry) // 'GetWeather': the key of its handler
 */
import { isObject } from '../../util/json-object.js'
import type { ManifestProblem } from './validate.js'

/** The `_meta` keys of a SEMOSS tool entry that emcp reads. */
export const semossKeys = {
  /** The execution policy: `auto`, `ask` or `disabled` (SEMOSS reads the value in any case). */
  execution: 'SMSS_MCP_EXECUTION',
  /** The backend function the tool dispatches to: the key of its handler. */
  functionName: 'SMSS_FUNCTION_NAME',
  /** The platform's UI for the tool: `{ resourceURI, displayLocation, loadingMessage, autoOpen }`. */
  ui: 'SMSS_MCP_UI',
} as const

/** Where SEMOSS shows a tool's UI (its own enum, plus `none`, which its documentation names). */
export const displayLocations: ReadonlyArray<string> = ['inline', 'sidebar', 'hidden', 'none']

/**
 * The tool entry keys beyond MCP's own that are carried from a manifest into `tools/list`
 * and back out on export: SEMOSS's `_type` (e.g. `"python"`, the kind of function behind it).
 */
export const carriedEntryKeys: ReadonlyArray<string> = ['_type']

/** Anything with a name and a `_meta`, as manifest entries and tools are. */
type Named = { readonly name: string; readonly _meta?: { readonly [key: string]: unknown } | undefined }

/**
 * A `_meta` whose SEMOSS UI names an MCP App (`SMSS_MCP_UI.resourceURI` a `ui://` URI) with
 * the standard link added (`ui.resourceUri`, seen by the model and the app), unless it has
 * one; a platform route (`/#/...`) is SEMOSS's own and left as it is.
 */
export const withSemossApp = (meta: { readonly [key: string]: unknown } | undefined): { readonly [key: string]: unknown } | undefined => {
  const ui = meta?.[semossKeys.ui]
  const uri = isObject(ui) ? ui.resourceURI : undefined
  if (meta === undefined || typeof uri !== 'string' || !uri.startsWith('ui://') || meta.ui !== undefined) return meta
  return { ...meta, ui: { resourceUri: uri, visibility: ['model', 'app'] } }
}

/** The key of the handler a tool dispatches to: its `SMSS_FUNCTION_NAME` when it has one, else its name. */
export const dispatchNameOf = (tool: Named): string => {
  const f = tool._meta?.[semossKeys.functionName]
  return typeof f === 'string' && f !== '' ? f : tool.name
}

/** What makes an entry's SEMOSS keys unusable (errors): a function name that is not a name. */
export const semossProblems = (name: string, meta: { readonly [key: string]: unknown }): ReadonlyArray<ManifestProblem> => {
  const f = meta[semossKeys.functionName]
  if (f === undefined || (typeof f === 'string' && f.trim() !== '' && f.length <= 256)) return []
  return [{ tool: name, path: `/_meta/${semossKeys.functionName}`, message: `${semossKeys.functionName} must name a handler (a non-empty string of at most 256 characters), not ${JSON.stringify(f)}` }]
}

/**
 * What looks wrong in an entry's SEMOSS UI metadata (warnings: emcp carries it and does not
 * use it, but SEMOSS would show the tool wrongly).
 */
export const semossWarnings = (tool: Named): ReadonlyArray<ManifestProblem> => {
  const ui = tool._meta?.[semossKeys.ui]
  if (ui === undefined) return []
  const at = (key: string, message: string): ManifestProblem => ({ tool: tool.name, path: `/_meta/${semossKeys.ui}${key === '' ? '' : `/${key}`}`, message })
  if (!isObject(ui)) return [at('', `${semossKeys.ui} should be an object ({ resourceURI, displayLocation, loadingMessage })`)]
  const out: ManifestProblem[] = []
  const { resourceURI, displayLocation, loadingMessage, autoOpen } = ui
  if (resourceURI !== undefined && resourceURI !== null) {
    if (typeof resourceURI !== 'string') out.push(at('resourceURI', 'resourceURI should be a string (a route such as "/#/forecast") or null'))
    else if (resourceURI.startsWith('/') && !resourceURI.startsWith('/#')) out.push(at('resourceURI', `resourceURI ${JSON.stringify(resourceURI)} is not a hash route (/#/...): SEMOSS embeds apps in frames that only follow hash routes`))
  }
  if (displayLocation !== undefined && (typeof displayLocation !== 'string' || !displayLocations.includes(displayLocation.toLowerCase())))
    out.push(at('displayLocation', `displayLocation should be one of ${displayLocations.join(', ')} (found ${JSON.stringify(displayLocation)})`))
  if (loadingMessage !== undefined && typeof loadingMessage !== 'string') out.push(at('loadingMessage', 'loadingMessage should be a string'))
  if (autoOpen !== undefined && typeof autoOpen !== 'boolean') out.push(at('autoOpen', 'autoOpen should be true or false'))
  return out
}
