import type { ReactNode } from 'react';

/** A message in place of the document (loading, an error) or above it (completed). */
export function StatusPanel({
  tone,
  title,
  children,
  action,
}: {
  tone: 'info' | 'error' | 'success';
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className={`signet-status signet-status--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
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
