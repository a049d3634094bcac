/**
 * The words tool names abbreviate, and what they mean, read from C-style catalogs such as
 * MEOS (MobilityDB's library of temporal types): `tfloat` is a temporal float, `num` a
 * number, `stbox` a spatiotemporal box, `nad` the nearest approach distance. Search expands
 * an abbreviation into its words on both sides (the tool's name and the user's query), so
 * that "number of instants" finds `temporal_num_instants`. A server adds its own with the
 * `abbreviations` option of `toolSearch`; its entries win over these.
 *
 * @example
 * import { abbreviations } from './abbreviations.js'
 * abbreviations.tgeompoint // 'temporal geometry point'
 */

import { once } from '../../util/once.js'

/** Abbreviation -> the words it stands for (lower case, space-separated). */
export type Abbreviations = { readonly [abbreviation: string]: string }

/**
 * The built-in table: MEOS's naming, and the C habits it shares with other catalogs. One
 * literal, not two spread into one: V8 builds a literal of 130 keys from its boilerplate in
 * microseconds, and the spread of two in about half a millisecond, at every start.
 */
export const abbreviations: Abbreviations = {
  // temporal, set, span and box types, as MEOS names them
  tbool: 'temporal boolean',
  tint: 'temporal integer',
  tfloat: 'temporal float',
  ttext: 'temporal text',
  tnumber: 'temporal number',
  // a tgeo function works on temporal points and temporal geometries alike
  tgeo: 'temporal geometry geography point',
  tpoint: 'temporal point',
  tgeompoint: 'temporal geometry point',
  tgeogpoint: 'temporal geography point',
  tgeometry: 'temporal geometry',
  tgeography: 'temporal geography',
  tspatial: 'temporal spatial',
  tcbuffer: 'temporal circular buffer',
  cbuffer: 'circular buffer',
  tnpoint: 'temporal network point',
  npoint: 'network point',
  nsegment: 'network segment',
  tpose: 'temporal pose',
  trgeo: 'temporal rigid geometry',
  stbox: 'spatiotemporal box',
  tbox: 'temporal box',
  gbox: 'geometry box',
  tstz: 'timestamp time',
  tstzset: 'timestamp time set',
  tstzspan: 'timestamp time span period',
  tstzspanset: 'timestamp time span set periods',
  spanset: 'span set',
  numspan: 'number span',
  seqset: 'sequence set',
  tinstant: 'temporal instant',
  tsequence: 'temporal sequence',
  tsequenceset: 'temporal sequence set',
  geo: 'geometry geography',
  geom: 'geometry',
  geog: 'geography',
  geompoint: 'geometry point',
  geogpoint: 'geography point',
  bool: 'boolean',
  int: 'integer',
  bigint: 'big integer',
  int32: 'integer',
  float: 'float real double',
  inst: 'instant',
  seq: 'sequence',
  arr: 'array',
  garray: 'geometry array',
  pointarr: 'point array',
  // operations, predicates and their prefixes
  num: 'number count',
  n: 'nth position',
  eq: 'equal',
  ne: 'not equal different',
  lt: 'less than',
  le: 'less equal',
  gt: 'greater than',
  ge: 'greater equal',
  cmp: 'compare comparison',
  teq: 'temporal equal',
  tne: 'temporal not equal',
  tlt: 'temporal less than',
  tle: 'temporal less equal',
  tgt: 'temporal greater than',
  tge: 'temporal greater equal',
  nsame: 'not same',
  dwithin: 'within distance',
  tdwithin: 'temporal within distance',
  edwithin: 'ever within distance',
  adwithin: 'always within distance',
  nad: 'nearest approach distance',
  nai: 'nearest approach instant',
  tdistance: 'temporal distance',
  dist: 'distance',
  shortestline: 'shortest line',
  overleft: 'over left',
  overright: 'over right',
  overbefore: 'over before',
  overafter: 'over after',
  overabove: 'over above',
  overbelow: 'over below',
  overfront: 'over front',
  overback: 'over back',
  transfn: 'transition function aggregate',
  finalfn: 'final function aggregate',
  tand: 'temporal and',
  tor: 'temporal or',
  tnot: 'temporal not negation',
  twavg: 'time weighted average',
  twcentroid: 'time weighted centroid',
  dyntimewarp: 'dynamic time warp',
  textcat: 'text concatenate',
  initcap: 'initial capital',
  mult: 'multiply product',
  mul: 'multiply product',
  div: 'divide division',
  sub: 'subtract difference',
  add: 'add sum plus',
  exp: 'exponential',
  ln: 'natural logarithm',
  log10: 'logarithm decimal',
  abs: 'absolute',
  interp: 'interpolation',
  segm: 'segment',
  dp: 'douglas peucker',
  trav: 'traversed',
  tdelta: 'time delta',
  min: 'minimum',
  max: 'maximum',
  tmin: 'time minimum',
  tmax: 'time maximum',
  inc: 'inclusive',
  hast: 'has time',
  hasx: 'has x',
  hasz: 'has z',
  srid: 'spatial reference identifier',
  numpoints: 'number points',
  make: 'make construct create',
  copy: 'copy clone',
  in: 'input parse read',
  out: 'output text write',
  hexwkb: 'hex well known binary',
  hexewkb: 'hex extended well known binary',
  wkb: 'well known binary',
  wkt: 'well known text',
  ewkt: 'extended well known text',
  mfjson: 'moving features json',
  mf: 'moving features',
  geojson: 'geo json',
  cstring: 'string',
  '2': 'to',
  geomeas: 'geometry measure',
  meas: 'measure',
}

