// Drives the system Chromium over review pages as an arbiter would: opens
// each page (timing it), checks the summary and the boards, filters,
// pages, moves with the keys, opens an item and steps through its moves,
// records two decisions and downloads the decisions file. Run by
// tests/browser.rs with one argument, a JSON file:
//   { chromium, by, screenshots?, pages: [{ name, path, downloads, items,
//     statuses: {status: n}, event: [event, status, n], player: [text, n],
//     query: [search, n], finals: [[title, fen]], decide: [{result, ground?, note}] }] }
// It prints one JSON line: per page { name, loadMs, decided: [title], csv }.
// A check that fails throws, and the process exits 1 saying which.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const browser = await puppeteer.launch({
  executablePath: config.chromium,
  headless: true,
  // No network at all: the page must need none.
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--proxy-server=127.0.0.1:9', '--proxy-bypass-list=<-loopback>'],
});

// The placement field of a FEN.
const placement = (fen) => String(fen).split(' ')[0];

async function run(spec) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const requests = [];
  page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) requests.push(r.url()); });
  const url = 'file://' + spec.path;
  const text = (sel) => page.$eval(sel, (e) => e.textContent);
  const shown = async () => Number(await text('#shown'));
  const onPage = () => page.$$eval('section.item', (s) => s.length);

  // Opening: from navigation to the first items drawn.
  const t0 = performance.now();
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('section.item');
  const loadMs = Math.round(performance.now() - t0);
  assert.equal(await shown(), spec.items, 'all items shown on opening');
  assert.equal(await onPage(), Math.min(50, spec.items), 'the first page holds 50 items');
  assert.equal(await text('#pages'), String(Math.max(1, Math.ceil(spec.items / 50))));
  assert.equal(await page.$eval('details.summary', (d) => d.open), false, 'the summary starts collapsed');
  if (config.screenshots) await page.screenshot({ path: path.join(config.screenshots, spec.name + '.png') });

  // Every item's board as the page draws it, at the decisive ply and at
  // the last ply replayed, against the FENs the Rust side wrote.
  const boards = await page.evaluate(() => window.review.items.map((it, i) => {
    const fen = (at) => (at ? window.review.fenOf(at.b) : null);
    const g = window.review.game(it);
    return [it.t, fen(window.review.boardAt(i)), it.fen || '', g.ok ? fen(window.review.boardAt(i, g.moves.length)) : null];
  }));
  const finals = new Map(spec.finals);
  assert.equal(boards.length, spec.items);
  let replayed = 0;
  for (const [title, decisive, fen, last] of boards) {
    // No FEN (a variant the tool does not judge): no board.
    assert.equal(decisive, fen ? placement(fen) : null, title + ': the board at the decisive ply');
    if (last !== null) {
      replayed++;
      assert.equal(last, placement(finals.get(title)), title + ': the board after the last ply replayed');
    }
  }
  assert.ok(replayed > 0, 'some games have moves to step through');

  // The counts filter when clicked; the summary opens first.
  await page.click('details.summary > summary');
  for (const [status, n] of Object.entries(spec.statuses)) {
    await page.click(`table button.count[data-status="${status}"]:not([data-event])`);
    assert.equal(await shown(), n, 'status count ' + status);
    assert.equal(await page.$eval('#f-status', (s) => s.value), status);
  }
  const [event, estatus, en] = spec.event;
  await page.click(`button.count[data-event="${event}"][data-status="${estatus}"]`);
  assert.equal(await shown(), en, 'event ' + event + ' ' + estatus);
  assert.equal(await page.$eval('#f-event', (s) => s.value), event);
  await page.click('details.summary > summary');
  await page.select('#f-status', '');
  await page.select('#f-event', '');
  assert.equal(await shown(), spec.items);

  // A player, typed.
  const [who, whoN] = spec.player;
  await page.type('#f-player', who);
  assert.equal(await shown(), whoN, 'player ' + who);
  const players = await page.$$eval('section.item h2', (h) => h.map((e) => e.textContent.toLowerCase()));
  assert.ok(players.every((p) => p.includes(who.toLowerCase())), 'only ' + who + "'s games: " + players);
  await page.$eval('#f-player', (e) => { e.value = ''; e.dispatchEvent(new Event('input', { bubbles: true })); });

  // The address sets the filters on opening.
  const [search, searchN] = spec.query;
  await page.goto(url + search);
  await page.waitForSelector('#shown');
  assert.equal(await shown(), searchN, 'filters from the address ' + search);
  await page.goto(url);
  await page.waitForSelector('section.item');

  // Keys: j / k select, n / p page.
  const selected = () => page.$eval('section.item.sel', (s) => Number(s.dataset.k));
  assert.equal(await selected(), 0);
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  assert.equal(await selected(), 2);
  await page.keyboard.press('k');
  assert.equal(await selected(), 1);
  await page.keyboard.press('ArrowDown');
  assert.equal(await selected(), 2);
  await page.keyboard.press('ArrowUp');
  if (spec.items > 50) {
    await page.keyboard.press('n');
    assert.equal(await text('#pageno'), '2');
    const firstOfTwo = await page.$eval('section.item h2', (h) => h.textContent);
    await page.keyboard.press('p');
    assert.equal(await text('#pageno'), '1');
    await page.click('button[data-page="next"]');
    assert.equal(await text('#pageno'), '2');
    assert.equal(await page.$eval('section.item h2', (h) => h.textContent), firstOfTwo);
    await page.click('button[data-page="last"]');
    assert.equal(await text('#pageno'), String(Math.ceil(spec.items / 50)));
    assert.equal(await onPage(), spec.items % 50 || 50);
    await page.click('button[data-page="first"]');
    await page.keyboard.press('n');
    await page.keyboard.press('j');
  }
  assert.equal(await selected(), 1);

  // Decision 1: the selected item, opened with o; the moves numbered, the
  // decisive ply outlined, the board stepping with the arrows.
  const by = config.by;
  await page.type('#by', by);
  await page.keyboard.press('Escape');
  await page.keyboard.press('o');
  await page.waitForSelector('section.item.open .form');
  const opened = await page.$eval('section.item.open', (s) => Number(s.dataset.i));
  const it = await page.evaluate((i) => { const x = window.review.items[i]; return { t: x.t, dp: x.dp, mk: x.mk, sf: x.sf || '', m: x.m || '', n: x.sq ? window.review.game(x).moves.length : 0 }; }, opened);
  const list = await page.$eval('section.item.open .moves', (p) => p.textContent.replace(/\s+/g, ' ').trim());
  if (it.m) {
    // "1. e4 e5 2. Nf3", from the start position's side and move number.
    const f = (it.sf || 'x w - - 0 1').split(' ');
    let white = f[1] !== 'b';
    let num = Number(f[5]);
    const words = [];
    it.m.split(' ').forEach((w, k) => {
      if (white) words.push(num + '.');
      else if (k === 0) words.push(num + '...');
      words.push(w);
      if (!white) num++;
      white = !white;
    });
    assert.equal(list, words.join(' '), 'the move list');
  }
  if (it.mk) {
    const mark = await page.$eval('section.item.open .moves .decisive', (a) => a.dataset.ply || null);
    // A ply not replayed (an illegal move that did not stand) is marked
    // but cannot be shown.
    assert.equal(mark, it.mk <= it.n ? String(it.mk) : null, 'the decisive ply outlined');
  }
  if (it.n > 0) {
    const atPly = () => page.$eval('section.item.open .at-ply', (p) => p.textContent);
    const board = () => page.$eval('section.item.open svg.board', (s) => [...s.querySelectorAll('text.piece')].map((t) => t.dataset.square + t.textContent).join(' '));
    const decisiveBoard = await board();
    // A move is named by its number and side ("after 41. Qxh7", "after
    // 41... Kg8"), never by a ply count.
    const named = async (k) => {
      const text = await atPly();
      if (!k) return assert.equal(text, 'the start position');
      const san = await page.$eval('section.item.open .moves a.ply[data-ply="' + k + '"]', (a) => a.textContent);
      assert.match(text, /^after \d+\.(\.\.)? \S+$/, text);
      assert.ok(text.endsWith(' ' + san), text + ' / ' + san);
      assert.ok(!text.includes('ply'), text);
    };
    await named(it.dp);
    await page.keyboard.press(it.dp > 0 ? 'ArrowLeft' : 'ArrowRight');
    const stepped = it.dp > 0 ? it.dp - 1 : 1;
    await named(stepped);
    assert.notEqual(await board(), decisiveBoard, 'the board moved');
    await page.click('section.item.open .moves a.ply[data-ply="1"]');
    await named(1);
    assert.equal(await page.$eval('section.item.open .moves .cur', (a) => a.dataset.ply), '1');
    await page.click('section.item.open button[data-step="' + (it.mk ? 'decisive' : it.dp ? 'last' : 'first') + '"]');
    assert.equal(await board(), decisiveBoard, 'back at the decisive ply');
  }
  const decided = [];
  async function decide(d) {
    const form = 'section.item.open .form';
    await page.select(form + ' select[data-d="res"]', d.result);
    if (d.ground) await page.type(form + ' input[data-d="rule"]', d.ground);
    await page.type(form + ' input[data-d="note"]', d.note);
    assert.equal(await page.$eval(form + ' input[data-d="rev"]', (c) => c.checked), true, 'a decision marks the item reviewed');
    decided.push(await page.$eval('section.item.open', (s) => window.review.items[Number(s.dataset.i)].t));
  }
  if (config.screenshots) await page.screenshot({ path: path.join(config.screenshots, spec.name + '-open.png') });
  await decide(spec.decide[0]);
  assert.equal(decided[0], it.t);

  // Decision 2: found by player, opened by its heading.
  await page.type('#f-player', spec.player[0]);
  const target = await page.$eval('section.item', (s) => Number(s.dataset.i));
  await page.click(`section.item[data-i="${target}"] h2 a`);
  await page.waitForSelector(`section.item.open[data-i="${target}"] .form`);
  await decide(spec.decide[1]);
  assert.notEqual(decided[0], decided[1], 'two games decided');
  // A third set to * is reviewed, kept, and not exported.
  await page.$eval('#f-player', (e) => { e.value = ''; e.dispatchEvent(new Event('input', { bubbles: true })); });
  const third = await page.evaluate((done) => {
    const s = [...document.querySelectorAll('section.item')].find((e) => {
      const x = window.review.items[Number(e.dataset.i)];
      return x.key && !done.includes(x.t);
    });
    return s ? Number(s.dataset.i) : -1;
  }, decided);
  assert.ok(third >= 0);
  await page.click(`section.item[data-i="${third}"] h2 a`);
  await page.waitForSelector(`section.item.open[data-i="${third}"] .form`);
  await page.select('section.item.open .form select[data-d="res"]', '*');
  assert.equal(await text('#ndec'), '2');
  assert.equal(await text('#msg'), '1 set to * (not exported)');
  await page.goto(url);
  await page.waitForSelector('section.item');

  // Kept across a reload: the marks, the name, the count to download.
  assert.equal(await text('#ndec'), '2');
  assert.equal(await page.$eval('#by', (e) => e.value), by);
  await page.select('#f-marked', 'decided');
  assert.equal(await shown(), 2, 'the marked filter lists the two decided');
  const badges = await page.$$eval('section.item .marks', (m) => m.map((e) => e.textContent));
  assert.deepEqual(badges.map((b) => b.startsWith('decided ')), [true, true], badges.join('|'));
  await page.select('#f-marked', 'open');
  assert.equal(await shown(), spec.items - 3, 'not yet reviewed: all but the three');
  // Reviewed only, with r: not a decision.
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await page.keyboard.press('r');
  assert.equal(await page.$eval('section.item.sel .marks', (m) => m.textContent), 'reviewed');
  await page.select('#f-marked', 'reviewed');
  assert.equal(await shown(), 4, 'two decided, one undecided, one reviewed');
  await page.select('#f-marked', '');

  // Download into a folder of the test's.
  const cdp = await page.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: spec.downloads });
  await page.click('#download');
  const file = path.join(spec.downloads, 'decisions.csv');
  for (let i = 0; i < 100 && !fs.existsSync(file); i++) await sleep(50);
  assert.ok(fs.existsSync(file), 'decisions.csv downloaded');
  const csv = fs.readFileSync(file, 'utf8');
  assert.match(await text('#msg'), /^2 decisions downloaded/);

  assert.deepEqual(errors, [], 'no script error');
  assert.deepEqual(requests, [], 'nothing fetched');
  await page.close();
  return { name: spec.name, loadMs, decided, csv };
}

const out = [];
try {
  for (const spec of config.pages) out.push(await run(spec));
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
