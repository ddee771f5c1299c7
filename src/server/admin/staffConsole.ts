/**
 * `/clearing/admin/*`: the staff console, a separate server-rendered page rather than the customer
 * app, so the app's full-page reload to this path never loops (DECISIONS). Only staff reach it:
 * signed out → the sign-in page, anyone else → 403.
 *
 * Pages: the registrations awaiting review and recent decisions; one registration as submitted
 * (prompts next to answers, documents by prompt with ID images previewed inline, sensitive
 * identifiers masked until revealed); Approve (after a confirmation naming the applicant),
 * Request changes and Reject. Its forms are plain HTML posts carrying the CSRF token in a hidden field, checked here
 * against the `csrf_token` cookie (the API's header check does not reach these paths).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_COOKIE } from '../../shared/api/http';
import { SIGN_IN_NOTICE_PARAM, type SignInNotice } from '../../shared/api/signInNotices';
import { isUuid } from '../auth/apiSchemas';
import { safeEqual } from '../auth/tokens';
import { findRegistrationDocument, getRegistration, listRegistrations } from '../db/adminQueries';
import { recordAuditEvent } from '../audit/recordAuditEvent';
import { registrationAuditEvents } from '../audit/registrationAuditEvents';
import { findUserRowById } from '../db/users';
import { ClientError } from '../errors';
import { readDocument, readDocumentPreview } from '../storage/documentStore';
import { firm } from '../../shared/config/firm';
import {
  approveConfirmPage,
  CONSOLE_BASE,
  CONSOLE_CSS,
  CONSOLE_CSS_PATH,
  CSRF_FIELD,
  detailPage,
  listPage,
  messagePage,
  PREVIEWABLE_IMAGES,
  PREVIEWED_AS_JPEG,
} from './consoleHtml';
import { decideRegistration, requestChanges, type ReviewDeps } from './review';
import { evidencePackage } from '../signatures/evidencePackage';
import { evidenceSection } from '../signatures/evidenceHtml';
import { listSignatureEvidence } from '../signatures/signatureEvidence';
import { documentPrompts, registrationView, sensitivePointers } from './registrationView';

export { escapeHtml } from './consoleHtml';

export const SIGN_IN_REDIRECT = `/clearing/signin?${SIGN_IN_NOTICE_PARAM}=${'signin-required' satisfies SignInNotice}`;

const FORM_TYPE = 'application/x-www-form-urlencoded';

/** The notice after a post/redirect/get, by the `decided` query value. */
const DECIDED_NOTICES: Record<string, string> = {
  approved: 'Registration approved. The applicant was emailed.',
  rejected: 'Registration rejected. The applicant was emailed the reason.',
  changes_requested: 'Changes requested. The applicant was emailed what to change.',
};

interface Staff {
  id: string;
  email: string;
}

const staffOf = new WeakMap<FastifyRequest, Staff>();

function html(reply: FastifyReply, code: number, body: string) {
  return reply
    .code(code)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(body);
}

/** The console's 404 page, saying what was not found. */
function notFound(request: FastifyRequest, reply: FastifyReply, what: string) {
  return html(reply, 404, messagePage('Not found', what, staffOf.get(request)!.email));
}

