/**
 * A schema's `pattern` cannot freeze the playground: each pattern runs in a worker with a
 * time limit (playground/patterns.ts). A pattern that backtracks on the value typed
 * (`^(a+)+$` on forty a's and a '!') is stopped, the field gets a visible note, the page stays
 * responsive and the form is sent; an ordinary pattern is still checked in the browser.
 * Driven in headless Chromium against a served playground.
 */
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { emcp, mcpServer } from 'emcp'
import { patternTimeMs } from '../../playground/patterns.js'
import { servedPlayground, skipBrowser } from './browser.js'

const code = emcp({
  name: 'code',
  description: 'Takes a word of a\'s and a code of three capitals.',
  input: {
    type: 'object',
    properties: { word: { type: 'string', pattern: '^(a+)+$' }, id: { type: 'string', pattern: '^[A-Z]{3}$' } },
    required: ['id'],
  } as const,
})
const server = mcpServer([code], { name: 'patterns-test', version: '1.0.0' }).implement({ code: ({ id }) => id })

/** Answers the page's tools/call itself (the server would run the same pattern on the same value), and records the arguments sent. */
const interceptCalls = async (page: Page): Promise<Array<Record<string, unknown>>> => {
  const sent: Array<Record<string, unknown>> = []
  await page.route('**/mcp', async (route) => {
    const body = JSON.parse(route.request().postData() ?? '{}') as { id?: number; method?: string; params?: { arguments?: Record<string, unknown> } }
    if (body.method !== 'tools/call') return route.continue()
    sent.push(body.params?.arguments ?? {})
    return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { content: [{ type: 'text', text: 'intercepted' }] } }) })
  })
  return sent
}

describe.skipIf(skipBrowser)('the playground and a backtracking pattern', () => {
  const served = servedPlayground(server)

  const openCode = async (): Promise<Page> => {
    const page = await served.open()
    // a bound on a frozen page, not a measure: a frozen tab fails the test instead of hanging it
    page.setDefaultTimeout(20_000)
    await page.click('#tools button[data-name="code"]')
    await page.waitForSelector('form[data-tool="code"]')
    return page
  }

  it('stops the pattern, notes it on the field, stays responsive and sends the form', async () => {
    const page = await openCode()
    const sent = await interceptCalls(page)
    await page.fill('input[name="word"]', `${'a'.repeat(40)}!`)
    await page.fill('input[name="id"]', 'ABC')
    await page.click('[data-testid="call"]')
    const notes = page.locator('[data-testid="notes"] li')
    await notes.first().waitFor()
    expect(await notes.allTextContents()).toEqual([`word: pattern not checked here: testing it took more than ${patternTimeMs} ms (it backtracks); the server checks it`])
    // the page answers at once, and the form went out with what was typed
    expect(await page.evaluate(() => 1 + 1)).toBe(2)
    await expect.poll(() => sent.length).toBe(1)
    expect(sent[0]).toEqual({ word: `${'a'.repeat(40)}!`, id: 'ABC' })
    expect(await page.locator('[data-testid="problems"]').count()).toBe(0)
    // the pattern is not tested again on this page: the next submit is noted at once
    await page.click('[data-testid="call"]')
    await expect.poll(() => sent.length).toBe(2)
    await page.close()
  })

  it('still checks an ordinary pattern in the browser, and sends nothing when it fails', async () => {
    const page = await openCode()
    const sent = await interceptCalls(page)
    await page.fill('input[name="word"]', 'aaa')
    await page.fill('input[name="id"]', 'abc')
    await page.click('[data-testid="call"]')
    const problems = page.locator('[data-testid="problems"]')
    await problems.waitFor()
    expect(await problems.locator('li').allTextContents()).toEqual(['id: must match ^[A-Z]{3}$'])
    expect(await page.locator('[data-problem="id"]').textContent()).toBe('must match ^[A-Z]{3}$')
    expect(await page.locator('[data-testid="notes"]').count()).toBe(0)
    await page.fill('input[name="id"]', 'ABC')
    await page.click('[data-testid="call"]')
    await expect.poll(() => sent.length).toBe(1)
    expect(sent[0]).toEqual({ word: 'aaa', id: 'ABC' })
    await page.close()
  })
})
