/**
 * The annotations of a routine's comment (or of a `.sql` file's comments), read by the
 * grammar NpgsqlRest documents, so that comments written for NpgsqlRest work unchanged. One
 * parser serves routines and files.
 *
 * A comment is read line by line; a line is split into words on spaces and commas; keywords
 * match case-insensitively, with or without a leading `@`. A line is an annotation, never
 * prose, when it is (in NpgsqlRest's order): a tag filter `for|tag|tags t1, t2` (routines),
 * an assignment `name = value` (a resolved parameter when `name` is a parameter, a custom
 * parameter otherwise), a header `Name: value`, one of NpgsqlRest's keywords (`HTTP GET
 * /path`, `authorize`, `internal`, `single`, `param`, ...), an MCP annotation, `openapi ...`,
 * or any other line whose first word starts with `@`. Every other non-blank line is prose.
 *
 * A routine is a tool when a line is `@mcp`, `@mcp <text>`, `@mcp_description <text>`
 * (alias `@mcp_desc`) or `@mcp_name <name>`. Description precedence, whatever the line
 * order: `@mcp_description` > `@mcp <text>` > the prose > the routine's name (with a
 * warning). A repeated annotation: the last one wins. `@param_claim <parameter> <claim>`
 * fills a parameter from a claim of the caller's token instead of from the model (more
 * words after the claim: a path into nested claims, `@param_claim _org_id org id`); a
 * malformed one keeps the routine from being served rather than leaving the parameter to
 * the model.
 *
 * @example
 * import { annotations } from 'emcp/postgres'
 * const a = annotations('Lists the products.\nHTTP GET /api/products\n@mcp\n@authorize staff, admin', 'list_products')
 * // { tool: true, name: 'list_products', description: 'Lists the products.', authorize: ['staff', 'admin'], ... }
 */
import { maxClaimDepth, type ClaimPath } from '../../contract/claims.js'

// ---------------------------------------------------------------------------------------
// model

/** A `name = value` line. */
export interface Assignment {
  readonly name: string
  readonly value: string
}

/** A `param ...` line: its words after the keyword, and its text after the keyword. */
export interface ParamLine {
  readonly words: ReadonlyArray<string>
  readonly text: string
}

/** What a comment says about its routine. */
export interface Annotations {
  /** True when an MCP annotation (`@mcp`, `@mcp_description`, `@mcp_desc`, `@mcp_name`) exposes the routine. */
  readonly tool: boolean
  /** The tool name: `@mcp_name`, else the routine's name. */
  readonly name: string
  /** The description, by the precedence above. */
  readonly description: string
  /**
   * Who may call: undefined (everyone), `[]` (`@authorize` alone: any identified caller) or
   * the roles of `@authorize r1, r2` (a caller holding any of them).
   */
  readonly authorize: ReadonlyArray<string> | undefined
  /** NpgsqlRest's `disabled` (not undone by a later `enabled`): the routine is never served. */
  readonly disabled: boolean
  /** The `name = value` lines (the last of a name wins); those naming a parameter are resolved parameters. */
  readonly assignments: ReadonlyArray<Assignment>
  /** The `param ...` lines, in order (`.sql` files name and type their parameters with them). */
  readonly params: ReadonlyArray<ParamLine>
  /** `@param_claim` lines: parameter name (as written) -> the claim, or a path into nested claims. */
  readonly claims: ReadonlyMap<string, ClaimPath>
  /** Why the routine must not be served as its comment says (a malformed `@param_claim`). */
  readonly refusals: ReadonlyArray<string>
  /** What the reader should know (a description that fell back to the name). */
  readonly warnings: ReadonlyArray<string>
}

/** What the parser may know of the routine. */
export interface AnnotationContext {
  /** The routine's tags for `for`, `disabled` and `enabled` lines (NpgsqlRest: its kind and volatility). */
  readonly tags?: ReadonlyArray<string>
}

// ---------------------------------------------------------------------------------------
// functions

