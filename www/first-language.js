// Before the first paint (Trunk inlines this file into the head of index.html,
// pulsar.html and chaos.html): which language the page starts in — `?lang=`, else the
// first of the browser's languages we have, as src/ui/language.rs picks it — whose
// catalog is then preloaded beside English's and which <html lang> names at once, so
// the status line is in that language (style.css).
//
// On a page with shells (<html data-shells>: index.html's first page as static HTML in
// English, Korean and Thai, written by scripts/shell.mjs), also which shell shows
// (html[data-shell=en|ko|th]). None shows (data-shell=off) where the app will show
// something else (a share link or the other page in the fragment, a `?` option other
// than `lang`) or where the browser lacks `inert`.
(function () {
  var root = document.documentElement;
  var code = function (l) { return String(l).trim().split(/[-_]/)[0].toLowerCase(); };
  var ours = function (l) { return l === 'en' || l === 'ko' || l === 'th'; };
  var params = new URLSearchParams(location.search);
  var asked = code(params.get('lang') || '');
  var lang = ours(asked)
    ? asked
    : [].concat(navigator.languages || [], navigator.language || []).map(code).filter(ours)[0] || 'en';
  if (lang !== 'en') {
    root.lang = lang;
    var preload = document.createElement('link');
    preload.rel = 'preload';
    preload.as = 'fetch';
    preload.type = 'text/plain';
    preload.crossOrigin = 'anonymous';
    preload.href = 'i18n/' + lang + '.txt';
    document.head.appendChild(preload);
  }
  if (!root.hasAttribute('data-shells')) return;
  var other = false;
  params.forEach(function (value, key) { other = other || key !== 'lang'; });
  var hash = location.hash;
  var shown =
    (hash.length <= 1 || hash === '#idempotence') &&
    !other &&
    'inert' in HTMLElement.prototype;
  root.setAttribute('data-shell', shown ? lang : 'off');
})();
