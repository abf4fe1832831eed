import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createDocumentWorker } from './document-worker.js';
import { DEFAULT_EXTRACT_LIMITS, extractText } from './extract.js';
import { DEFAULT_INFLATION_LIMITS, InflationBudget } from './inflate.js';
import { lzwDecode, runLengthDecode } from './pdf-filters.js';
import { checkPdfStreams } from './pdf-streams.js';
import { bombDocx, minimalDocx, minimalPdf, sharedStreamPdf, STUCK_WORKER_SCRIPT } from './testing.js';

// Hostile documents: each is refused with its reason before a parser inflates it,
// and the worker's time and memory limits stop what no cap foresaw.

const MIB = 1024 * 1024;

describe('documents past a limit', () => {
  it('refuses a .docx whose document.xml inflates past the cap, without inflating it', async () => {
    // 40 MiB of XML in a file of a few hundred KB.
    const bomb = bombDocx(40 * MIB);
    expect(bomb.length).toBeLessThan(MIB);
    await expect(extractText('bomb.docx', bomb)).rejects.toThrow('word/document.xml inflates past 16 MiB');
  });

  it('measures what a member really inflates to, whatever size the archive declares', async () => {
    const liar = bombDocx(40 * MIB, (name, actual) => (name === 'word/document.xml' ? 1000 : actual));
    await expect(extractText('liar.docx', liar)).rejects.toThrow('word/document.xml inflates past 16 MiB');
  });

  it('refuses a member inflating more than 100 times even under the size cap (the 61 KB variant)', async () => {
    await expect(extractText('small-bomb.docx', bombDocx(8 * MIB))).rejects.toThrow(
      'word/document.xml inflates more than 100 times (a decompression bomb)',
    );
  });

  it('refuses a PDF whose pages share one giant stream', async () => {
    const pdf = sharedStreamPdf(5, 20 * MIB);
    expect(pdf.length).toBeLessThan(200 * 1024);
    await expect(extractText('shared.pdf', pdf)).rejects.toThrow(
      'a stream (FlateDecode) inflates past 16 MiB',
    );
  });

  it('undoes an ASCII encoding to measure the Flate stream behind it', async () => {
    const hex = deflateSync(Buffer.alloc(20 * MIB)).toString('hex');
    // Its /Length is wrong, as pdf.js tolerates: the data runs to `endstream`.
    const pdf = `%PDF-1.4\n1 0 obj\n<< /Length 5 /Filter [/AHx /Fl] >>\nstream\n${hex}>\nendstream\nendobj\n`;
    await expect(
      checkPdfStreams(Buffer.from(pdf, 'latin1'), new InflationBudget(DEFAULT_INFLATION_LIMITS)),
    ).rejects.toThrow('a stream (FlateDecode) inflates past 16 MiB');
  });

  it('refuses an encrypted PDF, whose streams cannot be measured', async () => {
    const text = Buffer.from(minimalPdf(['Secret.']))
      .toString('latin1')
      .replace('/Root 1 0 R', '/Root 1 0 R /Encrypt 9 0 R');
    await expect(extractText('locked.pdf', Buffer.from(text, 'latin1'))).rejects.toThrow(
      'the PDF is encrypted',
    );
  });

  it('stops reading PDF pages past the text cap', async () => {
    const limits = { ...DEFAULT_EXTRACT_LIMITS, maxTextChars: 10 };
    expect(await extractText('guide.pdf', minimalPdf(['Lockers are on floor two.']), limits)).toBe(
      'Lockers ar',
    );
  });

  it('decodes LZW and run-length streams within a cap', () => {
    // LZW of "ABABABA" as 9-bit codes: A B 258 260 then end (257).
    const codes = [65, 66, 258, 260, 257];
    let bits = '';
    for (const c of codes) bits += c.toString(2).padStart(9, '0');
    const bytes = Uint8Array.from(bits.padEnd(Math.ceil(bits.length / 8) * 8, '0').match(/.{8}/g)!, (b) =>
      parseInt(b, 2),
    );
    expect(Buffer.from(lzwDecode(bytes, 100)!).toString()).toBe('ABABABA');
    expect(lzwDecode(bytes, 5)).toBeNull();
    expect(
      Buffer.from(runLengthDecode(Uint8Array.from([2, 65, 66, 67, 254, 68, 128]), 100)!).toString(),
    ).toBe('ABCDDD');
    expect(runLengthDecode(Uint8Array.from([129, 65]), 200)).toHaveLength(128);
    expect(runLengthDecode(Uint8Array.from([129, 65]), 127)).toBeNull();
  });
});

describe('the extraction worker', () => {
  it('reads documents in a worker thread', async () => {
    const worker = createDocumentWorker();
    try {
      expect(await worker.process('notes.docx', minimalDocx(['Lunch is at noon.']))).toEqual({
        ok: true,
        passages: [{ text: 'Lunch is at noon.' }],
      });
      expect(await worker.process('bomb.docx', bombDocx(40 * MIB))).toEqual({
        ok: false,
        reason: 'word/document.xml inflates past 16 MiB',
      });
    } finally {
      await worker.close();
    }
  });

  it('terminates a file past the time limit, and reads the next one with a fresh worker', async () => {
    const stuck = createDocumentWorker({
      script: STUCK_WORKER_SCRIPT,
      limits: { timeoutMs: 300 },
    });
    try {
      expect(await stuck.process('loop.txt', new Uint8Array([1]))).toEqual({
        ok: false,
        reason: 'reading it took longer than 0.3 s',
      });
      expect(await stuck.process('loop.txt', new Uint8Array([1]))).toEqual({
        ok: false,
        reason: 'reading it took longer than 0.3 s',
      });
    } finally {
      await stuck.close();
    }
  });

  it('fails a file that needs more than the memory limit, and the process goes on', async () => {
    const hog = createDocumentWorker({
      script: new URL('./test-workers/heap-hog.js', import.meta.url),
      limits: { maxMemoryMb: 32, timeoutMs: 60_000 },
    });
    try {
      expect(await hog.process('big.txt', new Uint8Array([1]))).toEqual({
        ok: false,
        reason: 'reading it needed more than 32 MB of memory',
      });
    } finally {
      await hog.close();
    }
  });

  it('answers null for a file still waiting when the worker is closed', async () => {
    const stuck = createDocumentWorker({ script: STUCK_WORKER_SCRIPT });
    const first = stuck.process('a.txt', new Uint8Array([1]));
    const second = stuck.process('b.txt', new Uint8Array([1]));
    await stuck.close();
    expect(await first).toBeNull();
    expect(await second).toBeNull();
  });
});
