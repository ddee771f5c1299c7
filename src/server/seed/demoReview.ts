/**
 * Demo data for staff review and the statement (development only, called from seedDemoData):
 * a realistic submitted registration for the customer awaiting review (with its photo ID, W-2 and
 * signed documents on disk), the approved customer's approved registration, and the approved
 * customer's statement (demoStatement.json).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import type { Statement } from '../../shared/api/statement';
import { canonicalJson } from '../../shared/forms/model/bundleForm';
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import { signedDocuments, toPayloadJson } from '../../shared/forms/payload/payload';
import type { Answers } from '../../shared/forms/model/schemaTypes';
import type { FormCatalog } from '../../shared/forms/model/compileNode';
import type { ServerConfig } from '../config';
import { recordAuditEvent } from '../audit/recordAuditEvent';
import { insertRegistration, insertRegistrationDocument } from '../db/registrations';
import { loadFieldKeys, submissionHash } from '../fieldEncryption/keyRing';
import { sealRegistration } from '../fieldEncryption/registrationSealing';
import { currentEsignConsentVersion, insertEsignConsent } from '../signatures/esignConsents';
import { recordSignatureEvidence } from '../signatures/signatureEvidence';
import { saveStatement } from '../db/statements';
import {
  backdateApprovedRegistration,
  backdateParticipantApproval,
  backdateSubmittedRegistration,
  findDemoUser,
} from '../db/demoSeed';
import type { StoredFile } from '../db/documents';

/** The business day of the demo statement. */
const DEMO_STATEMENT_AS_OF = '2026-11-20';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The demo statement of the approved customer (organisation NCF-100001). */
export function demoStatement(): Statement {
  return JSON.parse(fs.readFileSync(path.join(here, 'demoStatement.json'), 'utf8')) as Statement;
}

interface Person {
  firstName: string;
  lastName: string;
  email: string;
  dateOfBirth: string;
  ssn: string;
  phone: string;
  address: Record<string, string>;
  employerName: string;
}

/** The form the demo people registered with: the demo data are its answers. */
function individualFormOf(forms: FormCatalog): CompiledForm {
  const form = forms.get('individual');
  if (!form) throw new Error('The demo data need the individual form (schemas/individual/)');
  return form;
}

/** Answers of the individual form for a demo person, on the schema's own example. */
function demoAnswers(
  form: CompiledForm,
  person: Person,
  files: Record<string, StoredFile>,
): Answers {
  const example = structuredClone(form.example) as Answers;
  const reference = (part: string) => ({
    name: files[part]!.originalName,
    type: files[part]!.contentType,
    size: files[part]!.size,
  });
  return {
    ...example,
    firstName: person.firstName,
    lastName: person.lastName,
    dateOfBirth: person.dateOfBirth,
    socialSecurityNumber: person.ssn,
    primaryEmailAddress: person.email,
    secondaryEmailAddress: undefined,
    primaryPhoneNumber: person.phone,
    secondaryPhoneNumber: undefined,
    mailingAddress: person.address,
    employerName: person.employerName,
    photoId: reference('photoId'),
    photoIdBack: reference('photoIdBack'),
    irsFormW2: reference('irsFormW2'),
  };
}

/** A demo file in memory; `insertRegistrationDocument` stores its bytes with the row. */
async function store(_dataDir: string, bytes: Buffer, name: string, type: string) {
  const storageName = crypto.randomBytes(16).toString('hex');
  return { storageName, size: bytes.length, contentType: type, originalName: name, bytes };
}

async function samplePdf(title: string, lines: string[]): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const page = document.addPage([612, 396]);
  page.drawText(`SAMPLE - ${title}`, { x: 40, y: 340, size: 18, font });
  lines.forEach((line, index) =>
    page.drawText(line, { x: 40, y: 300 - index * 20, size: 12, font }),
  );
  return Buffer.from(await document.save());
}

