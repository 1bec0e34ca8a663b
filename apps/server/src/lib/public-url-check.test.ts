import { describe, expect, it } from 'vitest';
import { originMismatchWarner, publicUrlStartupLine } from './public-url-check.ts';

describe('PUBLIC_URL checks in the log', () => {
  it('warns once per other origin, never for PUBLIC_URL itself', () => {
    const warnings: string[] = [];
    const check = originMismatchWarner('https://mail.acme.test/app', (m) => warnings.push(m));
    check('https://mail.acme.test');
    check('http://localhost:5000');
    check('http://localhost:5000');
    check('not a url');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('http://localhost:5000');
    expect(warnings[0]).toContain('PUBLIC_URL is https://mail.acme.test/app');
  });

  it('says at start which base links use, and to set PUBLIC_URL when it was not', () => {
    expect(publicUrlStartupLine('https://mail.acme.test', true)).toBe(
      'Links in mail and on screens use PUBLIC_URL https://mail.acme.test',
    );
    expect(publicUrlStartupLine('http://localhost:5000', false)).toMatch(/^PUBLIC_URL is not set: .*localhost:5000/);
  });
});
