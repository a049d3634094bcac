/**
 * The everything example's server bundled as a user would bundle it for a runtime without
 * Node: esbuild, platform `neutral`, from `emcp/fetch` (the sources), every dependency
 * inlined. `entry` picks the runtime's own entry file (examples/runtimes/); the bundle goes
 * to .cache/runtimes/ and its metafile says what each module imports.
 *
 * @example
 * import { bundleFor } from '../support/fetch-bundle.js'
 * const { file, nodeImports } = await bundleFor('worker') // .cache/runtimes/worker.mjs
 */
import { build, type Metafile } from 'esbuild'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** Where the bundles go. */
export const bundleDir = join(root, '.cache', 'runtimes')

/** A bundle and every `node:` module (or bare Node builtin) a bundled module imports, with its importer. */
export interface Bundle {
  readonly file: string
  readonly bytes: number
  readonly nodeImports: ReadonlyArray<string>
}

/** Bundles `examples/runtimes/<entry>.ts` (or `entryFile`, a path from the root) for a runtime without Node. */
export const bundleFor = async (entry: string, entryFile = `examples/runtimes/${entry}.ts`): Promise<Bundle> => {
  mkdirSync(bundleDir, { recursive: true })
  const file = join(bundleDir, `${entry}.mjs`)
  const result = await build({
    entryPoints: [join(root, entryFile)],
    outfile: file,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    // a Node module left in the graph stays an import here, and the check below names it
    external: ['node:*'],
    alias: { 'emcp/fetch': join(root, 'src/transport/fetch.ts'), 'emcp/workers': join(root, 'src/transport/workers.ts'), emcp: join(root, 'src/index.ts') },
    metafile: true,
    logLevel: 'error',
  })
  return { file, bytes: result.metafile.outputs[relativeOut(result.metafile, file)]?.bytes ?? 0, nodeImports: nodeImportsOf(result.metafile) }
}

/** Every import of a Node module in the bundle's inputs, as `importer -> module (kind)`. */
export const nodeImportsOf = (meta: Metafile): ReadonlyArray<string> =>
  Object.entries(meta.inputs).flatMap(([input, { imports }]) =>
    imports.filter((i) => i.path.startsWith('node:') || builtins.has(i.path)).map((i) => `${input} -> ${i.path} (${i.kind})`),
  )

const builtins: ReadonlySet<string> = new Set(['crypto', 'fs', 'path', 'url', 'util', 'stream', 'events', 'buffer', 'http', 'https', 'net', 'os', 'module', 'async_hooks', 'perf_hooks', 'timers', 'zlib', 'child_process'])

const relativeOut = (meta: Metafile, file: string): string => Object.keys(meta.outputs).find((o) => file.endsWith(o.replace(/^(\.\.\/)+/, ''))) ?? ''
