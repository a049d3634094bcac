/**
 * The playground in a real browser (headless Chromium), served by `serveHttp(server,
 * { playground: true, sessions: true })`: the generated form of `add`, validation before
 * sending, a progress bar moving, an elicitation answered, results rendered as text (never
 * as HTML), both eras, and the loopback-only rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { emcp, mcpServer, toolError } from 'emcp'
import { fromManifest } from 'emcp/manifest'
import { playgroundAnswer, serveHttp } from 'emcp/http'
import { callWith, elicitationOf, launch, openPlayground, servedPlayground, postedMethods, screenshot, skipBrowser } from './browser.js'

/** A gate the test opens: the progress tool waits on it between its steps, so the test sees each one. */
const gates: Array<() => void> = []
const gate = (): Promise<void> => new Promise((open) => void gates.push(open))
const seeStep = async (page: Page, step: number): Promise<void> => {
  const bar = page.locator(`[data-testid="progress"][data-progress="${step}"]`)
  await bar.waitFor()
  // the tool waits at its gate: the bar shows this step, not a later one
  expect(await bar.evaluate((p: HTMLProgressElement) => [p.value, p.max])).toEqual([step, 3])
  expect(gates.length).toBe(1)
}

const add = emcp({
  name: 'add',
  description: 'Add two numbers.',
  input: { type: 'object', properties: { a: { type: 'number', description: 'First' }, b: { type: 'number', description: 'Second' } }, required: ['a', 'b'], additionalProperties: false } as const,
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] } as const,
})
const slow = emcp({ name: 'slow', description: 'Three steps, reported as progress.', input: { type: 'object', properties: {} } as const })
const greet = emcp({ name: 'greet', description: 'Asks for a name.', input: { type: 'object', properties: {} } as const })
const shapes = emcp({
  name: 'shapes',
  description: 'Every kind of field.',
  input: {
    type: 'object',
    properties: {
      label: { type: 'string', minLength: 2, default: 'hi' },
      color: { type: 'string', enum: ['red', 'green'] },
      when: { type: 'string', format: 'date-time' },
      count: { type: 'integer', minimum: 1 },
      loud: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
      point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] },
    },
    required: ['label', 'count'],
  } as const,
})
const hostile = emcp({ name: 'hostile', description: 'Returns markup and an SVG image.', input: { type: 'object', properties: {} } as const })

const toggle = emcp({ name: 'toggle', description: 'Hides or shows hostile.', input: { type: 'object', properties: { show: { type: 'boolean' } }, required: ['show'] } as const })

const server = mcpServer([add, slow, greet, shapes, hostile, toggle], { name: 'playground-test', version: '1.0.0' }).implement({
  add: ({ a, b }) => ({ sum: a + b }),
  slow: async (_args, ctx) => {
    for (let i = 1; i <= 3; i++) {
      ctx.progress(i, 3, `step ${i} of 3`)
      await gate()
    }
    return 'done'
  },
  greet: async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } })
    return answer.action === 'accept' ? `Hello, ${answer.content.name}!` : `no answer (${answer.action})`
  },
  shapes: (args) => JSON.stringify(args),
  toggle: ({ show }) => {
    if (show) server.enableTool('hostile')
    else server.disableTool('hostile')
    return show ? 'shown' : 'hidden'
  },
  hostile: () => toolError([
    { type: 'text', text: '<img src=x onerror="document.title=\'pwned\'">' },
    { type: 'image', data: 'PHN2Zz48L3N2Zz4=', mimeType: 'image/svg+xml' },
  ]),
})

