import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tokenQuerySchema } from '@sendwell/contract/common';
import { formSlugParamsSchema } from '@sendwell/contract/leads';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { PAGE_STYLES, escapeHtml } from '../../lib/confirmation-link.ts';
import * as forms from './lead-forms.service.ts';
import { leadFormConfirmationJob } from './leads.jobs.ts';

/**
 * Route table (guard → route):
 *   public  GET   /f/:slug                 the hosted form: email, first and last name, company, consent text
 *   public  POST  /f/:slug                 its submission (form-encoded; cross-site allowed; per-IP limit)
 *   public  GET   /f/:slug/confirm?token   the double opt-in link's page: says what it confirms, changes nothing
 *   public  POST  /f/:slug/confirm?token   confirms: the lead is stored with its consent record
 */
export const leadFormRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  // Hosted forms post application/x-www-form-urlencoded; fields arrive as strings (the first of a repeated one).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_r, body, done) => {
      const fields: Record<string, string> = {};
      for (const [key, value] of new URLSearchParams(String(body))) fields[key] ??= value;
      done(null, fields);
    },
  );

  const html = (reply: FastifyReply, status: number, page: string) =>
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'same-origin')
      .send(page);

  app.get('/f/:slug', { guard: 'public', schema: { params: formSlugParamsSchema } }, async (request, reply) => {
    const page = await formOr404(ctx, request.params.slug);
    return html(reply, page.status, page.html);
  });

  app.post(
    '/f/:slug',
    {
      guard: 'public',
      config: { rateLimit: { max: ctx.config.leadFormRateLimitPerMinute, timeWindow: 60_000 } },
      schema: { params: formSlugParamsSchema },
    },
    async (request, reply) => {
      const body = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
      let outcome: forms.SubmitOutcome;
      try {
        outcome = await forms.submitForm(ctx, request.params.slug, body, request.ip, async (submissionId) => {
          await leadFormConfirmationJob.enqueue(ctx.queue, { submissionId });
        });
      } catch (error) {
        if (error instanceof AppError && error.code === 'not_found') return html(reply, 404, closedPage());
        throw error;
      }
      switch (outcome.kind) {
        case 'invalid':
          return html(reply, 400, formPage(outcome.form, outcome.values, outcome.fields));
        case 'check-inbox':
          return html(
            reply,
            200,
            messagePage('Check your inbox', [
              `We sent a link to ${outcome.email}. Follow it to confirm your subscription to ${outcome.form.name}.`,
              'Nothing is sent to you until you confirm.',
            ]),
          );
        case 'subscribed':
          return html(
            reply,
            200,
            messagePage('You are subscribed', [`Thank you for subscribing to ${outcome.form.name}.`]),
          );
        case 'unconfirmed-account':
          return html(reply, 403, messagePage('This form is not sending yet', [forms.FORM_ACCOUNT_UNCONFIRMED]));
        case 'capped':
          return html(reply, 429, messagePage('Please try again later', [forms.FORM_CAPPED]));
      }
    },
  );

  const confirm = async (
    request: { params: { slug: string }; query: { token: string }; method: string },
    reply: FastifyReply,
  ) => {
    const { state, email, form } = await forms.confirmFormSubmission(
      ctx,
      request.params.slug,
      request.query.token,
      request.method === 'POST',
    );
    const address = email ?? 'your address';
    const name = form?.name ?? 'this list';
    switch (state) {
      case 'ready':
        return html(
          reply,
          200,
          messagePage(
            'Confirm your subscription',
            [`Confirm that ${address} subscribes to ${name}.`, `You agreed to: ${form?.consentText ?? ''}`],
            {
              action: `/f/${request.params.slug}/confirm?token=${encodeURIComponent(request.query.token)}`,
              button: 'Yes, subscribe me',
            },
          ),
        );
      case 'confirmed':
      case 'already':
        return html(
          reply,
          200,
          messagePage('Subscription confirmed', [`${address} is subscribed to ${name}. Thank you.`]),
        );
      case 'expired':
        return html(
          reply,
          410,
          messagePage('This link has expired', [
            'Confirmation links work for 48 hours. Fill in the form again for a new one.',
          ]),
        );
      case 'invalid':
        return html(
          reply,
          400,
          messagePage('This link is not valid', [
            'The link may have been cut short or changed. Open it again from the email.',
          ]),
        );
    }
  };
  // The confirmation page's button posts an empty form; nothing in it is read.
  const confirmRoute = {
    guard: 'public' as const,
    schema: { params: formSlugParamsSchema, querystring: tokenQuerySchema },
  };
  app.get('/f/:slug/confirm', confirmRoute, confirm);
  app.post('/f/:slug/confirm', confirmRoute, confirm);
};

