import type { z } from 'zod';

/**
 * Reads an NDJSON answer that grows while it arrives (XMLHttpRequest.responseText): each call
 * returns the lines completed since the last call; `end` also returns a last line without '\n'.
 * Lines that are not JSON of `schema` are skipped.
 */
export function createNdjsonReader<Line>(schema: z.ZodType<Line>) {
  let offset = 0;
  const parse = (raw: string): Line[] => {
    const out: Line[] = [];
    for (const line of raw.split('\n')) {
      const trimmed = line.trim();
      if (!trimmed) continue;
      let json: unknown;
      try {
        json = JSON.parse(trimmed);
      } catch {
        continue;
      }
      const parsed = schema.safeParse(json);
      if (parsed.success) out.push(parsed.data);
    }
    return out;
  };
  return {
    push(text: string): Line[] {
      const end = text.lastIndexOf('\n');
      if (end < offset) return [];
      const chunk = text.slice(offset, end + 1);
      offset = end + 1;
      return parse(chunk);
    },
    end(text: string): Line[] {
      const chunk = text.slice(offset);
      offset = text.length;
      return parse(chunk);
    },
  };
}
