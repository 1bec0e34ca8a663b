/**
 * HMAC-SHA-256 (RFC 2104 over FIPS 180-4) for signing many short ASCII messages with one key.
 *
 * Why not node:crypto's createHmac: sending a campaign signs about six tracking tokens per
 * recipient, and each createHmac call spends ~5 µs setting up objects across the native boundary
 * for a two-block hash. Here the key's inner and outer pad blocks are hashed once (the midstates),
 * so a short message costs two compression rounds in plain JavaScript, 2-3x faster (see
 * bench/render.bench.ts). The output is the standard HMAC: hmac-sha256.test.ts checks it against
 * node:crypto and the RFC 4231 vectors, and tokens are verified with node:crypto (signed-token.ts).
 * The rounds have no key-dependent branches or table look-ups.
 */

const ROUND_CONSTANTS = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
const INITIAL_STATE = new Int32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);
const BLOCK_BYTES = 64;

// Scratch space reused by every call: the module is synchronous, so calls never interleave.
const schedule = new Int32Array(64);
const block = new Int32Array(16);
const state = new Int32Array(8);

/** One SHA-256 compression of `words` (16 big-endian 32-bit words) into `into`. */
function compress(into: Int32Array, words: Int32Array): void {
  const w = schedule;
  for (let i = 0; i < 16; i += 1) w[i] = words[i]!;
  for (let i = 16; i < 64; i += 1) {
    const x = w[i - 15]!;
    const y = w[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = into[0]!;
  let b = into[1]!;
  let c = into[2]!;
  let d = into[3]!;
  let e = into[4]!;
  let f = into[5]!;
  let g = into[6]!;
  let h = into[7]!;
  for (let i = 0; i < 64; i += 1) {
    const sigma1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const choose = (e & f) ^ (~e & g);
    const t1 = (h + sigma1 + choose + ROUND_CONSTANTS[i]! + w[i]!) | 0;
    const sigma0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const majority = (a & b) ^ (a & c) ^ (b & c);
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + sigma0 + majority) | 0;
  }
  into[0] = (into[0]! + a) | 0;
  into[1] = (into[1]! + b) | 0;
  into[2] = (into[2]! + c) | 0;
  into[3] = (into[3]! + d) | 0;
  into[4] = (into[4]! + e) | 0;
  into[5] = (into[5]! + f) | 0;
  into[6] = (into[6]! + g) | 0;
  into[7] = (into[7]! + h) | 0;
}

/** The state after hashing one 64-byte pad block of the key (RFC 2104: key XOR ipad / opad). */
function padMidstate(key: Uint8Array, pad: number): Int32Array {
  const bytes = new Uint8Array(BLOCK_BYTES).fill(pad);
  for (let i = 0; i < key.length; i += 1) bytes[i]! ^= key[i]!;
  const words = new Int32Array(16);
  for (let i = 0; i < 16; i += 1)
    words[i] = (bytes[4 * i]! << 24) | (bytes[4 * i + 1]! << 16) | (bytes[4 * i + 2]! << 8) | bytes[4 * i + 3]!;
  const midstate = Int32Array.from(INITIAL_STATE);
  compress(midstate, words);
  return midstate;
}

/** A key prepared for HMAC-SHA-256 of ASCII messages. */
export class HmacSha256Key {
  private readonly inner: Int32Array;
  private readonly outer: Int32Array;

  /** `key`: at most 64 bytes (longer keys are hashed first in RFC 2104; not needed here). */
  constructor(key: Uint8Array) {
    if (key.length > BLOCK_BYTES) throw new RangeError('HMAC keys longer than 64 bytes are not supported');
    this.inner = padMidstate(key, 0x36);
    this.outer = padMidstate(key, 0x5c);
  }

  /** The first `bytes` (1-32) bytes of HMAC-SHA-256(key, message); `message` must be ASCII. */
  sign(message: string, bytes = 32): Buffer {
    // Inner hash: the message after the ipad block, with SHA-256 padding and the bit length.
    state.set(this.inner);
    const length = message.length;
    let filled = 0;
    block.fill(0);
    for (let i = 0; i < length; i += 1) {
      const code = message.charCodeAt(i);
      if (code > 0x7f) throw new RangeError('HMAC message must be ASCII');
      block[filled >> 2]! |= code << (24 - 8 * (filled & 3));
      filled += 1;
      if (filled === BLOCK_BYTES) {
        compress(state, block);
        block.fill(0);
        filled = 0;
      }
    }
    block[filled >> 2]! |= 0x80 << (24 - 8 * (filled & 3));
    if (filled >= 56) {
      compress(state, block);
      block.fill(0);
    }
    // Bit length of ipad block + message; messages here are far below 2^29 bytes, so the high word is 0.
    block[15] = (BLOCK_BYTES + length) * 8;
    compress(state, block);

    // Outer hash: the 32-byte inner digest after the opad block.
    block.fill(0);
    for (let i = 0; i < 8; i += 1) block[i] = state[i]!;
    block[8] = 0x80000000 | 0;
    block[15] = (BLOCK_BYTES + 32) * 8;
    state.set(this.outer);
    compress(state, block);

    const out = Buffer.allocUnsafe(bytes);
    for (let i = 0; i < bytes; i += 1) out[i] = (state[i >> 2]! >>> (24 - 8 * (i & 3))) & 0xff;
    return out;
  }
}
