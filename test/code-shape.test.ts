/**
 * The project's size rules, checked on the sources themselves with the TypeScript parser:
 * every module under src/ is under 400 lines and every function in it (declarations,
 * arrows, methods) spans at most 100 lines, so that a function stays one concept.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { root } from './interop/children.js'

/** Every .ts file under `dir`, recursively. */
const sources = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []))

/** Each function of a file longer than `max` lines: where it starts, its name, its length. */
const longFunctions = (file: string, max: number): ReadonlyArray<string> => {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const found: Array<string> = []
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body !== undefined) {
      const first = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line
      const lines = sf.getLineAndCharacterOfPosition(n.end).line - first + 1
      if (lines > max) found.push(`${relative(root, file)}:${first + 1} ${nameOf(n)} (${lines} lines)`)
    }
    ts.forEachChild(n, visit)
  }
  visit(sf)
  return found
}

/** A function's name, or the name of the variable or property it is assigned to. */
const nameOf = (n: ts.Node): string => {
  const own = (n as { name?: ts.Node }).name
  if (own !== undefined) return own.getText()
  const holder = n.parent as { name?: ts.Node } | undefined
  return holder?.name?.getText() ?? '(anonymous)'
}

const files = sources(join(root, 'src'))

describe('code shape', () => {
  it('has no function over 100 lines in src/', () => {
    const long = files.flatMap((f) => longFunctions(f, 100))
    expect(long).toEqual([])
  })

  it('has no module of 400 lines or more in src/', () => {
    const big = files.map((f) => [relative(root, f), readFileSync(f, 'utf8').split('\n').length - 1] as const).filter(([, n]) => n >= 400)
    expect(big).toEqual([])
  })
})
