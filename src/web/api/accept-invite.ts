import { useMutation } from '@tanstack/react-query';
import type { Role } from '../../shared/api/auth';
import { apiFetch } from './client';

/** What the accept-invite page collects (access §3, invite accept). */
interface AcceptInviteRequest {
  /** The invitation link's access_token. */
  token: string;
  /** The invitation link's organization_id. */
  organizationId: string;
  email: string;
  firstName: string;
  lastName: string;
  /** International form, '+' and digits. */
  phoneNumber: string;
  password: string;
  /** The government-issued photo ID image. */
  photoId: File;
  /** A choice among the invited roles; none sent means every invited role. */
  roles?: Role[];
}

/** The multipart body of auth/invite/accept, under the server's field names. */
function acceptInviteFormData(request: AcceptInviteRequest): FormData {
  const form = new FormData();
  form.append('access_token', request.token);
  form.append('organization_id', request.organizationId);
  form.append('first_name', request.firstName);
  form.append('last_name', request.lastName);
  form.append('email', request.email);
  form.append('phone_number', request.phoneNumber);
  form.append('password_text', request.password);
  form.append('photo_id', request.photoId, request.photoId.name);
  for (const role of request.roles ?? []) form.append('role', role);
  return form;
}

/** POST auth/invite/accept (form data): an invited person sets their details and password. */
function acceptInvite(request: AcceptInviteRequest): Promise<void> {
  return apiFetch<void>('auth/invite/accept', {
    method: 'POST',
    body: acceptInviteFormData(request),
  });
}

export function useAcceptInvite() {
  return useMutation({ mutationFn: acceptInvite });
}
