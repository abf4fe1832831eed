/**
 * Decompression with a budget, for the document checks that run before a parser sees a file (zip
 * members of a .docx, PDF streams): every inflated byte is counted as it comes out, and inflating
 * stops as soon as one member or stream, or the file's total, passes its cap, or the ratio of
 * inflated to compressed bytes is a bomb's. Runs in the extraction worker.
 * @module
 */
import { createInflate, createInflateRaw } from 'node:zlib';

export interface InflationLimits {
  /** Largest inflated size of one zip member or PDF stream, in bytes. */
  maxInflatedPartBytes: number;
  /** Largest inflated size of all of a file's members or streams together, in bytes. */
  maxInflatedBytes: number;
  /** Largest ratio of inflated to compressed size, for parts past 1 MiB inflated. */
  maxInflationRatio: number;
}

export const DEFAULT_INFLATION_LIMITS: InflationLimits = {
  maxInflatedPartBytes: 16 * 1024 * 1024,
  maxInflatedBytes: 64 * 1024 * 1024,
  maxInflationRatio: 100,
};

/** Small parts may compress far better than text does (a run of spaces): the ratio counts above this. */
const RATIO_FLOOR = 1024 * 1024;

/** Why a document is not indexed, in words for the operator (a file's failure reason). */
export class DocumentProblem extends Error {
  override name = 'DocumentProblem';
}

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

/** The inflated bytes a file's parts have used so far, checked against the limits. */
export class InflationBudget {
  #used = 0;
  constructor(readonly limits: InflationLimits) {}

  /** The most one part may still inflate to. */
  get remaining(): number {
    return Math.min(this.limits.maxInflatedPartBytes, this.limits.maxInflatedBytes - this.#used);
  }

  /** Throws when a part of `compressed` bytes inflating to `inflated` would be past a limit. */
  check(part: string, compressed: number, inflated: number): void {
    const { maxInflatedPartBytes, maxInflatedBytes, maxInflationRatio } = this.limits;
    if (inflated > maxInflatedPartBytes)
      throw new DocumentProblem(`${part} inflates past ${mib(maxInflatedPartBytes)}`);
    if (this.#used + inflated > maxInflatedBytes)
      throw new DocumentProblem(`its parts inflate past ${mib(maxInflatedBytes)} in all`);
    if (inflated > RATIO_FLOOR && inflated > compressed * maxInflationRatio)
      throw new DocumentProblem(
        `${part} inflates more than ${maxInflationRatio} times (a decompression bomb)`,
      );
  }

  /** Checks a part (see check) and counts it against the file's total. */
  take(part: string, compressed: number, inflated: number): void {
    this.check(part, compressed, inflated);
    this.#used += inflated;
  }
}

/**
 * Inflates `data` (zlib, or raw deflate for zip members), keeping at most `cap` bytes: past it,
 * returns `null` at once without inflating the rest. Corrupt data yields what came out before the
 * fault, as lenient parsers (pdf.js) would read it.
 */
export function inflateCapped(data: Uint8Array, cap: number, raw: boolean): Promise<Uint8Array | null> {
  return new Promise((resolve) => {
    const inflate = raw ? createInflateRaw() : createInflate();
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (over: boolean) => {
      if (settled) return;
      settled = true;
      inflate.destroy();
      resolve(over ? null : new Uint8Array(Buffer.concat(chunks, size)));
    };
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) finish(true);
      else chunks.push(chunk);
    });
    inflate.on('error', () => finish(false));
    inflate.on('end', () => finish(false));
    inflate.end(data);
  });
}
