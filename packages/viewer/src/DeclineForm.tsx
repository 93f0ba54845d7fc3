import { DECLINE_REASON_MAX_LENGTH } from '@signet/contract';
import { useState } from 'react';
import type { ViewerMessages } from './i18n/messages.js';
import { StatusPanel } from './StatusPanel.js';

/** The signer's way to say no: a reason, then Decline; Cancel goes back to signing. */
export function DeclineForm({
  messages,
  onCancel,
  onDecline,
}: {
  messages: ViewerMessages;
  onCancel(): void;
  /** Rejects when the server could not be told; the form stays, with an error. */
  onDecline(reason: string): Promise<void>;
}) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  return (
    <StatusPanel tone="info" title={messages.declineTitle}>
      <form
        className="signet-decline"
        onSubmit={(event) => {
          event.preventDefault();
          setBusy(true);
          onDecline(reason.trim()).catch(() => {
            setFailed(true);
            setBusy(false);
          });
        }}
      >
        <label className="signet-decline-label">
          {messages.declineReason}
          <textarea
            className="signet-input"
            autoFocus
            required
            rows={3}
            maxLength={DECLINE_REASON_MAX_LENGTH}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        </label>
        {failed && <p role="alert">{messages.submitFailed}</p>}
        <div className="signet-guidance-actions">
          <button type="button" className="signet-button signet-button--secondary" onClick={onCancel}>
            {messages.cancel}
          </button>
          <button type="submit" className="signet-button signet-button--primary" disabled={busy || !reason.trim()}>
            {messages.declineConfirm}
          </button>
        </div>
      </form>
    </StatusPanel>
  );
}
