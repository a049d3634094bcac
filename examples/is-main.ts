/**
 * Whether a module is the program node was started with. Apart from main.ts (which parses
 * options with `node:util`) so that an example reading no options loads neither: the bench
 * example, whose start is compared with a raw loop that reads none.
 *
 * @example
 * import { isMain } from './is-main.js'
 * if (isMain(import.meta.url)) console.log('run directly')
 */
import { realpathSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

/** Whether the module at `url` is the program node was started with (symbolic links resolved). */
export const isMain = (url: string): boolean => {
  const entry = process.argv[1]
  if (entry === undefined) return false
  // most starts name the file itself; only a link (or a relative oddity) needs the real path
  if (url === pathToFileURL(entry).href) return true
  try {
    return url === pathToFileURL(realpathSync(entry)).href
  } catch {
    return false
  }
}
