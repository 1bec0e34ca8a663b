import { BRAND_KIT_DEFAULTS, type BrandKit, type BrandKitBody } from '@sendwell/contract/brand-kit';
import { unknownMergeTags } from '@sendwell/contract/campaigns';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import * as repo from './brand-kit.repo.ts';

function toBrandKit(row: repo.BrandKitRow): BrandKit {
  return {
    logoUrl: row.logoUrl,
    logoAlt: row.logoAlt,
    headerBackground: row.headerBackground,
    primaryColor: row.primaryColor,
    textColor: row.textColor,
    fontFamily: row.fontFamily,
    address: row.address,
    applyToNew: row.applyToNew,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The account's brand kit, or the defaults (with `updatedAt` null) before it saves one. */
export async function brandKitOf(db: Db, userId: string): Promise<BrandKit> {
  const row = await repo.findBrandKit(db, userId);
  return row ? toBrandKit(row) : { ...BRAND_KIT_DEFAULTS, updatedAt: null };
}

/**
 * Saves the kit. Its words become blocks of new campaigns, so a merge tag in them must be one a
 * campaign's save accepts (else every campaign started from the kit would fail to save).
 */
export async function saveBrandKit(db: Db, userId: string, body: BrandKitBody): Promise<BrandKit> {
  for (const [field, text] of [
    ['address', body.address],
    ['logoAlt', body.logoAlt],
  ] as const) {
    const unknown = unknownMergeTags(text);
    if (unknown.length > 0) {
      const message = `Unknown merge tag ${unknown.map((t) => `{{${t}}}`).join(', ')}`;
      throw new AppError('bad_request', message, { [field]: message });
    }
  }
  return toBrandKit(await repo.upsertBrandKit(db, userId, body));
}
