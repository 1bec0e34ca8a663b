import { describe, expect, it } from 'vitest';

import { parseCsvPreview, readCsvPreview } from './csv-preview';

const CSV = [
  '\uFEFFEmail,FirstName,LastName,Company',
  'ada@example.com,Ada,Lovelace,"Analytical Engines, Ltd"',
  'grace@example.com,Grace,Hopper,Navy',
  'not-an-email,Bad,Row,',
  'alan@example.com,Alan,Turing,Bletchley',
  'katherine@example.com,Katherine,Johnson,NASA',
  'margaret@example.com,Margaret,Hamilton,MIT',
  '',
].join('\r\n');

describe('parseCsvPreview', () => {
  it('lower-cases the headers, drops the BOM, keeps quoted commas and shows 5 rows', () => {
    const preview = parseCsvPreview(CSV);
    expect(preview.headers).toEqual(['email', 'firstname', 'lastname', 'company']);
    expect(preview.rows).toHaveLength(5);
    expect(preview.rows[0]).toEqual(['ada@example.com', 'Ada', 'Lovelace', 'Analytical Engines, Ltd']);
  });
  it('detects a semicolon delimiter', () => {
    expect(parseCsvPreview('Email;Name\nada@example.com;Ada\n').rows).toEqual([['ada@example.com', 'Ada']]);
  });
  it('copes with an empty text', () => {
    expect(parseCsvPreview('')).toEqual({ headers: [], columns: [], rows: [] });
  });
});

describe('readCsvPreview', () => {
  it('counts the data rows of a small file', async () => {
    const file = new File([CSV], 'people.csv', { type: 'text/csv' });
    const preview = await readCsvPreview(file);
    expect(preview.estimatedRows).toBe(6);
    expect(preview.headers[0]).toBe('email');
  });
});
