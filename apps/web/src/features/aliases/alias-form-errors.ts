import { createAliasBodySchema, type CreateAliasBody } from '@sendwell/contract/aliases';

export type AliasFormErrors = Partial<Record<'alias' | 'destination' | 'autoReplyMessage' | 'description', string>>;

/**
 * The first message per field of the create-alias form, with the contract's §5 texts. The body's
 * cross-field checks (destination, auto-reply message) run only once every field parses, so they
 * are also run with a placeholder alias: the user then sees every mistake at once.
 */
export function aliasFormErrors(body: CreateAliasBody): AliasFormErrors {
  const errors: AliasFormErrors = {};
  for (const candidate of [body, { ...body, alias: 'x' }]) {
    const parsed = createAliasBodySchema.safeParse(candidate);
    if (parsed.success) continue;
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field === 'alias' || field === 'destination' || field === 'autoReplyMessage' || field === 'description')
        errors[field] ??= issue.message;
    }
  }
  return errors;
}
