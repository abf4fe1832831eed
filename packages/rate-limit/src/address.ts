/**
 * The one address rule of every per-address limit: an IPv4 address counts alone (also written as an
 * IPv4-mapped IPv6 address, `::ffff:a.b.c.d` or `::ffff:0a0b:0c0d`), an IPv6 address counts by its
 * /64 network, which one subscriber usually holds whole (a home or a cloud machine gets a /64 or more,
 * so counting each of its 2^64 addresses alone would be no limit at all).
 * @module
 */

/** Four dotted decimal bytes, or null. */
function ipv4Bytes(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

/** An IPv6 address as its eight 16-bit groups (a trailing dotted quad allowed), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address;
  const lastColon = text.lastIndexOf(':');
  const quad = lastColon >= 0 ? ipv4Bytes(text.slice(lastColon + 1)) : null;
  if (quad) {
    const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
    text = `${text.slice(0, lastColon + 1)}${hex(quad[0]!, quad[1]!)}:${hex(quad[2]!, quad[3]!)}`;
  }
  const [head = '', rest, ...more] = text.split('::');
  if (more.length) return null;
  const split = (s: string) => (s ? s.split(':') : []);
  const left = split(head);
  const right = rest === undefined ? [] : split(rest);
  const missing = 8 - left.length - right.length;
  if (rest === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<string>(rest === undefined ? 0 : missing).fill('0'), ...right];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  return groups.map((g) => Number.parseInt(g, 16));
}

/**
 * The key an address is counted under: `a.b.c.d` for IPv4 (mapped or not), `x:x:x:x::/64` for IPv6
 * (zone id dropped). Anything else (the server's own in-process requests say 'unknown') is its own key.
 */
export function addressKey(address: string): string {
  const bare = address.trim().replace(/%.*$/, '');
  if (ipv4Bytes(bare)) return bare.split('.').map(Number).join('.');
  const groups = bare.includes(':') ? ipv6Groups(bare) : null;
  if (!groups) return bare;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
