/**
 * Resolved parameters, as NpgsqlRest has them: a comment line `name = <SQL>` whose name is
 * one of the routine's parameters gives that parameter its value from the SQL, run by the
 * server at each call; the caller never supplies it (it is not in the input schema). In the
 * SQL, `{other}` stands for the value of another parameter (by its name in the database, its
 * property name, or NpgsqlRest's camelCase name; case-insensitive); a placeholder that names
 * no parameter is NULL. Resolved parameters are worked out in the order of their lines, so a
 * later one may use an earlier one's value.
 *
 * @example
 * import { resolvedOf, substitute } from './resolved.js'
 * const r = resolvedOf([{ name: '_user_id', value: 'select id from users where name = {_name}' }], ['_name', '_user_id'])
 * // Map { 1 => 'select id from users where name = {_name}' }
 * substitute('select {_name}', () => '$1') // 'select $1'
 */
import type { Assignment } from './annotations.js'

// ---------------------------------------------------------------------------------------
// functions

/** The resolved parameters among `names` (the parameters' names, in order): index -> SQL, in the order of the lines. */
export const resolvedOf = (assignments: ReadonlyArray<Assignment>, names: ReadonlyArray<string>): ReadonlyMap<number, string> => {
  const out = new Map<number, string>()
  for (const a of assignments) {
    const i = indexOfName(a.name, names)
    if (i !== -1) out.set(i, a.value)
  }
  return out
}

/** Why resolved parameters cannot be served (one without SQL after its `=`), or undefined. */
export const unresolvable = (resolved: ReadonlyMap<number, string>, names: ReadonlyArray<string>): string | undefined => {
  const empty = [...resolved].filter(([, sql]) => sql.trim() === '').map(([i]) => names[i])
  return empty.length === 0 ? undefined : `resolved parameter ${empty.join(', ')} has no SQL after its = (the model never supplies a resolved parameter)`
}

/** The parameter `placeholder` names (see the header), or -1. */
export const indexOfName = (placeholder: string, names: ReadonlyArray<string>): number => {
  const p = placeholder.toLowerCase()
  return names.findIndex((n) => {
    const l = n.toLowerCase()
    return l === p || l.replace(/^_/, '') === p || camelCase(n).toLowerCase() === p
  })
}

/**
 * `sql` with each `{name}` replaced by `f(name)`, or by NULL when `f` knows no such
 * parameter; braces around anything but a name (an array literal `'{1,2}'`) stay as they are.
 */
export const substitute = (sql: string, f: (name: string) => string | undefined): string =>
  sql.replace(/\{([^{}]*)\}/g, (whole, name: string) => (/^\s*[A-Za-z_][A-Za-z0-9_$]*\s*$/.test(name) ? (f(name.trim()) ?? 'NULL') : whole))

/** NpgsqlRest's default name conversion: `_user_id` -> `userId`. */
export const camelCase = (name: string): string => {
  let out = ''
  let upper = false
  for (const c of name) {
    if (c === '_' || c === '-' || c === ' ') upper = true
    else {
      out += out === '' ? c.toLowerCase() : upper ? c.toUpperCase() : c
      upper = false
    }
  }
  return out
}
