'use strict';
// The review page's script: reads the items from the data element, draws
// a page of them at a time, and keeps the arbiter's marks and decisions in
// this browser's local storage. Nothing is fetched or sent anywhere.
(function () {
  const $ = (id) => document.getElementById(id);
  const DATA = JSON.parse($('data').textContent);
  const ITEMS = DATA.items;
  const RULES = DATA.rules;
  const PER = DATA.perPage || 50;
  const NONE = '(none)';
  const RESULTS = ['1-0', '0-1', '1/2-1/2'];
  const F = {
    status: $('f-status'), reason: $('f-reason'), event: $('f-event'),
    player: $('f-player'), marked: $('f-marked'),
  };
  const main = $('items');

  // ---- marks and decisions, kept between visits --------------------------
  // One entry per file: two review pages opened from different folders
  // keep apart. Within it, one entry per game key (a claim or finding: its
  // title), so a page written again for the same games finds them.
  const STORE = 'arbiter-review:' + location.pathname;
  let state = { by: '', d: {} };
  try {
    const s = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (s && typeof s === 'object' && s.d && typeof s.d === 'object') {
      state = { by: String(s.by || ''), d: s.d };
    }
  } catch (e) { /* no storage: marks last until the page closes */ }
  function save() {
    try {
      localStorage.setItem(STORE, JSON.stringify(state));
    } catch (e) {
      say('Not kept: this browser refuses local storage for this file. Download your decisions before closing it.');
    }
  }
  const idOf = (it) => it.key || ('t:' + it.t);
  const markOf = (it) => state.d[idOf(it)];
  function today() {
    const d = new Date();
    const two = (n) => String(n).padStart(2, '0');
    return d.getFullYear() + '-' + two(d.getMonth() + 1) + '-' + two(d.getDate());
  }
  const ruleOf = (it) => (it.ru || []).map((n) => (RULES[n] || [''])[0]).filter(Boolean).join('; ');

  // ---- boards --------------------------------------------------------------
  const SQ = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const FILES = 'abcdefgh';
  const GLYPH = { K: '♔', Q: '♕', R: '♖', B: '♗', N: '♘', P: '♙', k: '♚', q: '♛', r: '♜', b: '♝', n: '♞', p: '♟' };
  const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

  // A FEN's board (64 squares, a1 first: a piece letter or ''), side to
  // move and move number; null when it cannot be read.
  function parseFen(fen) {
    const parts = String(fen || '').trim().split(/\s+/);
    const rows = parts[0].split('/');
    if (rows.length !== 8) return null;
    const b = new Array(64).fill('');
    for (let r = 0; r < 8; r++) {
      let f = 0;
      for (const c of rows[r]) {
        if (c >= '1' && c <= '8') f += Number(c);
        else if (GLYPH[c] && f < 8) b[(7 - r) * 8 + f++] = c;
        else return null;
      }
      if (f !== 8) return null;
    }
    return { b, white: parts[1] !== 'b', move: Math.max(1, parseInt(parts[5], 10) || 1) };
  }

  // The replayed plies: two squares each (a castling is the king onto its
  // own rook), `=q` after a promotion.
  function decode(sq) {
    const out = [];
    for (let i = 0; i + 1 < sq.length;) {
      const from = SQ.indexOf(sq[i]);
      const to = SQ.indexOf(sq[i + 1]);
      i += 2;
      let promo = '';
      if (sq[i] === '=') { promo = sq[i + 1] || ''; i += 2; }
      if (from < 0 || to < 0) break;
      out.push({ from, to, promo });
    }
    return out;
  }

  const isWhite = (p) => p === p.toUpperCase();
  // Where a castling puts the king and the rook: [king, rook] or null.
  function castling(b, m) {
    const p = b[m.from];
    const q = b[m.to];
    if (!p || !q || p.toLowerCase() !== 'k' || q.toLowerCase() !== 'r' || isWhite(p) !== isWhite(q)) return null;
    const base = m.from & 56;
    const kingside = (m.to & 7) > (m.from & 7);
    return [base + (kingside ? 6 : 2), base + (kingside ? 5 : 3)];
  }

  // The board after move m, as the replay played it.
  function play(b, m) {
    const n = b.slice();
    const p = n[m.from];
    if (!p) return n;
    const c = castling(b, m);
    if (c) {
      const rook = n[m.to];
      n[m.from] = ''; n[m.to] = '';
      n[c[0]] = p; n[c[1]] = rook;
      return n;
    }
    // En passant: a pawn moving aside onto an empty square takes the pawn
    // beside it.
    if (p.toLowerCase() === 'p' && (m.from & 7) !== (m.to & 7) && !n[m.to]) n[(m.from & 56) + (m.to & 7)] = '';
    n[m.to] = m.promo ? (isWhite(p) ? m.promo.toUpperCase() : m.promo.toLowerCase()) : p;
    n[m.from] = '';
    return n;
  }

  // The squares a move marks: the king's own for a castling.
  function marked(b, m) {
    const c = castling(b, m);
    return [m.from, c ? c[0] : m.to];
  }

  // The game of an item, its positions computed once when first asked.
  function game(it) {
    if (it._g) return it._g;
    const start = parseFen(it.sf || START);
    const moves = typeof it.sq === 'string' ? decode(it.sq) : [];
    const pos = [start ? start.b : null];
    if (start) for (const m of moves) pos.push(play(pos[pos.length - 1], m));
    it._g = {
      pos, moves, ok: !!start && typeof it.sq === 'string',
      white: start ? start.white : true, move: start ? start.move : 1,
      san: it.m ? it.m.split(' ') : [],
    };
    return it._g;
  }

  // The board at ply k (the decisive position when k is undefined), and
  // the squares of the move into it.
  function boardAt(it, k) {
    const g = game(it);
    if (g.ok) {
      const ply = Math.max(0, Math.min(k === undefined ? it.dp || 0 : k, g.moves.length));
      return { b: g.pos[ply], last: ply > 0 ? marked(g.pos[ply - 1], g.moves[ply - 1]) : null, ply };
    }
    const f = it.fen ? parseFen(it.fen) : null;
    if (!f) return null;
    const last = it.lm && it.lm.length >= 4
      ? [FILES.indexOf(it.lm[0]) + 8 * (Number(it.lm[1]) - 1), FILES.indexOf(it.lm[2]) + 8 * (Number(it.lm[3]) - 1)]
      : null;
    return { b: f.b, last, ply: null };
  }

  function svg(b, last, px, label) {
    let h = '<svg class="board" viewBox="0 0 336 336" width="' + px + '" height="' + px + '" role="img" aria-label="' + esc(label) + '">';
    for (let r = 0; r < 8; r++) {
      for (let f = 0; f < 8; f++) {
        const i = r * 8 + f;
        const x = 16 + f * 40;
        const y = (7 - r) * 40;
        const light = (f + r) % 2 === 1;
        const mk = last && (last[0] === i || last[1] === i);
        const fill = mk ? (light ? '#f6eb72' : '#d8c84a') : (light ? '#f0d9b5' : '#b58863');
        h += '<rect x="' + x + '" y="' + y + '" width="40" height="40" fill="' + fill + '"' + (mk ? ' class="last"' : '') + '/>';
        if (b[i]) h += '<text x="' + (x + 20) + '" y="' + (y + 32) + '" class="piece" data-square="' + FILES[f] + (r + 1) + '">' + GLYPH[b[i]] + '</text>';
      }
    }
    for (let i = 0; i < 8; i++) {
      h += '<text x="8" y="' + ((7 - i) * 40 + 24) + '" class="coord">' + (i + 1) + '</text>';
      h += '<text x="' + (36 + i * 40) + '" y="333" class="coord">' + FILES[i] + '</text>';
    }
    return h + '</svg>';
  }

  // "41. Qxh7", "41... Qxh7" for ply k (1-based) of the item's game.
  function moveName(it, k) {
    const g = game(it);
    const i = k - 1 + (g.white ? 0 : 1);
    return (g.move + Math.floor(i / 2)) + (i % 2 === 0 ? '. ' : '... ') + (g.san[k - 1] || '?');
  }

  // ---- drawing the list ----------------------------------------------------
  function esc(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
  }
  const webAddress = (u) => typeof u === 'string' && /^https?:\/\/[^\s]+$/i.test(u);
  function host(u) {
    try { return new URL(u).host; } catch (e) { return u; }
  }

  let shown = [];   // indices into ITEMS that pass the filters
  let page = 0;
  let sel = 0;      // the selected item, by its place on the page
  let open = -1;    // the opened item, by index into ITEMS
  let ply = 0;      // the ply the opened item's board shows

  function badge(it) {
    const m = markOf(it);
    if (!m) return '';
    let s = '';
    if (RESULTS.includes(m.res)) s += '<span class="mark">decided ' + esc(m.res) + (it.key ? '' : ' (not exported: no game key)') + '</span>';
    else if (m.res) s += '<span class="mark">reviewed, undecided (*)</span>';
    else if (m.rev) s += '<span class="mark">reviewed</span>';
    if (m.note) s += '<span class="mark nokey" title="note">' + esc(m.note) + '</span>';
    return s;
  }

  function card(i, k) {
    const it = ITEMS[i];
    const isOpen = i === open;
    const at = boardAt(it, isOpen ? ply : undefined);
    let h = '<section class="item' + (k === sel ? ' sel' : '') + (isOpen ? ' open' : '') + '" data-i="' + i + '" data-k="' + k + '">';
    h += '<div class="pos">';
    if (at) {
      h += svg(at.b, at.last, isOpen ? 336 : 168, at.ply === null || at.ply === it.dp ? it.fen || '' : 'after ' + moveName(it, at.ply));
      if (isOpen && game(it).ok) {
        h += '<div class="step"><button type="button" data-step="first" title="the start position">start</button><button type="button" data-step="-1" title="previous move (←)">◀</button>'
          + '<button type="button" data-step="+1" title="next move (→)">▶</button><button type="button" data-step="last" title="the last move replayed">end</button>'
          + (it.mk ? ' <button type="button" data-step="decisive" title="the position the ruling turns on">decisive</button>' : '') + '</div>';
        h += '<div class="at-ply">' + (at.ply ? 'after ' + esc(moveName(it, at.ply)) : 'the start position') + '</div>';
      }
    }
    h += '</div><div class="info">';
    const players = it.w || it.b ? esc(it.w || '?') + ' – ' + esc(it.b || '?') : esc(it.t);
    h += '<h2><a href="#" data-open="' + i + '" title="open or close (o)">' + players + '</a></h2>';
    const src = [it.w || it.b ? it.t : '', it.e, it.d].filter(Boolean).map(esc).join(' · ');
    if (src) h += '<p class="src">' + src + '</p>';
    const facts = [];
    const fact = (key, label, v) => { if (v) facts.push('<span class="' + key + '">' + label + esc(v) + '</span>'); };
    if (it.rec && it.res) facts.push('<span class="recorded">recorded ' + esc(it.rec) + '</span> → <span class="result">' + esc(it.res) + '</span>');
    else fact('result', 'result ', it.res);
    fact('at', 'at ', it.at);
    if (it.wc || it.bc) fact('clocks', 'clocks ', 'White ' + (it.wc || '?') + ' · Black ' + (it.bc || '?'));
    h += '<p><span class="status status-' + esc(it.s || '') + '">' + esc(it.s || '') + '</span>' + (it.r ? ' · <span class="reason">' + esc(it.r) + '</span>' : '')
      + (facts.length ? ' · ' + facts.join(' · ') : '') + ' <span class="marks">' + badge(it) + '</span></p>';
    if (it.ru && it.ru.length) {
      h += '<dl class="rule">';
      for (const n of it.ru) { const r = RULES[n] || ['', '']; h += '<dt>' + esc(r[0]) + '</dt><dd>' + esc(r[1]) + '</dd>'; }
      h += '</dl>';
    }
    if (it.det) h += '<p class="detail">' + esc(it.det) + '</p>';
    let links = '';
    if (webAddress(it.url)) links += '<a class="site" href="' + esc(it.url) + '" rel="noopener noreferrer" target="_blank">the game on ' + esc(host(it.url)) + '</a>';
    if (it.pk) links += '<a class="packet" href="' + esc(it.pk) + '">packet (PDF)</a>';
    if (!isOpen) links += '<a href="#" data-open="' + i + '">moves and decision (o)</a>';
    if (links) h += '<p class="links">' + links + '</p>';
    if (isOpen) h += moves(it) + form(it, i);
    return h + '</div></section>';
  }

  function moves(it) {
    const g = game(it);
    if (!g.san.length) return '<p class="moves">No moves recorded.</p>';
    // A full move (number, White's ply, Black's) never breaks across lines.
    let h = '<p class="moves">';
    let white = g.white;
    let num = g.move;
    g.san.forEach((w, n) => {
      const k = n + 1;
      if (white) h += '<span class="fm"><span class="num">' + num + '.</span> ';
      else if (n === 0) h += '<span class="fm"><span class="num">' + num + '...</span> ';
      const cls = 'ply' + (k === it.mk ? ' decisive' : '') + (k === ply ? ' cur' : '');
      if (g.ok && k <= g.moves.length) h += '<a href="#" class="' + cls + '" data-ply="' + k + '">' + esc(w) + '</a>';
      else h += '<span class="' + cls + ' unplayed" title="not replayed">' + esc(w) + '</span>';
      if (!white || k === g.san.length) h += '</span> ';
      else h += ' ';
      if (!white) num++;
      white = !white;
    });
    h += '</p>';
    if (it.mk) h += '<p class="at-ply">The ruling turns on ' + esc(moveName(it, it.mk)) + ', outlined.</p>';
    return h;
  }

  function form(it, i) {
    const m = markOf(it) || {};
    let h = '<div class="form" data-form="' + i + '">';
    h += '<label><input type="checkbox" data-d="rev"' + (m.rev ? ' checked' : '') + '> reviewed</label>';
    if (it.key) {
      h += '<label>Result <select data-d="res"><option value="">no decision</option>';
      for (const r of RESULTS.concat(['*'])) h += '<option value="' + r + '"' + (m.res === r ? ' selected' : '') + '>' + (r === '*' ? '* (undecided: not exported)' : r) + '</option>';
      h += '</select></label>';
      h += '<label>Ground <input type="text" data-d="rule" value="' + esc(m.rule || '') + '" placeholder="' + esc(ruleOf(it) || 'the rule or ground') + '"></label>';
    }
    h += '<label class="note">Note <input type="text" data-d="note" value="' + esc(m.note || '') + '"></label>';
    if (!it.key) h += '<span class="at-ply">Not a game of adjudicate\'s (no game key): a decision here is kept in this browser but cannot be downloaded as a decision.</span>';
    return h + '</div>';
  }

  function render() {
    const pages = Math.max(1, Math.ceil(shown.length / PER));
    page = Math.max(0, Math.min(page, pages - 1));
    const slice = shown.slice(page * PER, page * PER + PER);
    sel = Math.max(0, Math.min(sel, slice.length - 1));
    main.innerHTML = slice.length
      ? slice.map((i, k) => card(i, k)).join('\n')
      : '<p class="none">' + (ITEMS.length ? 'No item matches these filters.' : 'Nothing here needs a person’s eye.') + '</p>';
    $('pageno').textContent = page + 1;
    $('pages').textContent = pages;
  }

  function redraw(i) {
    const el = main.querySelector('section[data-i="' + i + '"]');
    if (el) el.outerHTML = card(i, Number(el.dataset.k));
  }

  // ---- filters -------------------------------------------------------------
  const valueOf = (s) => s || NONE;
  function passes(it) {
    if (F.status.value && valueOf(it.s) !== F.status.value) return false;
    if (F.reason.value && valueOf(it.r) !== F.reason.value) return false;
    if (F.event.value && valueOf(it.e) !== F.event.value) return false;
    const who = F.player.value.trim().toLowerCase();
    if (who && !((it.w || '') + ' | ' + (it.b || '')).toLowerCase().includes(who)) return false;
    const m = markOf(it);
    switch (F.marked.value) {
      case 'open': return !m || (!m.rev && !m.res);
      case 'reviewed': return !!(m && (m.rev || m.res));
      case 'decided': return !!(m && RESULTS.includes(m.res));
      default: return true;
    }
  }

  function apply() {
    shown = [];
    for (let i = 0; i < ITEMS.length; i++) if (passes(ITEMS[i])) shown.push(i);
    $('shown').textContent = shown.length;
    page = 0;
    sel = 0;
    render();
    const q = new URLSearchParams();
    for (const k in F) if (F[k].value) q.set(k, F[k].value);
    // The address carries the filters, so a link can be shared; a browser
    // that refuses for a file keeps the old address.
    try { history.replaceState(null, '', q.toString() ? '?' + q : location.pathname); } catch (e) { /* kept */ }
  }

  const query = new URLSearchParams(location.search);
  for (const k in F) {
    if (query.has(k)) F[k].value = query.get(k);
    F[k].addEventListener('input', apply);
  }
  for (const b of document.querySelectorAll('button.count')) {
    b.addEventListener('click', () => {
      for (const k of ['status', 'reason', 'event']) F[k].value = b.dataset[k] || '';
      F.player.value = '';
      F.marked.value = '';
      apply();
      $('bar').scrollIntoView();
    });
  }

  // ---- moving about ----------------------------------------------------------
  function go(p) {
    const pages = Math.max(1, Math.ceil(shown.length / PER));
    if (p < 0 || p >= pages || p === page) return false;
    page = p;
    render();
    window.scrollTo(0, 0);
    return true;
  }
  function select(k) {
    const old = main.querySelector('section.sel');
    if (old) old.classList.remove('sel');
    sel = k;
    const el = main.querySelector('section[data-k="' + k + '"]');
    if (el) { el.classList.add('sel'); el.scrollIntoView({ block: 'nearest' }); }
  }
  function next(d) {
    const onPage = Math.min(PER, shown.length - page * PER);
    if (sel + d >= onPage) { if (go(page + 1)) select(0); return; }
    if (sel + d < 0) { if (go(page - 1)) select(Math.min(PER, shown.length - page * PER) - 1); return; }
    select(sel + d);
  }
  function toggle(i) {
    const was = open;
    open = was === i ? -1 : i;
    if (open >= 0) ply = ITEMS[open].dp || 0;
    if (was >= 0) redraw(was);
    if (open >= 0) redraw(open);
    const el = main.querySelector('section[data-i="' + i + '"]');
    if (el) { select(Number(el.dataset.k)); }
  }
  function step(d) {
    if (open < 0) return;
    const it = ITEMS[open];
    const g = game(it);
    if (!g.ok) return;
    const to = d === 'first' ? 0 : d === 'last' ? g.moves.length : d === 'decisive' ? it.dp || 0 : ply + Number(d);
    ply = Math.max(0, Math.min(to, g.moves.length));
    redraw(open);
  }

  main.addEventListener('click', (e) => {
    const t = e.target.closest('[data-open],[data-ply],[data-step],section');
    if (!t) return;
    if (t.dataset.open !== undefined) { e.preventDefault(); toggle(Number(t.dataset.open)); return; }
    if (t.dataset.ply !== undefined) { e.preventDefault(); ply = Number(t.dataset.ply); redraw(open); return; }
    if (t.dataset.step !== undefined) { step(t.dataset.step); return; }
    if (t.dataset.k !== undefined && Number(t.dataset.k) !== sel) select(Number(t.dataset.k));
  });
  for (const b of document.querySelectorAll('[data-page]')) {
    b.addEventListener('click', () => {
      const p = b.dataset.page;
      go(p === 'first' ? 0 : p === 'prev' ? page - 1 : p === 'next' ? page + 1 : Math.ceil(shown.length / PER) - 1);
    });
  }

  // ---- decisions -------------------------------------------------------------
  function setMark(i, field, value) {
    const it = ITEMS[i];
    const id = idOf(it);
    const m = state.d[id] || {};
    m[field] = value;
    if (field === 'res') {
      if (value) { m.on = today(); m.rev = true; } else delete m.on;
    }
    for (const k of Object.keys(m)) if (m[k] === '' || m[k] === false) delete m[k];
    if (Object.keys(m).length) state.d[id] = m; else delete state.d[id];
    save();
    const el = main.querySelector('section[data-i="' + i + '"]');
    if (el) {
      el.querySelector('.marks').innerHTML = badge(it);
      const rev = el.querySelector('[data-d="rev"]');
      if (rev) rev.checked = !!m.rev;
    }
    tally();
  }
  main.addEventListener('input', (e) => {
    const t = e.target;
    const f = t.closest('[data-form]');
    if (!f || !t.dataset.d) return;
    setMark(Number(f.dataset.form), t.dataset.d, t.type === 'checkbox' ? t.checked : t.value);
  });
  function toggleReviewed() {
    const i = shown[page * PER + sel];
    if (i === undefined) return;
    const m = markOf(ITEMS[i]);
    setMark(i, 'rev', !(m && m.rev));
  }

  // The decisions file `arbiter adjudicate --decisions` reads: one row per
  // game (two items of one game are one decision), results 1-0, 0-1 and
  // 1/2-1/2 only.
  function decisions() {
    const rows = [];
    const seen = new Set();
    let keyless = 0;
    let undecided = 0;
    for (const it of ITEMS) {
      const m = markOf(it);
      if (!m || !m.res) continue;
      if (!it.key) { keyless++; continue; }
      if (!RESULTS.includes(m.res)) { undecided++; continue; }
      if (seen.has(it.key)) continue;
      seen.add(it.key);
      rows.push([it.key, m.res, (m.rule || '').trim() || ruleOf(it) || 'arbiter decision', state.by.trim(), m.on || today(), (m.note || '').trim()]);
    }
    return { rows, keyless, undecided };
  }
  const cell = (s) => (/[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s);
  function csv(rows) {
    return ['game_key,result,rule,decided_by,decided_on,note'].concat(rows.map((r) => r.map(cell).join(','))).join('\n') + '\n';
  }
  function say(text) { $('msg').textContent = text; }
  function tally() {
    const d = decisions();
    $('ndec').textContent = d.rows.length;
    const notes = [];
    if (d.undecided) notes.push(d.undecided + ' set to * (not exported)');
    if (d.keyless) notes.push(d.keyless + ' on items with no game key (not exported)');
    say(notes.join('; '));
  }
  const by = $('by');
  by.value = state.by;
  by.addEventListener('input', () => { state.by = by.value; save(); });
  $('download').addEventListener('click', () => {
    const d = decisions();
    if (!d.rows.length) { say('No decision to download yet: open an item (o) and set its result.'); return; }
    if (!state.by.trim()) { say('Type who decided in “Decided by” first: a decisions file says who made each decision.'); by.focus(); return; }
    const url = URL.createObjectURL(new Blob([csv(d.rows)], { type: 'text/csv' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'decisions.csv';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
    say(d.rows.length + ' decision' + (d.rows.length === 1 ? '' : 's') + ' downloaded as decisions.csv: arbiter adjudicate --decisions decisions.csv applies them.');
  });
  if (!ITEMS.some((it) => it.key)) {
    $('download').disabled = true;
    say('Decisions download for games only: these items (claims, audit findings) have no game key. Marks and notes are kept in this browser.');
  }

  // ---- keys ----------------------------------------------------------------
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    const tag = t && t.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') {
      if (e.key === 'Escape') t.blur();
      return;
    }
    if ((tag === 'A' || tag === 'BUTTON') && (e.key === 'Enter' || e.key === ' ')) return;
    switch (e.key) {
      case 'j': case 'ArrowDown': next(1); break;
      case 'k': case 'ArrowUp': next(-1); break;
      case 'n': if (go(page + 1)) select(0); break;
      case 'p': if (go(page - 1)) select(0); break;
      case 'o': case 'Enter': { const i = shown[page * PER + sel]; if (i !== undefined) toggle(i); break; }
      case 'l': case 'ArrowRight': step(+1); break;
      case 'h': case 'ArrowLeft': step(-1); break;
      case 'r': toggleReviewed(); break;
      case '/': F.player.focus(); break;
      default: return;
    }
    e.preventDefault();
  });

  // For scripts that read the page (the tests): the items and the board
  // the page draws at any ply.
  function fenOf(b) {
    let s = '';
    for (let r = 7; r >= 0; r--) {
      let empty = 0;
      for (let f = 0; f < 8; f++) {
        const p = b[r * 8 + f];
        if (!p) { empty++; continue; }
        if (empty) { s += empty; empty = 0; }
        s += p;
      }
      if (empty) s += empty;
      if (r) s += '/';
    }
    return s;
  }
  window.review = { items: ITEMS, game, boardAt: (i, k) => boardAt(ITEMS[i], k), fenOf };

  apply();
  tally();
})();
