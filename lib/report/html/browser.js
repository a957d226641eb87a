/* The report page's script (runs in the reader's browser; plain ES2020, no dependency). Inlined into
 * index.html by lib/report/html/page.ts.
 *
 * It unpacks the catalogue (gzip-compressed JSON, lib/report/html/catalogue.ts), renders the requirements by
 * area and section and the scenarios by area with stable anchors (`#SIG-04`, `#SIG-04.a`) and links both
 * ways, filters rows by text, status, level and area, and follows anchors into closed groups. Lists that
 * are long and rarely read (the scenarios behind a rule checked on every exchange) are filled when opened.
 * Printing opens every group; `window.xs2aPrint()` does the same for `--pdf`. `<html data-ready>` says the
 * page is complete. */
/* global document, window, location, navigator, Response, Blob, DecompressionStream */
(async function () {
  'use strict';
  var root = document.documentElement;
  var box = document.getElementById('catalogue');
  var packed = document.getElementById('catalogue-data');
  var ORDER = JSON.parse(document.getElementById('statuses').textContent);
  var SEVERITY = ['FAIL', 'ERROR', 'WARNING', 'INTERRUPTED', 'NOT_EVALUATED', 'KNOWN_DEVIATION'];
  /** Past this many, the scenarios behind a requirement sit behind a toggle. */
  var INLINE = 6;

  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function badge(status) {
    return '<span class="b ' + esc(status) + '">' + esc(status) + '</span>';
  }
  function link(id) {
    return '<a href="#' + esc(id) + '">' + esc(id) + '</a>';
  }
  function rank(statuses) {
    var best = SEVERITY.length;
    statuses.forEach(function (s) {
      var k = SEVERITY.indexOf(s);
      if (k >= 0 && k < best) best = k;
    });
    return best;
  }
  function counts(statuses) {
    var tally = {};
    statuses.forEach(function (s) {
      tally[s] = (tally[s] || 0) + 1;
    });
    return ORDER.filter(function (s) {
      return tally[s];
    })
      .map(function (s) {
        return '<span>' + tally[s] + ' ' + badge(s) + '</span>';
      })
      .join('');
  }
  /** `closed`: a group that stays folded whatever it holds (the scenarios, which the top of the page lists by cause). */
  function group(id, title, statuses, body, closed) {
    var open = !closed && rank(statuses) < SEVERITY.length ? ' open' : '';
    return (
      '<details class="grp" id="' +
      esc(id) +
      '"' +
      open +
      '><summary>' +
      title +
      ' <span class="c"><span class="k"></span>' +
      counts(statuses) +
      '</span></summary>' +
      body +
      '</details>'
    );
  }
  /** `FMT-01!:2` → requirement FMT-01, failed, twice. */
  function invariant(token) {
    var m = /^([A-Z]{3}-\d+)([!?]?)(?::(\d+))?$/.exec(token) || [];
    return { id: m[1], verdict: m[2] === '!' ? 'FAIL' : m[2] === '?' ? 'NOT_EVALUATED' : 'PASS', count: Number(m[3] || 1) };
  }
  function tokens(v) {
    return v ? v.split(' ').map(invariant) : [];
  }

  function render(data) {
    var own = {},
      others = {};
    data.scenarios.forEach(function (s) {
      s.q.forEach(function (id) {
        (own[id] = own[id] || []).push(s.i);
      });
      tokens(s.v).forEach(function (c) {
        if (s.q.indexOf(c.id) < 0) (others[c.id] = others[c.id] || []).push(s.i);
      });
    });

    function requirementRow(r) {
      var notes = '';
      if (r.r) notes += '<div class="m">' + esc(r.r) + '</div>';
      if (r.d)
        notes +=
          '<div class="m">Deviation' +
          (r.d.u ? ' until ' + esc(r.d.u) : '') +
          (r.d.x ? ' (expired: no longer excuses a failure)' : '') +
          ': ' +
          esc(r.d.r) +
          ' · <a href="#deviations">deviations</a></div>';
      if (r.u) notes += '<div><strong>Listed as a deviation but passes now: remove it from the deviation list.</strong></div>';
      if (r.a) notes += '<div class="m">Attestation: <a href="#attestation-' + esc(r.i) + '">' + esc(r.a) + '</a></div>';
      if (r.o) notes += '<div class="m">Source: ' + esc(r.o) + '</div>';
      if (r.n) notes += '<div class="m">Interpretation: ' + esc(r.n) + '</div>';
      var gap = r.g ? '<span class="gap">fills a gap: ' + (r.g === 'berlin-group' ? 'Berlin Group' : esc(r.g)) + '</span>' : '';
      var mine = own[r.i] || [],
        theirs = others[r.i] || [];
      var links =
        theirs.length <= INLINE
          ? mine.concat(theirs).map(link).join(' ')
          : mine.map(link).join(' ') +
            '<details class="inv" data-r="' +
            esc(r.i) +
            '"><summary class="m">' +
            (mine.length ? '+ ' : '') +
            theirs.length +
            ' scenarios (judged on their exchanges)</summary></details>';
      return (
        '<tr id="' +
        esc(r.i) +
        '" data-s="' +
        esc(r.s) +
        '" data-l="' +
        esc(r.l) +
        '" data-a="' +
        esc(r.i.slice(0, 3)) +
        '"><td class="id q">' +
        esc(r.i) +
        '</td><td class="lv">' +
        esc(r.l) +
        gap +
        '</td><td class="st">' +
        badge(r.s) +
        '</td><td><span class="q">' +
        esc(r.t) +
        '</span>' +
        notes +
        '</td><td>' +
        links +
        '</td></tr>'
      );
    }

    function scenarioRow(s) {
      var total = tokens(s.v).reduce(function (n, c) {
        return n + c.count;
      }, 0);
      var checks =
        s.k.length || total
          ? '<details class="chk" data-v="' +
            esc(s.v) +
            '"><summary class="m">' +
            s.k.length +
            ' check' +
            (s.k.length === 1 ? '' : 's') +
            ' with what they saw' +
            (total ? ', ' + total + ' on every exchange' : '') +
            '</summary><table>' +
            s.k
              .map(function (c) {
                return (
                  '<tr><td class="id">' +
                  link(c[0]) +
                  '</td><td class="st">' +
                  badge(c[1]) +
                  '</td><td class="mono">' +
                  esc(c[2]) +
                  (c[3] > 1 ? ' <span class="m">×' + c[3] + '</span>' : '') +
                  '</td></tr>'
                );
              })
              .join('') +
            '</table></details>'
          : '';
      // A scenario with an evidence block at the top keeps its anchor there; its row points to it.
      return (
        '<tr' +
        (s.e ? '' : ' id="' + esc(s.i) + '"') +
        ' data-s="' +
        esc(s.s) +
        '" data-l="' +
        esc(s.l) +
        '" data-a="' +
        esc(s.i.slice(0, 3)) +
        '"><td class="id q">' +
        esc(s.i) +
        '</td><td class="st">' +
        badge(s.s) +
        '</td><td><span class="q">' +
        esc(s.t) +
        '</span> <span class="m">' +
        esc(s.f) +
        '</span>' +
        (s.e ? ' · <a href="#' + esc(s.i) + '">evidence</a>' : '') +
        (s.r ? '<div class="m">' + esc(s.r) + '</div>' : '') +
        '<div class="m">checks ' +
        s.q.map(link).join(' ') +
        '</div>' +
        checks +
        '</td></tr>'
      );
    }

    var byArea = {},
      areaOrder = [];
    data.requirements.forEach(function (r) {
      var area = r.i.slice(0, 3);
      if (!byArea[area]) {
        byArea[area] = [];
        areaOrder.push(area);
      }
      byArea[area].push(r);
    });
    var requirementGroups = areaOrder.map(function (area) {
      var rows = byArea[area],
        sections = {},
        sectionOrder = [];
      rows.forEach(function (r) {
        if (!sections[r.c]) {
          sections[r.c] = [];
          sectionOrder.push(r.c);
        }
        sections[r.c].push(r);
      });
      var body = sectionOrder
        .map(function (c) {
          var list = sections[c];
          return (
            '<div class="sect"><h3>' +
            esc(data.sections[c]) +
            ' <span class="c m">' +
            counts(
              list.map(function (r) {
                return r.s;
              }),
            ) +
            '</span></h3><table>' +
            list.map(requirementRow).join('') +
            '</table></div>'
          );
        })
        .join('');
      var statuses = rows.map(function (r) {
        return r.s;
      });
      return {
        rank: rank(statuses),
        html: group(
          'area-' + area,
          esc(area) + ' <span class="m">' + esc(data.areas[area] || '') + ' · ' + rows.length + '</span>',
          statuses,
          body,
        ),
      };
    });

    var scenariosByArea = {};
    data.scenarios.forEach(function (s) {
      (scenariosByArea[s.i.slice(0, 3)] = scenariosByArea[s.i.slice(0, 3)] || []).push(s);
    });
    var scenarioGroups = Object.keys(scenariosByArea)
      .sort()
      .map(function (area) {
        var list = scenariosByArea[area].slice().sort(function (x, y) {
          return rank([x.s]) - rank([y.s]) || x.i.localeCompare(y.i, 'en', { numeric: true });
        });
        var statuses = list.map(function (s) {
          return s.s;
        });
        return {
          rank: rank(statuses),
          html: group(
            'scenarios-' + area,
            esc(area) + ' <span class="m">' + esc(data.areas[area] || '') + ' · ' + list.length + '</span>',
            statuses,
            '<table>' + list.map(scenarioRow).join('') + '</table>',
            true,
          ),
        };
      });
    function ordered(groups) {
      return groups
        .sort(function (x, y) {
          return x.rank - y.rank;
        })
        .map(function (g) {
          return g.html;
        })
        .join('');
    }
    document.getElementById('declared-target').textContent = data.declaredTarget;
    document.getElementById('suite-files').textContent = data.suiteFiles;
    box.innerHTML =
      '<h2 id="requirements">Requirements by area and section</h2>' +
      ordered(requirementGroups) +
      '<h2 id="scenarios">Scenarios by area</h2>' +
      ordered(scenarioGroups);

    // Long lists are filled when opened: the scenarios behind a rule, the rules checked on a scenario's exchanges.
    box.addEventListener(
      'toggle',
      function (event) {
        var d = event.target;
        if (!d.open || d.dataset.filled) return;
        d.dataset.filled = '1';
        if (d.classList.contains('inv')) d.insertAdjacentHTML('beforeend', (others[d.dataset.r] || []).map(link).join(' '));
        if (d.classList.contains('chk') && d.dataset.v) {
          d.insertAdjacentHTML(
            'beforeend',
            '<div class="m">on every exchange: ' +
              tokens(d.dataset.v)
                .map(function (c) {
                  return link(c.id) + (c.verdict === 'PASS' ? '' : ' ' + badge(c.verdict)) + (c.count > 1 ? ' ×' + c.count : '');
                })
                .join(', ') +
              '</div>',
          );
        }
      },
      true,
    );
  }

  /** Base85 as lib/report/html/base85.ts writes it: Ascii85's alphabet with `v` for `<`. */
  function base85(text) {
    var digit = {},
      out = [];
    for (var d = 0; d < 85; d++) digit[d === 27 ? 'v' : String.fromCharCode(33 + d)] = d;
    for (var i = 0; i < text.length; i += 5) {
      var value = 0,
        n = Math.min(5, text.length - i);
      for (var j = 0; j < 5; j++) value = value * 85 + (j < n ? digit[text[i + j]] : 84);
      var bytes = [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
      for (var k = 0; k < n - 1; k++) out.push(bytes[k]);
    }
    return Uint8Array.from(out);
  }
  /** Columns back to rows: `{a: [1, 2], b: [null, 3]}` → `[{a: 1}, {a: 2, b: 3}]`. */
  function rowsOf(columns) {
    var keys = Object.keys(columns),
      count = keys.length ? columns[keys[0]].length : 0,
      rows = [];
    for (var i = 0; i < count; i++) {
      var row = {};
      keys.forEach(function (key) {
        if (columns[key][i] !== null) row[key] = columns[key][i];
      });
      rows.push(row);
    }
    return rows;
  }

  if (box && packed) {
    try {
      var compressed = base85(packed.textContent.trim());
      var data = JSON.parse(await new Response(new Blob([compressed]).stream().pipeThrough(new DecompressionStream('gzip'))).text());
      data.requirements = rowsOf(data.requirements);
      data.scenarios = rowsOf(data.scenarios);
      render(data);
    } catch (error) {
      box.textContent = 'This browser could not unpack the catalogue (' + error + '); results.json holds it all.';
    }
  }

  var q = document.getElementById('q'),
    fs = document.getElementById('fs'),
    fl = document.getElementById('fl'),
    fa = document.getElementById('fa'),
    shown = document.getElementById('shown');
  var rows = [].slice.call(document.querySelectorAll('#catalogue [data-s]'));
  var groups = [].slice.call(document.querySelectorAll('#catalogue details.grp'));
  var sects = [].slice.call(document.querySelectorAll('#catalogue .sect'));
  var filtering = false;
  groups.forEach(function (g) {
    g.initiallyOpen = g.open;
  });
  rows.forEach(function (r) {
    r.searchText = [].map
      .call(r.querySelectorAll('.q'), function (e) {
        return e.textContent;
      })
      .join(' ')
      .toLowerCase();
  });
  function apply() {
    var t = q.value.trim().toLowerCase(),
      s = fs.value,
      l = fl.value,
      a = fa.value,
      on = Boolean(t || s || l || a),
      n = 0;
    rows.forEach(function (r) {
      var ok =
        (!s || r.dataset.s === s) &&
        (!l || (' ' + r.dataset.l + ' ').indexOf(' ' + l + ' ') >= 0) &&
        (!a || r.dataset.a === a) &&
        (!t || r.searchText.indexOf(t) >= 0);
      r.hidden = !ok;
      if (ok) n++;
    });
    sects.forEach(function (x) {
      x.hidden = on && !x.querySelector('[data-s]:not([hidden])');
    });
    groups.forEach(function (g) {
      var k = g.querySelectorAll('[data-s]:not([hidden])').length;
      g.hidden = on && k === 0;
      // Filtering opens the groups with matches; clearing the filters brings back how the page opened.
      if (on) g.open = k > 0;
      else if (filtering) g.open = g.initiallyOpen;
      var c = g.querySelector('.k');
      if (c) c.textContent = on ? k + ' shown · ' : '';
    });
    shown.textContent = on ? n + ' of ' + rows.length + ' rows shown' : rows.length + ' rows';
    filtering = on;
  }
  function clear() {
    q.value = '';
    fs.value = '';
    fl.value = '';
    fa.value = '';
    apply();
  }
  [q, fs, fl, fa].forEach(function (e) {
    e.addEventListener('input', apply);
  });
  document.getElementById('clear').addEventListener('click', clear);

  function follow() {
    var id = decodeURIComponent(location.hash.slice(1)),
      el = id && document.getElementById(id);
    if (!el) return;
    if (el.closest('[hidden]')) clear();
    for (var p = el.parentElement; p; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true;
    document.querySelectorAll('.hit').forEach(function (e) {
      e.classList.remove('hit');
    });
    el.classList.add('hit');
    el.scrollIntoView({ block: 'start' });
  }
  window.addEventListener('hashchange', follow);
  document.addEventListener('click', function (event) {
    var button = event.target.closest && event.target.closest('button[data-copy]');
    if (button && navigator.clipboard) {
      navigator.clipboard.writeText(document.getElementById(button.dataset.copy).textContent).then(function () {
        button.textContent = 'copied';
      });
    }
  });

  var closed = [];
  window.xs2aPrint = function () {
    closed = groups.filter(function (g) {
      return !g.open;
    });
    closed.forEach(function (g) {
      g.open = true;
    });
  };
  window.addEventListener('beforeprint', window.xs2aPrint);
  window.addEventListener('afterprint', function () {
    closed.forEach(function (g) {
      g.open = false;
    });
    closed = [];
  });
  apply();
  follow();
  root.dataset.ready = '1';
})();
