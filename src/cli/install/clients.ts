/**
 * The six MCP clients `emcp install` knows, each with its own documented configuration file
 * and entry format: Claude Desktop, Claude Code, Cursor, VS Code, Gemini CLI (JSON) and Goose
 * (YAML). A server is either a command (stdio) or a URL (Streamable HTTP); this file turns
 * that one description into each client's entry, its default file, and its install link.
 *
 * @example
 * import { clients } from './clients.js'
 * clients.cursor.entry({ kind: 'http', url: 'https://example.org/mcp' }, 'demo') // { url: 'https://example.org/mcp' }
 */
import { homedir } from 'node:os'
import { join } from 'node:path'

/** The server an entry starts or reaches. */
export type ServerSpec =
  | { readonly kind: 'stdio'; readonly command: string; readonly args: ReadonlyArray<string>; readonly env: { readonly [name: string]: string } }
  | { readonly kind: 'http'; readonly url: string }

/** One client: where its file is, under which key entries live, and how an entry reads. */
export interface McpClient {
  /** Its name on the command line. */
  readonly id: string
  /** Its name for people. */
  readonly title: string
  /** The file format. */
  readonly format: 'json' | 'yaml'
  /** The default configuration file (the project's, for clients configured per project). */
  readonly defaultFile: (cwd: string) => string
  /** The key of the map of servers at the root of the file. */
  readonly key: string
  /** The entry for `server` under `name`. */
  readonly entry: (server: ServerSpec, name: string) => { readonly [key: string]: unknown }
  /** A one-click install link, or the command that installs, where the client has one. */
  readonly link?: (server: ServerSpec, name: string) => string
}

const home = (): string => homedir()
const appData = (): string => process.env.APPDATA ?? join(home(), 'AppData', 'Roaming')

/** `env` only when there is some: the entries stay as small as the client's own examples. */
const withEnv = (key: string, env: { readonly [name: string]: string }) => (Object.keys(env).length === 0 ? {} : { [key]: { ...env } })

const claudeDesktop: McpClient = {
  id: 'claude-desktop',
  title: 'Claude Desktop',
  format: 'json',
  defaultFile: () =>
    process.platform === 'darwin'
      ? join(home(), 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json')
      : process.platform === 'win32'
        ? join(appData(), 'Claude', 'claude_desktop_config.json')
        : join(home(), '.config', 'Claude', 'claude_desktop_config.json'),
  key: 'mcpServers',
  // its configuration file starts local processes only: a remote server is reached through the mcp-remote bridge
  entry: (s) => (s.kind === 'stdio' ? { command: s.command, args: [...s.args], ...withEnv('env', s.env) } : { command: 'npx', args: ['-y', 'mcp-remote', s.url] }),
}

const claudeCode: McpClient = {
  id: 'claude-code',
  title: 'Claude Code',
  format: 'json',
  defaultFile: (cwd) => join(cwd, '.mcp.json'),
  key: 'mcpServers',
  entry: (s) => (s.kind === 'stdio' ? { type: 'stdio', command: s.command, args: [...s.args], ...withEnv('env', s.env) } : { type: 'http', url: s.url }),
  link: (s, name) => `claude mcp add-json ${shellQuote(name)} ${shellQuote(JSON.stringify(claudeCode.entry(s, name)))}`,
}

const cursor: McpClient = {
  id: 'cursor',
  title: 'Cursor',
  format: 'json',
  defaultFile: () => join(home(), '.cursor', 'mcp.json'),
  key: 'mcpServers',
  entry: (s) => (s.kind === 'stdio' ? { command: s.command, args: [...s.args], ...withEnv('env', s.env) } : { url: s.url }),
  link: (s, name) => `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(name)}&config=${encodeURIComponent(Buffer.from(JSON.stringify(cursor.entry(s, name))).toString('base64'))}`,
}

const vscode: McpClient = {
  id: 'vscode',
  title: 'VS Code',
  format: 'json',
  defaultFile: (cwd) => join(cwd, '.vscode', 'mcp.json'),
  key: 'servers',
  entry: (s) => (s.kind === 'stdio' ? { type: 'stdio', command: s.command, args: [...s.args], ...withEnv('env', s.env) } : { type: 'http', url: s.url }),
  link: (s, name) => `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name, ...vscode.entry(s, name) }))}`,
}

const gemini: McpClient = {
  id: 'gemini',
  title: 'Gemini CLI',
  format: 'json',
  defaultFile: () => join(home(), '.gemini', 'settings.json'),
  key: 'mcpServers',
  // Gemini CLI names a Streamable HTTP endpoint `httpUrl` (its `url` means SSE)
  entry: (s) => (s.kind === 'stdio' ? { command: s.command, args: [...s.args], ...withEnv('env', s.env) } : { httpUrl: s.url }),
}

const goose: McpClient = {
  id: 'goose',
  title: 'Goose',
  format: 'yaml',
  defaultFile: () => (process.platform === 'win32' ? join(appData(), 'Block', 'goose', 'config', 'config.yaml') : join(home(), '.config', 'goose', 'config.yaml')),
  key: 'extensions',
  entry: (s, name) =>
    s.kind === 'stdio'
      ? { name, type: 'stdio', cmd: s.command, args: [...s.args], envs: { ...s.env }, enabled: true, timeout: 300 }
      : { name, type: 'streamable_http', uri: s.url, enabled: true, timeout: 300 },
  link: (s, name) => {
    const q = new URLSearchParams(s.kind === 'stdio' ? [['cmd', s.command], ...s.args.map((a) => ['arg', a] as [string, string])] : [['url', s.url], ['type', 'streamable_http']])
    q.append('id', name)
    q.append('name', name)
    return `goose://extension?${q.toString().replace(/\+/g, '%20')}`
  },
}

/** Every client, by its id. */
export const clients: { readonly [id: string]: McpClient } = Object.fromEntries([claudeDesktop, claudeCode, cursor, vscode, gemini, goose].map((c) => [c.id, c]))

/** A word for a POSIX shell, quoted when it needs to be. */
const shellQuote = (s: string): string => (/^[A-Za-z0-9_./:=@-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`)
