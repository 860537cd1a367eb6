/**
 * Which stretches of the money order can hold a text (migration 0185): the results' text filter skips
 * the rest without reading them.
 *
 * Why: the filter is a substring (`LIKE '%…%'` on the `search` column), and a page walks its rows in
 * money order. A word common to hundreds of thousands of rows that all sit at the bottom of that order
 * («купить» in the 300 000 cross-minus fixes at 0 ₽, behind 450 000 dearer rows) made the walk test
 * 450 000 texts that cannot match: ~4 µs each, 1.0–1.9 s, and as much index-only (the test is the cost,
 * not the heap). The trigram index finds a rare word, but a common one it hands over as 300 000 rows to
 * test and sort.
 *
 * How: at save, every row gets its rank in the money order (`money_rank`: by money, highest first, then
 * the engine's position, the pages' order), and the ranks are cut into blocks of `SEARCH_BLOCK_ROWS`.
 * For each block, which trigrams (three consecutive UTF-16 units, hashed into `SEARCH_HASHES` slots) its
 * rows' texts hold: one bit per slot and block, stored slot by slot (`analysis_search_blooms.bits`, the
 * slot's bits over the blocks numbered as PostgreSQL's `get_bit` numbers them). A row that contains the
 * text contains each of its trigrams, so a block missing one of them holds no match: the blocks that
 * hold all of them (read as the slices of the text's slots alone, and-ed) are the only ones the page
 * walks, along the rank, still testing every row with the same `LIKE`. The result is the old query's,
 * row for row; a slot shared by chance only makes a block walked for nothing.
 *
 * The slot hash and the block size are part of what is stored: changing either needs a migration that
 * deletes the stored blooms (their analyses then read as before 0185).
 */

/** Rows of a block of the money order (a power of two: a rank's block is `rank >> 10`). */
export const SEARCH_BLOCK_ROWS = 1024;
export const SEARCH_BLOCK_SHIFT = 10;
/** Trigram slots (16 bits of the hash): at 1 000 000 keywords, 733 blocks of suggestions, 92 bytes a slot, 6 MB. */
export const SEARCH_HASHES = 1 << 16;
/**
 * Below this many rows a table gets no ranks nor blooms: its pages walk at most this many texts
 * (~40 ms), and a small result is saved without them. Tests lower it (`StorageLimits.searchBlocksFrom`).
 */
export const SEARCH_BLOCKS_FROM = 16_384;

/** The slot of the trigram of UTF-16 units a, b, c (any well-mixed hash; the writer and the reader share it). */
export function trigramSlot(a: number, b: number, c: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39);
  return (h ^ (h >>> 15)) >>> 16;
}

/** The distinct slots of a text's trigrams (none for a text of fewer than three units). */
export function trigramSlots(text: string): number[] {
  const slots = new Set<number>();
  for (let i = 2; i < text.length; i++) slots.add(trigramSlot(text.charCodeAt(i - 2), text.charCodeAt(i - 1), text.charCodeAt(i)));
  return [...slots];
}

/** Bytes of one slot's bits over `blocks` blocks. */
export const slotBytes = (blocks: number) => (blocks + 7) >> 3;

/**
 * Each row's rank in the money order (money highest first, then position): `ranks[position]`. Rows at 0
 * (most: every fix but the negatives) keep their order, so only the others are sorted.
 */
export function moneyRanks(money: ArrayLike<number>): Int32Array {
  const above: number[] = [];
  const zero: number[] = [];
  const below: number[] = [];
  for (let i = 0; i < money.length; i++) (money[i]! > 0 ? above : money[i]! < 0 ? below : zero).push(i);
  const byMoney = (a: number, b: number) => money[b]! - money[a]! || a - b;
  above.sort(byMoney);
  below.sort(byMoney);
  const ranks = new Int32Array(money.length);
  let rank = 0;
  for (const list of [above, zero, below]) for (const position of list) ranks[position] = rank++;
  return ranks;
}

/**
 * The blooms of one table's rows, filled row by row as they are written. Filled block by block (a
 * block's 65 536 bits together, so a row's trigrams fall in 8 KB instead of all over the slot-major
 * array: at 1 000 000 keywords that array is 6 MB, and filling it directly missed the cache on every
 * character), and turned slot by slot once, at the end.
 */
export class SearchBloom {
  readonly blocks: number;
  private readonly byBlock: Uint8Array;

  constructor(rows: number) {
    this.blocks = Math.max(1, Math.ceil(rows / SEARCH_BLOCK_ROWS));
    this.byBlock = new Uint8Array(this.blocks * (SEARCH_HASHES >> 3));
  }

  /** The trigrams of a row's search text, in the block of its rank. */
  add(text: string, rank: number): void {
    const base = (rank >> SEARCH_BLOCK_SHIFT) * (SEARCH_HASHES >> 3);
    const bits = this.byBlock;
    let a = text.charCodeAt(0);
    let b = text.charCodeAt(1);
    for (let i = 2; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const slot = trigramSlot(a, b, c);
      bits[base + (slot >> 3)]! |= 1 << (slot & 7);
      a = b;
      b = c;
    }
  }

  /** Slot by slot: the bits of slot s over the blocks are bytes [s × slotBytes(blocks), (s + 1) × slotBytes(blocks)). */
  get bits(): Uint8Array {
    const stride = slotBytes(this.blocks);
    const bySlot = new Uint8Array(SEARCH_HASHES * stride);
    const blockBytes = SEARCH_HASHES >> 3;
    for (let block = 0; block < this.blocks; block++) {
      const bit = 1 << (block & 7);
      const byte = block >> 3;
      for (let i = 0; i < blockBytes; i++) {
        const held = this.byBlock[block * blockBytes + i]!;
        if (held === 0) continue;
        for (let k = 0; k < 8; k++) if (held & (1 << k)) bySlot[((i << 3) | k) * stride + byte]! |= bit;
      }
    }
    return bySlot;
  }

  /** As a bytea literal (`\x…`) for COPY or an INSERT. */
  hex(): string {
    const bits = this.bits;
    return `\\x${Buffer.from(bits.buffer, bits.byteOffset, bits.byteLength).toString('hex')}`;
  }
}

/**
 * The blocks that hold every slot: the and of the slots' slices (each `slotBytes(blocks)` long), the
 * bits past the last block cleared. With the first and last such block and how many there are, or null
 * when there is none.
 */
export function blocksHoldingAll(slices: readonly Uint8Array[], blocks: number): { bits: Buffer; first: number; last: number; count: number } | null {
  const bits = Buffer.alloc(slotBytes(blocks), 0xff);
  for (const slice of slices) for (let i = 0; i < bits.length; i++) bits[i]! &= slice[i] ?? 0;
  if (blocks & 7) bits[bits.length - 1]! &= (1 << (blocks & 7)) - 1;
  let first = -1;
  let last = -1;
  let count = 0;
  for (let block = 0; block < blocks; block++) {
    if (bits[block >> 3]! & (1 << (block & 7))) {
      if (first < 0) first = block;
      last = block;
      count++;
    }
  }
  return first < 0 ? null : { bits, first, last, count };
}
