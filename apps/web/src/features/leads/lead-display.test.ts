import { describe, expect, it } from 'vitest';
import { expectedLeads, leadPlatforms, type LeadGenerationRun, type LeadSource } from '@sendwell/contract/leads';

import {
  convertBlockedReason,
  expectedLeadsLine,
  expectedLeadsSummary,
  formSettings,
  hostedFormUrl,
  leadDisplayName,
  leadStatusBadgeVariant,
  nextLeadStatuses,
  platformCardLines,
  runPlatformText,
  runProgressPercent,
  togglePlatform,
  webhookCurlExample,
  enrichmentText,
} from './lead-display';

const platform = (id: string) => leadPlatforms.find((p) => p.id === id)!;

function source(overrides: Partial<LeadSource>): LeadSource {
  return {
    id: 1,
    name: 'Source',
    type: 'places',
    provider: 'google',
    totalLeads: 0,
    isActive: true,
    connected: true,
    apiKeyHint: 'abcd',
    settings: {},
    createdAt: '2026-11-24T00:00:00.000Z',
    ...overrides,
  };
}

describe('platform cards', () => {
  it('say what each platform can do here', () => {
    expect(platformCardLines(platform('instagram'), []).capability).toBe('No public API');
    expect(platformCardLines(platform('linkedin'), []).capability).toBe('Import a CSV export');
    expect(platformCardLines(platform('google'), []).capability).toBe('Connect with your API key');
  });

  it('show Connected only for a connected, active places source of the same provider', () => {
    expect(platformCardLines(platform('google'), []).connection).toBe('Not connected');
    expect(platformCardLines(platform('google'), [source({})]).connection).toBe('Connected');
    expect(platformCardLines(platform('yelp'), [source({})]).connection).toBe('Not connected');
    expect(platformCardLines(platform('google'), [source({ connected: false })]).connection).toBe('Not connected');
    expect(platformCardLines(platform('google'), [source({ isActive: false })]).connection).toBe('Not connected');
    expect(platformCardLines(platform('google'), [source({ type: 'enrichment', provider: 'hunter' })]).connection).toBe(
      'Not connected',
    );
  });

  it('say nothing about connection for platforms without an API', () => {
    expect(platformCardLines(platform('tiktok'), [source({})]).connection).toBeNull();
  });

  it('toggle in the catalogue order', () => {
    expect(togglePlatform(['yelp'], 'linkedin')).toEqual(['linkedin', 'yelp']);
    expect(togglePlatform(['linkedin', 'yelp'], 'linkedin')).toEqual(['yelp']);
  });
});

describe('expected leads (spec §9)', () => {
  it('shows the unrounded sum', () => {
    const { sum, expected } = expectedLeads(['linkedin', 'medium']);
    expect(sum).toBe(62);
    expect(expected).toBe(49);
    expect(expectedLeadsLine(sum)).toBe('Expected leads: ~62');
  });

  it('counts only the selected platforms a connected source can search, and names the rest (issue 34)', () => {
    const none = expectedLeadsSummary(['linkedin', 'instagram', 'google'], []);
    expect(none.sum).toBe(0);
    expect(none.note).toMatch(/^None of the selected platforms can return leads here/);
    const google = expectedLeadsSummary(['linkedin', 'instagram', 'google', 'yelp'], [source({})]);
    expect(google).toMatchObject({ sum: 40, counted: ['Google Business'] });
    expect(google.notCounted).toEqual(['LinkedIn', 'Instagram', 'Yelp']);
    expect(google.note).toBe(
      'Estimate for Google Business, the selected platforms you have connected. Not counted: LinkedIn, Instagram and Yelp (not connected or no API).',
    );
    expect(expectedLeadsSummary([], [source({})]).sum).toBe(0);
  });
});

