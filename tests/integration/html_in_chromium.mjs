// Opens an HTML page in headless Chromium through the DevTools protocol (over --remote-debugging-pipe,
// no npm package) at a phone's and a desktop's window size, and prints what a test needs as JSON:
// console messages, uncaught exceptions, browser log entries (a refused load, a policy violation),
// every network request other than the page itself, layout and DOM counts per window, and the
// screenshots it wrote. Used by tests/integration/html_report_test.cpp.
//
// Usage: node html_in_chromium.mjs CHROMIUM PAGE.html OUT_DIR
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [chromium, page, outDir] = process.argv.slice(2);
if (!chromium || !page || !outDir) {
  console.error('usage: node html_in_chromium.mjs CHROMIUM PAGE.html OUT_DIR');
  process.exit(2);
}
const pageUrl = pathToFileURL(resolve(page)).href;
const windows = [
  { name: 'phone', width: 390, height: 844, mobile: true, scale: 2 },
  { name: 'desktop', width: 1366, height: 900, mobile: false, scale: 1 },
];

const profile = mkdtempSync(join(tmpdir(), 'convcheck-chromium-'));
const browser = spawn(chromium, [
  '--headless', '--remote-debugging-pipe', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--no-default-browser-check', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--disable-extensions', '--hide-scrollbars', '--mute-audio',
  `--user-data-dir=${profile}`, 'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
let browserErr = '';
browser.stderr.on('data', (d) => { browserErr += d; });

const limit = setTimeout(() => fail('Chromium did not finish within 90 s'), 90000);
function fail(message) {
  console.error(`${message}\n${browserErr.slice(-4000)}`);
  browser.kill('SIGKILL');
  rmSync(profile, { recursive: true, force: true });
  process.exit(1);
}
browser.on('error', (e) => fail(`cannot start ${chromium}: ${e.message}`));

// The pipe protocol: JSON messages, each ended by a NUL byte, in on fd 3, out on fd 4.
const toBrowser = browser.stdio[3];
const fromBrowser = browser.stdio[4];
let nextId = 1;
const pending = new Map();
const listeners = [];
let buffered = '';
fromBrowser.on('data', (chunk) => {
  buffered += chunk.toString('utf8');
  let end;
  while ((end = buffered.indexOf('\0')) >= 0) {
    const message = JSON.parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    if (message.id && pending.has(message.id)) {
      const { ok, ko, method } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) ko(new Error(`${method}: ${JSON.stringify(message.error)}`));
      else ok(message.result);
    } else if (message.method) {
      for (const listener of listeners) listener(message);
    }
  }
});
function send(method, params = {}, sessionId = undefined) {
  const id = nextId++;
  toBrowser.write(JSON.stringify({ id, method, params, sessionId }) + '\0');
  return new Promise((ok, ko) => pending.set(id, { ok, ko, method }));
}
function nextEvent(method, sessionId) {
  return new Promise((ok) => {
    const listener = (m) => {
      if (m.method === method && m.sessionId === sessionId) {
        listeners.splice(listeners.indexOf(listener), 1);
        ok(m.params);
      }
    };
    listeners.push(listener);
  });
}

const report = { console: [], exceptions: [], log: [], requests: [], windows: {} };
try {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  listeners.push((m) => {
    if (m.sessionId !== sessionId) return;
    const p = m.params;
    if (m.method === 'Runtime.consoleAPICalled')
      report.console.push({ type: p.type, text: p.args.map((a) => a.value ?? a.description ?? '').join(' ') });
    else if (m.method === 'Runtime.exceptionThrown')
      report.exceptions.push(p.exceptionDetails.exception?.description ?? p.exceptionDetails.text);
    else if (m.method === 'Log.entryAdded')
      report.log.push({ level: p.entry.level, source: p.entry.source, text: p.entry.text, url: p.entry.url ?? '' });
    else if (m.method === 'Network.requestWillBeSent' && p.request.url !== pageUrl)
      report.requests.push(p.request.url);
  });
  for (const domain of ['Page', 'Runtime', 'Log', 'Network']) await send(`${domain}.enable`, {}, sessionId);
  for (const w of windows) {
    await send('Emulation.setDeviceMetricsOverride',
      { width: w.width, height: w.height, deviceScaleFactor: w.scale, mobile: w.mobile }, sessionId);
    const loaded = nextEvent('Page.loadEventFired', sessionId);
    await send('Page.navigate', { url: pageUrl }, sessionId);
    await loaded;
    const { result } = await send('Runtime.evaluate', {
      returnByValue: true,
      expression: `(() => {
        const smallest = [...document.querySelectorAll('body *')]
          .filter((e) => e.childNodes.length && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
          .map((e) => parseFloat(getComputedStyle(e).fontSize));
        return {
          innerWidth: window.innerWidth,
          scrollWidth: document.documentElement.scrollWidth,
          matrices: document.querySelectorAll('table.matrix').length,
          matrixCells: document.querySelectorAll('table.matrix td.fail, table.matrix td.pass').length,
          plots: document.querySelectorAll('svg.latency polyline').length > 0 ? document.querySelectorAll('svg.latency').length : 0,
          problems: document.querySelectorAll('section.problem').length,
          diffs: document.querySelectorAll('pre.diff del, pre.diff ins').length,
          coverage: [...document.querySelectorAll('h3')].filter((h) => h.textContent === 'Coverage').length,
          smallestFontPx: Math.min(...smallest),
        };
      })()`,
    }, sessionId);
    const metrics = await send('Page.getLayoutMetrics', {}, sessionId);
    const height = Math.min(Math.ceil(metrics.cssContentSize.height), 12000);
    const shot = await send('Page.captureScreenshot', {
      format: 'png', captureBeyondViewport: true,
      clip: { x: 0, y: 0, width: w.width, height, scale: 1 },
    }, sessionId);
    const file = join(outDir, `report-${w.name}.png`);
    writeFileSync(file, Buffer.from(shot.data, 'base64'));
    report.windows[w.name] = { ...result.value, screenshot: file, width: w.width, height: w.height };
  }
} catch (e) {
  fail(e.stack);
}
console.log(JSON.stringify(report));
// The profile goes once the browser has exited (it writes there till the end).
const exited = new Promise((ok) => browser.on('exit', ok));
send('Browser.close').catch(() => {});
await Promise.race([exited, new Promise((ok) => setTimeout(ok, 10000))]);
browser.kill('SIGKILL');
clearTimeout(limit);
try {
  rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
} catch {
  // a leftover profile in $TMPDIR is no reason to fail a test
}
