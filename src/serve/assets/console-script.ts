/**
 * The console's browser script (served as /assets/console.js; plain JavaScript, no build step):
 * live refresh of a page's <main> by polling the page itself, uPlot charts drawn from the JSON a
 * page embeds, and the operator's buttons and forms, sent with the session's CSRF token. A button
 * `data-post` sends its POST with the body its `data-payload-from` (a textarea's JSON),
 * `data-ids-from` (the ticked rows' ids) or `data-body` (a JSON body of the page's own) gives,
 * after `data-confirm` (where `{count}` is the number of rows ticked); `data-then` says what
 * follows: `refresh` the page in place, `run` the run started, or an address.
 */
export const CONSOLE_SCRIPT = `
(function () {
  'use strict';
  var csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || '';

  function charts(root) {
    root.querySelectorAll('[data-chart]').forEach(function (el) {
      var data = JSON.parse(document.getElementById(el.getAttribute('data-chart')).textContent);
      el.innerHTML = '';
      if (!window.uPlot || data.x.length === 0) {
        el.innerHTML = '<p class="muted">' + (data.empty || 'No data yet.') + '</p>';
        return;
      }
      var opts = {
        width: Math.max(320, el.clientWidth - 8), height: 200,
        series: [{}].concat(data.series.map(function (s) {
          return { label: s.label, stroke: s.color, fill: s.fill, width: 2, points: { show: false } };
        })),
        axes: [{}, { label: data.yLabel || '' }],
        scales: { x: { time: true } }
      };
      new window.uPlot(opts, [data.x].concat(data.ys), el);
    });
  }

  /** A form field changed from what the page was served with (a pick, a ticked box, a file). */
  function changed(f) {
    if (f.type === 'file') return f.files && f.files.length > 0;
    if (f.type === 'checkbox' || f.type === 'radio') return f.checked !== f.defaultChecked;
    if (f.tagName === 'SELECT') {
      // With no option marked selected, the first one is the served value.
      var served = Array.prototype.findIndex.call(f.options, function (o) { return o.defaultSelected; });
      return f.selectedIndex !== Math.max(served, 0);
    }
    return f.value !== f.defaultValue;
  }

  /** The person is doing something on the page: a refresh now would throw it away. */
  function busy(root) {
    var active = document.activeElement;
    var fields = root.querySelectorAll('input, select, textarea');
    return Array.prototype.some.call(fields, changed) ||
      root.querySelector('[data-keep]:focus-within, [data-editing]') ||
      (active && root.contains(active) && /INPUT|TEXTAREA|SELECT/.test(active.tagName));
  }

  /** Fetches the page again and puts its new <main> in place (the live refresh, and after an action). */
  function refresh(main, force) {
    return fetch(location.href, { headers: { accept: 'text/html' }, credentials: 'same-origin' })
      .then(function (res) { return res.ok || force ? res.text() : null; })
      .then(function (text) {
        if (!text || (!force && busy(main))) return;
        var next = new DOMParser().parseFromString(text, 'text/html').querySelector('main');
        if (next && next.innerHTML !== main.innerHTML) { main.innerHTML = next.innerHTML; charts(main); }
      })
      .catch(function () {});
  }

  function live() {
    var main = document.querySelector('main[data-live]');
    if (!main) return;
    var every = Number(main.getAttribute('data-live')) || 2000;
    setInterval(function () {
      if (document.hidden || busy(main)) return;
      refresh(main, false);
    }, every);
  }

  /** What an action did, above the page (a refresh of <main> does not wipe it). */
  function flash(tone, text, link) {
    var place = document.querySelector('[data-flash]');
    if (!place) return;
    place.className = 'flash notice ' + tone;
    place.textContent = text + ' ';
    if (link) { var a = document.createElement('a'); a.href = link.href; a.textContent = link.text; place.appendChild(a); }
  }

  function show(el, ok, text, link) {
    var out = el.closest('[data-action-scope]') || document;
    var place = out.querySelector('[data-result]');
    if (!place) { if (!ok) alert(text); return; }
    place.className = 'result notice ' + (ok ? 'ok' : 'bad');
    place.textContent = text + ' ';
    if (link) { var a = document.createElement('a'); a.href = link.href; a.textContent = link.text; place.appendChild(a); }
  }

  function send(el, url, body, headers) {
    el.disabled = true;
    var h = Object.assign({ 'x-csrf-token': csrf, accept: 'application/json' }, headers || {});
    return fetch(url, { method: 'POST', body: body, headers: h, credentials: 'same-origin' })
      .then(function (res) {
        return res.text().then(function (text) {
          var doc = null; try { doc = JSON.parse(text); } catch (e) { doc = null; }
          return { ok: res.ok, status: res.status, doc: doc };
        });
      })
      .finally(function () { el.disabled = false; });
  }

  function describe(r) {
    if (!r.ok) return (r.doc && r.doc.error ? r.doc.error.message : 'Failed (HTTP ' + r.status + ').');
    var d = r.doc || {};
    // What the action did, said by the answer: a flash outlives the status it would name.
    if (d.message) return d.message;
    if (d.entries && d.runs) {
      return 'Replayed ' + d.entries.length + ' dead letter(s): ' + d.delivered + ' delivered, ' +
        d.failed + ' failed again' + (d.stale ? ', ' + d.stale + ' stale' : '') + '.';
    }
    if (d.purged && typeof d.dryRun === 'boolean') {
      var items = d.purged.reduce(function (n, p) { return n + p.keys.length; }, 0);
      return 'Purged ' + d.purged.length + ' dead letter(s) of ' + items + ' item(s), unsent: ' +
        'the next run of their pipeline plans them again.';
    }
    if (d.status && d.runId) return 'Run ' + d.runId + ' is ' + d.status + '.';
    return d.message || 'Done.';
  }

  document.addEventListener('click', function (event) {
    var el = event.target.closest('button[data-post]');
    if (!el) return;
    event.preventDefault();
    var body, headers = {}, picked = 0;
    var from = el.getAttribute('data-payload-from');
    var picks = el.getAttribute('data-ids-from');
    if (from) {
      var text = document.getElementById(from).value;
      // Checked here, sent as typed: JSON.parse would round an amount of 20 digits.
      try { JSON.parse(text); body = '{"payload":' + text + '}'; }
      catch (e) { show(el, false, 'The payload is not valid JSON: ' + e.message); return; }
      headers['content-type'] = 'application/json';
    } else if (picks) {
      var ids = Array.prototype.map.call(document.querySelectorAll(picks + ':checked'), function (c) { return c.value; });
      if (ids.length === 0) { show(el, false, 'Select at least one dead letter first.'); return; }
      picked = ids.length;
      body = JSON.stringify({ ids: ids });
      headers['content-type'] = 'application/json';
    } else if (el.hasAttribute('data-body')) {
      body = el.getAttribute('data-body');
      headers['content-type'] = 'application/json';
    }
    // The confirmation names what goes: {count} is the number of rows ticked.
    var ask = el.getAttribute('data-confirm');
    if (ask && !confirm(ask.replace('{count}', String(picked)))) return;
    send(el, el.getAttribute('data-post'), body, headers).then(function (r) {
      var next = r.ok && el.getAttribute('data-then');
      var runId = r.doc && (r.doc.runId || (r.doc.runs && r.doc.runs[0] && r.doc.runs[0].runId));
      var link = runId ? { href: '/runs/' + encodeURIComponent(runId), text: 'Open run ' + runId } : null;
      if (next === 'refresh') {
        // The page as it is now: a replayed dead letter gone, a cancelled run, a paused schedule.
        // A replay whose items failed again is no success to paint green.
        flash(r.doc && r.doc.failed > 0 ? 'warn' : 'ok', describe(r), link);
        refresh(document.querySelector('main'), true);
        return;
      }
      show(el, r.ok, describe(r), link);
      if (next === 'run' && runId) location.href = '/runs/' + encodeURIComponent(runId);
      else if (next) location.href = next;
    });
  });

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!form.hasAttribute('data-upload')) return;
    event.preventDefault();
    var button = form.querySelector('button');
    var data = new FormData(form);
    send(button, form.getAttribute('action'), data).then(function (r) {
      var runId = r.doc && r.doc.runId;
      // A stopped import answers with the run it recorded: the link leads to its decision.
      var link = runId ? { href: '/runs/' + encodeURIComponent(runId), text: r.ok ? 'Follow it' : 'Open the stopped run ' + runId } : null;
      form.reset();
      if (!r.ok) {
        flash('bad', describe(r), link);
        refresh(document.querySelector('main'), true);
        return;
      }
      // Cleared (above): the file is sent, and a chosen file would hold the live refresh back.
      flash('ok', 'Import started: run ' + runId + '.', link);
      refresh(document.querySelector('main'), true);
    });
  });

  document.addEventListener('change', function (event) {
    var all = event.target.closest('input[data-select-all]');
    if (!all) return;
    document.querySelectorAll(all.getAttribute('data-select-all')).forEach(function (c) { c.checked = all.checked; });
  });

  document.addEventListener('input', function (event) {
    var area = event.target.closest('textarea[data-keep]');
    if (area) area.setAttribute('data-editing', '');
  });

  charts(document);
  live();
})();
`;