describe.skipIf(skipBrowser)('the playground in Chromium', () => {
  const served = servedPlayground(server)

  it.each(['2025-11-25', '2026-07-28'])('fills and submits the form of add (%s) and shows 5', async (era) => {
    const page = await served.open()
    if (era === '2026-07-28') {
      await page.selectOption('#era', era)
      await page.waitForSelector(`#status.ok:has-text("${era}")`)
    }
    await callWith(page, 'add')
    await page.fill('input[name="a"]', '2')
    await page.fill('input[name="b"]', '3')
    await page.click('[data-testid="call"]')
    const result = page.locator('[data-testid="result"]')
    await expect.poll(() => result.locator('.json.number').textContent()).toBe('5')
    expect(await result.locator('pre.text').textContent()).toBe('{"sum":5}')
    if (era === '2025-11-25') await screenshot(page, 'add')
    await page.close()
  })

  it('shows validation messages from the schema and sends nothing', async () => {
    const page = await served.open()
    const methods = postedMethods(page)
    await callWith(page, 'add')
    await page.fill('input[name="a"]', 'two')
    await page.click('[data-testid="call"]')
    const problems = page.locator('[data-testid="problems"]')
    await problems.waitFor()
    expect(await problems.locator('li').allTextContents()).toEqual(['a: must be a number', 'b: required'])
    expect(await page.locator('[data-problem="b"]').textContent()).toBe('required')
    expect(methods).not.toContain('tools/call')
    await screenshot(page, 'validation')
    await page.close()
  })

  it('builds every kind of field and sends what was filled', async () => {
    const page = await served.open()
    await callWith(page, 'shapes')
    expect(await page.inputValue('input[name="label"]')).toBe('hi')
    expect(await page.locator('form[data-tool="shapes"] .required').count()).toBe(4) // label, count, point.x, point.y
    await page.selectOption('select[name="color"]', { label: '"green"' })
    await page.fill('input[name="count"]', '1.5')
    await page.click('[data-testid="call"]')
    await page.locator('[data-problem="count"]:has-text("whole number")').waitFor()
    await page.fill('input[name="count"]', '2')
    await page.selectOption('select[name="loud"]', 'true')
    await page.click('[data-add="tags"]')
    await page.fill('input[name="tags.0"]', 'x')
    await page.fill('input[name="point.x"]', '1')
    await page.fill('input[name="point.y"]', '-2')
    await page.click('[data-testid="call"]')
    const text = await page.locator('[data-testid="result"] pre.text').textContent()
    expect(JSON.parse(text ?? 'null')).toEqual({ label: 'hi', color: 'green', count: 2, loud: true, tags: ['x'], point: { x: 1, y: -2 } })
    await page.close()
  })

  it('moves a progress bar as progress notifications arrive', async () => {
    const page = await served.open()
    await callWith(page, 'slow')
    await page.click('[data-testid="call"]')
    await seeStep(page, 1)
    gates.shift()!()
    await seeStep(page, 2)
    expect(await page.locator('.progress-note').textContent()).toBe(' step 2 of 3')
    await screenshot(page, 'progress')
    gates.shift()!()
    await seeStep(page, 3)
    gates.shift()!()
    await expect.poll(() => page.locator('[data-testid="result"] pre.text').textContent()).toBe('done')
    await page.close()
  })

  it.each(['2025-11-25', '2026-07-28'])('answers an elicitation with its form (%s)', async (era) => {
    const page = await served.open()
    if (era === '2026-07-28') {
      await page.selectOption('#era', era)
      await page.waitForSelector(`#status.ok:has-text("${era}")`)
    }
    const form = await elicitationOf(page, 'greet')
    expect(await form.locator('.message').textContent()).toBe('What is your name?')
    await form.locator('button[data-action="accept"]').click()
    await form.locator('[data-problem="name"]:has-text("required")').waitFor()
    await form.locator('input[name="name"]').fill('Ada')
    if (era === '2025-11-25') await screenshot(page, 'elicitation')
    await form.locator('button[data-action="accept"]').click()
    await expect.poll(() => page.locator('[data-testid="result"] pre.text').textContent()).toBe('Hello, Ada!')
    await callWith(page, 'greet')
    await page.click('[data-testid="call"]')
    await form.locator('button[data-action="decline"]').click()
    await expect.poll(() => page.locator('[data-testid="result"] pre.text').textContent()).toBe('no answer (decline)')
    await page.close()
  })

  it('shows server strings as text and refuses media types it does not allow', async () => {
    const page = await served.open()
    await callWith(page, 'hostile')
    await page.click('[data-testid="call"]')
    const result = page.locator('[data-testid="result"].error')
    await result.waitFor()
    expect(await result.locator('pre.text').textContent()).toBe('<img src=x onerror="document.title=\'pwned\'">')
    expect(await result.locator('img').count()).toBe(0)
    expect(await result.locator('.refused').textContent()).toContain('image/svg+xml')
    expect(await page.title()).toBe('emcp playground')
    await page.close()
  })
})