/** Reads the annotations of `comment`; `fallbackName` names the tool when nothing else does. */
export const annotations = (comment: string | null | undefined, fallbackName: string, context: AnnotationContext = {}): Annotations => {
  const s = newState()
  for (const raw of (comment ?? '').split(/[\r\n]+/)) readLine(s, raw.trim(), context.tags ?? [])
  const warnings: string[] = []
  let description = nonBlank(s.authoritative) ?? nonBlank(s.inline) ?? nonBlank(s.prose.join('\n'))
  if (description === undefined) {
    description = fallbackName
    if (s.tool) warnings.push(`${fallbackName}: no description in the comment; the routine's name is used`)
  }
  return {
    tool: s.tool,
    name: s.name ?? fallbackName,
    description,
    authorize: s.requiresAuthorization ? (s.roles ?? []) : undefined,
    disabled: s.disabled,
    assignments: [...s.assignments].map(([name, value]) => ({ name, value })),
    params: s.params,
    claims: s.claims,
    refusals: s.refusals,
    warnings,
  }
}

/** The words of a line as NpgsqlRest splits them: on spaces and commas, empty ones dropped. */
export const wordsOf = (line: string): ReadonlyArray<string> => line.split(/[ ,\t]+/).filter((w) => w !== '')

// ---------------------------------------------------------------------------------------
// internals

/** The parser's state while it reads the lines (one record, so that the line reader stays small). */
interface State {
  tool: boolean
  name: string | undefined
  inline: string | undefined
  authoritative: string | undefined
  requiresAuthorization: boolean
  roles: ReadonlyArray<string> | undefined
  disabled: boolean
  /** False after a `for` line naming none of the routine's tags: NpgsqlRest's own annotations then apply no more. */
  active: boolean
  readonly assignments: Map<string, string>
  readonly params: ParamLine[]
  readonly claims: Map<string, ClaimPath>
  readonly refusals: string[]
  readonly prose: string[]
}

const newState = (): State => ({
  tool: false,
  name: undefined,
  inline: undefined,
  authoritative: undefined,
  requiresAuthorization: false,
  roles: undefined,
  disabled: false,
  active: true,
  assignments: new Map(),
  params: [],
  claims: new Map(),
  refusals: [],
  prose: [],
})

const readLine = (s: State, line: string, tags: ReadonlyArray<string>): void => {
  const words = wordsOf(line)
  if (words.length === 0) return
  const key = bare(words[0] as string)
  if (tags.length > 0 && tagKeys.has(key)) {
    s.active = words.slice(1).some((w) => tags.some((t) => bare(t) === bare(w)))
    return
  }
  const assignment = splitAt(line, '=')
  if (assignment !== undefined) {
    if (s.active) s.assignments.set(assignment[0], assignment[1])
    return
  }
  // a response header for NpgsqlRest (`Content-Type: text/csv`): not prose, no meaning here
  if (splitAt(line, ':') !== undefined) return
  const minWords = keywords.get(key)
  if (minWords !== undefined && words.length >= minWords) {
    if (s.active) applyKeyword(s, key, words, line, tags)
    return
  }
  if (readMcp(s, key, words, line) || key === 'openapi' || (words[0] as string).startsWith('@')) return
  s.prose.push(line)
}

/** The effect of the NpgsqlRest keywords emcp acts on; the others are read and have none here. */
const applyKeyword = (s: State, key: string, words: ReadonlyArray<string>, line: string, tags: ReadonlyArray<string>): void => {
  if (authorizeKeys.has(key)) {
    s.requiresAuthorization = true
    // a bare `authorize` after one with roles keeps the roles, as NpgsqlRest does: it never widens
    if (words.length > 1) s.roles = words.slice(1)
  } else if (anonymousKeys.has(key)) s.requiresAuthorization = false
  else if (key === 'disabled' || key === 'enabled') {
    const applies = words.length === 1 || words.slice(1).some((w) => tags.some((t) => bare(t) === bare(w)))
    if (applies) s.disabled = key === 'disabled'
  } else if (key === 'param' || key === 'parameter') s.params.push({ words: words.slice(1), text: afterFirstWord(line) ?? '' })
}

