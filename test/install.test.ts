/**
 * Installing emcp as the README and getting-started say, since it is not on the npm registry:
 * the docs give no bare `npm install emcp` to run, they give `npm pack` in a checkout and
 * `npm install <the tarball>`; and that works: the tarball installs with npm into a fresh
 * project (its dependencies from npm's cache when there, else from the registry), `import
 * 'emcp'` loads, and the installed `emcp` command lists a module written as getting-started's
 * (default export, served at top level). dist/ is built by the test setup, so the pack skips
 * the prepack build (--ignore-scripts).
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { root } from './interop/children.js'
import { run } from './support/run.js'


/** The shell blocks of a markdown file. */
const shellBlocks = (file: string): string =>
  [...readFileSync(join(root, file), 'utf8').matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? '').join('\n')

describe('installing emcp from a checkout', () => {
  let tmp = ''
  beforeAll(() => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'emcp-install-')))
  })
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))

  it('README and getting-started give npm pack and the tarball, never a bare `npm install emcp`', () => {
    for (const file of ['README.md', 'docs/getting-started.md']) {
      const sh = shellBlocks(file)
      expect(sh, file).not.toMatch(/npm (install|i|add)( [-\w]+)* emcp(\s|$)/)
      expect(sh, file).toMatch(/npm pack/)
      expect(sh, file).toMatch(/npm install \.\.\/emcp\/emcp-\d+\.\d+\.\d+\.tgz/)
    }
  })

  it('the packed tarball installs into a fresh project with npm; emcp imports and its command lists a getting-started module', async (ctx) => {
    const pack = await run('npm', ['pack', '--json', '--ignore-scripts', '--offline', '--pack-destination', tmp], root)
    expect(pack.code, pack.stderr).toBe(0)
    const [info] = JSON.parse(pack.stdout) as ReadonlyArray<{ readonly filename: string }>
    const app = join(tmp, 'app')
    mkdirSync(app)
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', type: 'module' }))
    const install = await run('npm', ['install', join(tmp, info!.filename), '--prefer-offline', '--no-audit', '--no-fund'], app)
    // without the registry and without the dependencies in npm's cache, nothing here can be judged
    if (install.code !== 0 && /ENOTCACHED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNREFUSED|ECONNRESET/.test(install.stderr)) ctx.skip()
    expect(install.code, install.stderr).toBe(0)
    expect(JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).dependencies.emcp).toMatch(/^file:.*emcp-\d+\.\d+\.\d+\.tgz$/)
    writeFileSync(
      join(app, 'server.js'),
      `import { emcp, mcpServer } from 'emcp'
import { serveStdio } from 'emcp/stdio'
const add = emcp({ name: 'add', description: 'Add two numbers.', input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } })
const server = mcpServer([add], { name: 'app', version: '1.0.0' }).implement({ add: ({ a, b }) => String(a + b) })
export default server
await serveStdio(server)
`,
    )
    const listed = await run(join(app, 'node_modules', '.bin', 'emcp'), ['list', 'server.js'], app)
    expect(listed.stderr).toMatch(/^1 tool, listing/)
    expect(listed.stdout).toMatch(/^add\s+Add two numbers\./)
    expect(listed.code).toBe(0)
    const called = await run(join(app, 'node_modules', '.bin', 'emcp'), ['call', 'server.js', 'add', '--arg', 'a=2', '--arg', 'b=3'], app)
    expect(JSON.parse(called.stdout).content).toEqual([{ type: 'text', text: '5' }])
  }, 300_000)
})
