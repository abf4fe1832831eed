import { describe, expect, it } from 'vitest';
import { qrImageSource } from './qr-image';

const svg = '<svg xmlns="http://www.w3.org/2000/svg"><path fill="#ffffff" d="M0 0h1v1H0z"/></svg>';
const encoded =
  'data:image/svg+xml;charset=utf-8,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%3E%3Cpath%20fill%3D%22%23ffffff%22%20d%3D%22M0%200h1v1H0z%22%2F%3E%3C%2Fsvg%3E';

describe('qrImageSource', () => {
  it("encodes the SVG of auth-js's unencoded data URI, so its '#' does not cut the image", () => {
    const src = qrImageSource(`data:image/svg+xml;utf-8,${svg}`);
    expect(src).toBe(encoded);
    expect(new URL(src).hash).toBe('');
  });

  it('encodes bare SVG text', () => {
    expect(qrImageSource(svg)).toBe(encoded);
  });

  it('keeps a data URI that is already encoded, or of another type', () => {
    for (const kept of [encoded, 'data:image/svg+xml;base64,PHN2Zy8+', 'data:image/png;base64,iVBORw0KGgo='])
      expect(qrImageSource(kept)).toBe(kept);
  });
});