async function sampleIdImage(label: string, color: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400"><rect width="640" height="400" rx="24" fill="${color}"/><text x="40" y="90" font-family="sans-serif" font-size="36" fill="#fff">SAMPLE ID</text><text x="40" y="160" font-family="sans-serif" font-size="28" fill="#fff">${label}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Stores a demo person's files and registration, decided or pending; returns its id. */
async function seedRegistration(
  db: pg.PoolClient,
  config: ServerConfig,
  form: CompiledForm,
  person: Person,
  ids: { userId: string; organizationId: string },
  decision: { reviewerId: string } | null,
): Promise<string> {
  const name = `${person.firstName} ${person.lastName}`;
  const files: Record<string, StoredFile> = {
    photoId: await store(
      config.dataDir,
      await sampleIdImage(`${name} (front)`, '#2f5d8a'),
      'drivers-license-front.png',
      'image/png',
    ),
    photoIdBack: await store(
      config.dataDir,
      await sampleIdImage(`${name} (back)`, '#46698f'),
      'drivers-license-back.png',
      'image/png',
    ),
    irsFormW2: await store(
      config.dataDir,
      await samplePdf('Form W-2 (2025)', [`Employee: ${name}`, `Employer: ${person.employerName}`]),
      'w2-2025.pdf',
      'application/pdf',
    ),
  };
  const answers = demoAnswers(form, person, files);
  for (const key of Object.keys(answers)) if (answers[key] === undefined) delete answers[key];
  const payload = toPayloadJson(form, answers);
  // Stored as the portal stores a submission: sensitive answers sealed.
  const fieldKeys = loadFieldKeys(config);
  const sealed = sealRegistration(fieldKeys, {
    registrationId: crypto.randomUUID(),
    form,
    answers,
    payload: payload.parts,
  });
  const registrationId = await insertRegistration(db, {
    id: sealed.registrationId,
    userId: ids.userId,
    organizationId: ids.organizationId,
    formId: 'individual',
    schemaHash: form.hash,
    answers: sealed.answers,
    payload: sealed.payload,
    submissionHash: submissionHash(fieldKeys, canonicalJson({ formId: 'individual', answers })),
    ip: '127.0.0.1',
  });
  if (!registrationId) throw new Error(`demo registration of ${person.email} exists`);
  for (const [part, file] of Object.entries(files)) {
    await insertRegistrationDocument(db, registrationId, part, file);
  }
  for (const document of signedDocuments(form)) {
    const bytes = fs.readFileSync(path.resolve(`.${document.url}`));
    const file = await store(config.dataDir, bytes, path.basename(document.url), 'application/pdf');
    await insertRegistrationDocument(db, registrationId, document.part, file);
  }
  // The demo applicant consented to electronic signatures before signing, as the page asks.
  const { consent } = await insertEsignConsent(db, {
    userId: ids.userId,
    version: currentEsignConsentVersion(),
    ip: '127.0.0.1',
    userAgent: 'demo seed',
  });
  await recordSignatureEvidence(
    db,
    {
      registrationId,
      userId: ids.userId,
      userEmail: person.email,
      ip: '127.0.0.1',
      userAgent: 'demo seed',
      signerName: name,
      schemaHash: form.hash,
      consent,
      // Signed as the submission is stored (the demo has no application's signing times).
      signedAt: {},
    },
    signedDocuments(form),
  );
  // The trail records the seed as it happened (now), marked as demo data.
  await recordAuditEvent(db, {
    action: 'registration.submitted',
    actorUserId: ids.userId,
    registrationId,
    detail: { formId: 'individual', demo: true },
  });
  if (decision) {
    await recordAuditEvent(db, {
      action: 'registration.approved',
      actorUserId: decision.reviewerId,
      subjectUserId: ids.userId,
      registrationId,
      detail: { via: 'console', demo: true },
    });
    await backdateApprovedRegistration(db, registrationId, decision.reviewerId);
  } else {
    await backdateSubmittedRegistration(db, registrationId);
  }
  return registrationId;
}

/**
 * Seeds the review and statement demo data inside seedDemoData's transaction, after its users.
 */
export async function seedDemoReview(
  db: pg.PoolClient,
  config: ServerConfig,
  forms: FormCatalog,
  emails: { approved: string; pending: string; staff: string },
): Promise<void> {
  const form = individualFormOf(forms);
  const approved = await findDemoUser(db, emails.approved);
  const pending = await findDemoUser(db, emails.pending);
  const staff = await findDemoUser(db, emails.staff);
  await seedRegistration(
    db,
    config,
    form,
    {
      firstName: 'Avery',
      lastName: 'Quinn',
      email: emails.approved,
      dateOfBirth: '02/11/1982',
      ssn: '402-61-3387',
      phone: '+13125550100',
      address: {
        line1: '233 South Wacker Drive',
        line2: 'Suite 4400',
        locality: 'Chicago',
        region: 'IL',
        postalCode: '60606',
        country: 'US',
      },
      employerName: 'Lakeshore Mining Partners LLC',
    },
    approved,
    { reviewerId: staff.userId },
  );
  await seedRegistration(
    db,
    config,
    form,
    {
      firstName: 'Jordan',
      lastName: 'Lee',
      email: emails.pending,
      dateOfBirth: '09/23/1990',
      ssn: '521-44-6789',
      phone: '+13125550101',
      address: {
        line1: '1600 Larimer Street',
        line2: 'Apt 1207',
        locality: 'Denver',
        region: 'CO',
        postalCode: '80202',
        country: 'US',
      },
      employerName: 'Front Range Data Centers Inc.',
    },
    pending,
    null,
  );
  await backdateParticipantApproval(db, approved.organizationId, staff.userId);
  await saveStatement(db, {
    organizationId: approved.organizationId,
    statement: demoStatement(),
    asOf: DEMO_STATEMENT_AS_OF,
    loadedBy: staff.userId,
  });
}
