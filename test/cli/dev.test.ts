/**
 * `emcp dev` as a user runs it (the built command, a child process) with the playground in
 * headless Chromium: the calculator's add gives 5; a catalog of two thousand tools stays
 * usable (categories, search, at most 200 listed); a change to a file the module imports
 * reloads it on the same port while the page stays; a change that does not load is shown in
 * the terminal and the page, and the last good server keeps answering.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launch, openPlayground, screenshot, skipBrowser } from '../playground/browser.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const emcpBundle = pathToFileURL(join(root, 'dist/bundle/index.js')).href

/** A running `emcp dev`: its URL, its standard error so far, and a wait for a line of it. */
interface Dev {
  readonly url: string
  readonly child: ChildProcess
  readonly stderr: () => string
  readonly line: (pattern: RegExp) => Promise<string>
}

const startDev = async (args: ReadonlyArray<string>): Promise<Dev> => {
  const child = spawn(process.execPath, [join(root, 'bin/emcp.js'), 'dev', ...args, '--port', '0'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] })
  let text = ''
  const waiting: Array<() => void> = []
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk
    for (const w of waiting.splice(0)) w()
  })
  const line = (pattern: RegExp): Promise<string> =>
    new Promise((resolve, reject) => {
      const seen = (): void => {
        const hit = text.split('\n').find((l) => pattern.test(l))
        if (hit !== undefined) return resolve(hit)
        if (child.exitCode !== null) return reject(new Error(`emcp dev exited: ${text}`))
        waiting.push(seen)
      }
      child.once('exit', () => waiting.length > 0 && seen())
      seen()
    })
  const first = await line(/generation 1 serving|failed to load/)
  const url = /playground (http:\/\/127\.0\.0\.1:\d+\/)/.exec(first)?.[1] ?? ''
  return { url, child, stderr: () => text, line }
}

const stopDev = (dev: Dev | undefined): Promise<void> =>
  new Promise((resolve) => {
    if (dev === undefined || dev.child.exitCode !== null) return resolve()
    dev.child.once('exit', () => resolve())
    dev.child.kill('SIGINT')
  })

