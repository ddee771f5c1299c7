/**
 * `/clearing/admin/*`: the staff console, a separate server-rendered page rather than the customer
 * app, so the app's full-page reload to this path never loops (docs/decisions.md, The standalone
 * portal). Only staff reach it: signed out → the sign-in page, anyone else → 403.
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
import { isUuid } from '../../shared/api/http';
import { safeEqual } from '../auth/tokens';
import {
  countRegistrationsByStatus,
  findRegistrationDocument,
  listRegistrations,
} from '../db/adminQueries';
import { decodeCursor, pageOf, type CursorShape } from '../pagination';
import { recordAuditEvent } from '../audit/recordAuditEvent';
import { registrationAuditEvents } from '../audit/registrationAuditEvents';
import { ClientError } from '../errors';
import { readDocumentPreview } from '../db/documents';
import { readDocument } from '../storage/documentStore';
import { firm } from '../../shared/config/firm';
import {
  CONSOLE_BASE,
  CONSOLE_CSS,
  CONSOLE_CSS_PATH,
  CONSOLE_JS,
  CONSOLE_JS_PATH,
} from './console/consoleAssets';
import { CSRF_FIELD, type ConsoleRegistration } from './console/consoleParts';
import { renderApprovePage, renderRejectPage } from './console/ConfirmDecisionPage';
import { renderDetailPage } from './console/DetailPage';
import { CONSOLE_SECTIONS, renderListPage, type ConsoleSection } from './console/ListPage';
import { renderMessagePage } from './console/MessagePage';
import {
  MARK_FIELD,
  MARK_NOTE_PREFIX,
  PREVIEWABLE_IMAGES,
  PREVIEWED_AS_JPEG,
} from './RegistrationAnswers';
import { AWAITING_REVIEW, decideRegistration, OPEN_FOR_DECISION, requestChanges } from './review';
import { ownOrganizationRefusal } from './ownOrganization';
import { evidencePackage } from '../signatures/evidencePackage';
import { listRegistrationVersions } from '../registration/registrationVersions';
import { formOfVersion } from '../forms';
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import { versionDiff, type VersionSide } from '../../shared/forms/review/versionDiff';
import type { ShownVersion } from './RegistrationVersions';
import { listSignatureEvidence } from '../db/signatureEvidence';
import { findChangeRequest } from '../db/registrations';
import type { AdminRegistrationSummary } from '../../shared/api/admin';
import { standaloneNames } from '../../shared/forms/review/reviewRows';
import {
  documentTitles,
  registrationReview,
  sensitiveRows,
  type RegistrationReview,
  readRegistrationDetail,
  type RegistrationDetail,
} from './registrationView';
import { lookUpStaffRequestUser, reviewDepsOf, staffOf } from './staffRequest';

const SIGN_IN_REDIRECT = `/clearing/signin?${SIGN_IN_NOTICE_PARAM}=${'signin-required' satisfies SignInNotice}`;

const FORM_TYPE = 'application/x-www-form-urlencoded';

/** The notice after a post/redirect/get, by the `decided` query value. */
const DECIDED_NOTICES: Record<string, string> = {
  approved: 'Registration approved. The applicant was emailed.',
  rejected: 'Registration rejected. The applicant was emailed the reason.',
  changes_requested: 'Changes requested. The applicant was emailed what to change.',
};

function html(reply: FastifyReply, code: number, body: string) {
  return reply
    .code(code)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(body);
}

/** The console's 404 page, saying what was not found. */
function notFound(request: FastifyRequest, reply: FastifyReply, what: string) {
  return html(reply, 404, renderMessagePage('Not found', what, staffOf(request)!.email));
}

/** RFC 6266 attachment header: an ASCII fallback name plus the UTF-8 original. */
function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * The marks of a request-changes post: each answer marked (its checkbox) or given a note, by
 * pointer in page order, with its note (trimmed; '' when none).
 */
function markedFields(body: Record<string, unknown>): { path: string; note: string }[] {
  const marks = body[MARK_FIELD];
  const paths = new Set(
    (Array.isArray(marks) ? marks : [marks]).filter(
      (path): path is string => typeof path === 'string' && path !== '',
    ),
  );
  for (const [name, value] of Object.entries(body)) {
    if (name.startsWith(MARK_NOTE_PREFIX) && typeof value === 'string' && value.trim()) {
      paths.add(name.slice(MARK_NOTE_PREFIX.length));
    }
  }
  return [...paths].map((path) => {
    const note = body[`${MARK_NOTE_PREFIX}${path}`];
    return { path, note: typeof note === 'string' ? note.trim() : '' };
  });
}

/** The request asks for JSON (the console's script), not a page. */
const wantsJson = (request: FastifyRequest) =>
  (request.headers.accept ?? '').includes('application/json');

