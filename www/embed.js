// embed.js — puts the playground in a course page from data attributes, with the same
// options as the URL (docs/embedding.md):
//
//   <div data-eos-playground data-lesson="fencing" data-step="2"
//        data-panels="lesson,coordinator,events" data-title="Fencing a zombie"></div>
//   <script src="https://your.host/eos/embed.js" defer></script>
//
// Every element with `data-eos-playground` gets an iframe of the compact view
// (`index.html?embed=1&…`, next to this script). `data-lesson`, `data-step`, `data-page`,
// `data-panels`, `data-origins` and `data-lang` (en, ko, th) become the URL options of the same names;
// `data-title` is the frame's title and `data-height` its first height in pixels. The
// frame then follows the playground's `eos:resize` messages. Unless `data-origins` says
// otherwise, the page's own origin is allowed to send commands (postMessage API).
// `window.eosPlayground.embed(element)` embeds an element added later; it returns the frame.
(() => {
  const OPTIONS = ['lesson', 'step', 'page', 'panels', 'origins', 'lang'];
  const script = document.currentScript;
  const base = new URL('.', script && script.src ? script.src : location.href);

  function embed(el) {
    const existing = el.querySelector(':scope > iframe.eos-frame');
    if (existing) return existing;
    const url = new URL('index.html', base);
    url.searchParams.set('embed', '1');
    for (const name of OPTIONS) {
      const value = el.dataset[name];
      if (value) url.searchParams.set(name, value);
    }
    if (!url.searchParams.has('origins') && location.origin !== base.origin && location.origin !== 'null') {
      url.searchParams.set('origins', location.origin);
    }
    const frame = document.createElement('iframe');
    frame.className = 'eos-frame';
    frame.src = url.href;
    frame.title = el.dataset.title || 'Exactly-once playground';
    frame.height = /^\d+$/.test(el.dataset.height || '') ? el.dataset.height : '640';
    el.appendChild(frame);
    return frame;
  }

  window.addEventListener('message', (e) => {
    const height = e.data && e.data.type === 'eos:resize' ? Number(e.data.height) : NaN;
    if (!Number.isFinite(height) || height <= 0) return;
    for (const frame of document.querySelectorAll('iframe.eos-frame')) {
      if (frame.contentWindow === e.source) frame.style.height = `${Math.ceil(height) + 4}px`;
    }
  });

  // Defaults with no specificity (:where), so any rule of the course page wins.
  const style = document.createElement('style');
  style.textContent = ':where(iframe.eos-frame){display:block;width:100%;max-width:760px;border:0}';
  document.head.appendChild(style);

  const embedAll = () => [...document.querySelectorAll('[data-eos-playground]')].map(embed);
  window.eosPlayground = { embed, embedAll };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', embedAll);
  else embedAll();
})();