describe.skipIf(skipBrowser)('emcp dev with the playground', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launch()
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('serves the calculator: add with 2 and 3 reads 5', async () => {
    const dev = await startDev(['dist/examples/calculator.js'])
    try {
      expect(dev.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
      const page = await openPlayground(browser, dev.url)
      await page.click('#tools button[data-name="add"]')
      await page.fill('input[name="a"]', '2')
      await page.fill('input[name="b"]', '3')
      await page.click('[data-testid="call"]')
      await expect.poll(() => page.locator('[data-testid="result"] .json.number').textContent()).toBe('5')
      await screenshot(page, 'dev-calculator')
    } finally {
      await stopDev(dev)
    }
  })

  it('keeps two thousand tools usable: categories, search, 200 listed at once', async () => {
    const dev = await startDev(['dist/examples/catalog.js'])
    try {
      const page = await openPlayground(browser, dev.url)
      const total = Number(/\((\d+) tools\)/.exec((await page.locator('#category option').first().textContent()) ?? '')?.[1])
      expect(total).toBeGreaterThan(1500)
      expect(await page.locator('#tools button').count()).toBe(200)
      expect(await page.locator('#tools .more').textContent()).toBe(`${total - 200} more: narrow the search`)
      await page.selectOption('#category', 'scalar')
      await page.fill('#search', 'add_i8')
      await expect.poll(() => page.locator('#tools button').allTextContents()).toEqual(['scalar.add_i8', 'scalar.add_i8_wrap', 'scalar.add_i8_sat'])
      await page.click('#tools button[data-name="scalar.add_i8"]')
      await page.fill('input[name="a"]', '100')
      await page.fill('input[name="b"]', '27')
      await page.click('[data-testid="call"]')
      await expect.poll(() => page.locator('[data-testid="result"] .json.number').first().textContent()).toBe('127')
      await screenshot(page, 'catalog')
    } finally {
      await stopDev(dev)
    }
  })

  describe('reloading', () => {
    let dir: string
    let dev: Dev | undefined
    const main = (body: string): void =>
      writeFileSync(join(dir, 'server.js'), `import { emcp, mcpServer } from '${emcpBundle}'\nimport { extra } from './extra.js'\n${body}\n`)
    const extraTools = (tools: string): void => writeFileSync(join(dir, 'extra.js'), `export const extra = ${tools}\n`)
    const good = `const add = emcp({ name: 'add', description: 'Add.', input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }, output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] } })
const tools = extra.map((name) => emcp({ name, description: 'From extra.js.', input: { type: 'object', properties: {} } }))
export default mcpServer([add, ...tools], { name: 'reloading', version: '1.0.0' }).implement({ add: ({ a, b }) => ({ sum: a + b }), ...Object.fromEntries(extra.map((n) => [n, () => 'hello from ' + n])) })`
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'emcp-dev-'))
      extraTools('[]')
      main(good)
    })
    afterAll(async () => {
      await stopDev(dev)
      rmSync(dir, { recursive: true, force: true })
    })

    it('reloads on a change of an imported file, on the same port, and the page stays', async () => {
      dev = await startDev([join(dir, 'server.js')])
      const page = await openPlayground(browser, dev.url)
      expect(await page.locator('#tools button').allTextContents()).toEqual(['add'])
      await page.evaluate(() => Object.assign(window, { keptAcrossReloads: true }))
      extraTools("['wave']")
      await page.locator('#tools button[data-name="wave"]').waitFor()
      expect(await page.evaluate(() => (window as unknown as { keptAcrossReloads?: boolean }).keptAcrossReloads)).toBe(true)
      expect(new URL(page.url()).port).toBe(new URL(dev.url).port)
      await dev.line(/generation 2 serving \(extra\.js changed\)/)
      await page.click('#tools button[data-name="wave"]')
      await page.click('[data-testid="call"]')
      await expect.poll(() => page.locator('[data-testid="result"] pre.text').textContent()).toBe('hello from wave')

      // a change that does not load: shown in the terminal and the page; the last good server answers
      main('export default {')
      await page.locator('#banner:not([hidden])').waitFor()
      expect(await page.locator('#banner').textContent()).toContain('failed to load')
      expect(await page.locator('#banner pre').textContent()).toMatch(/cannot load .*server\.js/)
      expect(await dev.line(/server\.js failed to load/)).toContain('server.js changed')
      expect(dev.stderr()).toContain('the last good server keeps serving')
      await screenshot(page, 'dev-error')
      await page.click('#tools button[data-name="wave"]')
      await page.click('[data-testid="call"]')
      await expect.poll(() => page.locator('[data-testid="result"] pre.text').textContent()).toBe('hello from wave')

      // fixed: the next generation serves and the banner goes
      main(good)
      await page.locator('#banner[hidden]').waitFor({ state: 'attached' })
      await dev.line(/generation \d+ serving \(server\.js changed\)/)
      await page.locator('#tools button[data-name="wave"]').waitFor()
    })
  })
})

describe('emcp dev follows what the module imports', () => {
  let dir: string
  let dev: Dev | undefined
  beforeAll(() => {
    // the module in app/, a file it imports in lib/: outside the folder emcp dev watches whole
    dir = mkdtempSync(join(tmpdir(), 'emcp-dev-graph-'))
    mkdirSync(join(dir, 'app'))
    mkdirSync(join(dir, 'lib'))
    writeFileSync(join(dir, 'lib', 'names.js'), "export const names = ['first']\n")
    writeFileSync(
      join(dir, 'app', 'server.js'),
      `import { emcp, mcpServer } from '${emcpBundle}'
import { names } from '../lib/names.js'
const tools = names.map((name) => emcp({ name, description: 'From lib/names.js.', input: { type: 'object', properties: {} } }))
export default mcpServer(tools, { name: 'graph', version: '1.0.0' }).implement(Object.fromEntries(names.map((n) => [n, () => n])))
`,
    )
  })
  afterAll(async () => {
    await stopDev(dev)
    rmSync(dir, { recursive: true, force: true })
  })

  const toolNames = async (url: string): Promise<string[]> => {
    const r = await fetch(`${url}mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
    })
    const text = await r.text()
    const json = JSON.parse(text.startsWith('{') ? text : (text.split('\n').find((l) => l.startsWith('data: {')) ?? '').slice(6)) as { result: { tools: Array<{ name: string }> } }
    return json.result.tools.map((t) => t.name)
  }

  it('reloads when a file the module imports from another folder changes', async () => {
    dev = await startDev([join(dir, 'app', 'server.js')])
    expect(await toolNames(dev.url)).toEqual(['first'])
    writeFileSync(join(dir, 'lib', 'names.js'), "export const names = ['first', 'second']\n")
    expect(await dev.line(/generation 2 serving/)).toMatch(/\(.*lib[\\/]names\.js changed\)/)
    expect(await toolNames(dev.url)).toEqual(['first', 'second'])
  })
})
