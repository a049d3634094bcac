/**
 * The JSON Schema walker (@cfworker/json-schema) imported statically, for the entries whose
 * runtimes may have no `require` (`emcp/fetch`, `emcp/workers`: workerd, edge isolates): it
 * hands the class to interpreted.ts when the entry loads, so that the first check made where
 * code cannot be generated walks at once. The Node entries leave it out: there it is loaded
 * on the first schema that needs it (see interpreted.ts).
 *
 * @example
 * import { walkerProvided } from './walker.js'
 * walkerProvided // true: interpretedCheck walks without loading anything
 */
import { Validator } from '@cfworker/json-schema'
import { provideWalker } from './interpreted.js'

provideWalker(Validator)

/** True once this module has handed the walker over (importing it is what matters). */
export const walkerProvided = true