/** Rows per page of each section of the console's list. */
const CONSOLE_PAGE = 50;
/** A section's cursor: the registration's place in the queue (db/adminQueries.ts). */
const CONSOLE_CURSOR: CursorShape = {
  list: 'console-registrations',
  parts: ['int', 'int', 'uuid'],
};

export async function registerStaffConsole(app: FastifyInstance): Promise<void> {
  // Public: the stylesheet and the script hold nothing but styles and code.
  app.get(CONSOLE_CSS_PATH, { config: { sharedCache: true } }, async (_request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(CONSOLE_CSS),
  );
  app.get(CONSOLE_JS_PATH, { config: { sharedCache: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(CONSOLE_JS),
  );
  await app.register(consolePages);
}

async function consolePages(app: FastifyInstance): Promise<void> {
  if (!app.hasContentTypeParser(FORM_TYPE)) {
    app.addContentTypeParser(
      FORM_TYPE,
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_request, text, done) => {
        const params = new URLSearchParams(String(text));
        // One value per field, but every mark of a request for changes.
        done(null, { ...Object.fromEntries(params), [MARK_FIELD]: params.getAll(MARK_FIELD) });
      },
    );
  }

  app.addHook('onRequest', async (request, reply) => {
    const user = await lookUpStaffRequestUser(app, request);
    if (!user) return reply.redirect(SIGN_IN_REDIRECT);
    if (!user.isStaff) {
      // Not a link back here (it would loop): a customer who lands here wants the customer site.
      return html(
        reply,
        403,
        renderMessagePage('Staff only', 'This console is for staff only.', undefined, {
          href: '/clearing/home',
          text: `Go to the ${firm.displayName} customer site`,
        }),
      );
    }
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
      if (wantsJson(request)) {
        return reply.code(403).send({
          errorMessage: 'Your session check failed. Reload the page and try again.',
        });
      }
      return html(
        reply,
        403,
        renderMessagePage(
          'Session check failed',
          'Your session check failed. Reload the page and try again.',
          staffOf(request)?.email,
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
    return html(reply, status, renderMessagePage('Error', message, staffOf(request)?.email));
  });

  const staff = (request: FastifyRequest) => staffOf(request)!;

  // A business registration is listed by the business's name (its form says it registers one).
  const forQueue = (r: AdminRegistrationSummary): ConsoleRegistration => ({
    ...r,
    business: app.forms.get(r.formId)?.registration?.organizationKind === 'business',
  });

  // Each section of the list is paged on its own (issue 40 §6): a queue longer than a page is
  // never cut off without a word; its heading counts the whole queue.
  app.get<{ Querystring: Partial<Record<ConsoleSection, string>> }>(
    CONSOLE_BASE,
    async (request, reply) => {
      const query = request.query;
      const section = async (name: ConsoleSection) => {
        const rows = await listRegistrations(app.db, {
          statuses: CONSOLE_SECTIONS[name],
          limit: CONSOLE_PAGE + 1,
          after: decodeCursor(CONSOLE_CURSOR, query[name]),
        });
        const page = pageOf(
          rows,
          CONSOLE_PAGE,
          CONSOLE_CURSOR,
          (row) => row.key,
          (row) => forQueue(row.item),
        );
        return { rows: page.data, next: page.nextCursor, paged: query[name] !== undefined };
      };
      const [awaiting, waiting, decided, counts] = await Promise.all([
        section('awaiting'),
        section('waiting'),
        section('decided'),
        countRegistrationsByStatus(app.db),
      ]);
      const total = (name: ConsoleSection) =>
        CONSOLE_SECTIONS[name].reduce((sum, status) => sum + (counts[status] ?? 0), 0);
      return html(
        reply,
        200,
        renderListPage({
          awaiting: { ...awaiting, total: total('awaiting') },
          waiting: { ...waiting, total: total('waiting') },
          decided: { ...decided, total: total('decided') },
          query: Object.fromEntries(
            Object.entries(query).filter(
              (entry): entry is [ConsoleSection, string] =>
                entry[0] in CONSOLE_SECTIONS && typeof entry[1] === 'string',
            ),
          ),
          signedInAs: staff(request).email,
        }),
      );
    },
  );

  /** The review of a registration drawn by its form, or a sentence saying why it cannot be. */
  const reviewOf = (
    request: FastifyRequest,
    registration: RegistrationDetail,
  ): RegistrationReview | string => {
    const form = app.forms.get(registration.formId);
    if (!form) {
      return `This registration's form (${registration.formId}) is not among the forms this server serves, so its answers cannot be drawn.`;
    }
    try {
      return registrationReview(form, registration.payload);
    } catch (error) {
      request.log.error(
        { err: error, registrationId: registration.registrationId },
        'payload unreadable',
      );
      return 'The stored answers of this registration could not be read.';
    }
  };

  /**
   * The versions of a registration submitted more than once, each with what changed since the
   * one before, by the prompts that version was asked under (its schema hash's form, kept in
   * `form_versions`); the served form's prompts, said so, where that wording is not available.
   */
  const versionsOf = async (
    request: FastifyRequest,
    registration: RegistrationDetail,
    served: CompiledForm | undefined,
  ): Promise<ShownVersion[] | string> => {
    if (!served || registration.unreadable) return [];
    try {
      const versions = await listRegistrationVersions(
        app.db,
        registration.registrationId,
        app.fieldKeys,
      );
      if (versions.length < 2) return [];
      const forms = await Promise.all(
        versions.map((v) =>
          formOfVersion(app.db, served, v.schemaHash).catch((error: unknown) => {
            // A stored wording that no longer compiles: this version is drawn as the form is now.
            request.log.error({ err: error, schemaHash: v.schemaHash }, 'form version unreadable');
            return null;
          }),
        ),
      );
      const side = (index: number): VersionSide => ({
        form: forms[index] ?? served,
        answers: versions[index]!.answers,
        documents: versions[index]!.documents,
      });
      return versions.map((v, index) => {
        const unknown = [index - 1, index]
          .filter((i) => i >= 0 && !forms[i])
          .map((i) => `version ${versions[i]!.version}`);
        return {
          version: v.version,
          schemaHash: v.schemaHash,
          submittedAt: v.submittedAt,
          diff: index > 0 ? versionDiff(side(index - 1), side(index)) : undefined,
          wordingNote: unknown.length
            ? `The wording ${unknown.join(' and ')} was answered under is not available here; its prompts are shown as the form asks them now.`
            : undefined,
        };
      });
    } catch (error) {
      // A version whose key is missing, or a stored wording that no longer compiles: the page
      // still shows the registration, and says the versions could not be read.
      request.log.error(
        { err: error, registrationId: registration.registrationId },
        'versions unreadable',
      );
      return 'The earlier versions of this registration could not be read.';
    }
  };

  const findRegistration = async (id: string) =>
    isUuid(id) ? readRegistrationDetail(app.db, id, app.fieldKeys) : null;

  const showRegistration = async (
    request: FastifyRequest,
    reply: FastifyReply,
    registrationId: string,
    options: { revealed?: string; notice?: string; error?: string; code?: number } = {},
  ) => {
    const registration = await findRegistration(registrationId);
    if (!registration) {
      return notFound(request, reply, 'No such registration.');
    }
    if (!options.revealed) {
      await recordAuditEvent(app.db, {
        action: 'registration.viewed',
        actorUserId: staff(request).id,
        subjectUserId: registration.userId,
        registrationId,
      });
    }
    const form = app.forms.get(registration.formId);
    const review = reviewOf(request, registration);
    const sections = typeof review === 'string' ? [] : review.sections;
    const titles = form ? documentTitles(form, sections) : new Map<string, string>();
    const names = standaloneNames(sections);
    // Nobody decides on their own registration or their organisation's: no buttons, and why.
    const selfReview = await ownOrganizationRefusal(
      app.db,
      'registration',
      { registrationId },
      staff(request).id,
    );
    // Changes may be asked of a registration awaiting review, a resubmitted one too.
    const marking = AWAITING_REVIEW.includes(registration.status) && !selfReview;
    // Asked and not yet answered: the marks and their notes stay in view (issue 38 §5).
    const waiting = await findChangeRequest(app.db, registrationId);
    const requested = new Map<string, string>(
      (waiting?.fields ?? []).map((field) => [field.path, field.note]),
    );
    const answers = {
      consoleBase: CONSOLE_BASE,
      registrationId: registration.registrationId,
      sections,
      signatures: typeof review === 'string' ? [] : review.signatures,
      documents: registration.documents,
      documentTitles: titles,
      persons: registration.persons,
      personsKey: form?.registration?.persons,
      csrfField: CSRF_FIELD,
      csrfToken: request.cookies[CSRF_COOKIE] ?? '',
      revealed: new Set(options.revealed ? [options.revealed] : []),
      marking,
      requested,
      promptOf: (pointer: string) => names.get(pointer),
      formMissing: typeof review === 'string' ? review : undefined,
    };
    return html(
      reply,
      options.code ?? 200,
      renderDetailPage({
        registration: { ...registration, business: forQueue(registration).business },
        answers,
        versions: await versionsOf(request, registration, form),
        evidence: await listSignatureEvidence(app.db, registration.registrationId),
        promptOf: (pointer) => names.get(pointer),
        requested,
        documentTitleOf: (part) => titles.get(part),
        marking,
        selfReview,
        csrfToken: request.cookies[CSRF_COOKIE] ?? '',
        signedInAs: staff(request).email,
        notice: options.notice,
        error: options.error ?? registration.unreadable ?? undefined,
        auditEvents: await registrationAuditEvents(app.db, registrationId),
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
        ? await readRegistrationDetail(app.db, request.params.id, app.fieldKeys)
        : null;
      if (!registration) {
        return notFound(request, reply, 'No such registration.');
      }
      if (
        !OPEN_FOR_DECISION.includes(registration.status) ||
        (await ownOrganizationRefusal(
          app.db,
          'registration',
          { registrationId: registration.registrationId },
          staff(request).id,
        ))
      ) {
        // The registration's page says why it cannot be approved here.
        return reply.redirect(`${CONSOLE_BASE}/registrations/${registration.registrationId}`, 303);
      }
      return html(
        reply,
        200,
        renderApprovePage({
          registration: forQueue(registration),
          csrfToken: request.cookies[CSRF_COOKIE] ?? '',
          signedInAs: staff(request).email,
        }),
      );
    },
  );

  // Request changes: the whole-application note and every marked answer, through the same
  // function as the admin API.
  app.post<{ Params: { id: string }; Body: Record<string, unknown> }>(
    `${CONSOLE_BASE}/registrations/:id/changes`,
    async (request, reply) => {
      const { id } = request.params;
      if (!isUuid(id)) {
        return notFound(request, reply, 'No such registration.');
      }
      try {
        await requestChanges(
          reviewDepsOf(app, request),
          {
            registrationId: id,
            note: typeof request.body.note === 'string' ? request.body.note : undefined,
            fields: markedFields(request.body),
          },
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

  // Reveal one sensitive answer, audited. The console's script asks for JSON and shows it in
  // place; without the script the form post answers with the page, the answer shown.
  app.post<{ Params: { id: string }; Body: Record<string, unknown> }>(
    `${CONSOLE_BASE}/registrations/:id/reveal`,
    async (request, reply) => {
      const json = wantsJson(request);
      const refuse = (code: number, message: string) =>
        json
          ? reply.code(code).header('cache-control', 'no-store').send({ errorMessage: message })
          : html(reply, code, renderMessagePage('Not revealed', message, staff(request).email));
      const registration = await findRegistration(request.params.id);
      if (!registration) {
        return json
          ? refuse(404, 'No such registration.')
          : notFound(request, reply, 'No such registration.');
      }
      if (registration.unreadable) {
        // The key of its sensitive answers is missing: nothing to reveal, and say why.
        request.log.warn(
          { registrationId: registration.registrationId },
          'sensitive answers cannot be decrypted',
        );
        return refuse(503, registration.unreadable);
      }
      const pointer = typeof request.body.field === 'string' ? request.body.field : '';
      const review = reviewOf(request, registration);
      const row =
        typeof review === 'string' ? undefined : sensitiveRows(review.sections).get(pointer);
      if (!row) return refuse(400, 'That answer cannot be revealed.');
      await recordAuditEvent(app.db, {
        action: 'registration.revealed',
        actorUserId: staff(request).id,
        subjectUserId: registration.userId,
        registrationId: registration.registrationId,
        detail: { field: pointer },
      });
      if (json) {
        return reply
          .header('cache-control', 'no-store')
          .send({ pointer, prompt: row.prompt, text: row.text });
      }
      return showRegistration(request, reply, registration.registrationId, { revealed: pointer });
    },
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
          renderMessagePage('Not decided', 'Choose Approve or Reject.', staff(request).email),
        );
      }
      // An approval counts only from the confirmation page, which names the applicant.
      if (decision === 'approve' && request.body.confirmed !== id) {
        return reply.redirect(`${CONSOLE_BASE}/registrations/${id}/approve`, 303);
      }
      // So does a rejection: its page names the applicant and the reason they will be emailed.
      if (decision === 'reject' && request.body.confirmed !== id) {
        const reason = request.body.reason?.trim() ?? '';
        const registration = await findRegistration(id);
        if (!registration) return notFound(request, reply, 'No such registration.');
        if (!reason) {
          return showRegistration(request, reply, id, {
            error: 'Please give a reason for the rejection.',
            code: 400,
          });
        }
        return html(
          reply,
          200,
          renderRejectPage({
            registration: forQueue(registration),
            reason,
            csrfToken: request.cookies[CSRF_COOKIE] ?? '',
            signedInAs: staff(request).email,
          }),
        );
      }
      try {
        const { status } = await decideRegistration(
          reviewDepsOf(app, request),
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
      // An ID image may be previewed inline: images only (decoded as images when uploaded; an image
      // cannot run script), with the type stored, never sniffed. Everything else, PDFs included,
      // goes back as an attachment (docs/decisions.md, Upload limits), never rendered in the
      // portal's origin.
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
        ? await readRegistrationDetail(app.db, request.params.id, app.fieldKeys)
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
