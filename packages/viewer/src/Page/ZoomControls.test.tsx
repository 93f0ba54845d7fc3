import { cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { viewerCss } from '../styles.js';
import { LoadProgress } from './LoadProgress.js';
import { zoomIn, zoomOut } from './zoom.js';
import { ZoomControls } from './ZoomControls.js';

afterEach(() => cleanup());

const labels = { zoomIn: 'Zoom in', zoomOut: 'Zoom out', fitWidth: 'Fit to width', value: '{percent}%' };

function Controlled({ initial = 1 }: { initial?: number }) {
  const [zoom, setZoom] = useState(initial);
  return <ZoomControls zoom={zoom} onZoomChange={setZoom} labels={labels} />;
}

describe('ZoomControls', () => {
  it('steps the zoom, shows it as a percentage and fits the width again', async () => {
    render(<Controlled />);
    expect(screen.getByText('100%')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Fit to width' }).getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(screen.getByText('125%')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Zoom out' }));
    await userEvent.click(screen.getByRole('button', { name: 'Zoom out' }));
    expect(screen.getByText('75%')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Fit to width' }));
    expect(screen.getByText('100%')).toBeTruthy();
  });

  it('disables the buttons at the ends of the range', () => {
    render(<Controlled initial={3} />);
    expect(screen.getByRole('button', { name: 'Zoom in' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Zoom out' }).hasAttribute('disabled')).toBe(false);
  });

  it('steps from values between the steps', () => {
    expect(zoomIn(1.1)).toBe(1.25);
    expect(zoomOut(1.1)).toBe(1);
    expect(zoomIn(3)).toBe(3);
    expect(zoomOut(0.5)).toBe(0.5);
  });
});

describe('LoadProgress', () => {
  it('is a determinate progress bar when the progress is known', () => {
    render(<LoadProgress progress={0.42} label="Loading document" />);
    const bar = screen.getByRole('progressbar', { name: 'Loading document' });
    expect(bar.getAttribute('aria-valuenow')).toBe('42');
    expect(bar.getAttribute('aria-valuemax')).toBe('100');
  });

  it('is indeterminate, without a value, when it is not', () => {
    render(<LoadProgress progress={null} label="Loading document" />);
    const bar = screen.getByRole('progressbar', { name: 'Loading document' });
    expect(bar.hasAttribute('aria-valuenow')).toBe(false);
    expect(bar.hasAttribute('data-indeterminate')).toBe(true);
  });

  it('shows, and the loading spinner with it, only once a load has taken 400 ms', async () => {
    const { container } = render(
      <div className="signet-viewer">
        <style>{viewerCss}</style>
        <span className="signet-spinner" />
        <LoadProgress progress={null} label="Loading document" />
      </div>,
    );
    const indicators = [container.querySelector('.signet-spinner')!, container.querySelector('.signet-progress')!];
    expect(indicators.map((element) => getComputedStyle(element).visibility)).toEqual(['hidden', 'hidden']);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(indicators.map((element) => getComputedStyle(element).visibility)).toEqual(['visible', 'visible']);
    expect(screen.getByRole('progressbar', { name: 'Loading document' })).toBeTruthy();
  });
});
