import { useTranslator } from './i18n/LocaleContext.js';
import type { ViewerMessages } from './i18n/messages.js';

export interface GuidanceBarProps {
  done: number;
  total: number;
  submitting: boolean;
  /** Not all page sizes are known yet (long documents, for a moment after the first paint). */
  preparing?: boolean;
  messages: ViewerMessages;
  /** The first field (in reading order) whose value breaks its rules, once pointed out: its label and what is wrong. */
  problem?: { label: string; message: string } | undefined;
  /** Takes the signer to that field. */
  onProblem?(): void;
  onNext(): void;
  onSubmit(): void;
}

/**
 * "n of m required fields complete", a Next button to the next incomplete field, and Submit once complete; above the
 * meter, the first value that breaks its field's rules, which takes the signer there.
 */
export function GuidanceBar({ done, total, submitting, preparing = false, messages, problem, onProblem, onNext, onSubmit }: GuidanceBarProps) {
  const complete = done >= total;
  const t = useTranslator();
  return (
    <div className="signet-guidance" role="region" aria-label={messages.documentLabel}>
      <div className="signet-guidance-status">
        <span className="signet-guidance-text" aria-live="polite">
          {complete ? messages.allComplete : t.text('progress', { done, total })}
        </span>
        <span className="signet-guidance-problem" aria-live="polite">
          {problem && (
            <button type="button" className="signet-link-button" onClick={onProblem}>
              {problem.label}: {problem.message}
            </button>
          )}
        </span>
        <span className="signet-guidance-meter" aria-hidden="true">
          <span style={{ width: `${total === 0 ? 100 : (done / total) * 100}%` }} />
        </span>
      </div>
      <div className="signet-guidance-actions">
        {!complete && (
          <button type="button" className="signet-button signet-button--secondary" onClick={onNext}>
            {messages.next}
          </button>
        )}
        <button
          type="button"
          className="signet-button signet-button--primary"
          disabled={!complete || submitting || preparing}
          onClick={onSubmit}
        >
          {submitting ? messages.submitting : messages.submit}
        </button>
      </div>
    </div>
  );
}
