import { describe, expect, it } from 'vitest';
import { isCommonPassword } from './passwords.ts';

describe('isCommonPassword', () => {
  it('finds the list’s passwords, whatever their case', () => {
    for (const password of ['123456', 'password', 'PassWord', 'qwerty123', 'iloveyou', 'secret12']) {
      expect(isCommonPassword(password), password).toBe(true);
    }
  });

  it('lets other passwords through', () => {
    for (const password of ['lunar-lander-12', 'hopper42', 'correct horse battery staple']) {
      expect(isCommonPassword(password), password).toBe(false);
    }
  });
});