describe('leads', () => {
  it('badge new as default and every other status as secondary (spec §2)', () => {
    expect(leadStatusBadgeVariant('new')).toBe('default');
    expect(leadStatusBadgeVariant('contacted')).toBe('secondary');
    expect(leadStatusBadgeVariant('converted')).toBe('secondary');
  });

  it('name a business without a person by its company, then its email', () => {
    expect(leadDisplayName({ firstName: 'Ada', lastName: 'King', company: 'Acme', email: 'a@x.test' })).toBe(
      'Ada King',
    );
    expect(leadDisplayName({ firstName: '', lastName: '', company: 'Acme Plumbing', email: null })).toBe(
      'Acme Plumbing',
    );
    expect(leadDisplayName({ firstName: '', lastName: '', company: null, email: 'a@x.test' })).toBe('a@x.test');
  });

  it('offer only the status moves the contract allows (converted only by adding to a list)', () => {
    expect(nextLeadStatuses('new')).toEqual(['contacted', 'lost']);
    expect(nextLeadStatuses('qualified')).toEqual(['lost']);
    expect(nextLeadStatuses('converted')).toEqual([]);
  });

  it('explain why a lead cannot be added to a list', () => {
    const base = { isSample: false, email: 'a@x.test', status: 'new' as const, consent: null, lawfulBasis: null };
    expect(convertBlockedReason({ ...base, isSample: true })).toMatch(/^Sample data/);
    expect(convertBlockedReason({ ...base, email: null })).toMatch(/no email/);
    expect(convertBlockedReason({ ...base, status: 'lost' })).toMatch(/lost/);
    expect(convertBlockedReason(base)).toMatch(/lawful basis/);
    expect(convertBlockedReason({ ...base, lawfulBasis: 'consent' })).toBeNull();
    const consent = { submittedAt: '', ip: null, formVersion: 1, text: 'ok', confirmedAt: null };
    expect(convertBlockedReason({ ...base, consent })).toBeNull();
  });
});

describe('form sources', () => {
  it('read slug and consent text from the settings', () => {
    const form = source({
      type: 'form',
      provider: null,
      settings: { slug: 'abc_123', version: 2, consentText: 'Yes please', doubleOptIn: false },
    });
    expect(formSettings(form)).toEqual({ slug: 'abc_123', version: 2, consentText: 'Yes please', doubleOptIn: false });
    expect(formSettings(source({}))).toBeNull();
    expect(hostedFormUrl('http://localhost:5000/', 'abc_123')).toBe('http://localhost:5000/f/abc_123');
  });
});

describe('generation runs', () => {
  const run = (state: LeadGenerationRun['state'], done: number, total: number) => ({
    state,
    progress: { done, total },
  });

  it('fill the progress bar by platforms finished, and fully once finished', () => {
    expect(runProgressPercent(run('queued', 0, 3))).toBe(0);
    expect(runProgressPercent(run('running', 1, 3))).toBe(33);
    expect(runProgressPercent(run('done', 1, 3))).toBe(100);
    expect(runProgressPercent(run('running', 0, 0))).toBe(0);
  });

  it('say why a platform was skipped', () => {
    const entry = { platform: 'tiktok' as const, found: 0, created: 0 };
    expect(runPlatformText({ ...entry, state: 'skipped', reason: 'No public API' })).toBe('Skipped: No public API');
    expect(runPlatformText({ ...entry, state: 'searched', reason: null, found: 12, created: 9 })).toBe(
      'Found 12, 9 new',
    );
    expect(runPlatformText({ ...entry, state: 'failed', reason: 'API key rejected' })).toBe('Failed: API key rejected');
  });
});

describe('webhook sources', () => {
  it('show a curl delivery signed with the secret over "<timestamp>.<raw body>"', () => {
    const example = webhookCurlExample('http://x.test/api/webhook/leads/1', "whsec_1'x");
    expect(example).toContain("curl -X POST 'http://x.test/api/webhook/leads/1'");
    expect(example).toContain(`-hmac 'whsec_1'\\''x'`);
    expect(example).toContain(`printf '%s.%s' "$TS" "$BODY"`);
    expect(example).toContain('-H "X-Sendwell-Timestamp: $TS"');
    expect(example).toContain('-H "X-Sendwell-Signature: sha256=$SIG"');
  });
});

describe('enrichment', () => {
  const base = { lookups: 0, found: 0, rejected: 0, reason: null };
  it('says credits used, addresses found, or why it stopped', () => {
    expect(enrichmentText({ ...base, state: 'off' })).toBe(
      'Email finder: not used (no active, connected Hunter source)',
    );
    expect(enrichmentText({ ...base, state: 'done', lookups: 3, found: 5, rejected: 1 })).toBe(
      'Email finder: 3 credits used, 5 addresses found, 1 refused by their domain',
    );
    expect(enrichmentText({ ...base, state: 'stopped', lookups: 1, reason: 'Out of credits' })).toBe(
      'Email finder stopped after 1 credit used: Out of credits',
    );
  });
});
