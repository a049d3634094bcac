/**
 * Headless Chromium for the playground tests, driven by playwright-core with the system's
 * browser (Debian's `chromium`, which .ci/run installs; or CHROMIUM_PATH). Without one the
 * browser tests are skipped, and say so loudly: under .ci/run it is always there.
 *
 * @example
 * const browser = await launch(); const page = await browser.newPage(); await page.goto(url)
 */
import { existsSync } from 'node:fs'
import { afterAll, beforeAll } from 'vitest'
import { chromium, type Browser, type Locator, type Page } from 'playwright-core'
import { serveHttp, type RunningHttp } from 'emcp/http'

/** The Chromium executable, or undefined when this machine has none. */
export const chromiumPath: string | undefined = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p): p is string => p !== undefined && p !== '' && existsSync(p),
)

/** True when the browser tests are skipped: no Chromium here, and not under CI (where a missing one fails them). */
export const skipBrowser = chromiumPath === undefined && process.env.CI !== 'true'

if (skipBrowser)
  console.warn(
    '\n*** BROWSER TESTS SKIPPED: no Chromium found (set CHROMIUM_PATH, or install Debian\'s chromium; .ci/run does) ***\n',
  )

/** A headless browser on the system Chromium; no network beyond loopback. */
export const launch = (): Promise<Browser> =>
  chromium.launch({
    executablePath: chromiumPath ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--proxy-server=direct://', '--proxy-bypass-list=*'],
  })

/** Where screenshots go when EMCP_SCREENSHOTS names a folder (docs/playground for the docs); none otherwise. */
export const screenshot = async (page: Page, name: string): Promise<void> => {
  const dir = process.env.EMCP_SCREENSHOTS
  if (dir !== undefined && dir !== '') await page.screenshot({ path: `${dir}/${name}.png` })
}

/** Picks `tool` in the playground's list and waits for its form. */
export const callWith = async (page: Page, tool: string): Promise<void> => {
  await page.click(`#tools button[data-name="${tool}"]`)
  await page.waitForSelector(`form[data-tool="${tool}"]`)
}

/** Calls `tool` with its form as it stands and waits for the elicitation form the tool asks. */
export const elicitationOf = async (page: Page, tool: string): Promise<Locator> => {
  await callWith(page, tool)
  await page.click('[data-testid="call"]')
  const form = page.locator('[data-testid="elicitation"]')
  await form.waitFor()
  return form
}

/** Opens the playground at `url` and waits until it has connected and listed the tools. */
export const openPlayground = async (browser: Browser, url: string): Promise<Page> => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 } })
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto(url)
  await page.waitForSelector('#status.ok')
  await page.waitForSelector('#tools button')
  if (errors.length > 0) throw new Error(`the page threw: ${errors.join('; ')}`)
  return page
}

/** The bodies of the JSON-RPC requests the page posts, as they go. */
export const postedMethods = (page: Page): string[] => {
  const methods: string[] = []
  page.on('request', (r) => {
    if (r.method() !== 'POST') return
    try {
      const body = JSON.parse(r.postData() ?? '{}') as { method?: string }
      if (typeof body.method === 'string') methods.push(body.method)
    } catch {
      // not JSON: not ours
    }
  })
  return methods
}

/** A server with the playground, and a browser, for one describe block: started before its tests, stopped after. */
export interface ServedPlayground {
  /** The browser (there once the block's beforeAll ran). */
  readonly browser: Browser
  /** Opens the served playground in a new page of the browser. */
  readonly open: () => Promise<Page>
}

/** Serves `server` with `playground: true` (stateful) and launches the browser around the describe block this is called in. */
export const servedPlayground = (server: Parameters<typeof serveHttp>[0]): ServedPlayground => {
  const state: { running?: RunningHttp; browser?: Browser } = {}
  beforeAll(async () => {
    state.running = await serveHttp(server, { port: 0, sessions: true, playground: true, handleSignals: false })
    state.browser = await launch()
  })
  afterAll(async () => {
    await state.browser?.close()
    await state.running?.close()
  })
  const browser = (): Browser => {
    if (state.browser === undefined) throw new Error('the playground fixture is used before its beforeAll ran')
    return state.browser
  }
  return {
    get browser() {
      return browser()
    },
    open: () => openPlayground(browser(), (state.running as RunningHttp).url.replace(/mcp$/, '')),
  }
}
