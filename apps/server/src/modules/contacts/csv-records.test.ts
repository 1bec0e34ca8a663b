import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvReadError, csvRecords } from './csv-records.ts';

const OPTIONS = { delimiter: ',', maxRecordChars: 1_000_000 };

/** Feeds `pieces` as separate chunks and answers every record. */
async function records(pieces: (string | Buffer)[], options = OPTIONS): Promise<string[][]> {
  const chunks = (async function* () {
    for (const piece of pieces) yield Buffer.isBuffer(piece) ? piece : Buffer.from(piece);
  })();
  const all: string[][] = [];
  for await (const batch of csvRecords(chunks, options)) all.push(...batch);
  return all;
}

/** What csv-parse, with the options the import used before, makes of the same bytes. */
async function csvParseRecords(bytes: Buffer, delimiter: string): Promise<string[][]> {
  const parser = Readable.from([bytes]).pipe(
    parse({
      bom: true,
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      trim: true,
      max_record_size: 1_000_000,
    }),
  );
  const all: string[][] = [];
  for await (const record of parser) all.push(record as string[]);
  return all;
}

/** Cuts a buffer at the given offsets (anywhere, also inside a character's UTF-8 bytes). */
function cut(bytes: Buffer, offsets: number[]): Buffer[] {
  const points = [...new Set(offsets.map((offset) => offset % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const point of points) {
    pieces.push(bytes.subarray(from, point));
    from = point;
  }
  pieces.push(bytes.subarray(from));
  return pieces;
}

describe('csvRecords', () => {
  it('reads quoted delimiters, line breaks and doubled quotes, CRLF and a BOM', async () => {
    const text = '\uFEFFemail,name\r\n"a@x.io","Acme, Inc.\nWest"\r\nb@x.io,"Zoë ""Z"""\r\n';
    expect(await records([text])).toEqual([
      ['email', 'name'],
      ['a@x.io', 'Acme, Inc.\nWest'],
      ['b@x.io', 'Zoë "Z"'],
    ]);
  });

  it('trims around fields but not inside quotes, keeps stray quotes, skips empty lines', async () => {
    expect(await records(['  a , " b " ,c"d\n\n   \nlast'])).toEqual([['a', ' b ', 'c"d'], ['last']]);
    expect(await records(['x,"quoted"tail,""\n'])).toEqual([['x', 'quotedtail', '']]);
  });

  it('takes semicolons and tabs, and a tab delimiter is not trimmed away', async () => {
    expect(await records(['a;b\n1;2\n'], { ...OPTIONS, delimiter: ';' })).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(await records(['a\t\tb\n'], { ...OPTIONS, delimiter: '\t' })).toEqual([['a', '', 'b']]);
  });

  it('gives the same records wherever the chunks are cut, also inside a character or a CRLF', async () => {
    const bytes = Buffer.from('e,n\r\n"q@x.io","a ""b""\r\nc"\r\nü@x.io,🙂\r\n');
    const whole = await records([bytes]);
    for (let i = 0; i <= bytes.length; i += 1) {
      for (let j = i; j <= bytes.length; j += 3) {
        expect(await records(cut(bytes, [i, j]))).toEqual(whole);
      }
    }
  });

  it('refuses a record holding a NUL character, in any chunk, after the records before it (finding 6: CSV with a NUL after 8 KB)', async () => {
    const before = Array.from({ length: 1000 }, (_, i) => `r${i}@x.io,Row ${i}`).join('\n');
    const read: string[][] = [];
    const reading = (async () => {
      const chunks = [`email,name\n${before}\n`, 'bad@x.io,N\u0000ul\n', 'after@x.io,After\n'].map((text) =>
        Buffer.from(text),
      );
      for await (const batch of csvRecords(Readable.from(chunks), OPTIONS)) read.push(...batch);
    })();
    await expect(reading).rejects.toMatchObject({
      code: 'CSV_NUL_CHARACTER',
      message: 'it holds a NUL character, which text never has (is it a binary file?)',
    });
    expect(read).toHaveLength(1001);
    expect(read.at(-1)).toEqual(['r999@x.io', 'Row 999']);
    // Inside quotes, and as the last byte of a file without a final line break, it is found too.
    await expect(records(['a\n"x\u0000,y"\n'])).rejects.toMatchObject({ code: 'CSV_NUL_CHARACTER' });
    await expect(records(['a\n', 'b\u0000'])).rejects.toMatchObject({ code: 'CSV_NUL_CHARACTER' });
  });

  it('refuses a quote that is never closed and a record over the size limit, after the records before them', async () => {
    const read: string[][] = [];
    const reading = (async () => {
      for await (const batch of csvRecords(Readable.from([Buffer.from('a,b\n1,2\n"open,c\n')]), OPTIONS))
        read.push(...batch);
    })();
    await expect(reading).rejects.toMatchObject({
      code: 'CSV_QUOTE_NOT_CLOSED',
      message: 'a quoted field is never closed',
    });
    expect(read).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    const limit = { ...OPTIONS, maxRecordChars: 1000 };
    await expect(records(['a,b\n', '"', 'x'.repeat(600), 'y'.repeat(600)], limit)).rejects.toBeInstanceOf(CsvReadError);
    await expect(records([`a,${'x'.repeat(1200)}\n`], limit)).rejects.toMatchObject({
      code: 'CSV_RECORD_TOO_LARGE',
      message: 'a record is longer than 1000 characters',
    });
  });

  it('reads what csv-parse read, field for field, for any well-formed file cut anywhere', async () => {
    const field = fc.oneof(
      fc.string({ unit: fc.constantFrom('a', 'Z', '1', 'é', '🙂', ' ', '@', '.', ',', ';', '\t', '"', '\n', '\r\n') }),
      fc.constantFrom('', 'x@y.io', '  padded  '),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(field, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 12 }),
        fc.constantFrom(',', ';', '\t'),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (rows, delimiter, lineBreak, bom, offsets) => {
          // Quoted when it must be, or when it has padding at an end (which is otherwise trimmed) or is empty.
          const needsQuotes = (value: string) => /[",;\t\r\n]/.test(value) || value !== value.trim() || value === '';
          const text =
            rows
              .map((row) =>
                row.map((value) => (needsQuotes(value) ? `"${value.replaceAll('"', '""')}"` : value)).join(delimiter),
              )
              .join(lineBreak) + lineBreak;
          const bytes = Buffer.from((bom ? '\uFEFF' : '') + text);
          expect(await records(cut(bytes, offsets), { ...OPTIONS, delimiter })).toEqual(
            await csvParseRecords(bytes, delimiter),
          );
        },
      ),
      { numRuns: 400 },
    );
  });
});
