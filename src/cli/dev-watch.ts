/**
 * What `emcp dev` watches: the module's folder (or each `--watch` folder) as a whole tree,
 * and beside them every file the module graph loaded last time (its folder watched, only
 * those names heeded), so that a change to anything the module imports reloads it, even a
 * file outside its folder. The loaded files are followed through their folders' own watches
 * even inside a tree, so that a file replaced by rename (an editor's save, `sed -i`) stays
 * watched. Files under node_modules are left out (a package changes by reinstalling, and its
 * tree is large). Bursts of changes are debounced into one call.
 *
 * @example
 * import { devWatch } from './dev-watch.js'
 * const w = devWatch(['/app/dist'], (name) => console.log(`${name} changed`))
 * w.follow(['/app/lib/shared.js']) // a change to /app/lib/shared.js now reloads too
 * w.close()
 */
import { watch, type FSWatcher } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'

/** The watches of one `emcp dev`. */
export interface DevWatch {
  /** Follows exactly these loaded files (besides the trees), replacing what was followed before. */
  readonly follow: (files: ReadonlyArray<string>) => void
  /** The folders followed beside the trees, for the terminal. */
  readonly followed: () => ReadonlyArray<string>
  readonly close: () => void
}

/** The most folders followed beside the trees: a module graph spread wider is watched in part, and says so. */
export const maxFollowed = 256

/** Watches `trees` whole and the files given to `follow`; `changed` gets a name per burst of changes (100 ms quiet). */
export const devWatch = (trees: ReadonlyArray<string>, changed: (name: string) => void, cwd = process.cwd()): DevWatch => {
  const burst = debounced(changed, 100)
  const whole = trees.map((dir) =>
    watch(dir, { recursive: true }, (_event, name) => {
      const n = String(name ?? '')
      if (!ignored(n)) burst(n)
    }),
  )
  const folders = new Map<string, { readonly watcher: FSWatcher; names: ReadonlySet<string> }>()
  const follow = (files: ReadonlyArray<string>): void => {
    // files inside the trees too: a recursive watch (on Linux, one watch per file) loses a file
    // replaced by rename, as editors and `sed -i` save; a folder's own watch sees the new name
    const wanted = foldersOf(files.filter((f) => !ignored(f)))
    for (const [dir, f] of folders) if (!wanted.has(dir)) (f.watcher.close(), folders.delete(dir))
    for (const [dir, names] of wanted) {
      const known = folders.get(dir)
      if (known !== undefined) known.names = names
      else if (folders.size < maxFollowed) {
        try {
          const entry = { names, watcher: watch(dir, (_event, name) => void (entry.names.has(String(name)) && burst(relative(cwd, join(dir, String(name)))))) }
          folders.set(dir, entry)
        } catch {
          // a folder gone since the load: the next load says what the module needs now
        }
      }
    }
  }
  return {
    follow,
    followed: () => [...folders.keys()],
    close: () => {
      burst.cancel()
      for (const w of whole) w.close()
      for (const f of folders.values()) f.watcher.close()
      folders.clear()
    },
  }
}

/** node_modules, dot folders and source maps: never a reason to reload. */
const ignored = (name: string): boolean => /(^|[\\/])(node_modules|\.[^\\/]+)([\\/]|$)/.test(name) || name.endsWith('.map')

/** The files grouped by folder. */
const foldersOf = (files: ReadonlyArray<string>): Map<string, Set<string>> => {
  const by = new Map<string, Set<string>>()
  for (const f of files) {
    const names = by.get(dirname(f)) ?? new Set<string>()
    names.add(basename(f))
    by.set(dirname(f), names)
  }
  return by
}

/** `f` called once, with the last name, when `ms` pass without another call. */
const debounced = (f: (name: string) => void, ms: number): ((name: string) => void) & { readonly cancel: () => void } => {
  const state: { timer: NodeJS.Timeout | undefined; last: string } = { timer: undefined, last: '' }
  const call = (name: string): void => {
    state.last = name
    clearTimeout(state.timer)
    state.timer = setTimeout(() => f(state.last), ms)
  }
  return Object.assign(call, { cancel: () => clearTimeout(state.timer) })
}
