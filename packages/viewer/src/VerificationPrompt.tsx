import { SigningApiError, type SdkClient } from '@signet/api';
import type { VerificationRequiredDetails } from '@signet/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { useViewerStyles } from './adopt-styles.js';
import { format, type VerificationMessages, type ViewerMessages } from './i18n/messages.js';
import { verificationEn } from './i18n/verification-en.js';

/**
 * The prompt's own styles, adopted with it (its chunk, not the viewer's startup): a heading, one roomy input. They
 * build on the viewer's status card and form styles (`styles.ts`).
 */
const verificationCss = /* css */ `
.signet-viewer .signet-verify h2.signet-status-title { font-size: 1.1em; }
.signet-viewer .signet-verify-send { display: flex; flex-wrap: wrap; align-items: center; gap: 0 12px; }
.signet-viewer .signet-verify .signet-verify-code { height: 40px; max-width: 16em; font: inherit; font-size: 1.15em; letter-spacing: 0.12em; padding: 0 10px; }
.signet-viewer .signet-verify-error { margin: 0; min-height: 1.3em; color: var(--_danger); font-size: 14px; }
`;

/** The viewer's texts with the prompt's: the locale's own, else English. */
type PromptMessages = ViewerMessages & VerificationMessages;

/** What a refused send or check tells the signer. */
function refusalText(error: unknown, messages: PromptMessages): string {
  if (!(error instanceof SigningApiError)) return messages.errorNetwork;
  const reason = error.details?.reason;
  if (error.code === 'VERIFICATION_FAILED' && reason === 'wrong_code') {
    return format(messages.verifyWrongCode, { attempts: Number(error.details?.attemptsLeft ?? 0) });
  }
  if (error.code === 'VERIFICATION_FAILED') return messages.verifyCodeExpired;
  if (reason === 'locked') return messages.verifyLocked;
  if (reason === 'resend_limit') return messages.verifyTooSoon;
  return error.code === 'RATE_LIMIT_EXCEEDED' ? messages.errorRateLimited : messages.errorGeneric;
}

/** Seconds left until `until` (ms), ticking once a second; 0 once it has passed. */
function useCountdown(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until]);
  return Math.max(0, Math.round((until - now) / 1000));
}

/**
 * In place of the document while its signer must prove who they are: the method explained, for an e-mailed code a
 * Send (then Resend, after a countdown) button and the masked address, one code input, and errors announced. Loaded
 * with `import()` (`SigningViewer`): most signers never need it.
 */
export default function VerificationPrompt({
  client,
  documentId,
  details,
  messages: viewerMessages,
  onVerified,
}: {
  client: Pick<SdkClient, 'sendVerificationCode' | 'checkVerification'>;
  documentId: string;
  details: VerificationRequiredDetails;
  /** The locale's texts; its prompt texts come with it, or English ones from this chunk. */
  messages: ViewerMessages & Partial<VerificationMessages>;
  onVerified(): void;
}) {
  const messages: PromptMessages = { ...verificationEn, ...viewerMessages };
  const ids = useId();
  const root = useRef<HTMLElement>(null);
  useViewerStyles(root, verificationCss);
  const byEmail = details.method === 'email_code';
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [resendAt, setResendAt] = useState(0);
  const wait = useCountdown(resendAt);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(refusalText(failure, messages));
    } finally {
      setBusy(false);
    }
  };
  const send = () =>
    run(async () => {
      const sent = await client.sendVerificationCode(documentId);
      setSentTo(sent.maskedEmail);
      setResendAt(Date.parse(sent.resendAfter));
    });
  const check = () =>
    run(async () => {
      await client.checkVerification(documentId, code.trim());
      onVerified();
    });

  const email = sentTo ?? details.maskedEmail ?? '';
  return (
    <section ref={root} className="signet-status signet-status--info signet-verify" aria-labelledby={`${ids}-title`}>
      <span className="signet-status-icon" aria-hidden="true">
        i
      </span>
      <div className="signet-status-body">
        <h2 className="signet-status-title" id={`${ids}-title`}>
          {messages.verifyTitle}
        </h2>
        <p className="signet-status-text">
          {format(byEmail ? messages.verifyEmailBody : messages.verifyAccessBody, { document: details.documentName, email, name: details.signerName })}
        </p>
        {byEmail && (
          <div className="signet-verify-send">
            <button type="button" className="signet-button signet-button--secondary" disabled={busy || wait > 0} onClick={() => void send()}>
              {wait > 0 ? format(messages.verifyResendIn, { seconds: wait }) : sentTo ? messages.verifyResend : messages.verifySendCode}
            </button>
            <p className="signet-status-text" role="status">
              {sentTo ? format(messages.verifyCodeSent, { email: sentTo }) : ''}
            </p>
          </div>
        )}
        <form
          className="signet-decline"
          onSubmit={(event) => {
            event.preventDefault();
            void check();
          }}
        >
          <label className="signet-decline-label" htmlFor={`${ids}-code`}>
            {byEmail ? messages.verifyCodeLabel : messages.verifyAccessCodeLabel}
          </label>
          <input
            id={`${ids}-code`}
            className="signet-input signet-verify-code"
            value={code}
            required
            autoFocus={!byEmail}
            maxLength={byEmail ? 6 : 64}
            spellCheck={false}
            autoCapitalize="off"
            {...(byEmail ? { inputMode: 'numeric' as const, autoComplete: 'one-time-code', pattern: '[0-9]{6}' } : { autoComplete: 'off' })}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${ids}-error` : undefined}
            onChange={(event) => setCode(event.target.value)}
          />
          <p className="signet-verify-error" id={`${ids}-error`} role="alert">
            {error ?? ''}
          </p>
          <div className="signet-guidance-actions">
            <button type="submit" className="signet-button signet-button--primary" disabled={busy || code.trim().length < (byEmail ? 6 : 4)}>
              {messages.verifySubmit}
            </button>
          </div>
        </form>
      </div>
    </section>
  );
}
