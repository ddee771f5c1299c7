import { useEffect, useState } from 'react';
import { useConfig } from '../../api/get-config';
import { useSignUp } from '../../api/sign-up';
import { executeSignupCaptcha, getRecaptcha, loadRecaptcha } from './recaptcha';

/**
 * A sign-up request (POST auth/signup) with the captcha when one is configured (access §7): the
 * sign-up form's, and the "send it again" of the thank-you notice and of a dead verification link
 * (issue 38 §4). The server answers every address the same and caps the emails one address gets.
 */
export function useSignupRequest() {
  const config = useConfig();
  const signUp = useSignUp();
  const [captchaUnavailable, setCaptchaUnavailable] = useState(false);
  const siteKey = config.data?.recaptcha_site_key ?? '';

  useEffect(() => {
    if (siteKey) loadRecaptcha(siteKey);
  }, [siteKey]);

  async function send(email: string, onSent?: () => void): Promise<void> {
    setCaptchaUnavailable(false);
    let recaptchaToken: string | undefined;
    if (siteKey) {
      const grecaptcha = getRecaptcha();
      if (!grecaptcha) {
        setCaptchaUnavailable(true);
        return;
      }
      try {
        recaptchaToken = await executeSignupCaptcha(grecaptcha, siteKey);
      } catch (captchaError) {
        console.error(captchaError);
        setCaptchaUnavailable(true);
        return;
      }
    }
    signUp.mutate(
      { email: email.trim(), recaptchaToken, authOrigin: 'Clearing' },
      onSent ? { onSuccess: onSent } : undefined,
    );
  }

  return { send, signUp, captchaUnavailable, configPending: config.isPending };
}
