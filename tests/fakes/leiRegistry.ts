/**
 * A local fake of the LEI registry (GLEIF's API, JSON:API) on loopback: the portal's real
 * registry client talks to it in the server tests and, started by Playwright
 * (`leiRegistryServer.ts`), in the end-to-end tests. It knows one US and one non-US entity.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** GLEIF's answer shape for `lei-records/{lei}` (JSON:API), trimmed to what the portal reads. */
export function gleifRecord(lei: string, name: string, address: Record<string, unknown>) {
  return {
    data: {
      type: 'lei-records',
      id: lei,
      attributes: {
        lei,
        entity: {
          legalName: { name, language: 'en' },
          legalAddress: { ...address, addressLines: ['Legal address line'] },
          headquartersAddress: address,
          status: 'ACTIVE',
        },
        registration: { status: 'ISSUED' },
      },
    },
  };
}

export const US_LEI = '5493001KJTIIGC8Y1R12';
export const NON_US_LEI = '529900T8BM49AURSDO55';
// Check digits right, but the fake registry has never heard of it.
export const UNKNOWN_LEI = '529900ABCDEFGHIJKL19';

/** A local fake of the GLEIF API on loopback, counting the lookups it answers. */
export class FakeLeiRegistry {
  requests: { path: string; accept: string | undefined }[] = [];
  mode: 'ok' | 'down' | 'busy' = 'ok';
  private server = http.createServer((request, response) => {
    // A readiness probe (the end-to-end tests start this registry before the portal).
    if (request.url === '/health') return response.writeHead(200).end('ok');
    this.requests.push({ path: request.url ?? '', accept: request.headers.accept });
    if (this.mode === 'down') return response.writeHead(500).end('Internal error');
    if (this.mode === 'busy') return response.writeHead(429).end();
    const lei = (request.url ?? '').split('/').pop();
    const body =
      lei === US_LEI
        ? gleifRecord(US_LEI, 'Granite Ridge Mining Co.', {
            addressLines: ['1700 Broadway', 'Suite 400'],
            city: 'Denver',
            region: 'US-CO',
            country: 'US',
            postalCode: '80290',
          })
        : lei === NON_US_LEI
          ? gleifRecord(NON_US_LEI, 'Southern Cross Hashrate Pty Ltd', {
              addressLines: ['Level 5, 1 Martin Place'],
              city: 'Sydney',
              region: 'AU-NSW',
              country: 'AU',
              postalCode: '2000',
            })
          : null;
    if (!body) {
      response.writeHead(404, { 'content-type': 'application/vnd.api+json' });
      return response.end(JSON.stringify({ errors: [{ status: '404', title: 'Not Found' }] }));
    }
    response.writeHead(200, { 'content-type': 'application/vnd.api+json' });
    response.end(JSON.stringify(body));
  });

  /** Listens on loopback (`port` 0: any free port); resolves to the base for `LEI_API_URL`. */
  async start(port = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v1`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
