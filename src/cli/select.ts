/**
 * The `--category` and `--tag` options shared by the commands that work on a server's
 * tools: a curated subset, as `emcp/manifest` selects it.
 *
 * @example
 * import { selectionOf } from './select.js'
 * selectionOf(parseArgs(['--category', 'vector'], { options: ['category', 'tag'] })) // { categories: ['vector'] }
 */
import type { Selection } from '../sources/manifest/catalog.js'
import type { Args } from './args.js'

/** The option names, for an ArgSpec. */
export const selectionOptions = ['category', 'tag'] as const

/** The help lines of the options. */
export const selectionHelp = `  --category C    only tools of category C (repeatable; a tool's category is its
                  _meta["emcp/category"] or the part of its name before the first dot)
  --tag T         only tools tagged T in _meta["emcp/tags"] (repeatable)`

/** The selection the options ask for; undefined when they ask for none. */
export const selectionOf = (args: Args): Selection | undefined => {
  const categories = args.options.category
  const tags = args.options.tag
  if (categories === undefined && tags === undefined) return undefined
  return { ...(categories === undefined ? {} : { categories }), ...(tags === undefined ? {} : { tags }) }
}
