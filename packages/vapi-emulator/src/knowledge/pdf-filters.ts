/**
 * The PDF stream filters that can grow data, decoded with a cap on their output (null past it), so
 * pdf-streams.ts can measure what pdf.js would inflate before pdf.js sees the file: LZW and
 * run-length here (Flate in inflate.ts), and the ASCII encodings that may stand before them. Pure.
 * @module
 */

/** Output written within a cap: `push` answers false once the cap would be passed. */
class CappedOutput {
  #buf: Uint8Array;
  length = 0;
  constructor(
    readonly cap: number,
    sizeHint: number,
  ) {
    this.#buf = new Uint8Array(Math.max(64, Math.min(cap, sizeHint)));
  }
  reserve(n: number): Uint8Array | null {
    if (this.length + n > this.cap) return null;
    if (this.length + n > this.#buf.length) {
      const grown = new Uint8Array(Math.min(this.cap, Math.max(this.length + n, this.#buf.length * 2)));
      grown.set(this.#buf.subarray(0, this.length));
      this.#buf = grown;
    }
    return this.#buf;
  }
  push(byte: number): boolean {
    const buf = this.reserve(1);
    if (!buf) return false;
    buf[this.length++] = byte;
    return true;
  }
  get bytes(): Uint8Array {
    return this.#buf.subarray(0, this.length);
  }
}

/** LZWDecode as pdf.js reads it (MSB-first codes of 9–12 bits; EarlyChange 1 unless told). */
export function lzwDecode(data: Uint8Array, cap: number, earlyChange = 1): Uint8Array | null {
  const prefix = new Int32Array(4096);
  const first = new Uint8Array(4096);
  const last = new Uint8Array(4096);
  const length = new Uint16Array(4096);
  for (let i = 0; i < 256; i++) [prefix[i], first[i], last[i], length[i]] = [-1, i, i, 1];
  const out = new CappedOutput(cap, data.length * 4);
  let next = 258;
  let width = 9;
  let previous = -1;
  let bits = 0;
  let pending = 0;
  let at = 0;
  for (;;) {
    while (bits < width && at < data.length) {
      pending = ((pending << 8) | data[at++]!) >>> 0;
      bits += 8;
    }
    if (bits < width) break;
    bits -= width;
    const code = (pending >>> bits) & ((1 << width) - 1);
    pending &= (1 << bits) - 1;
    if (code === 256) {
      [next, width, previous] = [258, 9, -1];
      continue;
    }
    if (code === 257) break;
    const known = code < next && (code < 256 || length[code]! > 0);
    if (!known && !(code === next && previous >= 0)) break;
    const head = known ? first[code]! : first[previous]!;
    if (previous >= 0 && next < 4096) {
      [prefix[next], first[next], last[next], length[next]] = [
        previous,
        first[previous]!,
        head,
        length[previous]! + 1,
      ];
      next++;
    }
    const n = length[code]!;
    const buf = out.reserve(n);
    if (!buf) return null;
    for (let c = code, i = out.length + n - 1; c >= 0; c = prefix[c]!, i--) buf[i] = last[c]!;
    out.length += n;
    previous = code;
    if (next + earlyChange >= 1 << width && width < 12) width++;
  }
  return out.bytes;
}

/** RunLengthDecode: a length byte, then that many literal bytes or one byte repeated. */
export function runLengthDecode(data: Uint8Array, cap: number): Uint8Array | null {
  const out = new CappedOutput(cap, data.length * 2);
  for (let i = 0; i < data.length;) {
    const n = data[i++]!;
    if (n === 128) break;
    const count = n < 128 ? n + 1 : 257 - n;
    const buf = out.reserve(count);
    if (!buf) return null;
    for (let k = 0; k < count; k++) buf[out.length + k] = n < 128 ? (data[i + k] ?? 0) : (data[i] ?? 0);
    out.length += count;
    i += n < 128 ? count : 1;
  }
  return out.bytes;
}

/** ASCIIHexDecode (never larger than its input). */
export function asciiHexDecode(data: Uint8Array): Uint8Array {
  const hex = Buffer.from(data)
    .toString('latin1')
    .split('>')[0]!
    .replace(/[^0-9a-f]/gi, '');
  return new Uint8Array(Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex'));
}

/** ASCII85Decode (never larger than 4/5 of its input, 'z' aside: at most 4 bytes per input byte). */
export function ascii85Decode(data: Uint8Array, cap: number): Uint8Array | null {
  const text = Buffer.from(data).toString('latin1').split('~>')[0]!.replace(/\s/g, '');
  const out = new CappedOutput(cap, text.length);
  let group: number[] = [];
  const flush = (count: number) => {
    let value = 0;
    for (let k = 0; k < 5; k++) value = value * 85 + (group[k] ?? 84);
    for (let k = 0; k < count; k++) if (!out.push((value >>> (24 - 8 * k)) & 0xff)) return false;
    group = [];
    return true;
  };
  for (const ch of text) {
    if (ch === 'z' && group.length === 0) {
      for (let k = 0; k < 4; k++) if (!out.push(0)) return null;
      continue;
    }
    const digit = ch.charCodeAt(0) - 33;
    if (digit < 0 || digit > 84) continue;
    group.push(digit);
    if (group.length === 5 && !flush(4)) return null;
  }
  if (group.length > 1 && !flush(group.length - 1)) return null;
  return out.bytes;
}
