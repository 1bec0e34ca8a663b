import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  NO_DESTINATION_SET,
  type AliasTestResult,
  type TestAliasBody,
  type testForwardingBodySchema,
} from '@sendwell/contract/aliases';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import type { UserRow } from '../auth/index.ts';
import * as aliases from '../aliases/index.ts';
import { receiveInbound } from './pipeline.ts';

/**
 * POST /api/test-alias and /api/test-forwarding: a real message through the same pipeline as mail
 * from outside (parsed, stored, routed by the alias's rules and type, forwarded by the jobs to
 * confirmed addresses only), answered with what happened. The envelope sender is the account's own
 * address, so an auto-reply the test triggers goes to the account, never to a typed address.
 */

const ALIAS_NOT_FOUND = 'Alias not found';

const mailDate = (date: Date) => date.toUTCString().replace(/GMT$/, '+0000');
const headerSafe = (value: string) => value.replace(/[\r\n]+/g, ' ');

function testMessage(input: { from: string; to: string; subject: string; text: string; domain: string }): {
  raw: Buffer;
  messageId: string;
} {
  const messageId = `<test-${randomUUID()}@${input.domain}>`;
  const raw = [
    `From: ${headerSafe(input.from)}`,
    `To: ${headerSafe(input.to)}`,
    `Subject: ${headerSafe(input.subject)}`,
    `Message-ID: ${messageId}`,
    `Date: ${mailDate(new Date())}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    'X-Sendwell-Test: yes',
    '',
    input.text.replace(/\r?\n/g, '\r\n'),
    '',
  ].join('\r\n');
  return { raw: Buffer.from(raw, 'utf8'), messageId };
}

async function runTest(
  ctx: AppContext,
  account: Pick<UserRow, 'id' | 'email'>,
  alias: aliases.AliasWithDomain,
  message: { from: string; subject: string; text: string },
): Promise<AliasTestResult> {
  if (!(await aliases.aliasHasDestination(ctx.db, alias))) throw new AppError('bad_request', NO_DESTINATION_SET);
  const address = aliases.addressOf(alias);
  const { raw, messageId } = testMessage({ ...message, to: address, domain: alias.domainName });
  const result = await receiveInbound(ctx, {
    raw,
    envelope: { mailFrom: account.email, rcptTo: [address] },
    via: 'test',
    userId: account.id,
    isTest: true,
  });
  const decision = result.recipients.find((r) => r.aliasId === alias.id)?.decision;
  if (!decision)
    throw new AppError(
      'bad_request',
      `${address} did not take the test message (is the alias active and its domain verified?)`,
    );
  return {
    messageId,
    outcome: decision.outcome,
    forwardedTo: decision.forwardTo,
    skippedUnconfirmed: decision.skippedUnconfirmed,
    rule: decision.rule,
    blocked: decision.blocked,
    autoReplied: decision.autoReply !== null,
    detail: decision.detail,
  };
}

/** POST /api/test-alias: a test message to the alias (404 for another account's alias). */
export async function testAlias(
  ctx: AppContext,
  account: Pick<UserRow, 'id' | 'email'>,
  body: TestAliasBody,
): Promise<AliasTestResult> {
  const alias = await aliases.ownAlias(ctx.db, account.id, body.aliasId);
  if (!alias) throw new AppError('not_found', ALIAS_NOT_FOUND);
  const address = aliases.addressOf(alias);
  return runTest(ctx, account, alias, {
    from: account.email,
    subject: `Test message to ${address}`,
    text: `This is a test message sent to ${address} from Sendwell to check its forwarding.`,
  });
}

/** POST /api/test-forwarding: a message as if from `fromEmail`, with its subject and content. */
export async function testForwarding(
  ctx: AppContext,
  account: Pick<UserRow, 'id' | 'email'>,
  body: z.output<typeof testForwardingBodySchema>,
): Promise<AliasTestResult> {
  const alias =
    body.aliasId !== undefined
      ? await aliases.ownAlias(ctx.db, account.id, body.aliasId)
      : await aliases.aliasForAddress(ctx.db, body.alias.trim().toLowerCase(), account.id);
  if (!alias) throw new AppError('not_found', ALIAS_NOT_FOUND);
  return runTest(ctx, account, alias, {
    from: body.fromEmail,
    subject: body.subject ?? 'Test forwarding',
    text: body.content ?? '',
  });
}
