// The record browser (records.html). raw.jsonl is read in pieces (fetched
// when the report is served, picked by the user from file://); each record
// is indexed by key, compile id and rank in typed arrays, and only the page
// of records on screen is read back from the file and shown. Filters live in
// the address's #fragment, so a link reproduces the view. Text from the log
// is only ever set as textContent.
(function () {
  'use strict';
  var PAGE = 100;
  var CHUNK = 4 << 20;
  // Envelope fields that say where a record is from, not what it is.
  var FRAME_KEYS = {
    attempt: 1, frame_id: 1, frame_compile_id: 1, compiled_autograd_id: 1, rank: 1,
    has_payload: 1, lineno: 1, pathname: 1, thread: 1, timestamp: 1, subgraph_name: 1, stack: 1,
  };

  var $ = function (id) { return document.getElementById(id); };
  var state = {
    blob: null, strings: [], n: 0,
    offsets: new Float64Array(1024), lengths: new Uint32Array(1024),
    keyOf: new Uint16Array(1024), cidOf: new Uint32Array(1024), rankOf: new Int32Array(1024),
    keys: [], keyIds: new Map(), keyCounts: [],
    cids: [''], cidIds: new Map([['', 0]]),
    ranks: new Set(),
    tensors: new Map(),  // compile id | describer | tensor id -> row of its describe_tensor
    sources: new Map(),  // the same -> {source, row} of its describe_source
    filtered: null, page: 0, done: false,
  };

  function grow() {
    var cap = state.offsets.length * 2;
    ['offsets', 'lengths', 'keyOf', 'cidOf', 'rankOf'].forEach(function (f) {
      var a = new state[f].constructor(cap);
      a.set(state[f]);
      state[f] = a;
    });
  }

  // "[0/1]", "[0/1_2]" after restarts, "[!3/0/1]" under compiled autograd.
  function compileId(o) {
    if (o.frame_id === undefined && o.compiled_autograd_id === undefined) return '';
    var s = '[';
    if (o.compiled_autograd_id !== undefined && o.compiled_autograd_id !== null) s += '!' + o.compiled_autograd_id + '/';
    s += (o.frame_id === undefined || o.frame_id === null ? '-' : o.frame_id) + '/';
    s += (o.frame_compile_id === undefined || o.frame_compile_id === null ? '-' : o.frame_compile_id);
    if (o.attempt) s += '_' + o.attempt;
    return s + ']';
  }

  function keyName(o) {
    for (var k in o) if (!FRAME_KEYS[k]) return k;
    return o.stack ? 'stack' : '(none)';
  }

  function intern(map, list, value) {
    var id = map.get(value);
    if (id === undefined) {
      id = list.length;
      list.push(value);
      map.set(value, id);
    }
    return id;
  }

  function note(row, o, cid) {
    var t = o.describe_tensor, s = o.describe_source;
    if (t && typeof t === 'object') state.tensors.set(cid + '|' + t.describer_id + '|' + t.id, row);
    if (s && typeof s === 'object')
      state.sources.set(cid + '|' + s.describer_id + '|' + s.id, { source: s.source, row: row });
  }

  function addLine(text, offset, length) {
    if (state.n === 0 && state.strings.length === 0 && text.lastIndexOf('{"string_table"', 0) === 0) {
      try { state.strings = JSON.parse(text).string_table || []; } catch (e) { /* keep none */ }
      return;
    }
    var o = null;
    try { o = JSON.parse(text); } catch (e) { o = null; }
    if (state.n === state.offsets.length) grow();
    var i = state.n++;
    var key = o && typeof o === 'object' ? keyName(o) : '(unreadable)';
    var cid = o && typeof o === 'object' ? compileId(o) : '';
    var k = intern(state.keyIds, state.keys, key);
    state.keyCounts[k] = (state.keyCounts[k] || 0) + 1;
    state.offsets[i] = offset;
    state.lengths[i] = length;
    state.keyOf[i] = k;
    state.cidOf[i] = intern(state.cidIds, state.cids, cid);
    var rank = o && typeof o.rank === 'number' ? o.rank : -1;
    state.rankOf[i] = rank;
    if (rank >= 0) state.ranks.add(rank);
    if (o) note(i, o, cid);
  }

  async function scan(blob) {
    var decoder = new TextDecoder();
    var carry = null, carryAt = 0;
    for (var at = 0; at < blob.size; at += CHUNK) {
      var bytes = new Uint8Array(await blob.slice(at, Math.min(blob.size, at + CHUNK)).arrayBuffer());
      var start = 0;
      if (carry) {
        var joined = new Uint8Array(carry.length + bytes.length);
        joined.set(carry);
        joined.set(bytes, carry.length);
        bytes = joined;
      }
      var base = carry ? carryAt : at;
      for (var j = 0; j < bytes.length; j++) {
        if (bytes[j] !== 10) continue;
        if (j > start) addLine(decoder.decode(bytes.subarray(start, j)), base + start, j - start);
        start = j + 1;
      }
      carry = start < bytes.length ? bytes.slice(start) : null;
      carryAt = base + start;
      status('Read ' + mb(Math.min(blob.size, at + CHUNK)) + ' of ' + mb(blob.size) + ', ' +
             state.n.toLocaleString() + ' records');
      refreshChoices();
      applyFilters(false);
      await new Promise(function (r) { setTimeout(r, 0); });  // stay responsive
    }
    if (carry && carry.length) addLine(decoder.decode(carry), carryAt, carry.length);
    state.done = true;
    refreshChoices();
    applyFilters(false);
  }

  function mb(n) { return (n / 1048576).toFixed(1) + ' MB'; }
  function status(t) { $('rec-status').textContent = t; }

  function refreshChoices() {
    var sel = $('rec-key'), want = wanted().key;
    var order = state.keys.map(function (k, i) { return i; })
      .sort(function (a, b) { return state.keys[a] < state.keys[b] ? -1 : 1; });
    sel.length = 1;
    order.forEach(function (i) {
      var opt = document.createElement('option');
      opt.value = state.keys[i];
      opt.textContent = state.keys[i] + ' (' + state.keyCounts[i] + ')';
      sel.appendChild(opt);
    });
    sel.value = want;
    var ranks = $('rec-rank'), r = wanted().rank;
    ranks.length = 1;
    Array.from(state.ranks).sort(function (a, b) { return a - b; }).forEach(function (v) {
      var opt = document.createElement('option');
      opt.value = String(v);
      opt.textContent = String(v);
      ranks.appendChild(opt);
    });
    ranks.value = r;
    var list = $('rec-cids');
    if (list.childElementCount !== state.cids.length - 1) {
      list.textContent = '';
      state.cids.slice(1).forEach(function (c) {
        var opt = document.createElement('option');
        opt.value = c;
        list.appendChild(opt);
      });
    }
  }

  // The filters, as the address says.
  function wanted() {
    var p = new URLSearchParams(location.hash.replace(/^#/, ''));
    return { key: p.get('key') || '', cid: p.get('cid') || '', rank: p.get('rank') || '',
             page: Math.max(0, parseInt(p.get('page') || '1', 10) - 1) || 0 };
  }

  function setWanted(w) {
    var p = new URLSearchParams();
    if (w.key) p.set('key', w.key);
    if (w.cid) p.set('cid', w.cid);
    if (w.rank !== '') p.set('rank', w.rank);
    if (w.page) p.set('page', String(w.page + 1));
    var hash = p.toString();
    history.replaceState(null, '', hash ? '#' + hash : location.pathname + location.search);
  }

  function normalizeCid(c) {
    c = c.trim();
    if (c && c[0] !== '[') c = '[' + c + ']';
    return c;
  }

  function applyFilters(resetPage) {
    var w = wanted();
    $('rec-key').value = w.key;
    $('rec-cid').value = w.cid;
    $('rec-rank').value = w.rank;
    var k = w.key ? state.keyIds.get(w.key) : null;
    var c = w.cid ? state.cidIds.get(normalizeCid(w.cid)) : null;
    var r = w.rank === '' ? null : parseInt(w.rank, 10);
    var out = new Uint32Array(state.n), m = 0;
    var none = (w.key && k === undefined) || (w.cid && c === undefined);
    if (!none) {
      for (var i = 0; i < state.n; i++) {
        if (k !== null && state.keyOf[i] !== k) continue;
        if (c !== null && state.cidOf[i] !== c) continue;
        if (r !== null && state.rankOf[i] !== r) continue;
        out[m++] = i;
      }
    }
    state.filtered = out.subarray(0, m);
    var pages = Math.max(1, Math.ceil(m / PAGE));
    state.page = resetPage ? 0 : Math.min(w.page, pages - 1);
    render();
  }

  // A copy of the record with interned file names spelled out.
  function resolve(v) {
    if (Array.isArray(v)) return v.map(resolve);
    if (!v || typeof v !== 'object') return v;
    var out = {};
    for (var k in v) {
      if (k === 'filename' && typeof v[k] === 'number' && state.strings[v[k]] !== undefined)
        out[k] = state.strings[v[k]] + ' [#' + v[k] + ']';
      else out[k] = resolve(v[k]);
    }
    return out;
  }

  function joined(o, cid) {
    var t = o.describe_tensor, s = o.describe_source;
    if (t && typeof t === 'object') {
      var src = state.sources.get(cid + '|' + t.describer_id + '|' + t.id);
      return src ? 'source ' + src.source + ' (record ' + (src.row + 1) + ')' : '';
    }
    if (s && typeof s === 'object') {
      var row = state.tensors.get(cid + '|' + s.describer_id + '|' + s.id);
      return row === undefined ? 'no describe_tensor ' + s.id : 'tensor ' + s.id + ' (record ' + (row + 1) + ')';
    }
    return '';
  }

  function cell(tr, text, cls) {
    var td = document.createElement('td');
    if (cls) td.className = cls;
    td.textContent = text;
    tr.appendChild(td);
    return td;
  }

  var renderToken = 0;
  async function render() {
    var token = ++renderToken;
    var f = state.filtered, from = state.page * PAGE, to = Math.min(f.length, from + PAGE);
    var pages = Math.max(1, Math.ceil(f.length / PAGE));
    $('rec-page').textContent = f.length ? 'records ' + (from + 1).toLocaleString() + '-' +
      to.toLocaleString() + ' of ' + f.length.toLocaleString() + ' shown (' +
      state.n.toLocaleString() + ' in all), page ' + (state.page + 1) + ' of ' + pages
      : 'no record matches' + (state.done ? '' : ' yet');
    $('rec-prev').disabled = state.page === 0;
    $('rec-next').disabled = state.page + 1 >= pages;
    var texts = await Promise.all(Array.from(f.subarray(from, to), function (i) {
      return state.blob.slice(state.offsets[i], state.offsets[i] + state.lengths[i]).text();
    }));
    if (token !== renderToken) return;  // a newer view is on its way
    var body = $('rec-rows');
    body.textContent = '';
    texts.forEach(function (text, n) {
      var i = f[from + n];
      var tr = document.createElement('tr');
      tr.className = 'record';
      var o = null;
      try { o = JSON.parse(text); } catch (e) { o = null; }
      cell(tr, String(i + 1), 'rec-n');
      cell(tr, state.cids[state.cidOf[i]], 'rec-cid');
      cell(tr, state.keys[state.keyOf[i]], 'rec-key');
      cell(tr, state.rankOf[i] >= 0 ? String(state.rankOf[i]) : '', 'rec-rank');
      cell(tr, o ? joined(o, state.cids[state.cidOf[i]]) : '', 'rec-joined');
      var td = cell(tr, '', 'rec-json');
      var d = document.createElement('details');
      var s = document.createElement('summary');
      var shown = o ? JSON.stringify(resolve(o)) : text;
      s.textContent = shown.length > 240 ? shown.slice(0, 240) + '\u2026' : shown;
      var pre = document.createElement('pre');
      pre.textContent = o ? JSON.stringify(resolve(o), null, 2) : text;
      d.appendChild(s);
      d.appendChild(pre);
      td.appendChild(d);
      body.appendChild(tr);
    });
    // One rank (or none named): no Rank column, no Rank filter.
    var oneRank = state.ranks.size <= 1;
    $('rec-table').classList.toggle('no-ranks', oneRank);
    $('rec-filters').classList.toggle('no-ranks', oneRank);
    if (state.done) status(state.n.toLocaleString() + ' records, ' + state.keys.length + ' keys');
  }

  function change() {
    setWanted({ key: $('rec-key').value, cid: $('rec-cid').value.trim(), rank: $('rec-rank').value, page: 0 });
    applyFilters(true);
  }

  function open(blob) {
    state.blob = blob;
    $('rec-open').hidden = true;
    scan(blob).catch(function (e) { status('raw.jsonl could not be read: ' + e); });
  }

  $('rec-key').addEventListener('change', change);
  $('rec-rank').addEventListener('change', change);
  $('rec-cid').addEventListener('change', change);
  $('rec-filters').addEventListener('submit', function (e) { e.preventDefault(); change(); });
  $('rec-clear').addEventListener('click', function () {
    setWanted({ key: '', cid: '', rank: '', page: 0 });
    applyFilters(true);
  });
  $('rec-prev').addEventListener('click', function () {
    var w = wanted(); w.page = Math.max(0, state.page - 1); setWanted(w); applyFilters(false);
  });
  $('rec-next').addEventListener('click', function () {
    var w = wanted(); w.page = state.page + 1; setWanted(w); applyFilters(false);
  });
  window.addEventListener('hashchange', function () { if (state.blob) applyFilters(false); });
  $('rec-file').addEventListener('change', function () {
    if (this.files && this.files[0]) open(this.files[0]);
  });

  function askForFile(why) {
    $('rec-open').hidden = false;
    status(why);
  }
  if (location.protocol === 'file:') {
    askForFile('Pick raw.jsonl to begin.');
  } else {
    fetch('raw.jsonl').then(function (r) {
      if (!r.ok) throw new Error('HTTP ' + r.status);
      return r.blob();
    }).then(open, function (e) { askForFile('raw.jsonl could not be fetched (' + e.message + '): pick it.'); });
  }
})();
