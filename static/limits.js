// The limits page (www/limits.html): "What this playground does not model", written from
// i18n/limits/LANG.txt — the list of docs/architecture.md's section 6 in the page's
// language (tests/limits.rs checks the English file against the doc, item for item, and
// Korean and Thai against English). The language is chosen as on the other pages:
// `?lang=`, else the first of the browser's languages we have, else English; an entry
// a language lacks is shown in English. `limits.GROUP` is a heading (its id GROUP is the
// anchor the panels' hints link to, which opens the group; a source path in it is shown
// as a code line under it), `summary.GROUP` its plain-language summary above the
// list, folded in a `<details>`, `limits.GROUP.ITEM` an item, `page.*` the page's own words. Text between backticks is code. The text is set as text, never as HTML.
(function () {
  'use strict';
  var LANGS = { en: 'English', ko: '한국어', th: 'ไทย' };
  var code = function (l) { return String(l).trim().split(/[-_]/)[0].toLowerCase(); };
  var params = new URLSearchParams(location.search);
  var asked = code(params.get('lang') || '');
  var lang = LANGS[asked]
    ? asked
    : [].concat(navigator.languages || [], navigator.language || []).map(code).filter(function (l) {
        return LANGS[l];
      })[0] || 'en';
  document.documentElement.lang = lang;

  // The catalogs' format (src/i18n/catalog/en.txt): `id = text` a line, `#` comments,
  // escapes \s \n \\ \{ \} \|. Returns [[id, text], …] in the file's order.
  function parse(source) {
    var out = [];
    source.split('\n').forEach(function (line) {
      var t = line.trim();
      if (!t || t.charAt(0) === '#') return;
      var at = t.indexOf('=');
      if (at < 0) return;
      var value = t.slice(at + 1).trim().replace(/\\(.)/g, function (_, c) {
        return c === 's' ? ' ' : c === 'n' ? '\n' : c;
      });
      out.push([t.slice(0, at).trim(), value]);
    });
    return out;
  }

  function get(url) {
    return fetch(url).then(function (r) {
      if (!r.ok) throw new Error(url + ': HTTP ' + r.status);
      return r.text();
    });
  }

  function el(name, attrs, children) {
    var e = document.createElement(name);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) {
      e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return e;
  }

  // `code` between backticks as <code>, the rest as text.
  function prose(name, attrs, text) {
    return el(name, attrs, text.split('`').map(function (part, i) {
      return i % 2 ? el('code', {}, [part]) : part;
    }));
  }

  function inLang(href) {
    return lang === 'en' ? href : href + '?lang=' + lang;
  }

  function render(entries, english) {
    var words = {};
    english.concat(entries).forEach(function (e) { words[e[0]] = e[1]; });
    var w = function (id) { return words[id] || id; };
    var main = document.getElementById('limits');
    main.textContent = '';
    document.title = w('page.title') + ' · Exactly-once playground';
    var nav = el('nav', { 'aria-label': w('page.language') }, [
      el('a', { href: inLang('index.html'), 'data-testid': 'limits-back' }, [w('page.back')]),
      el('a', { href: inLang('editor/') }, [w('page.editor')]),
      el('a', { href: inLang('files/'), 'data-testid': 'limits-files' }, [w('page.files')]),
    ]);
    Object.keys(LANGS).forEach(function (l) {
      var attrs = { href: l === 'en' ? '?lang=en' : '?lang=' + l, lang: l, hreflang: l };
      if (l === lang) attrs['aria-current'] = 'true';
      nav.appendChild(el('a', attrs, [LANGS[l]]));
    });
    main.appendChild(nav);
    main.appendChild(el('h1', { 'data-testid': 'limits-title' }, [w('page.title')]));
    main.appendChild(prose('p', {}, w('page.intro')));
    var list = null;
    // The English file's order and ids: a language's entry, else the English one.
    english.forEach(function (e) {
      var parts = e[0].split('.');
      if (parts[0] !== 'limits') return;
      if (e[0] === 'limits.versions') {
        main.appendChild(prose('p', { class: 'limits-versions', 'data-testid': 'limits-versions' }, w(e[0])));
      } else if (parts.length === 2) {
        // A heading in words; a source path in it (`Pulsar (`src/pulsar/`, …)`) goes
        // to a small code line under it.
        var title = w(e[0]);
        var at = title.indexOf(' (`');
        main.appendChild(el('h2', { id: parts[1] }, [at < 0 ? title : title.slice(0, at)]));
        if (at >= 0) {
          main.appendChild(prose('p', { class: 'limits-source', 'data-source': parts[1] }, title.slice(at + 2, -1)));
        }
        if (words['summary.' + parts[1]]) {
          main.appendChild(prose('p', { class: 'limits-summary', 'data-summary': parts[1] }, w('summary.' + parts[1])));
        }
        // The summary first; the details folded, counted.
        var fold = main.appendChild(el('details', { 'data-details': parts[1] }));
        fold.appendChild(el('summary', {}, ['']));
        list = fold.appendChild(el('ul', { 'data-group': parts[1] }));
      } else if (list) {
        list.appendChild(prose('li', { 'data-item': e[0] }, w(e[0])));
        list.previousSibling.textContent = w('page.details').replace('{0}', list.children.length);
      }
    });
    // A link to a group (a panel's help) opens its details.
    if (location.hash.length > 1) {
      var target = document.getElementById(location.hash.slice(1));
      var group = document.querySelector('details[data-details="' + location.hash.slice(1) + '"]');
      if (group) group.open = true;
      if (target) target.scrollIntoView();
    }
  }

  function failed(why) {
    var main = document.getElementById('limits');
    main.textContent = '';
    main.appendChild(el('p', { role: 'alert' }, [
      'The list could not be loaded (' + why + '). It is also in docs/architecture.md, section 6.',
    ]));
  }

  var english = get('i18n/limits/en.txt').then(parse);
  var chosen = lang === 'en' ? english : get('i18n/limits/' + lang + '.txt').then(parse);
  Promise.all([chosen, english]).then(function (both) {
    render(both[0], both[1]);
  }, function (e) { failed(e.message); });
})();
