import { describe, expect, it } from 'vitest';

import { countDataRows, createImportProgressReader, estimateDataRows, importPercent } from './import-progress';

describe('countDataRows', () => {
  it('counts the lines after the header, with or without a final newline', () => {
    expect(countDataRows('')).toBe(0);
    expect(countDataRows('email\n')).toBe(0);
    expect(countDataRows('email\na@x.io\nb@x.io\n')).toBe(2);
    expect(countDataRows('email\r\na@x.io\r\nb@x.io')).toBe(2);
  });
});

describe('estimateDataRows', () => {
  it('scales the sample’s line density to the file size', () => {
    // 10 lines in 1,000 bytes; the file is 100,000 bytes → about 1,000 lines, one of them the header.
    expect(estimateDataRows(100_000, 'x\n'.repeat(10), 1_000)).toBe(999);
    expect(estimateDataRows(100_000, 'no newline', 1_000)).toBe(0);
  });
});

describe('createImportProgressReader', () => {
  it('returns each completed line once, as the text grows', () => {
    const reader = createImportProgressReader();
    let text = '{"type":"progress","rows":2000}\n{"type":"progr';
    expect(reader.push(text)).toEqual([{ type: 'progress', rows: 2000 }]);
    expect(reader.push(text)).toEqual([]);
    text += 'ess","rows":4000}\n';
    expect(reader.push(text)).toEqual([{ type: 'progress', rows: 4000 }]);
    text +=
      '{"type":"result","result":{"imported":3,"updated":1,"skipped":1,"errors":[{"row":4,"message":"Bad email"}],"listId":7}}';
    expect(reader.push(text)).toEqual([]);
    expect(reader.end(text)).toEqual([
      {
        type: 'result',
        result: {
          imported: 3,
          updated: 1,
          skipped: 1,
          errors: [{ row: 4, message: 'Bad email' }],
          listId: 7,
          ignoredColumns: [],
        },
      },
    ]);
  });
  it('reads error lines and skips lines that are not progress lines', () => {
    const reader = createImportProgressReader();
    const text =
      'not json\n{"hello":1}\n{"type":"error","status":409,"message":"A contact list with this name already exists"}\n';
    expect(reader.push(text)).toEqual([
      { type: 'error', status: 409, message: 'A contact list with this name already exists' },
    ]);
  });
});

describe('importPercent', () => {
  const base = { totalBytes: 1000, estimatedRows: 100, done: false };
  it('fills the first half with the upload', () => {
    expect(importPercent({ ...base, uploadedBytes: 0, rowsProcessed: 0 })).toBe(0);
    expect(importPercent({ ...base, uploadedBytes: 500, rowsProcessed: 0 })).toBe(25);
    expect(importPercent({ ...base, uploadedBytes: 1000, rowsProcessed: 0 })).toBe(50);
  });
  it('fills the second half with the processed rows, below 100 until done', () => {
    expect(importPercent({ ...base, uploadedBytes: 1000, rowsProcessed: 50 })).toBe(75);
    expect(importPercent({ ...base, uploadedBytes: 1000, rowsProcessed: 100 })).toBe(99);
    expect(importPercent({ ...base, uploadedBytes: 1000, rowsProcessed: 250 })).toBe(99);
    expect(importPercent({ ...base, uploadedBytes: 1000, rowsProcessed: 100, done: true })).toBe(100);
  });
  it('copes with an empty file or no estimate', () => {
    expect(importPercent({ uploadedBytes: 0, totalBytes: 0, rowsProcessed: 10, estimatedRows: 0, done: false })).toBe(
      0,
    );
  });
});
