import type { FastifyRequest } from 'fastify';
import type { RefusedUpload } from '../errors';
import { recordAuditEvent } from './recordAuditEvent';

/**
 * Records an upload refused for what it holds (ASVS 16.3.3: security events): who sent it (null
 * signed out, as on an invitation's acceptance), the route and why, never the file or its name.
 * A failure to record is logged and leaves the refusal's answer as it is.
 */
export async function recordRefusedUpload(
  request: FastifyRequest,
  refusal: RefusedUpload,
): Promise<void> {
  try {
    await recordAuditEvent(request.server.db, {
      action: 'upload.refused',
      actorUserId: await request.sessionUserId(),
      detail: {
        reason: refusal.reason,
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
      },
    });
  } catch (error) {
    request.log.error({ err: error }, 'refused upload not audited');
  }
}
