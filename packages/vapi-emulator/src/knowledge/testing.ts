/** Tiny PDF and DOCX documents built in memory, for the knowledge tests (no binary fixtures). */
import { deflateRawSync, deflateSync } from 'node:zlib';
import type { ProcessedFile } from './file-processing.js';
import { storedZip } from './zip.js';

/** A PDF of the given objects (numbered from 1; object 1 the catalog), with exact xref offsets. */
function pdfFile(objects: readonly (string | Buffer)[]): Uint8Array {
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let length = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.from(o), Buffer.from('\nendobj\n')]);
    chunks.push(chunk);
    length += chunk.length;
  });
  const table = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  chunks.push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${table}` +
        `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`,
    ),
  );
  return new Uint8Array(Buffer.concat(chunks));
}

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const page = (contents: number, font: number) =>
  `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contents} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`;

/** A one-page PDF (Helvetica) showing each line. */
export function minimalPdf(lines: readonly string[]): Uint8Array {
  const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const content = `BT /F1 12 Tf 72 720 Td ${lines.map((l, i) => `${i ? '0 -14 Td ' : ''}(${escape(l)}) Tj`).join(' ')} ET`;
  return pdfFile([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    page(4, 5),
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    FONT,
  ]);
}

/**
 * A PDF whose pages all show one Flate-compressed content stream of about `inflatedBytes` (the
 * reported bomb: 5 pages sharing a 20 MB stream, a 62 KB file).
 */
export function sharedStreamPdf(pages: number, inflatedBytes: number): Uint8Array {
  const line = 'BT /F1 12 Tf 72 720 Td (x) Tj ET\n';
  const compressed = deflateSync(Buffer.from(line.repeat(Math.ceil(inflatedBytes / line.length))), {
    level: 9,
  });
  const stream = pages + 3;
  return pdfFile([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ')}] /Count ${pages} >>`,
    ...Array.from({ length: pages }, () => page(stream, stream + 1)),
    Buffer.concat([
      Buffer.from(`<< /Length ${compressed.length} /Filter /FlateDecode >>\nstream\n`),
      compressed,
      Buffer.from('\nendstream'),
    ]),
    FONT,
  ]);
}

/**
 * A zip of deflated members; `declared` may give the size the directory claims for a member (a
 * bomb that lies about its size).
 */
export function deflatedZip(
  files: Record<string, Uint8Array>,
  declared: (name: string, actual: number) => number = (_, actual) => actual,
): Uint8Array {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of Object.entries(files)) {
    const compressed = deflateRawSync(data, { level: 9 });
    const fileName = Buffer.from(name);
    const header = (size: number, signature: number) => {
      const h = Buffer.alloc(size);
      h.writeUInt32LE(signature, 0);
      return h;
    };
    const local = header(30, 0x04034b50);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(declared(name, data.length), 22);
    local.writeUInt16LE(fileName.length, 26);
    parts.push(local, fileName, compressed);
    const entry = header(46, 0x02014b50);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(compressed.length, 20);
    entry.writeUInt32LE(declared(name, data.length), 24);
    entry.writeUInt16LE(fileName.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, fileName);
    offset += local.length + fileName.length + compressed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...parts, directory, end]));
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The parts of a Word document around its body XML. */
const docxParts = (body: string): Record<string, string> => ({
  '[Content_Types].xml':
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  '_rels/.rels':
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  'word/document.xml': `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
});

const paragraphsXml = (paragraphs: readonly string[]) =>
  paragraphs.map((p) => `<w:p><w:r><w:t>${xmlEscape(p)}</w:t></w:r></w:p>`).join('');

/** A minimal Word document (.docx) with one paragraph per entry. */
export function minimalDocx(paragraphs: readonly string[]): Uint8Array {
  return storedZip(docxParts(paragraphsXml(paragraphs)));
}

/**
 * A deflated .docx whose document.xml inflates to about `inflatedBytes` (the reported bomb: a small
 * file whose body is one paragraph repeated); `declared` as for deflatedZip.
 */
export function bombDocx(
  inflatedBytes: number,
  declared?: (name: string, actual: number) => number,
): Uint8Array {
  const paragraph = paragraphsXml(['Lunch is at noon.']);
  const parts = docxParts(paragraph.repeat(Math.ceil(inflatedBytes / paragraph.length)));
  return deflatedZip(
    Object.fromEntries(Object.entries(parts).map(([name, text]) => [name, Buffer.from(text)])),
    declared,
  );
}

/** Collects the emulator's onFileProcessed reports, so a test can await one file's. */
export function fileReports() {
  const reports = new Map<string, ProcessedFile>();
  const waiting = new Map<string, ((file: ProcessedFile) => void)[]>();
  return {
    onFileProcessed(file: ProcessedFile) {
      reports.set(file.id, file);
      for (const resolve of waiting.get(file.id) ?? []) resolve(file);
      waiting.delete(file.id);
    },
    /** The file's report, once it has been processed. */
    settled(id: string): Promise<ProcessedFile> {
      const known = reports.get(id);
      if (known) return Promise.resolve(known);
      return new Promise((resolve) => waiting.set(id, [...(waiting.get(id) ?? []), resolve]));
    },
  };
}

/** A document worker script that takes a file and never answers (an extraction caught in a loop). */
export const STUCK_WORKER_SCRIPT = new URL('./test-workers/stuck.js', import.meta.url);

/** The problems of a value against one of the provider document's components ([] when it fits). */
export { componentProblems } from '../contract.js';