const reviewed = fromManifest(
  {
    tools: [
      {
        name: 'send_report',
        description: 'Email the forecast of a city.',
        inputSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city', 'days'] },
        _meta: { 'emcp/policy': 'ask' },
      },
    ],
  } as const,
  { send_report: ({ city, days }) => `sent ${days} days of ${city}` },
)

describe.skipIf(skipBrowser)('the playground with an ask tool and list changes', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launch()
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('shows the review of an ask tool prefilled, and runs it with the edited arguments', async () => {
    const running = await serveHttp(reviewed, { port: 0, sessions: true, playground: true, handleSignals: false })
    let page: Page | undefined
    try {
      const opened = await openPlayground(browser, running.url.replace(/mcp$/, ''))
      page = opened
      await page.click('#tools button[data-name="send_report"]')
      expect(await page.locator('.tool .ask').count()).toBe(1)
      await page.fill('input[name="city"]', 'Oslo')
      await page.fill('input[name="days"]', '3')
      await page.click('[data-testid="call"]')
      const review = page.locator('[data-testid="elicitation"]')
      await review.waitFor()
      expect(await review.locator('input[name="city"]').inputValue()).toBe('Oslo')
      expect(await review.locator('input[name="days"]').inputValue()).toBe('3')
      await review.locator('input[name="days"]').fill('5')
      await review.locator('button[data-action="accept"]').click()
      // a bound on a loaded machine, not a measure: the answer comes after the elicitation round
      await expect.poll(() => opened.locator('[data-testid="result"] pre.text').textContent(), { timeout: 30_000 }).toBe('sent 5 days of Oslo')
    } finally {
      // the page first: a page still open reconnects its stream while the server closes
      await page?.close()
      await running.close()
    }
  })

  it.each(['2025-11-25', '2026-07-28'])('updates the tool list live on list_changed (%s)', async (era) => {
    const running = await serveHttp(server, { port: 0, sessions: true, playground: true, handleSignals: false })
    try {
      const page = await openPlayground(browser, running.url.replace(/mcp$/, ''))
      if (era === '2026-07-28') {
        await page.selectOption('#era', era)
        await page.waitForSelector(`#status.ok:has-text("${era}")`)
        await page.locator('#log:has-text("notifications/subscriptions/acknowledged")').waitFor()
      }
      expect(await page.locator('#tools button[data-name="hostile"]').count()).toBe(1)
      await page.click('#tools button[data-name="toggle"]')
      await page.locator('input[name="show"]').uncheck()
      await page.click('[data-testid="call"]')
      await page.locator('#tools button[data-name="hostile"]').waitFor({ state: 'detached' })
      expect(await page.locator('#log').textContent()).toContain('notifications/tools/list_changed')
      await page.locator('input[name="show"]').check()
      await page.click('[data-testid="call"]')
      await page.locator('#tools button[data-name="hostile"]').waitFor()
    } finally {
      await running.close()
    }
  })
})

describe('the playground routes', () => {
  const head = (remoteAddress: string, host: string) => ({ method: 'GET', path: '/', remoteAddress, header: (n: string) => (n === 'host' ? host : undefined) })
  it('serve the page to loopback only, unless allowRemote', () => {
    expect(playgroundAnswer()(head('127.0.0.1', '127.0.0.1:3000'))?.status).toBe(200)
    expect(playgroundAnswer()(head('::1', '[::1]:3000'))?.status).toBe(200)
    expect(playgroundAnswer()(head('10.1.2.3', '127.0.0.1:3000'))?.status).toBe(403)
    expect(playgroundAnswer()(head('127.0.0.1', 'evil.example:3000'))?.status).toBe(403)
    expect(playgroundAnswer({ allowRemote: true })(head('10.1.2.3', 'box.lan:3000'))?.status).toBe(200)
    expect(playgroundAnswer()({ ...head('127.0.0.1', 'localhost'), path: '/mcp' })).toBeUndefined()
  })
  it('send a page with a policy that allows only its own script', () => {
    const reply = playgroundAnswer({ endpoint: '/api/mcp' })(head('127.0.0.1', 'localhost'))!
    expect(reply.headers['content-security-policy']).toContain("script-src 'self'")
    expect(reply.body).toContain('data-endpoint="/api/mcp"')
  })
})