// The tables below only search reads, and only a server in tool-search mode searches: each is
// made on its first read (once), not at import, where every start of every server paid for
// them (about 0.3M instructions of a start: the synonyms' literal, the stopwords' set).

/**
 * Prefixes MEOS glues to a word: `t` (temporal: `tcontains`), `e` (ever: `eintersects`),
 * `a` (always: `acovers`), `st` (spatiotemporal). Read only at the start of a word that
 * splits wholly into known parts.
 */
export const prefixes = once(
  // a map, not an object literal: a query's word is looked up in it, and `constructor` (an
  // object literal's by inheritance) is a word a client can send
  (): ReadonlyMap<string, string> => new Map([['t', 'temporal'], ['e', 'ever'], ['a', 'always'], ['st', 'spatiotemporal']]),
)

/** Parts that a compound word may end with, beside the table's words: single letters of axes (`xmin`, `hasz`). */
export const letters = once((): ReadonlySet<string> => new Set(['x', 'y', 'z']))

/**
 * Words users say for what names abbreviate: applied to queries and names alike, so that
 * "how many" meets `num` and "velocity" meets `speed`.
 */
export const synonyms = once(
  (): Abbreviations => ({
    many: 'number count',
    count: 'number',
    amount: 'number',
    velocity: 'speed',
    first: 'start',
    last: 'end',
    begin: 'start',
    beginning: 'start',
    final: 'end',
    timestamp: 'timestamp time',
    period: 'span',
    range: 'span',
    interval: 'interval span',
    combine: 'merge union',
    largest: 'maximum',
    biggest: 'maximum',
    highest: 'maximum',
    smallest: 'minimum',
    lowest: 'minimum',
    restrict: 'at',
    remove: 'minus delete',
    exclude: 'minus',
    convert: 'to',
    cast: 'to',
    into: 'to',
    bounding: 'to box',
    export: 'output as',
    equality: 'equal',
    parse: 'input',
    serialize: 'output',
    wkt: 'well known text',
    intersect: 'intersects',
    overlap: 'overlaps',
    touch: 'touches',
  }),
)

/** Words a query is better read without: they match nearly every description. */
export const stopwords = once((): ReadonlySet<string> =>
  new Set(
    (
      'a an the of for with by from does do did is are be been being was were what which how who whom whose that this these those ' +
      'there their its it me my i you your we our please can could would should will shall may might must find return returns give gives ' +
      'tell show compute computes calculate calculates get gets want need use using some any each into onto as and or but if than then ' +
      'two one between whether in on about to'
    ).split(' '),
  ),
)