/** The MCP annotations; true when the line is one. */
const readMcp = (s: State, key: string, words: ReadonlyArray<string>, line: string): boolean => {
  switch (key) {
    case 'mcp_name':
      s.tool = true
      if (words.length > 1) s.name = words[1]
      return true
    case 'mcp_description':
    case 'mcp_desc':
      s.tool = true
      s.authoritative = nonBlank(afterFirstWord(line)) ?? s.authoritative
      return true
    case 'mcp':
      s.tool = true
      s.inline = nonBlank(afterFirstWord(line)) ?? s.inline
      return true
    case 'param_claim': {
      const [, param, ...path] = words
      if (param === undefined || path.length === 0 || path.length > maxClaimDepth)
        s.refusals.push(`@param_claim needs a parameter and a claim (or a path of at most ${maxClaimDepth} names): ${JSON.stringify(line.slice(0, 200))}`)
      else s.claims.set(param, path.length === 1 ? (path[0] as string) : (path as [string, ...string[]]))
      return true
    }
    default:
      return false
  }
}

/** A keyword as compared: lower case, without one leading `@`. */
const bare = (word: string): string => (word.startsWith('@') ? word.slice(1) : word).toLowerCase()

/** The text after the first space or tab, trimmed (NpgsqlRest's inline text). */
const afterFirstWord = (line: string): string | undefined => {
  const at = line.search(/[ \t]/)
  return at === -1 ? undefined : line.slice(at + 1).trim()
}

const nonBlank = (s: string | undefined): string | undefined => (s === undefined || s.trim() === '' ? undefined : s.trim())

/**
 * `key <sep> value` when the key is a name (letters, digits, `-`, `_`, `@`), as NpgsqlRest
 * splits assignments and headers; otherwise undefined (the line is something else).
 */
const splitAt = (line: string, sep: '=' | ':'): readonly [string, string] | undefined => {
  const at = line.indexOf(sep)
  if (at === -1) return undefined
  const key = line.slice(0, at).trim()
  return /^[\p{L}\p{N}_@-]*$/u.test(key) ? [key, line.slice(at + 1).trim()] : undefined
}

const tagKeys = new Set(['for', 'tags', 'tag'])
const authorizeKeys = new Set(['authorize', 'authorized', 'requires_authorization'])
const anonymousKeys = new Set(['allow_anonymous', 'anonymous', 'allow_anon', 'anon'])

/** NpgsqlRest's keywords (all aliases) and the fewest words a line needs to be one. */
const keywords: ReadonlyMap<string, number> = new Map([
  ...[
    'http', 'path', 'internal', 'internal_only', 'disabled', 'enabled',
    ...authorizeKeys, ...anonymousKeys,
    'request_headers_mode', 'request_headers', 'request_headers_parameter_name', 'request_headers_param_name', 'request-headers-param-name',
    'body_parameter_name', 'body_param_name', 'response_null_handling', 'response_null',
    'query_string_null_handling', 'query_null_handling', 'query_string_null', 'query_null',
    'login', 'signin', 'logout', 'signout', 'raw', 'raw_mode', 'raw_results', 'single', 'single_record', 'single_result',
    'void', 'void_result', 'separator', 'raw_separator', 'new_line', 'raw_new_line', 'columns', 'names', 'column_names',
    'sensitive', 'security', 'security_sensitive', 'user_context', 'user_parameters', 'user_params',
    'cached', 'cache_profile', 'upload', 'parameter', 'param',
    'sse', 'sse_path', 'sse_events_path', 'sse_publish', 'sse_events_publish', 'sse_subscribe', 'sse_events_subscribe',
    'basic_authentication', 'basic_auth', 'proxy', 'reverse_proxy', 'proxy_out', 'forward_proxy',
    'encrypt', 'encrypted', 'protect', 'protected', 'decrypt', 'decrypted', 'unprotect', 'unprotected',
    'nested', 'nested_json', 'nested_composite',
  ].map((k) => [k, 1] as const),
  ...[
    'request_param_type', 'param_type', 'command_timeout', 'timeout', 'buffer_rows', 'buffer', 'cache_expires', 'cache_expires_in',
    'connection', 'connection_name', 'sse_level', 'sse_events_level', 'sse_scope', 'sse_events_scope',
    'retry_strategy_name', 'retry_strategy', 'retry', 'rate_limiter_policy_name', 'rate_limiter_policy', 'rate_limiter',
    'error_code_policy_name', 'error_code_policy', 'error_code',
    'basic_authentication_realm', 'basic_auth_realm', 'realm', 'basic_authentication_command', 'basic_auth_command', 'challenge_command',
  ].map((k) => [k, 2] as const),
  ...['validate', 'validation'].map((k) => [k, 4] as const),
])
