#!/usr/bin/env node
// Headless-browser test of a tlscope HTML report.
//
// Usage: node tests/browser/report_test.mjs REPORT_DIR [WIDE_REPORT_DIR
//        [PROVENANCE_REPORT_DIR [VLLM_REPORT_DIR [RANKS_REPORT_DIR
//        [RECORDED_REPORT_DIR [CORPUS_REPORT_DIR]]]]]]
//
// REPORT_DIR is a report of examples/example.log made with
// --inductor-provenance; WIDE_REPORT_DIR one of tests/browser/wide_log.py
// (long names, many recompile reasons), whose pages must fit 1400 px;
// PROVENANCE_REPORT_DIR one of tests/browser/provenance_log.py (line
// mappings in every pane); VLLM_REPORT_DIR one of
// tests/data/vllm/vllm_sample.log; RANKS_REPORT_DIR one of the recorded
// two-rank job with --all-ranks-html; RECORDED_REPORT_DIR one of a recorded
// PyTorch trace (tests/data/recorded), and CORPUS_REPORT_DIR one of a corpus
// log (given only where there is a corpus), for the record browser.
//
// Drives Debian's Chromium (/usr/bin/chromium, override with CHROMIUM_PATH)
// through playwright-core; no browser is ever downloaded.  Prints one line per
// check and finally "N passed, M failed"; exits non-zero if anything failed.

import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const STEP_TIMEOUT_MS = 15000;
const OVERALL_TIMEOUT_MS = 180000;

// Schemes that cannot leave the machine.  Anything else (http:, https:, ws:,
// ...) means the report is not self-contained.
const LOCAL_SCHEMES = new Set(['file:', 'data:', 'blob:', 'about:']);

// A compile id as it appears in headings: [0/0], [0/1_1], [!0/0/0], ...
const COMPILE_ID_RE = /\[!?\d+(?:\/\d+)+(?:_\d+)?\]/;
// compilation_metrics page inside a compile-id folder such as -_0_0_0/
const METRICS_HREF_RE = /(?:^|\/)[^/]+_\d+_\d+_\d+\/compilation_metrics_\d+\.html$/;
const METRICS_ANY_RE = /compilation_metrics_\d+\.html$/;

let passed = 0;
let failed = 0;

function check(ok, name, detail) {
  if (ok) {
    passed++;
    console.log(`PASS ${name}${detail ? ` (${detail})` : ''}`);
  } else {
    failed++;
    console.log(`FAIL ${name}${detail ? `: ${detail}` : ''}`);
  }
  return ok;
}

