import {
  leadPlatforms,
  leadStatusMoves,
  platformCapabilityText,
  type Lead,
  type LeadGenerationRun,
  type LeadGenerationRunResponse,
  type LeadPlatform,
  type LeadPlatformId,
  type LeadSource,
  type LeadSourceType,
  type LeadStatus,
  type LawfulBasis,
} from '@sendwell/contract/leads';

/** How the screen names each lead source type (Add Lead Source's choices and each source's line). */
export const leadSourceTypeLabels: Record<LeadSourceType, string> = {
  form: 'Capture form',
  places: 'Business search',
  enrichment: 'Email finder (Hunter)',
  webhook: 'Webhook',
  csv: 'CSV list',
  sample: 'Sample data',
};

/** What each type does, shown under the choice in Add Lead Source. */
export const leadSourceTypeHints: Record<LeadSourceType, string> = {
  form: 'A hosted sign-up page and an embeddable form. People confirm by email before they become leads.',
  places: 'Searches businesses (never people) on Google Places or Yelp with your own API key.',
  enrichment: "Finds a business's published contact addresses through your own Hunter key.",
  webhook: 'A signed endpoint other tools post their leads to.',
  csv: 'A lead list you hold, with where it came from and your lawful basis for mailing it.',
  sample: 'A clearly labelled demo directory for trying the screens. Sample leads are never mailed.',
};

export const lawfulBasisLabels: Record<LawfulBasis, string> = {
  consent: 'Consent',
  legitimate_interest: 'Legitimate interest',
  contract: 'Contract',
};

export const leadStatusLabels: Record<LeadStatus, string> = {
  new: 'New',
  contacted: 'Contacted',
  qualified: 'Qualified',
  converted: 'Converted',
  lost: 'Lost',
};

/** Spec §2: a lead's status badge is the default style when new, otherwise secondary. */
export function leadStatusBadgeVariant(status: LeadStatus): 'default' | 'secondary' {
  return status === 'new' ? 'default' : 'secondary';
}

/** Spec §2: a campaign's status badge is the default style when active, otherwise secondary. */
export function campaignStatusBadgeVariant(status: string): 'default' | 'secondary' {
  return status === 'active' ? 'default' : 'secondary';
}

/** A lead's full name; a business found by search may have none, so its company (then its email) stands in. */
export function leadDisplayName(lead: Pick<Lead, 'firstName' | 'lastName' | 'company' | 'email'>): string {
  const name = `${lead.firstName} ${lead.lastName}`.trim();
  return name || lead.company || lead.email || 'Unnamed lead';
}

/** The statuses a lead may be moved to from the screen (converted only through 'Add to contact list'). */
export function nextLeadStatuses(status: LeadStatus): readonly LeadStatus[] {
  return leadStatusMoves[status];
}

/** Spec §9's expected-leads line: the unrounded sum of the estimates it counts. */
export function expectedLeadsLine(sum: number): string {
  return `Expected leads: ~${sum}`;
}

/**
 * What a run of the selected platforms can give here (issue 34): only platforms with a connected
 * source search, so only their estimates are summed; the others are named apart with why.
 */
export function expectedLeadsSummary(
  selected: readonly LeadPlatformId[],
  sources: readonly LeadSource[],
): { sum: number; counted: string[]; notCounted: string[]; note: string } {
  const chosen = leadPlatforms.filter((platform) => selected.includes(platform.id));
  const searchable = chosen.filter((platform) => platformConnected(platform, sources));
  const others = chosen.filter((platform) => !searchable.includes(platform));
  const sum = searchable.reduce((total, platform) => total + platform.estimatedLeads, 0);
  const counted = searchable.map((platform) => platform.name);
  const notCounted = others.map((platform) => platform.name);
  let note: string;
  if (chosen.length === 0) note = 'Select platforms to see what a run can find.';
  else if (counted.length === 0)
    note = `None of the selected platforms can return leads here: connect Google Business or Yelp with your own API key.`;
  else note = `Estimate for ${listOf(counted)}, the selected platforms you have connected.`;
  if (counted.length > 0 && notCounted.length > 0)
    note += ` Not counted: ${listOf(notCounted)} (not connected or no API).`;
  return { sum, counted, notCounted, note };
}