async function formOr404(ctx: AppContext, slug: string): Promise<{ status: number; html: string }> {
  try {
    const { form } = await forms.publicForm(ctx.db, slug);
    return { status: 200, html: formPage(form, {}, {}) };
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return { status: 404, html: closedPage() };
    throw error;
  }
}

const FORM_STYLES =
  'label{display:block;margin:0 0 14px;font-weight:600}' +
  'input{display:block;width:100%;margin-top:6px;padding:10px 12px;border:1px solid var(--border);border-radius:8px;background:var(--card);color:var(--fg);font:inherit}' +
  'input:focus-visible{outline:3px solid var(--focus);outline-offset:1px}' +
  '.error{color:#b91c1c;font-weight:400;font-size:14px;margin-top:4px;display:block}' +
  '@media (prefers-color-scheme:dark){.error{color:#fca5a5}}' +
  '.consent{font-size:14px;color:var(--muted)}' +
  '.trap{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}';

function shell(title: string, body: string): string {
  return (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">' +
    `<title>${escapeHtml(title)}</title><style>${PAGE_STYLES}${FORM_STYLES}</style></head>` +
    `<body><main>${body}</main></body></html>`
  );
}

/** The hosted form, with the values and field errors of a refused submission. */
function formPage(form: forms.PublicForm, values: Record<string, string>, errors: Record<string, string>): string {
  const field = (name: string, label: string, type: string, extra = '') => {
    const error = errors[name];
    const id = `f-${name}`;
    return (
      `<label for="${id}">${escapeHtml(label)}<input id="${id}" name="${name}" type="${type}" value="${escapeHtml(values[name] ?? '')}"${extra}` +
      `${error ? ` aria-invalid="true" aria-describedby="${id}-error"` : ''}>` +
      `${error ? `<span class="error" id="${id}-error">${escapeHtml(error)}</span>` : ''}</label>`
    );
  };
  return shell(
    form.name,
    `<h1>${escapeHtml(form.name)}</h1>` +
      `<form method="post" action="/f/${escapeHtml(form.slug)}" novalidate>` +
      field('email', 'Email', 'email', ' required autocomplete="email"') +
      field('firstName', 'First name', 'text', ' autocomplete="given-name"') +
      field('lastName', 'Last name', 'text', ' autocomplete="family-name"') +
      field('company', 'Company', 'text', ' autocomplete="organization"') +
      // The honeypot: hidden from people and screen readers; a bot that fills it is ignored.
      '<div class="trap" aria-hidden="true"><label for="f-website">Website<input id="f-website" name="website" type="text" tabindex="-1" autocomplete="off"></label></div>' +
      `<p class="consent">${escapeHtml(form.consentText)}</p>` +
      `<button type="submit">Subscribe</button></form>`,
  );
}

function messagePage(title: string, paragraphs: string[], form?: { action: string; button: string }): string {
  return shell(
    title,
    `<h1>${escapeHtml(title)}</h1>${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}` +
      (form
        ? `<form method="post" action="${escapeHtml(form.action)}"><button type="submit">${escapeHtml(form.button)}</button></form>`
        : ''),
  );
}

function closedPage(): string {
  return messagePage('Form not found', [forms.FORM_NOT_FOUND + '.']);
}
