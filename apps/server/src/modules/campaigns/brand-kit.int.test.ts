import { describe, expect, it } from 'vitest';
import { BRAND_KIT_DEFAULTS } from '@sendwell/contract/brand-kit';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';

const kit = {
  logoUrl: 'https://cdn.acme.example/logo.png',
  logoAlt: 'Acme',
  headerBackground: '#0f172a',
  primaryColor: '#16a34a',
  textColor: '#1f2937',
  fontFamily: 'georgia',
  address: 'Acme Inc, 1 Main St, Springfield',
  applyToNew: true,
};

describe('brand kit', () => {
  const t = useTestApp();

  it('answers the defaults before the account saves one, then the saved kit', async () => {
    const { client } = await signUpUser(t());
    const before = await client.get('/api/brand-kit');
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ ...BRAND_KIT_DEFAULTS, updatedAt: null });

    const saved = await client.put('/api/brand-kit', kit);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject(kit);
    expect(typeof saved.json().updatedAt).toBe('string');
    expect((await client.get('/api/brand-kit')).json()).toEqual(saved.json());

    // A second save replaces the whole kit (one row per account).
    const again = await client.put('/api/brand-kit', { ...kit, logoUrl: null, address: '' });
    expect(again.json()).toMatchObject({ logoUrl: null, address: '', fontFamily: 'georgia' });
  });

  it("keeps each account's kit to itself", async () => {
    const owner = await signUpUser(t());
    const other = await signUpUser(t());
    expect((await owner.client.put('/api/brand-kit', kit)).statusCode).toBe(200);
    expect((await other.client.get('/api/brand-kit')).json().updatedAt).toBeNull();
    expect((await other.client.put('/api/brand-kit', { ...kit, primaryColor: '#dc2626' })).statusCode).toBe(200);
    expect((await owner.client.get('/api/brand-kit')).json().primaryColor).toBe('#16a34a');
  });

  it('refuses bad input with 400 and field messages, and writes nothing', async () => {
    const { client } = await signUpUser(t());
    const cases: [Record<string, unknown>, string][] = [
      [{ ...kit, primaryColor: 'green' }, 'Colours are hex values like #1a2b3c'],
      [{ ...kit, logoUrl: 'javascript:alert(1)' }, 'Image address must be an http:// or https:// URL'],
      [{ ...kit, fontFamily: 'Comic Sans; color:red' }, 'Font must be one of'],
      [{ ...kit, address: 'x'.repeat(1001) }, 'Footer address must be at most 1,000 characters'],
      [{ ...kit, address: 'Hi {{nickname}}' }, 'Unknown merge tag {{nickname}}'],
      [{ ...kit, applyToNew: 'yes' }, 'applyToNew must be true or false'],
    ];
    for (const [body, message] of cases) {
      const response = await client.put('/api/brand-kit', body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body).toContain(message);
    }
    const { headerBackground: _dropped, ...missing } = kit;
    expect((await client.put('/api/brand-kit', missing)).statusCode).toBe(400);
    expect(
      (
        await client.request({
          method: 'PUT',
          url: '/api/brand-kit',
          payload: '[1,2]',
          headers: { 'content-type': 'application/json' },
        })
      ).statusCode,
    ).toBe(400);
    expect((await client.get('/api/brand-kit')).json().updatedAt).toBeNull();
  });

  it('needs a signed-in user', async () => {
    const anonymous = t().client();
    expect((await anonymous.get('/api/brand-kit')).statusCode).toBe(401);
    expect((await anonymous.put('/api/brand-kit', kit)).statusCode).toBe(401);
  });

  it('renders a branded campaign in the kit’s font and colours', async () => {
    const { client } = await signUpUser(t());
    const preview = await client.post('/api/campaigns/preview', {
      blocks: [
        {
          id: 'h',
          type: 'text',
          content: { text: 'Hello', tag: 'h1' },
          styles: { fontFamily: 'georgia', color: '#1f2937' },
        },
        {
          id: 'b',
          type: 'button',
          content: { text: 'Shop', url: 'https://acme.example' },
          styles: { backgroundColor: '#16a34a', fontFamily: 'verdana' },
        },
      ],
      subject: 'Hi',
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const html = preview.json().html as string;
    expect(html).toContain("font-family:Georgia,'Times New Roman',serif");
    expect(html).toContain('font-family:Verdana,Geneva,sans-serif');
    expect(html).toContain('background-color:#16a34a');
  });
});
