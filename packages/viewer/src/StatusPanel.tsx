import type { ReactNode } from 'react';

/** A message in place of the document (loading, an error) or above it (completed). */
export function StatusPanel({
  tone,
  title,
  children,
  action,
  live = true,
}: {
  tone: 'info' | 'error' | 'success';
  /** Whether it is its own live region; `false` where the viewer's live region announces it instead. */
  live?: boolean;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className={`signet-status signet-status--${tone}`} role={live ? (tone === 'error' ? 'alert' : 'status') : undefined}>
      <span className="signet-status-icon" aria-hidden="true">
        {tone === 'error' ? '!' : tone === 'success' ? '✓' : 'i'}
      </span>
      <div className="signet-status-body">
        <p className="signet-status-title">{title}</p>
        {children && <div className="signet-status-text">{children}</div>}
        {action}
      </div>
    </div>
  );
}
