/**
 * Annotation presets. A pure function (no side effects, the same answer for the same
 * arguments, nothing outside the process consulted) is read-only, idempotent, not
 * destructive and closed-world. `pure` declares all four: the protocol's defaults are
 * destructive and open-world, so a tool that sets only `readOnlyHint` still reads as
 * open-world to a client, and as destructive to one that looks at that hint alone.
 *
 * @example
 * import { emcp, pure } from 'emcp'
 * const add = emcp({
 *   name: 'add',
 *   description: 'Add two numbers.',
 *   input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
 *   annotations: { ...pure, title: 'Add' },
 * })
 */
import type { ToolAnnotations } from './emcp.js'

/** The annotations of a pure function: read-only, idempotent, not destructive, closed-world. */
export const pure = Object.freeze({
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const) satisfies ToolAnnotations
