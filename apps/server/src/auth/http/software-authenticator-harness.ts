// Test support: a software WebAuthn authenticator (ES256, attestation "none"), built on node:crypto,
// that answers the options the server sends exactly as a browser and authenticator would, with
// knobs for the attacks the tests try (another origin, an old counter, someone else's key).
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

export interface StoredCredential {
  id: Buffer;
  privateKey: KeyObject;
  /** The COSE public key, as the attestation carries it. */
  cose: Uint8Array;
  userHandle: string | null;
  signCount: number;
}

export interface RegistrationJSON {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
  clientExtensionResults: Record<string, never>;
}

export interface AuthenticationJSON {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string };
  clientExtensionResults: Record<string, never>;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
}

export interface CeremonyOverrides {
  /** The origin the "browser" reports (a phishing site's, say). */
  origin?: string;
  /** Sign with this counter instead of the next one. */
  signCount?: number;
}

function authData(rpId: string, flags: number, signCount: number, attested?: Buffer) {
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(signCount);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
}

/** A software authenticator bound to the origin a browser would report for the site. */
export function softwareAuthenticator(origin: string) {
  const rpIdOf = (given?: string) => given ?? new URL(origin).hostname;
  const credentials: StoredCredential[] = [];

  function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, o = origin) {
    return Buffer.from(JSON.stringify({ type, challenge, origin: o, crossOrigin: false }));
  }

  return {
    credentials,

    /** navigator.credentials.create() for `options` (the server's JSON). */
    create(options: CreationOptions, overrides: CeremonyOverrides = {}) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const cose = isoCBOR.encode(
        new Map<number, number | Uint8Array>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x as string, 'base64url')],
          [-3, Buffer.from(jwk.y as string, 'base64url')],
        ]),
      );
      const id = randomBytes(16);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(id.length);
      const attested = Buffer.concat([Buffer.alloc(16), idLength, id, Buffer.from(cose)]);
      // UP | UV | AT
      const data = authData(rpIdOf(options.rp.id), 0x01 | 0x04 | 0x40, 0, attested);
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Map<string, never> | Uint8Array>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, never>()],
          ['authData', data],
        ]),
      );
      const stored: StoredCredential = { id, privateKey, cose, userHandle: options.user.id, signCount: 0 };
      credentials.push(stored);
      const json: RegistrationJSON = {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge, overrides.origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
      return json;
    },

    /** navigator.credentials.get() with `credential` (the newest one by default). */
    get(
      options: RequestOptions,
      credential: StoredCredential | undefined = credentials.at(-1),
      overrides: CeremonyOverrides = {},
    ): AuthenticationJSON {
      if (!credential) throw new Error('the authenticator holds no credential');
      credential.signCount = overrides.signCount ?? credential.signCount + 1;
      const data = authData(rpIdOf(options.rpId), 0x01 | 0x04, credential.signCount);
      const client = clientData('webauthn.get', options.challenge, overrides.origin);
      const signature = sign('sha256', Buffer.concat([data, sha256(client)]), credential.privateKey);
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(client),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          ...(credential.userHandle ? { userHandle: credential.userHandle } : {}),
        },
        clientExtensionResults: {},
      };
    },
  };
}
