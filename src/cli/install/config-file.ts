/**
 * One entry set or removed in a client's configuration file, and nothing else changed: the
 * file is parsed (JSON, or YAML through the `yaml` package, which keeps comments), the entry
 * put under the client's key, and the file written whole to a temporary file and renamed
 * over the old one (through a symlink to its target), with the old file's mode. A file that
 * does not parse, or whose root or key is not a map, is refused and left untouched; a file
 * that already says the same is not written at all.
 *
 * @example
 * import { editConfig } from './config-file.js'
 * await editConfig('.mcp.json', 'json', 'mcpServers', { kind: 'set', name: 'calc', entry: { command: 'node', args: ['calc.js'] } })
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import * as E from 'fp-ts/lib/Either.js'
import { isObject } from '../../util/json-object.js'

/** What to do to the file. */
export type Edit = { readonly kind: 'set'; readonly name: string; readonly entry: { readonly [key: string]: unknown } } | { readonly kind: 'remove'; readonly name: string }

/** What happened: written, already so (not written), or nothing to remove. */
export type Outcome = 'written' | 'unchanged' | 'absent'

/** The largest configuration file read (8 MiB): anything larger is not a client's configuration. */
const maxBytes = 8 * 1024 * 1024

/** Applies `edit` to the file at `path`; Left with why the file was refused (and left untouched). */
export const editConfig = async (path: string, format: 'json' | 'yaml', key: string, edit: Edit): Promise<E.Either<string, Outcome>> => {
  const target = existsSync(path) ? realpathSync(path) : path
  if (existsSync(target) && !statSync(target).isFile()) return E.left(`${path} is not a file`)
  if (existsSync(target) && statSync(target).size > maxBytes) return E.left(`${path} is larger than ${maxBytes} bytes; it was left untouched`)
  const before = existsSync(target) ? readFileSync(target, 'utf8') : ''
  const after = format === 'json' ? editJson(before, key, edit) : await editYaml(before, key, edit)
  if (E.isLeft(after)) return E.left(`${path} ${after.left}; it was left untouched`)
  if (typeof after.right === 'string') return E.right(after.right)
  mkdirSync(dirname(target), { recursive: true })
  const temporary = `${target}.emcp-${process.pid}.tmp`
  writeFileSync(temporary, after.right.text, { mode: existsSync(target) ? statSync(target).mode & 0o777 : 0o600 })
  renameSync(temporary, target)
  return E.right('written')
}

/** The new text, or why not, or that nothing changes. */
type Edited = E.Either<string, { readonly text: string } | Exclude<Outcome, 'written'>>

/** The JSON file with the entry set or removed, in the file's own indentation. */
const editJson = (text: string, key: string, edit: Edit): Edited => {
  let root: unknown = {}
  if (text.trim() !== '') {
    try {
      root = JSON.parse(text)
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e)
      return E.left(`is not valid JSON (${why}${/\/\/|\/\*/.test(text) ? '; comments are not JSON' : ''})`)
    }
  }
  if (!isObject(root)) return E.left('does not hold a JSON object at its root')
  const servers = root[key] ?? {}
  if (!isObject(servers)) return E.left(`has a "${key}" that is not an object`)
  const next = nextServers(servers, edit)
  if (typeof next === 'string') return E.right(next)
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? 2
  return E.right({ text: `${JSON.stringify({ ...root, [key]: next }, null, indent)}\n` })
}

/** The servers' map after the edit; or that nothing changes. */
const nextServers = (servers: { readonly [name: string]: unknown }, edit: Edit): { readonly [name: string]: unknown } | Exclude<Outcome, 'written'> => {
  const has = Object.hasOwn(servers, edit.name)
  if (edit.kind === 'remove') return has ? Object.fromEntries(Object.entries(servers).filter(([n]) => n !== edit.name)) : 'absent'
  if (has && isDeepStrictEqual(servers[edit.name], edit.entry)) return 'unchanged'
  // Object.entries and fromEntries, not a spread into a literal: a "__proto__" name stays an own key
  const entries = Object.entries(servers).map(([n, v]) => [n, n === edit.name ? edit.entry : v] as const)
  return Object.fromEntries(has ? entries : [...entries, [edit.name, edit.entry] as const])
}

/** The YAML file with the entry set or removed; its comments and the rest of its layout kept. */
const editYaml = async (text: string, key: string, edit: Edit): Promise<Edited> => {
  const YAML = await import('yaml').catch(() => undefined)
  if (YAML === undefined) return E.left('is YAML, and editing it needs the package yaml (npm install yaml)')
  const doc = YAML.parseDocument(text)
  if (doc.errors.length > 0) return E.left(`is not valid YAML (${doc.errors[0]?.message.split('\n')[0] ?? 'a syntax error'})`)
  if (doc.contents !== null && !YAML.isMap(doc.contents)) return E.left('does not hold a mapping at its root')
  const servers = doc.getIn([key])
  if (servers !== undefined && servers !== null && !YAML.isMap(servers)) return E.left(`has an "${key}" that is not a mapping`)
  const current = YAML.isMap(servers) ? (servers.toJSON() as { readonly [name: string]: unknown }) : {}
  const next = nextServers(current, edit)
  if (typeof next === 'string') return E.right(next)
  if (edit.kind === 'remove') doc.deleteIn([key, edit.name])
  else if (YAML.isMap(servers)) servers.set(edit.name, doc.createNode(edit.entry))
  else doc.setIn([key], doc.createNode({ [edit.name]: edit.entry }))
  return E.right({ text: doc.toString() })
}
