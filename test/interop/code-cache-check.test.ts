/**
 * The code cache's own check (scripts/core-shim.js): V8 checks a cache's version, flags and
 * lengths but not its bytes, so the file carries the CRC-32 of the cache (4 bytes,
 * little-endian) before it. A changed byte anywhere, a wrong checksum, a cut or a longer file,
 * one zeroed behind its checksum or flipped alike byte by byte is refused before V8 sees it:
 * the server answers all the same, writes a good cache in its place (a new file), and the start
 * after that takes it (writes nothing).
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { answerOf, caches, copy, leftovers, run, sum } from './code-cache-child.js'

/** A copy whose first start wrote its cache: the folder, the cache's name and path, and its bytes. */
const written = async (): Promise<{ folder: string; name: string; file: string; good: Buffer }> => {
  const folder = copy()
  expect(answerOf((await run(folder)).stdout)).toMatchObject(sum)
  const [name] = [...caches(folder).keys()]
  const file = join(folder, 'bundle', name!)
  return { folder, name: name!, file, good: readFileSync(file) }
}

/** `bytes` with the byte at `at` changed to `to(byte)`. */
const changed = (bytes: Buffer, at: number, to: (byte: number) => number): Buffer => {
  const copied = Buffer.from(bytes)
  copied[at] = to(copied[at]!)
  return copied
}

/** `data` behind its right checksum: a file the check takes, whatever V8 then makes of it. */
const checked = (data: Buffer): Buffer => {
  const head = Buffer.alloc(4)
  head.writeUInt32LE(crc32(data))
  return Buffer.concat([head, data])
}

describe('the code cache file', () => {
  it('is the CRC-32 of the cache, then the cache', async () => {
    const { good } = await written()
    expect(good.length).toBeGreaterThan(10_000)
    expect(good.readUInt32LE(0)).toBe(crc32(good.subarray(4)))
  })

  it.each<[string, (good: Buffer) => Buffer]>([
    // past V8's own header, where V8 checks nothing: taken, it would be read as code
    ['a byte in the middle of the cache changed', (good) => changed(good, good.length >> 1, (byte) => byte ^ 0x01)],
    ['the last byte changed', (good) => changed(good, good.length - 1, (byte) => byte ^ 0x80)],
    ['every byte behind the checksum flipped alike', (good) => Buffer.concat([good.subarray(0, 4), Buffer.from(good.subarray(4).map((byte) => byte ^ 0x5a))])],
    ['everything behind the checksum zeroed', (good) => Buffer.concat([good.subarray(0, 4), Buffer.alloc(good.length - 4)])],
    ['the checksum changed', (good) => changed(good, 0, (byte) => byte ^ 0x01)],
    ['a zero checksum', (good) => Buffer.concat([Buffer.alloc(4), good.subarray(4)])],
    ['a byte appended', (good) => Buffer.concat([good, Buffer.from([0])])],
    ['the last byte cut', (good) => good.subarray(0, good.length - 1)],
    ['the checksum alone', (good) => good.subarray(0, 4)],
    ['nothing', () => Buffer.alloc(0)],
  ])('is refused with %s: the server answers and a good cache replaces it', async (_, damage) => {
    const { folder, name, file, good } = await written()
    writeFileSync(file, damage(good))
    const before = statSync(file).ino
    const after = await run(folder)
    expect(answerOf(after.stdout)).toMatchObject(sum)
    expect(after.stderr).toBe('')
    expect(after.code).toBe(0)
    // refused: the exit wrote the cache again, as a new file, that holds
    expect(statSync(file).ino).not.toBe(before)
    const replaced = readFileSync(file)
    expect(replaced.readUInt32LE(0)).toBe(crc32(replaced.subarray(4)))
    // taken: the next start writes nothing
    const kept = caches(folder)
    expect(answerOf((await run(folder)).stdout)).toMatchObject(sum)
    expect(caches(folder)).toEqual(kept)
    expect(kept.get(name)).toBe(statSync(file).ino)
    expect(leftovers(folder)).toEqual([])
  })

  it('is taken when its checksum holds: the same bytes written anew are not written again', async () => {
    const { folder, file, good } = await written()
    writeFileSync(file, checked(good.subarray(4)))
    const kept = caches(folder)
    expect(answerOf((await run(folder)).stdout)).toMatchObject(sum)
    expect(caches(folder)).toEqual(kept)
  })
})
