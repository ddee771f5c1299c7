/** The answer of a reCAPTCHA v3 `siteverify` call (the fields the portal reads). */
interface SiteVerifyAnswer {
  success?: boolean;
  action?: string;
  score?: number;
}

/** reCAPTCHA v3 scores run from 0 (bot) to 1 (human); Google suggests 0.5 as a first threshold. */
const MIN_SCORE = 0.5;

/**
 * Verifies a captcha token server-side: POSTs `secret` and `response` form-encoded to the verify
 * URL and requires success and the expected action. Any network or parse failure counts as "no".
 */
export async function verifyCaptcha(options: {
  verifyUrl: string;
  secret: string;
  token: string;
  action: string;
  remoteIp?: string;
  timeoutMs?: number;
}): Promise<boolean> {
  const body = new URLSearchParams({ secret: options.secret, response: options.token });
  if (options.remoteIp) body.set('remoteip', options.remoteIp);
  try {
    const response = await fetch(options.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
    });
    if (!response.ok) return false;
    const answer = (await response.json()) as SiteVerifyAnswer;
    if (answer.success !== true || answer.action !== options.action) return false;
    // v2 answers carry no score; v3 answers below the threshold are refused.
    return typeof answer.score !== 'number' || answer.score >= MIN_SCORE;
  } catch {
    return false;
  }
}