function finish() {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

function oneLine(s, max = 300) {
  s = String(s).replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max)}...` : s;
}

const reportDir = process.argv[2];
const wideDir = process.argv[3];
const provDir = process.argv[4];
const vllmDir = process.argv[5];
const ranksDir = process.argv[6];
const recordedDir = process.argv[7];
const corpusDir = process.argv[8];
if (!reportDir) {
  console.error('usage: node tests/browser/report_test.mjs REPORT_DIR');
  process.exit(2);
}
const indexPath = path.resolve(reportDir, 'index.html');
if (!check(fs.existsSync(indexPath), 'index.html exists', indexPath)) finish();
if (!check(fs.existsSync(CHROMIUM_PATH), 'chromium executable exists', CHROMIUM_PATH)) finish();
const indexUrl = pathToFileURL(indexPath).href;

const watchdog = setTimeout(() => {
  check(false, 'overall time limit', `test did not finish within ${OVERALL_TIMEOUT_MS / 1000}s`);
  finish();
}, OVERALL_TIMEOUT_MS);
watchdog.unref();

const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tlscope-chromium-'));
const errors = [];      // console errors and uncaught page errors, all pages
const badRequests = []; // requests that left file://
let requestCount = 0;
const pagesSeen = new Set();

const watched = new WeakSet();
function watchPage(page) {
  if (watched.has(page)) return;
  watched.add(page);
  page.on('console', (msg) => {
    if (msg.type() === 'error') {
      errors.push(`console error on ${page.url()}: ${oneLine(msg.text())}`);
    }
  });
  page.on('pageerror', (err) => {
    errors.push(`page error on ${page.url()}: ${oneLine(err && err.message ? err.message : err)}`);
  });
  page.on('load', () => pagesSeen.add(page.url().replace(/#.*$/, '')));
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
}

// Click an anchor and return the page that ends up showing its target (the
// same page, or a new one if the link opens a new tab/window).
async function clickAndFollow(context, page, anchor) {
  const target = await anchor.getAttribute('target');
  const expected = await anchor.evaluate((a) => a.href);
  if (target && target !== '_self') {
    const [popup] = await Promise.all([context.waitForEvent('page'), anchor.click()]);
    await popup.waitForLoadState('load');
    return popup;
  }
  await Promise.all([page.waitForURL(expected, { waitUntil: 'load' }), anchor.click()]);
  return page;
}

// Index (in document order) of the first <a> whose raw href attribute matches.
async function firstAnchorIndex(page, pattern) {
  return page.evaluate(
    ({ src, flags }) => {
      const re = new RegExp(src, flags);
      const as = Array.from(document.querySelectorAll('a[href]'));
      return as.findIndex((a) => re.test(a.getAttribute('href')));
    },
    { src: pattern.source, flags: pattern.flags },
  );
}

async function expandDetails(page) {
  // Open closed <details> the way a user would (click the <summary>); outer
  // ones come first in document order, which makes nested ones visible.
  const count = await page.locator('details').count();
  for (let i = 0; i < count; i++) {
    const d = page.locator('details').nth(i);
    if (await d.evaluate((el) => el.open)) continue;
    const summary = d.locator(':scope > summary');
    if ((await summary.count()) > 0 && (await summary.isVisible())) {
      await summary.click();
    }
    if (!(await d.evaluate((el) => el.open))) {
      await d.evaluate((el) => { el.open = true; });
    }
  }
  const closed = await page.evaluate(
    () => Array.from(document.querySelectorAll('details')).filter((d) => !d.open).length);
  return { count, closed };
}

async function step(name, fn) {
  try {
    await fn();
  } catch (e) {
    check(false, name, oneLine(e && e.message ? e.message : e));
  }
}

let context;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    timeout: 60000,
  });
} catch (e) {
  check(false, 'launch chromium', oneLine(e && e.message ? e.message : e, 2000));
  fs.rmSync(userDataDir, { recursive: true, force: true });
  finish();
}

context.on('request', (req) => {
  requestCount++;
  let scheme;
  try { scheme = new URL(req.url()).protocol; } catch { scheme = '?'; }
  if (!LOCAL_SCHEMES.has(scheme)) badRequests.push(req.url());
});
// Never let anything reach the network, even if the report tries.
await context.route((url) => !LOCAL_SCHEMES.has(url.protocol), (route) => route.abort());
context.on('page', watchPage);

const page = context.pages()[0] || (await context.newPage());
watchPage(page);

// ---------------------------------------------------------------- step 1
await step('step 1: index.html loads', async () => {
  const resp = await page.goto(indexUrl, { waitUntil: 'load' });
  const title = await page.title();
  const bodyLen = await page.evaluate(() => document.body ? document.body.innerText.length : 0);
  check(bodyLen > 0 && (!resp || resp.ok() || resp.status() === 0), 'step 1: index.html loads',
        `title "${oneLine(title, 80)}", ${bodyLen} chars of text`);
});

await step('step 1: index links a compilation_metrics page', async () => {
  const i = await firstAnchorIndex(page, METRICS_HREF_RE);
  if (i >= 0) {
    const href = await page.locator('a[href]').nth(i).getAttribute('href');
    check(true, 'step 1: index links a compilation_metrics page in a compile-id folder', href);
  } else {
    const j = await firstAnchorIndex(page, METRICS_ANY_RE);
    const href = j >= 0 ? await page.locator('a[href]').nth(j).getAttribute('href') : null;
    check(false, 'step 1: index links a compilation_metrics page in a compile-id folder',
          href ? `found ${href}, not under a folder like -_0_0_0/` : 'no href matching compilation_metrics_N.html');
  }
});

await step('step 1: a small stack trie is open', async () => {
  const open = await page.evaluate(() => {
    const trie = document.querySelector('.stack-trie');
    const d = trie && trie.closest('details');
    return d ? d.open : null;
  });
  check(open === true, 'step 1: a small stack trie is open', `details open = ${open}`);
});

await step('step 1: expand <details>', async () => {
  const { count, closed } = await expandDetails(page);
  check(closed === 0, 'step 1: expand <details>', `${count} details element(s), ${closed} still closed`);
});

await step('step 1: click compile-id anchor in stack trie', async () => {
  const anchor = page.locator('a[href^="#["]').first();
  if ((await anchor.count()) === 0) {
    check(false, 'step 1: click compile-id anchor in stack trie', 'no <a href="#[...]"> on index.html');
    return;
  }
  const href = await anchor.getAttribute('href');
  const errorsBefore = errors.length;
  await anchor.click();
  await page.waitForFunction((h) => decodeURIComponent(location.hash) === h, href);
  // Give smooth scrolling / handlers a moment to run and report errors.
  await page.waitForTimeout(250);
  const info = await page.evaluate(() => {
    const id = decodeURIComponent(location.hash.slice(1));
    const el = document.getElementById(id);
    let inView = false;
    if (el) {
      const r = el.getBoundingClientRect();
      inView = r.bottom > 0 && r.top < window.innerHeight;
    }
    return { path: location.pathname, found: !!el, inView, scrollY: window.scrollY };
  });
  const samePage = info.path === new URL(indexUrl).pathname;
  const newErrors = errors.slice(errorsBefore);
  check(samePage && info.found && info.inView && newErrors.length === 0,
        'step 1: click compile-id anchor in stack trie',
        `${href}: stayed on index=${samePage}, target present=${info.found}, ` +
        `target in view=${info.inView}, scrollY=${info.scrollY}` +
        (newErrors.length ? `, errors: ${newErrors.join(' | ')}` : ''));
});

await step('step 1: compilation_metrics page', async () => {
  let i = await firstAnchorIndex(page, METRICS_HREF_RE);
  if (i < 0) i = await firstAnchorIndex(page, METRICS_ANY_RE);
  if (i < 0) {
    check(false, 'step 1: follow compilation_metrics link', 'no such link');
    return;
  }
  const anchor = page.locator('a[href]').nth(i);
  const href = await anchor.getAttribute('href');
  const p = await clickAndFollow(context, page, anchor);
  check(METRICS_ANY_RE.test(new URL(p.url()).pathname), 'step 1: follow compilation_metrics link',
        `${href} -> ${p.url()}`);
  const headings = await p.locator('h1, h2, h3, h4, h5, h6').allInnerTexts();
  const withId = headings.find((h) => COMPILE_ID_RE.test(h));
  check(!!withId, 'step 1: metrics heading names a compile id',
        withId ? oneLine(withId, 120) : `headings: ${JSON.stringify(headings.map((h) => oneLine(h, 60)))}`);
  const text = await p.evaluate(() => document.body.innerText);
  check(/compile time/i.test(text), 'step 1: metrics page mentions "Compile Time"');
  if (p !== page) await p.close();
});

// ---------------------------------------------------------------- step 2
await step('step 2: inductor_output_code page', async () => {
  // Back to the index: history first, a fresh load if that did not get us there.
  if (new URL(page.url()).pathname !== new URL(indexUrl).pathname) {
    await page.goBack({ waitUntil: 'load' }).catch(() => null);
  }
  if (new URL(page.url()).pathname !== new URL(indexUrl).pathname) {
    await page.goto(indexUrl, { waitUntil: 'load' });
  }
  check(true, 'step 2: back on index.html', page.url());
  await expandDetails(page);
  const i = await firstAnchorIndex(page, /inductor_output_code[^/]*\.html$/);
  if (i < 0) {
    check(false, 'step 2: follow inductor_output_code link', 'no <a href="...inductor_output_code...html">');
    return;
  }
  const anchor = page.locator('a[href]').nth(i);
  const href = await anchor.getAttribute('href');
  const p = await clickAndFollow(context, page, anchor);
  check(/inductor_output_code/.test(p.url()), 'step 2: follow inductor_output_code link', `${href} -> ${p.url()}`);
  const sel = 'code.hljs span[class^="hljs-"]';
  const ok = await p.waitForSelector(sel, { state: 'attached', timeout: 10000 }).then(() => true, () => false);
  const spans = await p.locator(sel).count();
  const hasHljs = await p.evaluate(() => typeof window.hljs !== 'undefined');
  const codeClass = await p.evaluate(() => {
    const c = document.querySelector('code.hljs') || document.querySelector('pre code');
    return c ? c.className : '(no <code>)';
  });
  check(ok && spans > 0, 'step 2: code is highlighted by highlight.js',
        `${spans} element(s) match ${sel}; window.hljs ${hasHljs ? 'defined' : 'undefined'}; ` +
        `<code class="${codeClass}">`);
  const text = await p.evaluate(() => document.body.innerText);
  check(text.includes('def '), 'step 2: output code page contains Python ("def ")');
  if (p !== page) await p.close();
});

// ---------------------------------------------------------------- step 4
// Provenance page: each pane keeps its heading and its <pre> (monospace).
await step('step 4: provenance panes', async () => {
  const file = fs.readdirSync(reportDir).find((f) => /^provenance_tracking_.*\.html$/.test(f));
  if (!check(!!file, 'step 4: a provenance page exists', file || 'none in ' + reportDir)) return;
  const p = await context.newPage();
  await p.goto(pathToFileURL(path.join(reportDir, file)).href, { waitUntil: 'load' });
  for (const [pane, heading] of [['pane-pre', 'Pre-grad graph'], ['pane-post', 'Post-grad graph']]) {
    const info = await p.evaluate((id) => {
      const div = document.getElementById(id);
      const h3 = div && div.querySelector(':scope > h3');
      const pre = div && div.querySelector(':scope > pre');
      const rows = pre ? pre.querySelectorAll('.prov-row') : [];
      return {
        heading: h3 ? h3.firstChild.textContent.trim() : null,
        rows: rows.length,
        first: rows.length ? rows[0].textContent : '',
        font: pre ? getComputedStyle(pre).fontFamily : '',
      };
    }, pane);
    check(info.heading === heading && info.rows > 0 && !info.first.includes(heading) &&
          /monospace/.test(info.font),
          `step 4: ${pane} keeps its heading and <pre>`,
          `heading ${JSON.stringify(info.heading)}, ${info.rows} rows, first ` +
          `${JSON.stringify(oneLine(info.first, 60))}, font ${info.font}`);
  }
  await p.close();
});

// ---------------------------------------------------------------- step 5
// Long names: the doctor's frames table and a metrics page's inputs table
// fit a 1400 px window; many recompile reasons are folded.
if (wideDir) {
  await step('step 5: wide report fits 1400 px', async () => {
    const p = await context.newPage();
    await p.setViewportSize({ width: 1400, height: 900 });
    await p.goto(pathToFileURL(path.join(wideDir, 'index.html')).href, { waitUntil: 'load' });
    const idx = await p.evaluate(() => {
      const t = document.querySelector('table.frames');
      const where = t && t.querySelector('td.where span');
      return {
        table: !!t,
        right: t ? t.getBoundingClientRect().right : -1,
        page: document.documentElement.scrollWidth,
        folded: t ? t.querySelectorAll('details:not([open])').length : 0,
        title: where ? where.getAttribute('title') : '',
      };
    });
    check(idx.table && idx.right <= 1400 && idx.page <= 1400, 'step 5: frames table fits 1400 px',
          `table right ${idx.right}, page width ${idx.page}`);
    check(idx.folded === 1, 'step 5: many recompile reasons are folded', `${idx.folded} closed <details>`);
    check(/a_rather_long_folder_name_7\/model\.py:12$/.test(idx.title), 'step 5: full path in the title',
          idx.title);
    const metrics = fs.readdirSync(path.join(wideDir, '-_0_5_0')).find((f) => /^compilation_metrics/.test(f));
    await p.goto(pathToFileURL(path.join(wideDir, '-_0_5_0', metrics)).href, { waitUntil: 'load' });
    const m = await p.evaluate(() => {
      const t = document.querySelector('table.inputs');
      return { table: !!t, right: t ? t.getBoundingClientRect().right : -1,
               page: document.documentElement.scrollWidth };
    });
    check(m.table && m.right <= 1400 && m.page <= 1400, 'step 5: inputs table fits 1400 px',
          `table right ${m.right}, page width ${m.page}`);
    await p.close();
  });
}

// ---------------------------------------------------------------- step 6
// Provenance page: stats, badges, a click keeps the marks, keys.
if (provDir) {
  await step('step 6: provenance page interactions', async () => {
    const p = await context.newPage();
    await p.goto(pathToFileURL(path.join(provDir, 'provenance_tracking_-_0_0_0.html')).href, { waitUntil: 'load' });
    const head = await p.evaluate(() => ({
      pre: document.querySelector('#pane-pre .prov-stats').textContent,
      post: document.querySelector('#pane-post .prov-stats').textContent,
      code: document.querySelector('#pane-code .prov-stats').textContent,
      badges: [...document.querySelectorAll('#src-pre .prov-badge')].map((b) => b.textContent),
      error: document.getElementById('prov-error').hidden,
    }));
    check(head.pre === '5 lines, 2 mapped' && head.post === '6 lines, 3 mapped' && /^\d+ lines, 2 mapped$/.test(head.code),
          'step 6: each pane says how many of its lines are mapped', JSON.stringify(head));
    check(head.badges.join(',') === '2', 'step 6: a line with two mapped lines has a badge', head.badges.join(','));
    check(head.error, 'step 6: no error banner when the mappings are there');
    const marked = () => p.evaluate(() => [...document.querySelectorAll('.selected')].map((r) =>
      r.closest('pre').id + ':' + r.dataset.line).join(' '));
    await p.click('#src-pre .prov-row[data-line="3"]');
    let sel = await marked();
    check(sel === 'src-pre:3 src-post:3 src-post:4 code-py:13', 'step 6: a click marks the line and its counterparts',
          sel);
    await p.hover('#src-post .prov-row[data-line="5"]');
    check(await marked() === sel, 'step 6: hovering elsewhere keeps the marks', await marked());
    await p.keyboard.press('n');
    sel = await marked();
    check(sel === 'src-pre:4 src-post:5 code-py:14', 'step 6: n moves to the next mapped line', sel);
    await p.keyboard.press('j');
    await p.keyboard.press('2');
    const max = await p.evaluate(() => ['pane-pre', 'pane-post', 'pane-code'].map((id) =>
      document.getElementById(id).hidden).join(','));
    check(max === 'true,false,true', 'step 6: 2 maximises the post-grad pane', max);
    await p.keyboard.press('?');
    const help = await p.evaluate(() => document.getElementById('prov-help').hidden);
    check(!help, 'step 6: ? shows the keys');
    await p.keyboard.press('Escape');
    const after = await p.evaluate(() => ({
      sel: document.querySelectorAll('.selected').length,
      hidden: [...document.querySelectorAll('.prov-pane')].filter((x) => x.hidden).length,
      help: document.getElementById('prov-help').hidden,
    }));
    check(after.sel === 0 && after.hidden === 0 && after.help, 'step 6: Esc clears marks, maximising and help',
          JSON.stringify(after));
    await p.click('#src-pre .prov-row[data-line="3"]');
    await p.click('#src-pre .prov-row[data-line="3"]');
    check(await marked() === '', 'step 6: a second click on the line clears its marks', await marked());
    const call = await p.evaluate(() => [...document.querySelectorAll('#code-py .prov-row')]
      .find((r) => /triton_poi_fused_relu_0\.run\(/.test(r.textContent)).dataset.line);
    await p.dblclick(`#code-py .prov-row[data-line="${call}"]`);
    const jumped = await p.evaluate(() => { const r = document.querySelector('.prov-jump'); return r ? r.textContent : ''; });
    check(/triton_poi_fused_relu_0 = async_compile/.test(jumped), 'step 6: double-click a call goes to its definition',
          jumped.slice(0, 80));
    await p.close();
    // A compile without mappings says so.
    const q = await context.newPage();
    await q.goto(pathToFileURL(path.join(reportDir, 'provenance_tracking_-_0_0_0.html')).href, { waitUntil: 'load' });
    const banner = await q.evaluate(() => { const b = document.getElementById('prov-error'); return b.hidden ? '' : b.textContent; });
    check(/no line mappings/.test(banner), 'step 6: a page without mappings shows why', banner);
    await q.close();
  });
}