/** RFC 6266 attachment header: an ASCII fallback name plus the UTF-8 original. */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export async function registerStaffConsole(app: FastifyInstance): Promise<void> {
  // Public: the stylesheet holds nothing but styles.
  app.get(CONSOLE_CSS_PATH, async (_request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(CONSOLE_CSS),
  );
  await app.register(consolePages);
}

async function consolePages(app: FastifyInstance): Promise<void> {
  if (!app.hasContentTypeParser(FORM_TYPE)) {
    app.addContentTypeParser(
      FORM_TYPE,
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_request, text, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(text))));
      },
    );
  }

  app.addHook('onRequest', async (request, reply) => {
    const userId = await request.sessionUserId();
    if (!userId) return reply.redirect(SIGN_IN_REDIRECT);
    const user = await findUserRowById(app.db, userId);
    if (!user) return reply.redirect(SIGN_IN_REDIRECT);
    if (!user.is_staff) {
      // Not a link back here (it would loop): a customer who lands here wants the customer site.
      return html(
        reply,
        403,
        messagePage('Staff only', 'This console is for staff only.', undefined, {
          href: '/clearing/home',
          text: `Go to the ${firm.displayName} customer site`,
        }),
      );
    }
    staffOf.set(request, { id: user.id, email: user.email });
  });

  // Form posts: same-origin and carrying the CSRF token of this browser's cookie.
  app.addHook('preHandler', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    const origin = request.headers.origin;
    const sameOrigin = !origin || safeHost(origin) === request.headers.host;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const token = body[CSRF_FIELD];
    const cookie = request.cookies[CSRF_COOKIE];
    if (!sameOrigin || typeof token !== 'string' || !cookie || !safeEqual(token, cookie)) {
      return html(
        reply,
        403,
        messagePage(
          'Session check failed',
          'Your session check failed. Reload the page and try again.',
          staffOf.get(request)?.email,
        ),
      );
    }
  });

  app.setErrorHandler(async (error, request, reply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) request.log.error({ err: error }, 'staff console failed');
    const message =
      error instanceof ClientError || status < 500
        ? error instanceof Error
          ? error.message
          : 'The request could not be handled.'
        : 'Something went wrong. Please try again.';
    return html(reply, status, messagePage('Error', message, staffOf.get(request)?.email));
  });

  const staff = (request: FastifyRequest) => staffOf.get(request)!;
  const reviewDeps = (request: FastifyRequest): ReviewDeps => ({
    pool: app.db,
    mailer: app.mailer,
    publicUrl: app.config.publicUrl,
    onMailError: (error) => request.log.error({ err: error }, 'applicant email failed'),
    forms: app.forms,
    fieldKeys: app.fieldKeys,
  });

  app.get(CONSOLE_BASE, async (request, reply) => {
    const all = await listRegistrations(app.db, { limit: 200 });
    // A resubmitted registration awaits review again, beside those submitted once.
    const pending = all.filter((r) => r.status === 'pending' || r.status === 'resubmitted');
    const waiting = all.filter((r) => r.status === 'changes_requested');
    const decided = all
      .filter((r) => r.status === 'approved' || r.status === 'rejected')
      .slice(0, 50);
    return html(reply, 200, listPage(pending, decided, staff(request).email, waiting));
  });

  const showRegistration = async (
    request: FastifyRequest,
    reply: FastifyReply,
    registrationId: string,
    options: { reveal?: string; notice?: string; error?: string; code?: number } = {},
  ) => {
    const registration = isUuid(registrationId)
      ? await getRegistration(app.db, registrationId, app.fieldKeys)
      : null;
    if (!registration) {
      return notFound(request, reply, 'No such registration.');
    }
    let revealed = new Set<string>();
    if (options.reveal && registration.unreadable) {
      // The key of its sensitive answers is missing: nothing to reveal, and say why.
      request.log.warn({ registrationId }, 'sensitive answers cannot be decrypted');
      return html(
        reply,
        503,
        messagePage('Not revealed', registration.unreadable, staff(request).email),
      );
    }
    if (options.reveal) {
      const sensitive = sensitivePointers(
        registrationView(app.forms.get(registration.formId), registration.payload),
      );
      if (!sensitive.has(options.reveal)) {
        return html(
          reply,
          400,
          messagePage('Not revealed', 'That answer cannot be revealed.', staff(request).email),
        );
      }
      revealed = new Set([options.reveal]);
      await recordAuditEvent(app.db, {
        action: 'registration.revealed',
        actorUserId: staff(request).id,
        subjectUserId: registration.userId,
        registrationId,
        detail: { field: options.reveal },
      });
    } else {
      await recordAuditEvent(app.db, {
        action: 'registration.viewed',
        actorUserId: staff(request).id,
        subjectUserId: registration.userId,
        registrationId,
      });
    }
    const sections = registrationView(
      app.forms.get(registration.formId),
      registration.payload,
      revealed,
    );
    return html(
      reply,
      options.code ?? 200,
      detailPage({
        registration,
        sections,
        documentPrompts: documentPrompts(sections),
        csrfToken: request.cookies[CSRF_COOKIE] ?? '',
        signedInAs: staff(request).email,
        notice: options.notice,
        error: options.error ?? registration.unreadable ?? undefined,
        auditEvents: await registrationAuditEvents(app.db, registrationId),
        extra: evidenceSection(
          CONSOLE_BASE,
          registration.registrationId,
          await listSignatureEvidence(app.db, registration.registrationId),
        ),
      }),
    );
  };

  app.get<{ Params: { id: string }; Querystring: { decided?: string } }>(
    `${CONSOLE_BASE}/registrations/:id`,
    async (request, reply) => {
      const decided = request.query.decided ?? '';
      const notice = Object.hasOwn(DECIDED_NOTICES, decided) ? DECIDED_NOTICES[decided] : undefined;
      return showRegistration(request, reply, request.params.id, { notice });
    },
  );

  // Approve asks first, naming the applicant (the detail page's Approve button leads here).
  app.get<{ Params: { id: string } }>(
    `${CONSOLE_BASE}/registrations/:id/approve`,
    async (request, reply) => {
      const registration = isUuid(request.params.id)
        ? await getRegistration(app.db, request.params.id, app.fieldKeys)
        : null;
      if (!registration) {
        return notFound(request, reply, 'No such registration.');
      }
      if (!['pending', 'resubmitted', 'changes_requested'].includes(registration.status)) {
        return reply.redirect(`${CONSOLE_BASE}/registrations/${registration.registrationId}`, 303);
      }
      return html(
        reply,
        200,
        approveConfirmPage({
          registration,
          csrfToken: request.cookies[CSRF_COOKIE] ?? '',
          signedInAs: staff(request).email,
        }),
      );
    },
  );

  app.post<{ Params: { id: string }; Body: Record<string, string | undefined> }>(
    `${CONSOLE_BASE}/registrations/:id/changes`,
    async (request, reply) => {
      const { id } = request.params;
      if (!isUuid(id)) {
        return notFound(request, reply, 'No such registration.');
      }
      try {
        await requestChanges(
          reviewDeps(request),
          { registrationId: id, note: request.body.note },
          { userId: staff(request).id, via: 'console' },
        );
        return reply.redirect(`${CONSOLE_BASE}/registrations/${id}?decided=changes_requested`, 303);
      } catch (error) {
        if (error instanceof ClientError && error.statusCode !== 404) {
          return showRegistration(request, reply, id, {
            error: error.message,
            code: error.statusCode,
          });
        }
        throw error;
      }
    },
  );

  app.post<{ Params: { id: string }; Body: Record<string, string | undefined> }>(
    `${CONSOLE_BASE}/registrations/:id/reveal`,
    async (request, reply) =>
      showRegistration(request, reply, request.params.id, { reveal: request.body.field ?? '' }),
  );

  app.post<{ Params: { id: string }; Body: Record<string, string | undefined> }>(
    `${CONSOLE_BASE}/registrations/:id/decision`,
    async (request, reply) => {
      const { id } = request.params;
      const decision = request.body.decision;
      if (!isUuid(id) || (decision !== 'approve' && decision !== 'reject')) {
        return html(
          reply,
          400,
          messagePage('Not decided', 'Choose Approve or Reject.', staff(request).email),
        );
      }
      // An approval counts only from the confirmation page, which names the applicant.
      if (decision === 'approve' && request.body.confirmed !== id) {
        return reply.redirect(`${CONSOLE_BASE}/registrations/${id}/approve`, 303);
      }
      try {
        const { status } = await decideRegistration(
          reviewDeps(request),
          { registrationId: id, approved: decision === 'approve', reason: request.body.reason },
          { userId: staff(request).id, via: 'console' },
        );
        // Post/redirect/get: a reload does not post the decision again.
        return reply.redirect(`${CONSOLE_BASE}/registrations/${id}?decided=${status}`, 303);
      } catch (error) {
        if (error instanceof ClientError && error.statusCode !== 404) {
          return showRegistration(request, reply, id, {
            error: error.message,
            code: error.statusCode,
          });
        }
        throw error;
      }
    },
  );

  app.get<{ Params: { id: string }; Querystring: { inline?: string } }>(
    `${CONSOLE_BASE}/documents/:id`,
    async (request, reply) => {
      const document = isUuid(request.params.id)
        ? await findRegistrationDocument(app.db, request.params.id)
        : null;
      if (!document) {
        return notFound(request, reply, 'No such document.');
      }
      // A HEIC photo previews as the JPEG rendition made at upload; its download is the original.
      const rendition =
        request.query.inline === '1' && PREVIEWED_AS_JPEG.has(document.contentType)
          ? await readDocumentPreview(app.db, document.storageName)
          : null;
      const bytes =
        rendition ?? (await readDocument(app.db, app.config.dataDir, document.storageName));
      if (!bytes) {
        return notFound(request, reply, 'The file of this document is missing.');
      }
      // An ID image may be previewed inline: images only (decoded as images when uploaded; an
      // image cannot run script), with the type stored, never sniffed. Everything else, PDFs
      // included, goes back as an attachment (FACTS), never rendered in the portal's origin.
      const inline =
        rendition !== null ||
        (request.query.inline === '1' && PREVIEWABLE_IMAGES.has(document.contentType));
      await recordAuditEvent(app.db, {
        action: 'registration.document-downloaded',
        actorUserId: staff(request).id,
        subjectUserId: document.userId,
        registrationId: document.registrationId,
        detail: {
          documentId: request.params.id,
          ...(inline ? { inline: true } : {}),
        },
      });
      return reply
        .header(
          'content-disposition',
          inline ? 'inline' : attachmentDisposition(document.originalName),
        )
        .header('cache-control', 'no-store')
        .type(rendition ? 'image/jpeg' : document.contentType)
        .send(bytes);
    },
  );

  // The signed documents with their evidence, one reproducible ZIP (signatures/evidencePackage).
  app.get<{ Params: { id: string } }>(
    `${CONSOLE_BASE}/registrations/:id/evidence.zip`,
    async (request, reply) => {
      const registration = isUuid(request.params.id)
        ? await getRegistration(app.db, request.params.id, app.fieldKeys)
        : null;
      if (!registration) return notFound(request, reply, 'No such registration.');
      const evidence = await listSignatureEvidence(app.db, registration.registrationId);
      const zip = await evidencePackage(registration, evidence, async (documentId) => {
        const document = await findRegistrationDocument(app.db, documentId);
        return document ? readDocument(app.db, app.config.dataDir, document.storageName) : null;
      });
      await recordAuditEvent(app.db, {
        action: 'registration.document-downloaded',
        actorUserId: staff(request).id,
        subjectUserId: registration.userId,
        registrationId: registration.registrationId,
        detail: { evidencePackage: true },
      });
      return reply
        .header(
          'content-disposition',
          attachmentDisposition(`signature-evidence-${registration.clearingOrgId}.zip`),
        )
        .header('cache-control', 'no-store')
        .type('application/zip')
        .send(zip);
    },
  );

  // Anything else under the console: a 404 page (after the staff check, so nothing leaks).
  app.all(`${CONSOLE_BASE}/*`, async (request, reply) =>
    notFound(request, reply, 'There is no such page.'),
  );
}

function safeHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}
