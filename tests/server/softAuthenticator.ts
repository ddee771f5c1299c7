import crypto from 'node:crypto';

/**
 * A software passkey authenticator for server tests: what a browser and a platform authenticator
 * would send to the portal (WebAuthn Level 2: "none" attestation, ES256), built by hand so the
 * server's real verification (@simplewebauthn/server) checks it. The browser tests use Chromium's
 * own virtual authenticator instead.
 */
export class SoftAuthenticator {
  private readonly keys = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  readonly credentialId = crypto.randomBytes(16);
  private counter = 0;

  constructor(private readonly origin: string) {}

  private get rpId() {
    return new URL(this.origin).hostname;
  }

  /** The answer to `navigator.credentials.create(options)`. */
  register(options: { challenge: string }, overrides: { origin?: string } = {}) {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    const coseKey = cbor(
      new Map<number, CborValue>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      this.authDataHead(0x41), // user present, attested credential data
      Buffer.alloc(16), // AAGUID
      idLength,
      this.credentialId,
      coseKey,
    ]);
    const attestationObject = cbor(
      new Map<string, CborValue>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, CborValue>()],
        ['authData', authData],
      ]),
    );
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, overrides.origin);
    const id = this.credentialId.toString('base64url');
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        attestationObject: attestationObject.toString('base64url'),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** The answer to `navigator.credentials.get(options)`. */
  authenticate(options: { challenge: string }, overrides: { origin?: string } = {}) {
    this.counter += 1;
    const authData = this.authDataHead(0x01);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, overrides.origin);
    const signed = Buffer.concat([
      authData,
      crypto.createHash('sha256').update(clientDataJSON).digest(),
    ]);
    const signature = crypto.sign('sha256', signed, this.keys.privateKey);
    const id = this.credentialId.toString('base64url');
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
      },
      clientExtensionResults: {},
    };
  }

  private authDataHead(flags: number): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    return Buffer.concat([
      crypto.createHash('sha256').update(this.rpId).digest(),
      Buffer.from([flags]),
      count,
    ]);
  }

  private clientData(type: string, challenge: string, origin = this.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }
}

type CborValue = number | string | Buffer | Map<number | string, CborValue>;

/** The few CBOR shapes a credential needs (RFC 8949): integers, strings, bytes, maps. */
function cbor(value: CborValue): Buffer {
  if (typeof value === 'number') {
    return value >= 0 ? head(0, value) : head(1, -1 - value);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  const parts = [head(5, value.size)];
  for (const [key, item] of value) parts.push(cbor(key), cbor(item));
  return Buffer.concat(parts);
}

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  const out = Buffer.alloc(3);
  out[0] = (major << 5) | 25;
  out.writeUInt16BE(length, 1);
  return out;
}