// ---------------------------------------------------------------- step 7
// vLLM summary: compile calls fold, links lead to the pass diffs.
if (vllmDir) {
  await step('step 7: vLLM summary and pass diff', async () => {
    const p = await context.newPage();
    await p.goto(pathToFileURL(path.join(vllmDir, 'index.html')).href, { waitUntil: 'load' });
    const info = await p.evaluate(() => ({
      h1: document.querySelector('h1').textContent,
      calls: [...document.querySelectorAll('details.compile-call-section')].map((d) => d.open),
      usual: !!document.querySelector('a[href="tlparse_index.html"]'),
    }));
    check(info.h1 === 'vLLM Compilation Summary' && info.calls.join(',') === 'true,false' && info.usual,
          'step 7: two compile calls, the first open, and the usual index linked', JSON.stringify(info));
    await p.click('details.compile-call-section:nth-of-type(2) > summary');
    const open = await p.evaluate(() => [...document.querySelectorAll('details.compile-call-section')].map((d) => d.open).join(','));
    check(open === 'true,true', 'step 7: a click opens the second call', open);
    const href = await p.evaluate(() => {
      const a = [...document.querySelectorAll('a')].find((x) => /\.diff\.html$/.test(x.getAttribute('href')));
      return a ? a.getAttribute('href') : '';
    });
    if (check(!!href, 'step 7: a pass diff is linked', href)) {
      await p.goto(pathToFileURL(path.join(vllmDir, href)).href, { waitUntil: 'load' });
      const d = await p.evaluate(() => ({
        h1: document.querySelector('h1').textContent,
        add: document.querySelectorAll('td.diff-add').length,
        del: document.querySelectorAll('td.diff-del').length,
        hunks: document.querySelectorAll('tr.diff-hunk').length,
      }));
      check(/^Pass Diff: \d+\.\w+$/.test(d.h1) && d.add > 0 && d.del > 0 && d.hunks >= 1,
            'step 7: the pass diff shows added and deleted lines', JSON.stringify(d));
    }
    await p.close();
  });
}

