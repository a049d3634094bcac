/**
 * The `@mcp` annotations of a routine's comment (or a `.sql` file's leading comment): whether
 * it is a tool, its name, its description, who may call it. Lines that start with `@` are
 * annotations and never reach the description; the other lines are its prose.
 *
 * Description precedence: `@mcp_description` (alias `@mcp_desc`) > the text after `@mcp` >
 * the prose > the routine's name (with a warning). A repeated annotation: the last one wins.
 *
 * @example
 * import { annotations } from 'emcp/postgres'
 * const a = annotations('Lists the products.\n@mcp\n@authorize staff, admin', 'list_products')
 * // { tool: true, name: 'list_products', description: 'Lists the products.', authorize: ['staff', 'admin'], warnings: [] }
 */

// ---------------------------------------------------------------------------------------
// model

/** What a comment says about its routine. */
export interface Annotations {
  /** True when the comment carries `@mcp`: only then is the routine a tool. */
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
  /** What the reader should know (a description that fell back to the name). */
  readonly warnings: ReadonlyArray<string>
}

// ---------------------------------------------------------------------------------------
// functions

/** Reads the annotations of `comment`; `fallbackName` names the tool when nothing else does. */
export const annotations = (comment: string | null | undefined, fallbackName: string): Annotations => {
  let tool = false
  let inline: string | undefined
  let authoritative: string | undefined
  let name: string | undefined
  let authorize: ReadonlyArray<string> | undefined
  const prose: string[] = []
  for (const raw of (comment ?? '').split(/\r?\n/)) {
    const line = raw.trim()
    // `\S` after the blanks: `\s+(.*)` could split a run of blanks n ways (quadratic)
    const m = /^@([A-Za-z_][A-Za-z0-9_]*)(?:\s+(\S.*)?)?$/.exec(line)
    if (m === null) {
      prose.push(line)
      continue
    }
    const value = (m[2] ?? '').trim()
    switch (m[1]) {
      case 'mcp':
        tool = true
        inline = value === '' ? inline : value
        break
      case 'mcp_description':
      case 'mcp_desc':
        authoritative = value
        break
      case 'mcp_name':
        name = value === '' ? name : value
        break
      case 'authorize':
        authorize = value
          .split(',')
          .map((r) => r.trim())
          .filter((r) => r !== '')
        break
      default:
        // another tool's annotation: still never part of the description
        break
    }
  }
  const text = prose.join('\n').replace(/\n{3,}/g, '\n\n').trim()
  const warnings: string[] = []
  let description = authoritative !== undefined && authoritative !== '' ? authoritative : inline ?? (text === '' ? undefined : text)
  if (description === undefined) {
    description = fallbackName
    if (tool) warnings.push(`${fallbackName}: no description in the comment; the routine's name is used`)
  }
  return { tool, name: name ?? fallbackName, description, authorize, warnings }
}
