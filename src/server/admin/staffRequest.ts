/**
 * Who is asking, for the two staff surfaces (the admin API under /exchange/api/admin and the
 * console under /clearing/admin), decided once per request by the hook that guards each, and what
 * a staff decision needs from the app. One lookup and one set of review dependencies, so the
 * surfaces cannot drift apart on who counts as staff or how a decision is carried out.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findUserRowById } from '../db/users';
import type { ReviewDeps } from './review';

/** The signed-in user of a staff request. */
interface StaffRequestUser {
  id: string;
  email: string;
  organizationId: string | null;
  isStaff: boolean;
}

const usersByRequest = new WeakMap<FastifyRequest, StaffRequestUser>();

/**
 * Looks up the request's signed-in user (undefined when signed out or the account is gone) and
 * remembers it for the request: the guard decides on `isStaff`; the audit names even a customer
 * who was refused.
 */
export async function lookUpStaffRequestUser(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<StaffRequestUser | undefined> {
  const userId = await request.sessionUserId();
  if (!userId) return undefined;
  const row = await findUserRowById(app.db, userId);
  if (!row) return undefined;
  const user = {
    id: row.id,
    email: row.email,
    organizationId: row.organization_id,
    isStaff: row.is_staff,
  };
  usersByRequest.set(request, user);
  return user;
}

/** The signed-in user the guard looked up, whoever it is (undefined before the guard or signed out). */
export function requestUserOf(request: FastifyRequest): StaffRequestUser | undefined {
  return usersByRequest.get(request);
}

/** The staff member of a request the guard let through (undefined for anyone else). */
export function staffOf(request: FastifyRequest): StaffRequestUser | undefined {
  const user = usersByRequest.get(request);
  return user?.isStaff ? user : undefined;
}

/** What a staff decision (approve, reject, request changes) needs of the app, for one request. */
export function reviewDepsOf(app: FastifyInstance, request: FastifyRequest): ReviewDeps {
  return {
    pool: app.db,
    mailer: app.mailer,
    publicUrl: app.config.publicUrl,
    onMailError: (error) => request.log.error({ err: error }, 'applicant email failed'),
    forms: app.forms,
    fieldKeys: app.fieldKeys,
  };
}