// ---------------------------------------------------------------- step 8
// Charts on index.html: one mark per compile (and per recompile and graph
// break), one segment per non-zero part, the numbers their tables and the
// doctor's totals give; a bar leads to its metrics page; Perfetto help.
await step('step 8: compile-time charts', async () => {
  const p = await context.newPage();
  await p.goto(indexUrl, { waitUntil: 'load' });
  const c = await p.evaluate(() => {
    const rows = [...document.querySelectorAll('table.timeline-table tr')].slice(1)
      .map((tr) => [...tr.cells].map((td) => td.textContent));
    const svg = document.querySelector('svg.timeline');
    const view = svg ? svg.viewBox.baseVal : null;
    const marks = svg ? [...svg.querySelectorAll('rect.mark')] : [];
    const inside = marks.every((r) => {
      const b = r.getBBox();
      return b.width > 0 && b.height > 0 && b.x >= 0 && b.x + b.width <= view.width + 0.5;
    });
    const drawn = marks.every((r) => r.getBoundingClientRect().width > 0);
    const split = [...document.querySelectorAll('table.split-table tr')].slice(1)
      .map((tr) => [...tr.cells].slice(3).map((td) => td.textContent));
    const totals = document.querySelector('section.doctor p.totals').textContent;
    const num = (re) => { const m = totals.match(re); return m ? Number(m[1]) : -1; };
    return {
      marks: marks.length, rows: rows.length, inside, drawn,
      recompileMarks: svg ? svg.querySelectorAll('.recompile-mark').length : -1,
      recompileRows: rows.filter((r) => r[6] === 'yes').length,
      breakMarks: svg ? svg.querySelectorAll('.break-mark').length : -1,
      breakRows: rows.filter((r) => r[7] === 'yes').length,
      compiles: num(/(\d+) compiles?/), recompiles: num(/(\d+) recompiles?/),
      segments: document.querySelectorAll('svg.split rect.seg').length,
      nonZeroCells: split.flat().filter((v) => v !== '0.000').length,
      splitBars: split.length,
      perfetto: (document.querySelector('a.perfetto') || {}).href || '',
      help: (document.querySelector('details.perfetto-help') || {}).textContent || '',
    };
  });
  check(c.marks > 0 && c.marks === c.rows && c.marks === c.compiles,
        'step 8: the timeline has one bar per compile',
        `${c.marks} bars, ${c.rows} table rows, ${c.compiles} compiles`);
  check(c.inside && c.drawn, 'step 8: every bar is drawn inside the chart');
  check(c.recompileMarks === c.recompileRows && c.recompileMarks === c.recompiles && c.recompiles > 0,
        'step 8: one mark per recompile', `${c.recompileMarks} marks, ${c.recompiles} recompiles`);
  check(c.breakMarks === c.breakRows && c.breakMarks > 0, 'step 8: one mark per graph break',
        `${c.breakMarks} marks, ${c.breakRows} rows`);
  check(c.splitBars > 0 && c.segments === c.nonZeroCells,
        'step 8: where compile time went: one segment per non-zero part',
        `${c.segments} segments, ${c.nonZeroCells} non-zero cells in ${c.splitBars} rows`);
  check(c.perfetto === 'https://ui.perfetto.dev/' && /Open trace file/.test(c.help) &&
        /chromium_events\.json/.test(c.help), 'step 8: Perfetto link and how to load the trace',
        c.perfetto);
  const bar = p.locator('svg.timeline a').first();
  const href = await bar.getAttribute('href');
  if (check(METRICS_ANY_RE.test(href || ''), 'step 8: a bar links its metrics page', href)) {
    await Promise.all([p.waitForURL(/compilation_metrics_\d+\.html$/, { waitUntil: 'load' }),
                       bar.locator('rect').click()]);
    check(COMPILE_ID_RE.test(await p.textContent('body')), 'step 8: the bar opens the metrics page',
          p.url());
  }
  await p.close();
});

