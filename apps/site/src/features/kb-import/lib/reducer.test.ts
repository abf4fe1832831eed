import { describe, expect, it } from 'vitest';
import { initialState, reduce } from './reducer';
import type { UploadedFileRecord } from './storage';

const rec = (id: string, status = 'processing'): UploadedFileRecord => ({
  id,
  name: `${id}.md`,
  bytes: 1,
  mimetype: 'text/markdown',
  status,
  createdAt: '',
  url: '',
});

describe('reduce', () => {
  it('is pure: the previous state is left as it was', () => {
    const before = initialState([rec('file-1')], []);
    const copy = structuredClone(before);
    const after = reduce(before, {
      type: 'patchRecords',
      ids: ['file-1'],
      patch: { status: 'done' },
      progress: 100,
    });
    expect(before).toEqual(copy);
    expect(after.uploaded[0]?.status).toBe('done');
    expect(after.progress['file-1']).toBe(100);
  });

  it('progress alone keeps the same records (nothing to save)', () => {
    const s = initialState([rec('file-1')], []);
    expect(reduce(s, { type: 'patchRecords', ids: ['file-1'], patch: {}, progress: 60 }).uploaded).toBe(
      s.uploaded,
    );
  });

  it('an interrupted upload comes back failed with a failed- id', () => {
    const s = initialState([rec('local-x', 'uploading')], []);
    expect(s.uploaded[0]).toMatchObject({ id: 'failed-x', status: 'failed' });
  });

  it('replacing a record moves its progress and unticks it; removing drops every trace', () => {
    let s = initialState([rec('file-1')], []);
    s = reduce(s, { type: 'checked', ids: ['file-1'] });
    s = reduce(s, { type: 'replaceRecord', id: 'file-1', record: rec('file-2'), progress: 50 });
    expect(s.checked).toEqual([]);
    expect(s.progress).toEqual({ 'file-2': 50 });
    s = reduce(s, { type: 'retriable', ids: ['file-2'] });
    s = reduce(s, { type: 'removeRecord', id: 'file-2' });
    expect(s).toMatchObject({ uploaded: [], retriable: [], progress: {} });
  });

  it('keeps at most 1000 log lines', () => {
    let s = initialState([], []);
    for (let i = 0; i < 1_005; i++)
      s = reduce(s, { type: 'log', line: { id: i, at: 0, level: 'info', message: String(i) } });
    expect(s.logs).toHaveLength(1_000);
    expect(s.logs[0]?.message).toBe('5');
  });
});
