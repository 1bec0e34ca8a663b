import { describe, expect, it } from 'vitest';

import { countCsvDataRows, createLeadImportReader, leadImportPercent, leadsLoadedText } from './lead-csv';

describe('createLeadImportReader', () => {
  it('returns the lines completed so far, then the rest at the end, skipping what is not an import line', () => {
    const reader = createLeadImportReader();
    const result = { created: 2, duplicates: 1, skipped: 1, errors: [{ row: 4, message: 'Invalid email' }] };
    const first = '{"type":"progress","rows":2}\n{"type":"pro';
    expect(reader.push(first)).toEqual([{ type: 'progress', rows: 2 }]);
    const second = `${first}gress","rows":4}\nnot json\n{"type":"other"}\n${JSON.stringify({ type: 'result', result })}`;
    expect(reader.push(second)).toEqual([{ type: 'progress', rows: 4 }]);
    expect(reader.end(second)).toEqual([{ type: 'result', result }]);
  });

  it('reads an error line', () => {
    const reader = createLeadImportReader();
    expect(reader.end('{"type":"error","status":400,"message":"The CSV file is empty"}')).toEqual([
      { type: 'error', status: 400, message: 'The CSV file is empty' },
    ]);
  });
});

describe('countCsvDataRows', () => {
  it('counts lines minus the header, with or without a last newline', () => {
    expect(countCsvDataRows('')).toBe(0);
    expect(countCsvDataRows('email\n')).toBe(0);
    expect(countCsvDataRows('email\na@x.test\nb@x.test')).toBe(2);
    expect(countCsvDataRows('email\na@x.test\nb@x.test\n')).toBe(2);
  });
});

describe('leadImportPercent', () => {
  it('fills half with the upload and half with the rows read, below 100 until done', () => {
    expect(leadImportPercent({ uploadedBytes: 0, totalBytes: 100, rowsRead: 0, fileRows: 10, done: false })).toBe(0);
    expect(leadImportPercent({ uploadedBytes: 50, totalBytes: 100, rowsRead: 0, fileRows: 10, done: false })).toBe(25);
    expect(leadImportPercent({ uploadedBytes: 100, totalBytes: 100, rowsRead: 5, fileRows: 10, done: false })).toBe(75);
    expect(leadImportPercent({ uploadedBytes: 100, totalBytes: 100, rowsRead: 10, fileRows: 10, done: false })).toBe(
      99,
    );
    expect(leadImportPercent({ uploadedBytes: 100, totalBytes: 100, rowsRead: 10, fileRows: 10, done: true })).toBe(
      100,
    );
  });
});

describe('leadsLoadedText', () => {
  it('says what was added, already known and rejected', () => {
    expect(leadsLoadedText({ created: 1, duplicates: 0, skipped: 1 })).toBe('1 lead added, 1 rejected.');
    expect(leadsLoadedText({ created: 10, duplicates: 2, skipped: 0 })).toBe('10 leads added, 2 already known.');
    expect(leadsLoadedText({ created: 0, duplicates: 0, skipped: 0 })).toBe('0 leads added.');
  });
});
