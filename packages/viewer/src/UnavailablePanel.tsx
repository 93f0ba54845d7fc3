import type { UnavailableReason } from './error-message.js';
import type { ViewerMessages } from './i18n/messages.js';
import { StatusPanel } from './StatusPanel.js';

/** What the signer is told of a document that has ended (docs/lifecycle.md): which end, without Try again. */
export function UnavailablePanel({ reason, messages }: { reason: UnavailableReason; messages: ViewerMessages }) {
  return (
    <StatusPanel tone="info" title={messages[`${reason}Title`]}>
      {messages[`${reason}Body`]}
    </StatusPanel>
  );
}
