/**
 * A private SoftHSM2 token for the PKCS#11 sealing tests (docs/operations.md, "Keys in hardware (PKCS#11)"): its own
 * configuration and token directory under a temporary folder (`SOFTHSM2_CONF`, set in this process, and so inherited
 * by the PDF workers it forks), a token initialised with `softhsm2-util`, keys imported with `softhsm2-util --import`
 * and certificates with OpenSC's `pkcs11-tool`. Debian's `softhsm2` and `opensc` (scripts/ensure-test-tools.sh).
 */
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where Debian's `libsofthsm2` puts the module (both paths are in the package; other systems use one of them). */
const MODULE_PATHS = ['/usr/lib/softhsm/libsofthsm2.so', '/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so', '/usr/lib64/pkcs11/libsofthsm2.so'];

export interface TestHsm {
  dir: string;
  modulePath: string;
  /** The token's label. */
  token: string;
  /** The user PIN. */
  pin: string;
  /** `SIGNET_SIGNING_PKCS11` for the key labelled `keyLabel` on this token (no PIN in it). */
  uri(keyLabel: string): string;
  /** Imports a PEM private key (PKCS#8) and its PEM certificate under `label`, both with `CKA_ID` `idHex`. */
  importKey(label: string, idHex: string, keyPath: string, certificatePath: string): Promise<void>;
  /** Writes a PEM certificate alone (a CA's) to the token. */
  importCertificate(label: string, idHex: string, certificatePath: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Makes a token labelled `token` with user PIN `1234` in a private SoftHSM2 store.
 * @example
 * const hsm = await createTestHsm();
 * await hsm.importKey('seal', '01', 'signer.key', 'signer.crt');
 * const config = loadConfig({ SIGNET_SIGNING_PKCS11: hsm.uri('seal'), SIGNET_SIGNING_PKCS11_PIN: hsm.pin });
 */
export async function createTestHsm(token = 'Signet Test'): Promise<TestHsm> {
  const modulePath = MODULE_PATHS.find((path) => existsSync(path));
  if (!modulePath) throw new Error('SoftHSM2 is not installed (Debian: apt-get install softhsm2 opensc; scripts/ensure-test-tools.sh)');
  const dir = await mkdtemp(join(tmpdir(), 'signet-test-hsm-'));
  await mkdir(join(dir, 'tokens'));
  const confPath = join(dir, 'softhsm2.conf');
  await writeFile(confPath, `directories.tokendir = ${join(dir, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  // The module reads SOFTHSM2_CONF when it is initialised: set before any test loads it, inherited by forked workers.
  process.env.SOFTHSM2_CONF = confPath;
  const env = { ...process.env, SOFTHSM2_CONF: confPath };
  const pin = '1234';
  await run('softhsm2-util', ['--init-token', '--free', '--label', token, '--pin', pin, '--so-pin', '87654321'], { env });
  const pkcs11Tool = (...args: string[]) =>
    run('pkcs11-tool', ['--module', modulePath, '--token-label', token, '--login', '--pin', pin, ...args], { env });
  const writeCertificate = async (label: string, idHex: string, certificatePath: string) => {
    const der = join(dir, `${label}-${idHex}.der`);
    await writeFile(der, new X509Certificate(await readFile(certificatePath)).raw);
    await pkcs11Tool('--write-object', der, '--type', 'cert', '--id', idHex, '--label', label);
  };
  return {
    dir,
    modulePath,
    token,
    pin,
    uri: (keyLabel) =>
      `pkcs11:token=${encodeURIComponent(token)};object=${encodeURIComponent(keyLabel)}?module-path=${encodeURIComponent(modulePath)}`,
    async importKey(label, idHex, keyPath, certificatePath) {
      await run('softhsm2-util', ['--import', keyPath, '--token', token, '--label', label, '--id', idHex, '--pin', pin], { env });
      await writeCertificate(label, idHex, certificatePath);
    },
    importCertificate: writeCertificate,
    async close() {
      await rm(dir, { recursive: true, force: true });
    },
  };
}
