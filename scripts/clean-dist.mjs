#!/usr/bin/env node
// Removes what tsc emitted before (dist/src, dist/examples), so that a build never ships the
// .js or .d.ts of a source file that was moved or deleted since: tsc writes files, it never
// removes them. The bundles (dist/bundle) are rewritten whole by scripts/bundle.mjs.
//
//   node scripts/clean-dist.mjs
import { rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
for (const dir of ['src', 'examples']) rmSync(join(root, 'dist', dir), { recursive: true, force: true })
