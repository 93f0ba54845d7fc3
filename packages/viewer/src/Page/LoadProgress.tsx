export interface LoadProgressProps {
  /** 0..1, or null when the total is unknown (the bar then runs indeterminately). */
  progress: number | null;
  /** Accessible name, e.g. "Loading document". */
  label: string;
  className?: string;
}

/**
 * A thin loading bar: determinate (with `aria-valuenow` in percent) when progress is known, indeterminate
 * (no `aria-valuenow`, as ARIA prescribes) otherwise.
 * @example <LoadProgress progress={state.progress} label={t('loading')} />
 */
export function LoadProgress({ progress, label, className }: LoadProgressProps) {
  const known = progress !== null && Number.isFinite(progress);
  const fraction = known ? Math.min(1, Math.max(0, progress)) : 0;
  return (
    <div
      className={className ? `signet-progress ${className}` : 'signet-progress'}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={known ? Math.round(fraction * 100) : undefined}
      data-indeterminate={known ? undefined : 'true'}
    >
      <div className="signet-progress-bar" style={known ? { transform: `scaleX(${fraction})` } : undefined} />
    </div>
  );
}
