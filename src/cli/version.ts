/**
 * The installed package's version, for `emcp --version`: read from the `package.json` of the
 * package this module belongs to, found by walking up from the module's own file, so that
 * the compiled tree, the bundles and an installed copy all say the version they ship with.
 *
 * @example
 * import { packageVersion } from './version.js'
 * packageVersion() // '0.1.0'
 * packageRoot() // the folder holding bin/emcp.js
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The version in the nearest `package.json` named `emcp` above this module; `unknown` when none is found. */
export const packageVersion = (from: string = fileURLToPath(import.meta.url)): string => packageOf(from)?.version ?? 'unknown'

/** The folder of the emcp package this module belongs to (where `bin/emcp.js` is); undefined when none is found. */
export const packageRoot = (from: string = fileURLToPath(import.meta.url)): string | undefined => packageOf(from)?.dir

/** The nearest `package.json` named `emcp` above `from`: its folder and version. */
const packageOf = (from: string): { readonly dir: string; readonly version: string } | undefined => {
  for (let dir = dirname(from), up = 0; up < 8; dir = dirname(dir), up++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown }
      if (pkg.name === 'emcp' && typeof pkg.version === 'string') return { dir, version: pkg.version }
    } catch {
      // no package.json here, or not JSON: keep walking up
    }
    if (dirname(dir) === dir) break
  }
  return undefined
}
