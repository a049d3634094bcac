/**
 * The real MEOS parts for the MEOS tests: the generated manifest and catalog in
 * ../shared/meos (beside the repository, never copied into it), and libmeos (MEOS_LIBRARY_PATH,
 * else the tool cache .ci/meos builds into). Without them the tests that need them are
 * skipped, and say so loudly; under CI=true they must be there, so the tests run and fail.
 *
 * @example
 * import { meosData, skipMeos } from '../../support/meos.js'
 * describe.skipIf(skipMeos)('libmeos', () => { … meosData.manifest … })
 */
import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** Where the manifest and catalog are. */
export const meosData = {
  dir: resolve(root, '../shared/meos'),
  manifest: resolve(root, '../shared/meos/meos-mcp.json'),
  catalog: resolve(root, '../shared/meos/meos-idl.json'),
}

/** libmeos: MEOS_LIBRARY_PATH, else .ci/meos's build in the tool cache; undefined when neither is there. */
export const meosLibrary: string | undefined = [
  process.env.MEOS_LIBRARY_PATH,
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'emcp-tools', 'meos-1.3.0', 'lib', 'libmeos.so'),
].find((p): p is string => p !== undefined && p !== '' && existsSync(p))

const ci = process.env.CI === 'true'

/** True when the data files are absent and this is not CI. */
export const skipMeosData = !existsSync(meosData.manifest) && !ci

/** True when libmeos or the data files are absent and this is not CI. */
export const skipMeos = (meosLibrary === undefined || !existsSync(meosData.manifest)) && !ci

if (skipMeos)
  console.warn(
    `\n*** MEOS TESTS SKIPPED: ${meosLibrary === undefined ? 'no libmeos (set MEOS_LIBRARY_PATH, or build it with .ci/meos)' : `no ${meosData.manifest}`} ***\n`,
  )

/** The library's path for the tests (under CI a missing one fails them here, naming what is missing). */
export const libraryPath = (): string => {
  if (meosLibrary === undefined) throw new Error('libmeos is not built: run .ci/meos and set MEOS_LIBRARY_PATH')
  return meosLibrary
}

/** The manifest and catalog documents, read once. */
export const meosDocuments = (() => {
  let read: { readonly manifest: unknown; readonly catalog: unknown } | undefined
  return () => (read ??= { manifest: JSON.parse(readFileSync(meosData.manifest, 'utf8')), catalog: JSON.parse(readFileSync(meosData.catalog, 'utf8')) })
})()
