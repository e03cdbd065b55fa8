#!/usr/bin/env node
// Headless-browser test of a report followed while its log is written
// (`tlscope LOG --follow --serve`, issue 29): the served index says it is
// live, reloads itself as the log grows, marks the links that are new since
// the tab opened it, and becomes the finished report when following ends.
//
// Usage: node tests/browser/follow_test.mjs TLSCOPE_BINARY RECORDED_LOG_GZ SCRATCH_DIR
//
// Drives Debian's Chromium (/usr/bin/chromium, override with CHROMIUM_PATH)
// through playwright-core. Prints one line per check and "N passed, M
// failed"; exits non-zero if anything failed.

import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const [bin, gz, scratch] = process.argv.slice(2);
let passed = 0;
let failed = 0;

function check(ok, name, detail) {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${detail ? ` (${detail})` : ''}`);
  return ok;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, test, ms = 20000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await test();
    if (v) return v;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function main() {
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.mkdirSync(scratch, { recursive: true });
  const log = path.join(scratch, 'live.log');
  const out = path.join(scratch, 'out');
  const data = zlib.gunzipSync(fs.readFileSync(gz));
  // The log up to its first compile's metrics, then the rest later: the page must grow.
  const firstMetrics = data.indexOf('"compilation_metrics"');
  const firstEnd = firstMetrics > 0 ? data.indexOf('\n', firstMetrics) + 1 : data.length >> 2;
  fs.writeFileSync(log, data.subarray(0, firstEnd));

  // --idle 10: after the last bytes the page stays live long enough to be
  // seen reloading by itself on a loaded machine, before it is finished.
  const proc = spawn(bin, [log, '-o', out, '--follow', '--idle', '10', '--serve', '--quiet'],
                     { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (b) => { stdout += b; });
  proc.stderr.on('data', (b) => { stderr += b; });
  const ended = new Promise((r) => proc.on('exit', (code) => r(code)));
  const url = await until('the address', () => (/Serving .* at (http:\/\/\S+)/.exec(stdout) || [])[1]);
  check(true, 'tlscope serves the report while following', url);

  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await until('a live index', async () => {
      await page.goto(url + 'index.html');
      return (await page.locator('#tl-live').count()) > 0;
    });
    const banner = await page.locator('#tl-live').innerText();
    check(/Following the trace as it is written/.test(banner), 'the index says it is live', banner);
    const generation = await page.locator('#tl-live').getAttribute('data-generation');
    const linksBefore = await page.locator('a[href*="compilation_metrics"]').count();
    check(await page.locator('a.tl-new').count() === 0, 'nothing is new on the first look');

    // The rest of the log, in pieces, while the page is open.
    const fd = fs.openSync(log, 'a');
    for (let at = firstEnd; at < data.length;) {
      const n = Math.min(data.length - at, 1 + Math.floor(Math.random() * 20000));
      fs.writeSync(fd, data.subarray(at, at + n));
      at += n;
      await sleep(20);
    }
    fs.closeSync(fd);

    // The page reloads itself (no reload by hand) as newer pages are
    // written, until one shows compiles it did not (still live), with the
    // links that are new marked. Read in one go: the page may reload again.
    // A look taken while the page reloads would see a document not yet
    // parsed (no note, no links): only a loaded page counts.
    const look = () => page.evaluate(() => {
      if (document.readyState !== 'complete') return null;
      const note = document.getElementById('tl-live');
      return {
        generation: note ? note.getAttribute('data-generation') : null,
        links: document.querySelectorAll('a[href*="compilation_metrics"]').length,
        marked: document.querySelectorAll('a.tl-new').length,
        said: (document.getElementById('tl-live-new') || {}).textContent || '',
      };
    }).catch(() => null);
    const grown = await until('a newer page with more compiles', async () => {
      const l = await look();
      return l && l.generation !== null && l.generation !== generation && l.links > linksBefore
        ? l : null;
    }, 40000);
    check(true, 'the page grew by itself', `${linksBefore} -> ${grown.links} compile links`);
    check(grown.marked > 0, 'the new links are marked', `${grown.marked} marked`);
    check(/new since you opened it/.test(grown.said), 'the banner counts them', grown.said);
    const linksAfter = grown.links;
    await page.screenshot({ path: path.join(scratch, 'live_1400.png') }).catch(() => {});
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.screenshot({ path: path.join(scratch, 'live_1000.png') }).catch(() => {});
    const fits = await page.evaluate(() => {
      const b = document.getElementById('tl-live');
      return !b || b.getBoundingClientRect().right <= window.innerWidth;
    }).catch(() => true);
    check(fits, 'the live note fits a 1000 px window');

    // Following ends (--idle): the page becomes the finished report.
    const finished = await until('the finished report', async () => {
      const l = await look();
      return l && l.generation === null && /still serving it/.test(stderr) ? l : null;
    }, 60000);
    const final = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
    check(!final.includes('tl-live'), 'the finished index.html is not live');
    check(finished.links >= linksAfter, 'the finished report shows every compile', `${finished.links}`);
  } finally {
    await browser.close();
    proc.kill('SIGINT');
  }
  const code = await ended;
  check(code === 0, 'Ctrl+C stops serving with exit 0', `exit ${code}`);
}

const timer = setTimeout(() => { console.log('FAIL timed out'); process.exit(1); }, 120000);
main().catch((e) => { check(false, 'follow test', e.message); }).finally(() => {
  clearTimeout(timer);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
});