/** Names joined for a sentence: 'A', 'A and B', 'A, B and C'. */
function listOf(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** Whether the account can search a platform: a connected, active places source of its provider. */
function platformConnected(platform: LeadPlatform, sources: readonly LeadSource[]): boolean {
  if (platform.capability !== 'api_key' || platform.provider === null) return false;
  return sources.some(
    (source) =>
      source.type === 'places' && source.provider === platform.provider && source.connected && source.isActive,
  );
}

/** The two lines a platform card shows: what the platform can do here, and (for key platforms) whether it is connected. */
export function platformCardLines(
  platform: LeadPlatform,
  sources: readonly LeadSource[],
): { capability: string; connection: 'Connected' | 'Not connected' | null } {
  const capability = platformCapabilityText[platform.capability];
  if (platform.capability !== 'api_key') return { capability, connection: null };
  return { capability, connection: platformConnected(platform, sources) ? 'Connected' : 'Not connected' };
}

/** A source's connection state as its line shows it. */
export function sourceConnectionText(source: Pick<LeadSource, 'connected'>): 'Connected' | 'Not connected' {
  return source.connected ? 'Connected' : 'Not connected';
}

/** Toggles a platform in the selection, keeping the catalogue's order. */
export function togglePlatform<T extends string>(selected: readonly T[], id: T): T[] {
  if (selected.includes(id)) return selected.filter((s) => s !== id);
  const order = leadPlatforms.map((p) => p.id as string);
  return [...selected, id].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

/** A run's progress bar value, 0–100 (a finished run is full whatever its counts). */
export function runProgressPercent(run: Pick<LeadGenerationRun, 'state' | 'progress'>): number {
  if (run.state === 'done' || run.state === 'failed') return 100;
  if (run.progress.total <= 0) return 0;
  return Math.min(100, Math.round((run.progress.done / run.progress.total) * 100));
}

/** Whether polling may stop. */
export function runFinished(run: Pick<LeadGenerationRun, 'state'>): boolean {
  return run.state === 'done' || run.state === 'failed';
}

/** One platform's line in a run: what it did, or why it could not search. */
export function runPlatformText(entry: LeadGenerationRun['platforms'][number]): string {
  switch (entry.state) {
    case 'pending':
      return 'Waiting';
    case 'searched':
      return `Found ${entry.found}, ${entry.created} new`;
    case 'skipped':
      return entry.reason ? `Skipped: ${entry.reason}` : 'Skipped';
    case 'failed':
      return entry.reason ? `Failed: ${entry.reason}` : 'Failed';
  }
}

/** The catalogue name of a platform id. */
export function platformName(id: string): string {
  return leadPlatforms.find((p) => p.id === id)?.name ?? id;
}

/** A form source's settings as the API answers them (slug, version, consent text, opt-in). */
export function formSettings(
  source: Pick<LeadSource, 'type' | 'settings'>,
): { slug: string; version: number; consentText: string; doubleOptIn: boolean } | null {
  if (source.type !== 'form') return null;
  const { slug, version, consentText, doubleOptIn } = source.settings;
  if (typeof slug !== 'string' || typeof consentText !== 'string') return null;
  return {
    slug,
    version: typeof version === 'number' ? version : 1,
    consentText,
    doubleOptIn: doubleOptIn !== false,
  };
}

/** A csv source's settings (where the list came from, the lawful basis). */
export function csvSettings(
  source: Pick<LeadSource, 'type' | 'settings'>,
): { origin: string; lawfulBasis: LawfulBasis } | null {
  if (source.type !== 'csv') return null;
  const { origin, lawfulBasis } = source.settings;
  if (typeof origin !== 'string' || typeof lawfulBasis !== 'string' || !(lawfulBasis in lawfulBasisLabels)) return null;
  return { origin, lawfulBasis: lawfulBasis as LawfulBasis };
}

/** A form's public address on this installation. */
export function hostedFormUrl(origin: string, slug: string): string {
  return `${origin.replace(/\/+$/, '')}/f/${slug}`;
}

/** Why 'Add to contact list' is unavailable for a lead, or null when it is available. */
export function convertBlockedReason(
  lead: Pick<Lead, 'isSample' | 'email' | 'status' | 'consent' | 'lawfulBasis'>,
): string | null {
  if (lead.isSample) return 'Sample data is for trying the screens: sample leads are never added to a list or mailed.';
  if (!lead.email) return 'This lead has no email address to add to a list.';
  if (lead.status === 'lost') return 'A lost lead cannot be added to a contact list.';
  if (!lead.consent && !lead.lawfulBasis) {
    return 'Record a lawful basis for this lead (consent, legitimate interest or contract) before adding it to a list.';
  }
  return null;
}

/** What the run's email finder (Hunter) did: credits used, addresses found, or why it stopped or did not run. */
export function enrichmentText(enrichment: LeadGenerationRunResponse['enrichment']): string {
  const credits = `${enrichment.lookups} ${enrichment.lookups === 1 ? 'credit' : 'credits'} used`;
  const refused = enrichment.rejected > 0 ? `, ${enrichment.rejected} refused by their domain` : '';
  switch (enrichment.state) {
    case 'off':
      return 'Email finder: not used (no active, connected Hunter source)';
    case 'done':
      return `Email finder: ${credits}, ${enrichment.found} ${enrichment.found === 1 ? 'address' : 'addresses'} found${refused}`;
    case 'stopped':
      return `Email finder stopped after ${credits}: ${enrichment.reason ?? 'the provider refused further lookups'}`;
  }
}

/** The signed delivery's headers as documentation spells them (HTTP header names are case-insensitive). */
const LEAD_WEBHOOK_TIMESTAMP_DISPLAY = 'X-Sendwell-Timestamp';
const LEAD_WEBHOOK_SIGNATURE_DISPLAY = 'X-Sendwell-Signature';

/** Single quotes for a POSIX shell: the value stays literal whatever it holds. */
const shellQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * A delivery to a webhook source with curl: the signature is `sha256=` + the hex HMAC-SHA256 of
 * `<timestamp>.<raw body>` keyed with the source's secret, the timestamp Unix seconds.
 */
export function webhookCurlExample(url: string, secret: string): string {
  return [
    `BODY='{"email":"ada@analytical.test","firstName":"Ada","lastName":"Lovelace","company":"Analytical Co"}'`,
    'TS=$(date +%s)',
    `SIG=$(printf '%s.%s' "$TS" "$BODY" | openssl dgst -sha256 -hmac ${shellQuote(secret)} | sed 's/^.* //')`,
    `curl -X POST ${shellQuote(url)} \\`,
    "  -H 'Content-Type: application/json' \\",
    `  -H "${LEAD_WEBHOOK_TIMESTAMP_DISPLAY}: $TS" \\`,
    `  -H "${LEAD_WEBHOOK_SIGNATURE_DISPLAY}: sha256=$SIG" \\`,
    '  --data "$BODY"',
  ].join('\n');
}
