import type { Signer } from './demo-api.js';

const STATUS_TEXT: Record<Signer['status'], string> = {
  waiting: 'Waiting for their turn',
  ready: 'Ready to sign',
  opened: 'Opened',
  completed: 'Signed',
};

/**
 * Who signs in this page: one button per signer of a document with signers, with where each stands.
 * Each signer signs with a session key of their own, which the backend mints when the page switches to them.
 */
export function SignerSwitch({
  signers,
  current,
  onSwitch,
}: {
  signers: Signer[];
  current: string | undefined;
  onSwitch(signerId: string): void;
}) {
  return (
    <div className="signer-switch" role="group" aria-label="Sign as">
      <span className="signer-switch-label">Sign as</span>
      {signers.map((signer) => (
        <button
          key={signer.id}
          type="button"
          className="signer"
          aria-pressed={signer.id === current}
          onClick={() => onSwitch(signer.id)}
        >
          <span className="signer-name">{signer.name}</span>
          <span className={`badge badge-signer-${signer.status}`}>{STATUS_TEXT[signer.status]}</span>
        </button>
      ))}
    </div>
  );
}
