import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv.js';

describe('csvCell', () => {
  it('neutralises formula injection: = + - @ tab and CR get a leading apostrophe', () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe('"\'=HYPERLINK(""http://evil"",""x"")"');
    expect(csvCell('+1+2')).toBe("'+1+2");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\rcmd')).toBe('"\'\rcmd"');
    expect(csvCell('plain, text')).toBe('"plain, text"');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
  });

  it('defuses every formula start and quotes what RFC 4180 needs quoted', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r'])
      expect(csvCell(`${start}HYPERLINK("x")`).includes(`'${start}`), JSON.stringify(start)).toBe(true);
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell('')).toBe('');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(-1)).toBe("'-1");
  });

  it('joins a row with commas', () => {
    expect(csvRow(['a', null, 3, '=x'])).toBe("a,,3,'=x");
  });
});
