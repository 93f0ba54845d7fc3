import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * WebKit for the tests: Debian's WebKitGTK WebDriver (`webkit2gtk-driver`) driving WebKitGTK's MiniBrowser in its
 * automation mode, on an X display of Xvfb's own when none is set. Nothing here is downloaded.
 */
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/**
 * The session's capabilities: MiniBrowser is what WebKitGTK's driver launches, and WebDriver classic (webdriverio
 * would otherwise ask for BiDi, which WebKitGTK's driver does not speak).
 */
export const webkitCapabilities = {
  browserName: 'MiniBrowser',
  'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
  'wdio:enforceWebDriverClassic': true,
} as const;

export interface WebKitDriver {
  hostname: string;
  port: number;
  stop(): void;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Xvfb on the first free display number it finds; resolves with that display once it is up. */
function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  return new Promise((resolve, reject) => {
    // -displayfd: Xvfb picks a free display and writes its number to fd 3 once it accepts connections.
    const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    xvfb.stderr!.on('data', (chunk) => (err += chunk));
    (xvfb.stdio[3] as NodeJS.ReadableStream).on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve({ display: `:${out.trim()}`, process: xvfb });
    });
    xvfb.on('error', reject);
    xvfb.on('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it was ready: ${err.trim()}`)));
  });
}

async function untilReady(url: string, driver: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited (${driver.exitCode}): ${log()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`WebKitWebDriver did not answer at ${url}: ${log()}`);
}

/** Starts WebKitWebDriver (and Xvfb when there is no DISPLAY); `stop()` ends both, and so does this process's exit. */
export async function startWebKitDriver(): Promise<WebKitDriver> {
  for (const [path, pkg] of [
    [WEBKIT_DRIVER, 'webkit2gtk-driver'],
    [MINIBROWSER, 'libwebkit2gtk-4.1-0'],
  ] as const) {
    if (!existsSync(path)) throw new Error(`${path} is missing: install Debian's ${pkg} (bash scripts/ensure-test-tools.sh does)`);
  }
  const env = { ...process.env };
  let xvfb: ChildProcess | undefined;
  if (!env.DISPLAY) {
    const started = await startXvfb();
    xvfb = started.process;
    env.DISPLAY = started.display;
  }
  // No rendering switches (WEBKIT_DISABLE_COMPOSITING_MODE, LIBGL_ALWAYS_SOFTWARE): with them WebKitGTK 2.50's web
  // process crashed on loading Vitest's test frame ("session deleted because of page crash or hang").
  const port = await freePort();
  const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`, '--host=127.0.0.1'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  // WEBKIT_DRIVER_LOG=1 shows what the driver and MiniBrowser print (crashes, WebDriver errors).
  const show = process.env.WEBKIT_DRIVER_LOG === '1';
  for (const stream of [driver.stdout!, driver.stderr!]) {
    stream.on('data', (chunk) => {
      log = (log + chunk).slice(-4000);
      if (show) process.stderr.write(`[webkit] ${chunk}`);
    });
  }
  const stop = () => {
    driver.kill();
    xvfb?.kill();
  };
  process.once('exit', stop);
  // Neither keeps this process alive: it stops them when it exits.
  for (const child of [driver, xvfb]) {
    if (!child) continue;
    child.unref();
    for (const stream of child.stdio) (stream as { unref?: () => void } | null)?.unref?.();
  }
  try {
    await untilReady(`http://127.0.0.1:${port}/status`, driver, () => log);
  } catch (error) {
    stop();
    throw error;
  }
  return { hostname: '127.0.0.1', port, stop };
}
