import path from 'node:path';

/** Everything the server reads from its environment, read once at start. */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** External PostgreSQL; when absent an embedded server runs in `dataDir/postgres`. */
  databaseUrl: string | undefined;
  production: boolean;
  /**
   * Addresses or CIDR ranges of the reverse proxies whose `X-Forwarded-For` is believed
   * (`TRUST_PROXY`, comma-separated). Empty: the peer address is the client's, whatever the
   * headers say, so per-IP limits cannot be dodged by writing a header.
   */
  trustProxy: string[];
  /**
   * Addresses or CIDR ranges `/metrics` answers (`METRICS_ALLOW`, comma-separated; default this
   * machine only). Judged on the client address as the rest of the app sees it: the socket's
   * peer, or X-Forwarded-For only from a TRUST_PROXY address.
   */
  metricsAllow: string[];
  /** Base of links in emails, e.g. `http://localhost:8080`. */
  publicUrl: string;
  smtpUrl: string | undefined;
  recaptchaSiteKey: string;
  recaptchaSecret: string;
  /** Where the captcha token is verified (a loopback fake in tests). */
  recaptchaVerifyUrl: string;
  leiApiUrl: string;
  /** Folder of the built customer app. */
  webDir: string;
  /** Seed demo data into an empty database (development only). */
  seedDemo: boolean;
  /** scrypt cost exponent (N = 2^cost); the hash records it, so lowering it in tests is safe. */
  passwordCost: number;
  logLevel: string;
  /** `FIELD_ENCRYPTION_KEYS`: the keys of sensitive answers at rest (fieldEncryption/keyRing.ts). */
  fieldEncryptionKeys: string | undefined;
  /** `AUDIT_CHAIN_KEYS`: the keys the audit trail's hash chain is keyed with (audit/auditChainKeys.ts). */
  auditChainKeys: string | undefined;
  /** `CSRF_KEYS`: the keys CSRF tokens are bound under (auth/csrfKeys.ts). */
  csrfKeys: string | undefined;
  /**
   * `AUDIT_CHAIN_KEYED_FROM`: `<row>:<hash>` of the audit chain's first keyed row, kept beside the
   * keys so a chain once keyed never verifies unkeyed again (audit/keyedFrom.ts).
   */
  auditChainKeyedFrom: string | undefined;
  /** `AUDIT_CHECKPOINT_KEY`: the Ed25519 private key that signs audit checkpoints (PEM or base64 PKCS#8). */
  auditCheckpointKey: string | undefined;
  /** `AUDIT_CHECKPOINT_PUBLIC_KEYS`: earlier checkpoint keys' public halves (base64 SPKI), comma-separated. */
  auditCheckpointPublicKeys: string | undefined;
  /**
   * `AUDIT_CHECKPOINT_DIR`: where `audit-checkpoint` keeps each checkpoint it signs and where
   * `verify-audit` finds the newest (audit/auditCheckpoint.ts).
   */
  auditCheckpointDir: string | undefined;
  /**
   * `SESSION_PLACE_DATABASE`: the MMDB file giving sessions their approximate place (unset: the
   * shipped DB-IP country data; `off`: addresses only). See auth/ipPlaces.ts.
   */
  sessionPlaceDatabase: string | undefined;
  /**
   * `WEBHOOK_RETENTION_DAYS`: how long delivered and given-up webhook deliveries (and their
   * events, attempts) are kept before the cleanup deletes them (webhooks/retention.ts).
   */
  webhookRetentionDays: number;
  /** `WEBHOOK_POLL_MS`: how often a serving instance looks for due webhook deliveries. */
  webhookPollMs: number;
}

/**
 * A number setting, or its default when unset. Not checked here (this runs before main.ts can
 * turn a failure into its one sentence): whoever uses it refuses a value that is not positive,
 * as the webhook worker does while the app is built (webhooks/deliveryWorker.ts).
 */
function numberSetting(raw: string | undefined, fallback: number): number {
  return raw === undefined || raw === '' ? fallback : Number(raw);
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const production = env.NODE_ENV === 'production';
  const port = Number(env.PORT ?? 8080);
  const dataDir = path.resolve(env.DATA_DIR ?? 'data');
  return {
    port,
    // Development listens on loopback only (its demo sign-ins and /dev/outbox are for this
    // machine); HOST=0.0.0.0 opens it to the network. Production listens everywhere (behind a proxy).
    host: env.HOST || (production ? '0.0.0.0' : '127.0.0.1'),
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    production,
    trustProxy: (env.TRUST_PROXY ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
    metricsAllow: (env.METRICS_ALLOW ?? '127.0.0.1,::1')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    smtpUrl: env.SMTP_URL || undefined,
    recaptchaSiteKey: env.RECAPTCHA_SITE_KEY ?? '',
    recaptchaSecret: env.RECAPTCHA_SECRET ?? '',
    recaptchaVerifyUrl:
      env.RECAPTCHA_VERIFY_URL ?? 'https://www.google.com/recaptcha/api/siteverify',
    leiApiUrl: (env.LEI_API_URL ?? 'https://api.gleif.org/api/v1').replace(/\/$/, ''),
    webDir: path.resolve(env.WEB_DIR ?? 'dist/web'),
    seedDemo: !production && env.SEED_DEMO !== '0',
    passwordCost: Number(env.PASSWORD_COST ?? 17),
    logLevel: env.LOG_LEVEL ?? 'info',
    fieldEncryptionKeys: env.FIELD_ENCRYPTION_KEYS || undefined,
    auditChainKeys: env.AUDIT_CHAIN_KEYS || undefined,
    csrfKeys: env.CSRF_KEYS || undefined,
    auditChainKeyedFrom: env.AUDIT_CHAIN_KEYED_FROM || undefined,
    auditCheckpointKey: env.AUDIT_CHECKPOINT_KEY || undefined,
    auditCheckpointPublicKeys: env.AUDIT_CHECKPOINT_PUBLIC_KEYS || undefined,
    auditCheckpointDir: env.AUDIT_CHECKPOINT_DIR
      ? path.resolve(env.AUDIT_CHECKPOINT_DIR)
      : undefined,
    sessionPlaceDatabase: env.SESSION_PLACE_DATABASE || undefined,
    webhookRetentionDays: numberSetting(env.WEBHOOK_RETENTION_DAYS, 30),
    webhookPollMs: numberSetting(env.WEBHOOK_POLL_MS, 2_000),
  };
}
