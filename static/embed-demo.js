// static/embed-demo.js — the host script of the sample course pages embed-demo.html (English),
// embed-demo.ko.html (Korean) and embed-demo.th.html (Thai): buttons send commands, and
// every message from a frame is listed under it. A frame is recognised by e.source, never
// by e.origin alone. The words it writes come from the page: `data-t-*` attributes on
// <main> ({step}, {steps}, {verdict}, {message} are filled in), so one script serves
// every language. Loaded as a module, it runs after the deferred embed.js, so the
// fencing frame exists.

const words = document.querySelector('main').dataset;
/** The page's sentence `name` with `{key}` filled from `values`. */
function say(name, values) {
  return (words[name] || '').replace(/\{(\w+)\}/g, (_, k) => String(values[k] ?? ''));
}
const frames = { idem: document.getElementById('idem'), fence: document.querySelector('#fence iframe') };
const received = { idem: [], fence: [] };
window.eosMessages = received; // read by the end-to-end test

function send(name, message) {
  frames[name].contentWindow.postMessage(message, '*');
}
for (const box of document.querySelectorAll('.host')) {
  const name = box.dataset.host;
  box.addEventListener('click', (e) => {
    const cmd = e.target.closest('button')?.dataset.cmd;
    if (cmd === 'next' || cmd === 'prev') send(name, { type: 'eos:step', direction: cmd });
    if (cmd === 'reset') send(name, { type: 'eos:reset' });
  });
}
window.addEventListener('message', (e) => {
  const name = Object.keys(frames).find((n) => frames[n].contentWindow === e.source);
  if (!name) return;
  let data = e.data;
  if (typeof data === 'string') {
    // The LMS form of resize: '{"subject":"lti.frameResize","height":…}'.
    try { data = JSON.parse(data); } catch { return; }
  }
  received[name].push(data);
  const log = document.querySelector(`[data-testid="log-${name}"]`);
  const status = document.querySelector(`[data-testid="status-${name}"]`);
  const kind = data.type || data.subject;
  if (kind !== 'eos:resize' && kind !== 'lti.frameResize') {
    log.textContent += JSON.stringify(data) + '\n';
    log.scrollTop = log.scrollHeight;
  }
  if (data.type === 'eos:ready' || data.type === 'eos:state') {
    // Nothing left to step through: the host's own Next button says so.
    document.querySelector(`[data-host="${name}"] [data-cmd="next"]`).disabled = data.step >= data.steps;
  }
  // embed.js sizes the frames it makes; the plain iframe is sized here.
  if (data.type === 'eos:resize' && name === 'idem') frames[name].style.height = `${Math.ceil(data.height) + 4}px`;
  if (data.type === 'eos:ready' || data.type === 'eos:state') {
    status.textContent = say('tStep', data) + (data.verdict ? say('tVerdict', data) : '');
    status.classList.remove('done');
  }
  if (data.type === 'eos:complete') {
    status.textContent = say('tComplete', data);
    status.classList.add('done');
  }
  if (data.type === 'eos:error') status.textContent = say('tError', data);
});
