import type { DbOrTx } from '../../db/client.ts';
import * as repo from './suppressions.repo.ts';

/**
 * The suppression list every sending feature honours: addresses that unsubscribed, bounced hard or
 * complained are never mailed again by that account.
 */
export const isSuppressed = (db: DbOrTx, userId: string, email: string) => repo.isSuppressed(db, userId, email);

export const suppress = (db: DbOrTx, userId: string, email: string, reason: 'bounce' | 'complaint' | 'unsubscribe') =>
  repo.addSuppression(db, userId, email, reason);
