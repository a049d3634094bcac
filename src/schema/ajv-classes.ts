/**
 * The general validator engine's classes (Ajv for draft-07, 2019-09 and 2020-12, and
 * ajv-formats), in a module of their own: it is loaded on the first schema the plain fast
 * path cannot check, never at startup (Ajv is most of what a server loads before its first
 * answer). Imported statically here, and this module by a literal `import()`, so that a
 * bundler sees and includes them.
 *
 * @example
 * import { ajvClasses } from './ajv-classes.js'
 * const ajv = new ajvClasses.Ajv2020({ strict: false })
 */
import { Ajv } from 'ajv'
import { Ajv2019 } from 'ajv/dist/2019.js'
import { Ajv2020 } from 'ajv/dist/2020.js'
import * as ajvFormats from 'ajv-formats'

/** The constructor of one engine. */
export type AjvClass = new (options: object) => Ajv

/** What the engine needs: one class per dialect, and the function that adds the formats. */
export interface AjvClasses {
  readonly Ajv: AjvClass
  readonly Ajv2019: AjvClass
  readonly Ajv2020: AjvClass
  readonly addFormats: (ajv: Ajv) => Ajv
}

/** ajv-formats is CommonJS: Node hands over its exports object, a bundler its default export. */
export const formatsOf = (m: unknown): ((ajv: Ajv) => Ajv) => ((m as { default?: unknown }).default ?? m) as (ajv: Ajv) => Ajv

/** The classes, from the static imports above. */
export const ajvClasses: AjvClasses = { Ajv, Ajv2019, Ajv2020, addFormats: formatsOf(ajvFormats) }

