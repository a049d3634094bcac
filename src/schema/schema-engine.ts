/**
 * Where the general validator engine comes from, loaded on first need rather than at
 * startup. In Node the first schema the plain fast path cannot check loads Ajv right there,
 * synchronously (`require`, through `process.getBuiltinModule`); elsewhere, and in bundles
 * that ship without node_modules, the literal `import()` of ajv-classes.js (which a bundler
 * follows) loads it, and a check made before it has arrived uses the interpreted engine.
 *
 * @example
 * import { loadSchemaEngine, loadedEngine } from './schema-engine.js'
 * await loadSchemaEngine()
 * loadedEngine()?.Ajv2020 // the class, now loaded
 */
import type { AjvClass, AjvClasses } from './ajv-classes.js'

/** Loads the engine (a bundler follows this import); resolves once it is there. */
export const loadSchemaEngine = (): Promise<void> =>
  (loading ??= import('./ajv-classes.js').then((m) => {
    loaded ??= m.ajvClasses
  }))

/** The engine's classes if loaded, else loaded now when that can be done synchronously (Node), else undefined (and loading starts). */
export const loadedEngine = (): AjvClasses | undefined => {
  if (loaded !== undefined) return loaded
  loaded = requireClasses()
  // a failed load is seen by the caller that needs the engine, when it falls back or throws
  if (loaded === undefined) loadSchemaEngine().catch(() => undefined)
  return loaded
}

let loaded: AjvClasses | undefined
let loading: Promise<void> | undefined

interface NodeModule {
  readonly createRequire: (from: string) => (id: string) => unknown
}

/** Ajv through `require` where the runtime has one (Node 20.16+, Bun, Deno); undefined elsewhere, or where ajv cannot be resolved (a bundle). */
const requireClasses = (): AjvClasses | undefined => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  if (typeof proc?.getBuiltinModule !== 'function') return undefined
  try {
    const load = (proc.getBuiltinModule('node:module') as NodeModule).createRequire(import.meta.url)
    const formats = load('ajv-formats') as { default?: unknown }
    return {
      Ajv: (load('ajv') as { Ajv: AjvClass }).Ajv,
      Ajv2019: (load('ajv/dist/2019.js') as { Ajv2019: AjvClass }).Ajv2019,
      Ajv2020: (load('ajv/dist/2020.js') as { Ajv2020: AjvClass }).Ajv2020,
      addFormats: (formats.default ?? formats) as AjvClasses['addFormats'],
    }
  } catch {
    return undefined
  }
}
