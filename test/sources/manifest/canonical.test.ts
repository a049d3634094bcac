/**
 * Canonical JSON (src/sources/manifest/canonical.ts) against RFC 8785, the JSON Canonicalization
 * Scheme: its sample of section 3.2.2, its sorting example of 3.2.3, and the number
 * serialization samples of appendix B (IEEE 754 bit patterns and the text each must give).
 */
import { describe, expect, it } from 'vitest'
import { canonicalJson, fingerprint } from '../../../src/sources/manifest/canonical.js'

/** The double whose IEEE 754 bits are the 16 hex digits `hex`. */
const double = (hex: string): number => Buffer.from(hex, 'hex').readDoubleBE(0)

describe('canonicalJson (RFC 8785)', () => {
  it('writes the sample of section 3.2.2: sorted keys, ECMAScript numbers, minimal string escapes', () => {
    const input = JSON.parse(`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\"\\/",
      "literals": [null, true, false]
    }`)
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    )
  })

  it('sorts keys by their UTF-16 code units (section 3.2.3)', () => {
    const input = JSON.parse(`{
      "\\u20ac": "Euro Sign",
      "\\r": "Carriage Return",
      "\\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\\ud83d\\ude00": "Emoji: Grinning Face",
      "\\u0080": "Control",
      "\\u00f6": "Latin Small Letter O With Diaeresis"
    }`)
    // read from the text: JSON.parse would put the integer-like key "1" first whatever the text says
    const order = [...canonicalJson(input).matchAll(/:"([^"]+)"/g)].map((m) => m[1])
    expect(order).toEqual([
      'Carriage Return',
      'One',
      'Control',
      'Latin Small Letter O With Diaeresis',
      'Euro Sign',
      'Emoji: Grinning Face',
      'Hebrew Letter Dalet With Dagesh',
    ])
  })

  it('writes the numbers of appendix B as the RFC gives them', () => {
    const samples: ReadonlyArray<readonly [string, string]> = [
      ['0000000000000000', '0'],
      ['8000000000000000', '0'], // minus zero
      ['0000000000000001', '5e-324'],
      ['8000000000000001', '-5e-324'],
      ['7fefffffffffffff', '1.7976931348623157e+308'],
      ['ffefffffffffffff', '-1.7976931348623157e+308'],
      ['4340000000000000', '9007199254740992'],
      ['c340000000000000', '-9007199254740992'],
      ['4430000000000000', '295147905179352830000'],
      ['44b52d02c7e14af5', '9.999999999999997e+22'],
      ['44b52d02c7e14af6', '1e+23'],
      ['44b52d02c7e14af7', '1.0000000000000001e+23'],
      ['444b1ae4d6e2ef4e', '999999999999999700000'],
      ['444b1ae4d6e2ef4f', '999999999999999900000'],
      ['444b1ae4d6e2ef50', '1e+21'],
      ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
      ['3eb0c6f7a0b5ed8d', '0.000001'],
      ['41b3de4355555553', '333333333.3333332'],
      ['41b3de4355555554', '333333333.33333325'],
      ['41b3de4355555555', '333333333.3333333'],
      ['41b3de4355555556', '333333333.3333334'],
      ['41b3de4355555557', '333333333.33333343'],
      ['becbf647612f3696', '-0.0000033333333333333333'],
      ['43143ff3c1cb0959', '1424953923781206.2'],
    ]
    expect(samples.map(([bits]) => canonicalJson(double(bits)))).toEqual(samples.map(([, text]) => text))
    expect(canonicalJson([double('44b52d02c7e14af6'), { n: double('8000000000000000') }])).toBe('[1e+23,{"n":0}]')
  })

  it('refuses NaN and the infinities (appendix B: an error, not null)', () => {
    for (const bits of ['7fffffffffffffff', '7ff0000000000000', 'fff0000000000000']) {
      expect(() => canonicalJson(double(bits)), bits).toThrow(TypeError)
      expect(() => canonicalJson({ a: [double(bits)] }), bits).toThrow(TypeError)
    }
    expect(() => canonicalJson(undefined)).toThrow('emcp: undefined is not JSON')
  })

  it('leaves out undefined members, writes undefined array items as null, and adds no whitespace', () => {
    expect(canonicalJson({ b: [1, undefined, 'x'], a: undefined, c: { e: 2, d: {} } })).toBe('{"b":[1,null,"x"],"c":{"d":{},"e":2}}')
  })

  it('gives one fingerprint whatever the key order or indentation, and another for any change', () => {
    const a = JSON.parse('{ "name": "add", "inputSchema": { "type": "object", "required": ["a", "b"] } }')
    const b = JSON.parse('{"inputSchema":{"required":["a","b"],"type":"object"},"name":"add"}')
    expect(fingerprint(a)).toBe(fingerprint(b))
    expect(fingerprint(a)).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(fingerprint({ ...a, name: 'sum' })).not.toBe(fingerprint(a))
    // order within arrays is meaningful
    expect(fingerprint({ ...b, inputSchema: { type: 'object', required: ['b', 'a'] } })).not.toBe(fingerprint(a))
  })
})