// ---------------------------------------------------------------- step 9
// The multi-rank landing page: one bar per rank with records.
if (ranksDir) {
  await step('step 9: compile time per rank', async () => {
    const p = await context.newPage();
    await p.goto(pathToFileURL(path.join(ranksDir, 'index.html')).href, { waitUntil: 'load' });
    const r = await p.evaluate(() => {
      const rows = [...document.querySelectorAll('table.frames tr')].slice(1);
      const withRecords = rows.filter((tr) => tr.cells.length > 2);
      const bars = [...document.querySelectorAll('svg.ranks rect.mark')];
      const labels = [...document.querySelectorAll('svg.ranks text.total-label')].map((t) => t.textContent);
      const seconds = withRecords.map((tr) => tr.cells[5].textContent);
      return { rows: withRecords.length, bars: bars.length,
               widths: bars.map((b) => b.getBBox().width),
               match: labels.every((l, i) => l.startsWith(`${seconds[i]} s:`)), labels };
    });
    check(r.bars > 0 && r.bars === r.rows && r.widths.every((w) => w > 0) && r.match,
          'step 9: one bar per rank, labelled with its compile time', JSON.stringify(r));
    await p.close();
  });
}

// ---------------------------------------------------------------- step 10
// The record browser: from file:// it asks for raw.jsonl; then every record
// is listed, filters go into the address and back, describe_source is joined
// to its describe_tensor and interned file names are spelled out.
async function recordBrowser(dir, label) {
  const rawPath = path.join(dir, 'raw.jsonl');
  const lines = fs.readFileSync(rawPath, 'utf8').split('\n').filter((l) => l.length > 0);
  const table = JSON.parse(lines[0]).string_table;
  const records = lines.slice(1).map((l) => JSON.parse(l));
  const recordsUrl = pathToFileURL(path.join(dir, 'records.html')).href;
  const cidOf = (r) => `[${r.frame_id}/${r.frame_compile_id}${r.attempt ? `_${r.attempt}` : ''}]`;
  const p = await context.newPage();
  const openWith = async (url) => {
    await p.goto('about:blank');  // a fresh page, not a change of #fragment
    await p.goto(url, { waitUntil: 'load' });
    await p.waitForSelector('#rec-open:not([hidden])');
    await p.setInputFiles('#rec-file', rawPath);
    await p.waitForFunction(() => /^[\d,]+ records, \d+ keys$/.test(document.getElementById('rec-status').textContent));
  };
  const rows = () => p.evaluate(() => [...document.querySelectorAll('#rec-rows tr')].map((tr) =>
    ({ n: tr.cells[0].textContent, cid: tr.cells[1].textContent, key: tr.cells[2].textContent,
       joined: tr.cells[4].textContent, json: tr.querySelector('pre').textContent })));
  await openWith(recordsUrl);
  const total = await p.evaluate(() => parseInt(document.getElementById('rec-status').textContent.replace(/,/g, ''), 10));
  check(total === records.length, `step 10 (${label}): every record of raw.jsonl is indexed`,
        `${total} indexed, ${records.length} in raw.jsonl`);
  const first = await rows();
  check(first.length === Math.min(100, records.length) && first[0].n === '1',
        `step 10 (${label}): the first page lists the first records`, `${first.length} rows`);
  const withFile = first.find((r) => /"filename": "/.test(r.json));
  check(!!withFile && table.some((f) => withFile.json.includes(JSON.stringify(`${f} [#${table.indexOf(f)}]`))),
        `step 10 (${label}): interned file names are resolved`,
        withFile ? (withFile.json.match(/"filename": "[^"]*"/) || [''])[0] : 'none');
  // Filter by key: the address says so and every row is of that key.
  await p.selectOption('#rec-key', 'describe_tensor');
  await p.waitForFunction(() => /key=describe_tensor/.test(location.hash));
  const tensors = await rows();
  const wantTensors = records.filter((r) => 'describe_tensor' in r).length;
  check(tensors.length === Math.min(100, wantTensors) && tensors.every((r) => r.key === 'describe_tensor'),
        `step 10 (${label}): filter by key`, `${tensors.length} rows, ${wantTensors} describe_tensor records`);
  // A link with key and compile id reproduces the view in a fresh page.
  const cid = tensors[0].cid;
  const link = `${recordsUrl}#key=describe_tensor&cid=${encodeURIComponent(cid)}`;
  await openWith(link);
  const view = await rows();
  const sameCid = records.filter((r) => 'describe_tensor' in r && cidOf(r) === cid).length;
  const filters = await p.evaluate(() => [document.getElementById('rec-key').value, document.getElementById('rec-cid').value]);
  check(view.length === sameCid && view.every((r) => r.cid === cid && r.key === 'describe_tensor') &&
        filters[0] === 'describe_tensor' && filters[1] === cid,
        `step 10 (${label}): a link with filters shows the same records`, `${view.length} rows of ${cid}`);
  // The join: each tensor shows the source its describe_source gives.
  const want = new Map(records.filter((r) => 'describe_source' in r && cidOf(r) === cid)
    .map((r) => [`${r.describe_source.describer_id}|${r.describe_source.id}`, r.describe_source.source]));
  const joinedOk = view.every((r) => {
    const t = JSON.parse(r.json).describe_tensor;
    const id = `${t.describer_id}|${t.id}`;
    return want.has(id) ? r.joined.startsWith(`source ${want.get(id)} (record `) : r.joined === '';
  });
  check(want.size > 0 && joinedOk, `step 10 (${label}): describe_source joined to its describe_tensor`,
        view.slice(0, 3).map((r) => r.joined).join(' | '));
  // Paging keeps its place in the address.
  await openWith(recordsUrl);
  if (records.length > 100) {
    await p.click('#rec-next');
    await p.waitForFunction(() => /page=2/.test(location.hash));
    const second = await rows();
    check(second.length === Math.min(100, records.length - 100) && second[0].n === '101',
          `step 10 (${label}): the next page`, `${second.length} rows from ${second[0] && second[0].n}`);
  }
  await p.close();
}
await step('step 10: record browser', () => recordBrowser(reportDir, 'example'));
if (recordedDir) await step('step 10: record browser', () => recordBrowser(recordedDir, 'recorded'));
if (corpusDir) await step('step 10: record browser', () => recordBrowser(corpusDir, 'corpus'));

// ---------------------------------------------------------------- step 11
// Every page fits 1000 and 1400 px windows: no table wider than the window,
// no page wider than it; long names wrap between their parts (no cell wraps
// anywhere inside a token); chart labels at least 12 px; the record
// browser of a log without ranks has no Rank column; a metrics page shows
// its times before its file list.
async function layout(width) {
  const pages = [['index', path.join(reportDir, 'index.html')]];
  const firstMetrics = (dir) => {
    for (const d of fs.readdirSync(dir).filter((x) => /_\d+_\d+_\d+$/.test(x)).sort()) {
      const f = fs.readdirSync(path.join(dir, d)).find((x) => /^compilation_metrics/.test(x));
      if (f) return path.join(dir, d, f);
    }
    return null;
  };
  if (firstMetrics(reportDir)) pages.push(['metrics', firstMetrics(reportDir)]);
  if (wideDir) {
    pages.push(['wide index', path.join(wideDir, 'index.html')]);
    pages.push(['wide metrics', firstMetrics(wideDir)]);
  }
  if (ranksDir) pages.push(['multi-rank landing', path.join(ranksDir, 'index.html')]);
  const p = await context.newPage();
  await p.setViewportSize({ width, height: 900 });
  const measure = () => p.evaluate((w) => {
    // Folded parts too: every <details> opened first.
    document.querySelectorAll('details').forEach((d) => { d.open = true; });
    const tables = [...document.querySelectorAll('table')].filter((t) => t.offsetParent !== null)
      .map((t) => t.getBoundingClientRect().right);
    const anywhere = [...document.querySelectorAll('td, td code, p code, li code')]
      .filter((e) => getComputedStyle(e).overflowWrap === 'anywhere' || getComputedStyle(e).wordBreak === 'break-all').length;
    const labels = [...document.querySelectorAll('svg.chart text')].map((t) => parseFloat(getComputedStyle(t).fontSize));
    const h2 = [...document.querySelectorAll('h2')].map((h) => h.textContent);
    return { page: document.documentElement.scrollWidth, widest: Math.max(0, ...tables), anywhere,
             smallest: labels.length ? Math.min(...labels) : 99, h2 };
  }, width);
  for (const [name, file] of pages) {
    if (!file) continue;
    await p.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    const m = await measure();
    check(m.page <= width && m.widest <= width + 1, `step 11: ${name} fits ${width} px`,
          `page ${m.page}, widest table ${Math.round(m.widest)}`);
    check(m.anywhere === 0, `step 11: ${name} breaks no token anywhere at ${width} px`, `${m.anywhere} cells`);
    check(m.smallest >= 12, `step 11: ${name} chart labels of 12 px or more`, `${m.smallest} px`);
    if (name === 'metrics' || name === 'wide metrics') {
      const t = m.h2.findIndex((h) => /Compile time/.test(h)), o = m.h2.findIndex((h) => /Output files/.test(h));
      check(t >= 0 && o > t, `step 11: ${name} shows times before the file list`, m.h2.join(' | '));
    }
  }
  // The record browser, its records loaded.
  await p.goto('about:blank');
  await p.goto(pathToFileURL(path.join(reportDir, 'records.html')).href, { waitUntil: 'load' });
  await p.waitForSelector('#rec-open:not([hidden])');
  await p.setInputFiles('#rec-file', path.join(reportDir, 'raw.jsonl'));
  await p.waitForFunction(() => /^[\d,]+ records, \d+ keys$/.test(document.getElementById('rec-status').textContent));
  const m = await measure();
  check(m.page <= width && m.widest <= width + 1, `step 11: record browser fits ${width} px`,
        `page ${m.page}, widest table ${Math.round(m.widest)}`);
  const rankShown = await p.evaluate(() => getComputedStyle(document.querySelector('th.rec-rank')).display !== 'none');
  check(!rankShown, `step 11: no Rank column for a log without ranks at ${width} px`);
  await p.close();
}
for (const width of [1000, 1400]) await step(`step 11: pages at ${width} px`, () => layout(width));

// ---------------------------------------------------------------- step 3
check(badRequests.length === 0, 'step 3: every request stayed on file://',
      badRequests.length
        ? `${badRequests.length} non-file request(s): ${[...new Set(badRequests)].slice(0, 5).join(', ')}`
        : `${requestCount} request(s)`);

check(errors.length === 0, 'no console errors or page errors',
      errors.length ? errors.slice(0, 10).join(' | ') : `${pagesSeen.size} page(s) visited`);

await context.close().catch(() => {});
fs.rmSync(userDataDir, { recursive: true, force: true });
finish();
