/**
 * Text formats written as passages read well: CSV/TSV rows, JSON records and XML elements as
 * "field: value", each record a block (blocks are separated by blank lines, see passages.ts). Pure.
 * @module
 */

/** Splits one CSV/TSV line into cells, honouring "quoted, cells" and "" escapes. */
export function splitRow(line: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (ch === separator) {
      cells.push(cell.trim());
      cell = '';
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

/** Each data row as a block "header: value; header: value" (a file of one row is kept as is). */
export function tableText(text: string, separator: string): string {
  const rows = text
    .split(/\r?\n/)
    .filter((l) => l.trim())
    .map((l) => splitRow(l, separator));
  if (rows.length < 2) return rows.map((r) => r.join(' ')).join('\n\n');
  const [header, ...data] = rows as [string[], ...string[][]];
  return data
    .map((row) =>
      row
        .map((value, i) => (header[i] && value ? `${header[i]}: ${value}` : value))
        .filter(Boolean)
        .join('; '),
    )
    .join('\n\n');
}

/** A JSON document as blocks: each object's plain fields on one line, nested ones after it. */
export function jsonText(value: unknown, key?: string): string[] {
  if (value === null || typeof value !== 'object')
    return value === null || value === '' ? [] : [key ? `${key}: ${String(value)}` : String(value)];
  if (Array.isArray(value)) return value.flatMap((item) => jsonText(item, key));
  const entries = Object.entries(value as Record<string, unknown>);
  const plain = entries.filter(([, v]) => v !== null && typeof v !== 'object' && v !== '');
  const nested = entries.filter(([, v]) => v !== null && typeof v === 'object');
  const line = plain.map(([k, v]) => `${k}: ${String(v)}`).join('; ');
  return [...(line ? [line] : []), ...nested.flatMap(([k, v]) => jsonText(v, k))];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

const decodeEntities = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });

/** XML as text: <price>20</price> → "price: 20"; each closing of a parent element ends a block. */
export function xmlText(text: string): string {
  return decodeEntities(
    text
      .replace(/<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!DOCTYPE[^<>]*>/gi, '')
      .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_, body: string) => body.replace(/</g, '&lt;'))
      .replace(/<([\w:.-]+)(?:\s[^<>]*)?>([^<]+)<\/\1>/g, (_, tag: string, body: string) =>
        body.trim() ? `${tag}: ${body.trim()}\n` : '',
      )
      .replace(/<\/[^<>]+>/g, '\n\n')
      .replace(/<[^<>]*>/g, '\n'),
  )
    .replace(/\n[ \t]*(?=\n)/g, '\n')
    .replace(/\n{3,}/g, '\n\n');
}
