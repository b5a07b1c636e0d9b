// The LMS adapter of the course packages (docs/lms.md). lms.html runs it around one
// lesson of the playground, played in a same-origin frame (the compact view, or the
// Pulsar page for a Pulsar lesson). It hears the frame's postMessage API
// (docs/embedding.md: eos:ready, eos:state, eos:answered, eos:complete) and reports to
// the LMS that launched it:
//
// - cmi5, when the launch URL carries endpoint, fetch, actor, registration and
//   activityId (cmi5 spec, Quartz edition, sections 8 to 10);
// - else SCORM 1.2, when an `API` object is found along the parent and opener chain
//   (the search of the SCORM 1.2 Run-Time Environment, 3.3.6.1);
// - else nothing: the lesson plays and a one-line notice says that nothing is recorded.
//
// The learner's place (step and answers) is kept by the LMS (SCORM's suspend_data and
// lesson_location) or in this browser (cmi5), and the frame opens at that step
// (`step=N`). Whatever the LMS refuses is said once, in one line above the lesson, and
// never stops it. The words are in English, Korean and Thai (WORDS below), chosen by
// `lang=` in the launch URL, else the browser's language.
(function () {
  'use strict';

  var WORDS = {
    en: {
      refused: 'The LMS refused to record your progress ({detail}). The lesson goes on.',
      noLms: 'Not launched by an LMS: the lesson plays, but nothing is recorded.',
      ended: 'This launch has ended: open the lesson again from your course to record more.',
      noLesson: 'This package has no lesson named “{name}”.',
      frame: 'Exactly-once playground: {title}',
    },
    ko: {
      refused: 'LMS가 진도 기록을 거부했습니다({detail}). 레슨은 계속됩니다.',
      noLms: 'LMS에서 실행되지 않았습니다. 레슨은 진행되지만 아무것도 기록되지 않습니다.',
      ended: '이번 실행은 끝났습니다. 계속 기록하려면 코스에서 레슨을 다시 여십시오.',
      noLesson: '이 패키지에 없는 레슨입니다: “{name}”.',
      frame: '정확히 한 번 플레이그라운드: {title}',
    },
    th: {
      refused: 'LMS ไม่ยอมบันทึกความคืบหน้าของคุณ ({detail}) บทเรียนยังดำเนินต่อได้',
      noLms: 'ไม่ได้เปิดจาก LMS: บทเรียนเล่นได้ แต่จะไม่มีการบันทึกใด ๆ',
      ended: 'การเปิดครั้งนี้สิ้นสุดแล้ว: เปิดบทเรียนอีกครั้งจากคอร์สของคุณเพื่อบันทึกต่อ',
      noLesson: 'แพ็กเกจนี้ไม่มีบทเรียนชื่อ “{name}”',
      frame: 'สนามทดลอง exactly-once: {title}',
    },
  };

  var course = window.eosCourse || { lessons: {} };
  var params = new URLSearchParams(location.search);
  var name = params.get('lesson') || '';
  var lesson = Object.prototype.hasOwnProperty.call(course.lessons, name) ? course.lessons[name] : null;
  var asked = params.get('lang');
  var lang = WORDS[asked] ? asked : (navigator.language || 'en').slice(0, 2);
  if (!WORDS[lang]) lang = 'en';
  document.documentElement.lang = lang;
  var frame = document.getElementById('lms-frame');
  var noticeEl = document.getElementById('lms-notice');
  var started = Date.now();

  function word(key, fill) {
    return WORDS[lang][key].replace(/\{(\w+)\}/g, function (_, k) {
      return fill && fill[k] != null ? fill[k] : '';
    });
  }

  // One line above the lesson, the first time something goes wrong; later ones only in
  // the console (so the learner is not nagged at every step).
  var noticed = false;
  function notice(text) {
    if (noticed) {
      console.warn('eos-playground LMS adapter: ' + text);
      return;
    }
    noticed = true;
    noticeEl.textContent = text;
    noticeEl.title = text;
    noticeEl.hidden = false;
  }
  function refused(detail) {
    notice(word('refused', { detail: detail }));
  }

  // ---- The learner's place: the step and the answers (question line -> 1 right, 0 wrong).

  var place = { step: 0, answers: {} };
  function readPlace(text) {
    try {
      var p = JSON.parse(text);
      if (p && typeof p.s === 'number' && p.s >= 0 && p.a && typeof p.a === 'object') {
        return { step: Math.floor(p.s), answers: p.a };
      }
    } catch (e) {
      /* not ours: start at the beginning */
    }
    return null;
  }
  function placeText() {
    return JSON.stringify({ s: place.step, a: place.answers });
  }
  // Right answers, and every question of the lesson (a skipped one counts as unanswered).
  function score(total) {
    var right = 0;
    for (var k in place.answers) if (place.answers[k] === 1) right += 1;
    return { correct: Math.min(right, total), total: total };
  }

  // ---- SCORM 1.2 ----------------------------------------------------------------------

  // The API search of the SCORM 1.2 RTE: up the parents (at most 500), then the opener's.
  function findApi(win) {
    var tries = 0;
    try {
      while (win && !win.API && win.parent && win.parent !== win && tries < 500) {
        tries += 1;
        win = win.parent;
      }
      return (win && win.API) || null;
    } catch (e) {
      return null; // a frame of another origin on the way
    }
  }

  function scorm12(api) {
    var alive = true;
    var doneStatus = null;
    function lastError(fallback) {
      try {
        var code = String(api.LMSGetLastError());
        return code + ' ' + String(api.LMSGetErrorString(code));
      } catch (e) {
        return fallback;
      }
    }
    // Every call: an exception or a "false" is a refusal, said once, never thrown.
    function call(fn, args) {
      if (!alive) return false;
      var what = fn + (args && args[0] ? ' ' + args[0] : '');
      try {
        var r = api[fn].apply(api, args || ['']);
        if (String(r) === 'true') return true;
        refused(what + ': ' + lastError('false'));
      } catch (e) {
        refused(what + ': ' + e.message);
      }
      return false;
    }
    function get(element) {
      try {
        var v = api.LMSGetValue(element);
        return v == null ? '' : String(v);
      } catch (e) {
        return '';
      }
    }
    function set(element, value) {
      return call('LMSSetValue', [element, String(value)]);
    }

    if (!call('LMSInitialize', [''])) {
      alive = false;
      return null;
    }
    var status = get('cmi.core.lesson_status');
    var mode = get('cmi.core.lesson_mode');
    var review = mode === 'review' || mode === 'browse';
    var mastery = parseFloat(get('cmi.student_data.mastery_score'));
    mastery = isFinite(mastery) ? mastery / 100 : course.masteryScore;
    if (get('cmi.core.entry') !== 'ab-initio') {
      var saved = readPlace(get('cmi.suspend_data'));
      var at = parseInt(get('cmi.core.lesson_location'), 10);
      if (saved) place = saved;
      else if (at >= 0) place.step = at;
    }
    if (!review && (status === 'not attempted' || status === '' || status === 'browsed')) {
      set('cmi.core.lesson_status', 'incomplete');
      call('LMSCommit', ['']);
    }
    var wasPassed = status === 'passed';
    return {
      step: function () {
        if (review) return;
        set('cmi.core.lesson_location', place.step);
        set('cmi.suspend_data', placeText());
      },
      answered: function () {
        if (review) return;
        set('cmi.suspend_data', placeText());
        call('LMSCommit', ['']);
      },
      complete: function (s) {
        if (review) return;
        var next = 'completed';
        if (s.total > 0) {
          set('cmi.core.score.min', 0);
          set('cmi.core.score.max', 100);
          set('cmi.core.score.raw', Math.round((100 * s.correct) / s.total));
          // Passed stays passed: answering again after a pass never fails the lesson.
          next = wasPassed || s.correct / s.total >= mastery ? 'passed' : 'failed';
          wasPassed = next === 'passed';
        }
        set('cmi.core.lesson_status', next);
        doneStatus = next;
        set('cmi.suspend_data', placeText());
        call('LMSCommit', ['']);
      },
      leave: function () {
        set('cmi.core.session_time', scormTime(Date.now() - started));
        // Suspend keeps the place for the next launch (entry = resume).
        if (!review) set('cmi.core.exit', doneStatus ? '' : 'suspend');
        call('LMSCommit', ['']);
        call('LMSFinish', ['']);
        alive = false;
      },
    };
  }

  // CMITimespan of SCORM 1.2: HHHH:MM:SS.SS (two to four digits of hours).
  function scormTime(ms) {
    var cs = Math.floor(ms / 10);
    var h = Math.min(9999, Math.floor(cs / 360000));
    var m = Math.floor(cs / 6000) % 60;
    var s = Math.floor(cs / 100) % 60;
    var two = function (n) {
      return (n < 10 ? '0' : '') + n;
    };
    return two(h) + ':' + two(m) + ':' + two(s) + '.' + two(cs % 100);
  }

  // ---- cmi5 ---------------------------------------------------------------------------

  var CMI5 = 'https://w3id.org/xapi/cmi5/context/categories/cmi5';
  var MOVEON = 'https://w3id.org/xapi/cmi5/context/categories/moveon';
  var SESSION = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid';
  var MASTERY = 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore';
  var PROGRESS = 'https://w3id.org/xapi/cmi5/result/extensions/progress';
  var ADL = 'http://adlnet.gov/expapi/verbs/';

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = new Uint8Array(16);
    crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) {
      return (x + 256).toString(16).slice(1);
    }).join('');
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
  }
  function duration(ms) {
    return 'PT' + (Math.max(0, ms) / 1000).toFixed(2) + 'S';
  }

  function cmi5(launch) {
    var endpoint = launch.endpoint.replace(/\/?$/, '/');
    var key = 'eos-playground.lms.cmi5.' + launch.registration + '.' + launch.activityId;
    var st;
    try {
      st = JSON.parse(localStorage.getItem(key)) || {};
    } catch (e) {
      st = {};
    }
    st.queue = st.queue || [];
    function save() {
      try {
        localStorage.setItem(key, JSON.stringify(st));
      } catch (e) {
        /* storage refused: the queue lives as long as the page */
      }
    }
    var saved = readPlace(st.place || '');
    if (saved) place = saved;
    var sameLaunch = st.fetch === launch.fetch && !!st.token;
    if (!sameLaunch) {
      // A new launch (a new session): the registration's completed/passed stay known.
      st.fetch = launch.fetch;
      st.token = null;
      st.ended = false;
      st.initialized = false;
      st.judged = false;
      st.started = Date.now();
      st.progress = st.completed ? 100 : 0;
    } else if (st.ended) {
      notice(word('ended'));
    }
    save();

    var headers = function () {
      return {
        Authorization: 'Basic ' + st.token,
        'X-Experience-API-Version': '1.0.3',
        'Content-Type': 'application/json',
      };
    };
    function agentParam() {
      return encodeURIComponent(JSON.stringify(launch.actor));
    }

    // The statements in order, each sent with PUT and its id (a retry of one already
    // stored is answered 204, or 409 by an LRS that compares: both mean it is there).
    var sending = false;
    var delay = 1000;
    var timer = null;
    function retryLater() {
      clearTimeout(timer);
      timer = setTimeout(flush, delay);
      delay = Math.min(delay * 2, 30000);
    }
    function flush() {
      if (sending || !st.token || !st.queue.length) return;
      sending = true;
      var next = st.queue[0];
      var settle = function () {
        sending = false;
      };
      var check = st.check;
      var req = check
        ? fetch(endpoint + 'statements?statementId=' + encodeURIComponent(check), { headers: headers() })
        : fetch(endpoint + 'statements?statementId=' + encodeURIComponent(next.id), {
            method: 'PUT',
            headers: headers(),
            body: JSON.stringify(next),
          });
      req
        .then(function (r) {
          settle();
          if (check) {
            // After a reload: did the last page's "terminated" reach the LRS? xAPI
            // answers 404 when not; some LRSs (Ralph) answer 200 with no statement.
            if (r.status === 200 || r.status === 404) {
              var body = r.status === 200 ? r.json() : Promise.resolve(null);
              return body.then(function (b) {
                var found =
                  !!b &&
                  (b.id === check ||
                    (Array.isArray(b.statements) &&
                      b.statements.some(function (s) {
                        return s.id === check;
                      })));
                checked(check, found);
              }, retryLater);
            }
            return r.status >= 500 || r.status === 429 ? retryLater() : refusedBy(r, 'GET statements');
          }
          if (r.ok || r.status === 409) {
            st.queue.shift();
            if (ours(next, 'terminated')) st.ended = true;
            save();
            delay = 1000;
            return flush();
          }
          if (r.status >= 500 || r.status === 429 || r.status === 408) return retryLater();
          refusedBy(r, next.verb.display['en-US']);
          if (r.status !== 401 && r.status !== 403) {
            // A statement the LRS rejects is rejected again: drop it, send the rest.
            st.queue.shift();
            save();
            flush();
          }
        })
        .catch(function () {
          settle();
          retryLater(); // unreachable: try again later, the queue is kept
        });
    }
    // A statement of this session (the queue may still hold an earlier one's).
    function ours(s, verb) {
      return s.verb.id === ADL + verb && s.context.extensions[SESSION] === st.session;
    }
    function checked(id, arrived) {
      st.check = null;
      // Either way it leaves the queue; what was queued before it is sent again (a
      // repeated PUT is harmless).
      st.queue = st.queue.filter(function (s) {
        return s.id !== id;
      });
      if (arrived) {
        // It did: the launch is over, nothing more can be said in it.
        st.ended = true;
        notice(word('ended'));
      }
      // If not, the session goes on, and "terminated" is sent when it really ends.
      save();
      delay = 1000;
      flush();
    }
    function refusedBy(r, what) {
      r.text().then(
        function (t) {
          refused(what + ': HTTP ' + r.status + (t ? ' ' + t.slice(0, 120) : ''));
        },
        function () {
          refused(what + ': HTTP ' + r.status);
        },
      );
    }
    window.addEventListener('online', function () {
      delay = 1000;
      flush();
    });

    var data = st.launchData || null;
    var lastTs = st.lastTs || 0;
    function statement(verb, opts) {
      var ctx = JSON.parse(JSON.stringify((data && data.contextTemplate) || {}));
      ctx.registration = launch.registration;
      ctx.contextActivities = ctx.contextActivities || {};
      ctx.extensions = ctx.extensions || {};
      if (!ctx.extensions[SESSION]) ctx.extensions[SESSION] = st.session;
      var ca = ctx.contextActivities;
      if (!ca.grouping) ca.grouping = [{ id: lesson.au, objectType: 'Activity' }];
      if (opts.defined) {
        ca.category = (ca.category || []).concat([{ id: CMI5, objectType: 'Activity' }]);
        if (opts.moveOn) ca.category.push({ id: MOVEON, objectType: 'Activity' });
      }
      if (opts.parent) ca.parent = [{ id: launch.activityId, objectType: 'Activity' }];
      if (opts.mastery != null) ctx.extensions[MASTERY] = opts.mastery;
      // Timestamps order the statements (cmi5 9.3): never two alike, never backwards.
      lastTs = Math.max(Date.now(), lastTs + 1);
      st.lastTs = lastTs;
      var s = {
        id: uuid(),
        actor: launch.actor,
        verb: { id: ADL + verb, display: { 'en-US': verb } },
        object: opts.object || { objectType: 'Activity', id: launch.activityId },
        context: ctx,
        timestamp: new Date(lastTs).toISOString(),
      };
      if (opts.result) s.result = opts.result;
      return s;
    }
    function send(verb, opts) {
      if (st.ended) return null;
      var s = statement(verb, opts);
      st.queue.push(s);
      save();
      flush();
      return s;
    }
    function normal() {
      return !data || !data.launchMode || data.launchMode === 'Normal';
    }
    function mastery() {
      var m = data && typeof data.masteryScore === 'number' ? data.masteryScore : null;
      return { value: m != null ? m : course.masteryScore, given: m };
    }

    // Start: the token (one POST to fetch per launch), LMS.LaunchData, "initialized".
    function start() {
      if (sameLaunch) {
        // A reload of the same launch: same token and session. If the last page's
        // "terminated" is still queued, find out whether it arrived before going on.
        var term = st.queue.filter(function (s) {
          return ours(s, 'terminated');
        })[0];
        if (term && !st.ended) st.check = term.id;
        save();
        flush();
        return;
      }
      fetch(launch.fetch, { method: 'POST' })
        .then(function (r) {
          return r.json();
        })
        .then(function (body) {
          if (!body || typeof body['auth-token'] !== 'string') {
            var why = body && body['error-code'] ? 'error-code ' + body['error-code'] + ' ' + (body['error-text'] || '') : 'no auth-token';
            throw new Error('fetch: ' + why);
          }
          st.token = body['auth-token'];
          save();
          var url =
            endpoint +
            'activities/state?stateId=LMS.LaunchData&activityId=' +
            encodeURIComponent(launch.activityId) +
            '&agent=' +
            agentParam() +
            '&registration=' +
            encodeURIComponent(launch.registration);
          return fetch(url, { headers: headers() }).then(
            function (r) {
              return r.ok ? r.json() : null;
            },
            function () {
              return null;
            },
          );
        })
        .then(function (launchData) {
          // Without LMS.LaunchData (an LRS without the State API, as Ralph): Normal mode,
          // the package's mastery score, a session id of our own.
          data = launchData && typeof launchData === 'object' ? launchData : null;
          st.launchData = data;
          st.session =
            (data && data.contextTemplate && data.contextTemplate.extensions && data.contextTemplate.extensions[SESSION]) || uuid();
          st.initialized = true;
          st.started = Date.now();
          save();
          send('initialized', { defined: true });
        })
        .catch(function (e) {
          refused(e.message);
        });
    }
    start();

    return {
      step: function (steps) {
        st.place = placeText();
        save();
        if (!st.initialized || st.completed || !steps) return;
        // Progress at each quarter (cmi5 9.5.5.1; never in or after "completed").
        var quarter = Math.floor((4 * place.step) / steps) * 25;
        if (quarter > (st.progress || 0) && quarter < 100) {
          st.progress = quarter;
          var ext = {};
          ext[PROGRESS] = quarter;
          send('progressed', { result: { extensions: ext } });
        }
      },
      answered: function (line, correct) {
        st.place = placeText();
        save();
        if (!st.initialized) return;
        send('answered', {
          parent: true,
          object: {
            objectType: 'Activity',
            id: lesson.au + '/question/' + line,
            definition: {
              type: 'http://adlnet.gov/expapi/activities/cmi.interaction',
              interactionType: 'choice',
            },
          },
          result: { success: correct },
        });
      },
      complete: function (s) {
        st.place = placeText();
        save();
        if (!st.initialized || !normal()) return;
        var spent = duration(Date.now() - st.started);
        if (!st.completed) {
          st.completed = true;
          send('completed', { defined: true, moveOn: true, result: { completion: true, duration: spent } });
        }
        // One judgement a session; none after a pass in this registration.
        if (s.total > 0 && !st.passed && !st.judged) {
          var m = mastery();
          var scaled = Math.round((10000 * s.correct) / s.total) / 10000;
          var pass = scaled >= m.value;
          st.judged = true;
          st.passed = pass;
          send(pass ? 'passed' : 'failed', {
            defined: true,
            moveOn: true,
            mastery: m.given,
            result: {
              success: pass,
              score: { scaled: scaled, raw: s.correct, min: 0, max: s.total },
              duration: spent,
            },
          });
        }
      },
      leave: function () {
        if (!st.initialized || st.ended) return;
        var t = statement('terminated', { defined: true, result: { duration: duration(Date.now() - st.started) } });
        st.queue.push(t);
        save();
        // The page is going: every queued statement goes in a request that outlives it
        // (keepalive), each a PUT of its own id, so one that was already on its way is
        // harmless; their timestamps keep the order (cmi5 9.3). The queue stays stored
        // until a later page sees them arrive.
        if (!st.token) return;
        st.queue.forEach(function (s) {
          try {
            fetch(endpoint + 'statements?statementId=' + encodeURIComponent(s.id), {
              method: 'PUT',
              headers: headers(),
              body: JSON.stringify(s),
              keepalive: true,
            }).catch(function () {
              /* kept for the next page */
            });
          } catch (e) {
            /* over the browser's keepalive quota: kept for the next page */
          }
        });
      },
    };
  }

  // ---- Start --------------------------------------------------------------------------

  if (!lesson) {
    notice(word('noLesson', { name: name }));
    frame.hidden = true;
    return;
  }
  var title = lesson.title[lang] || lesson.title.en;
  frame.title = word('frame', { title: title });
  document.title = title;
  document.getElementById('lms-title').textContent = title;

  var launch = null;
  try {
    var names = ['endpoint', 'fetch', 'actor', 'registration', 'activityId'];
    if (
      names.every(function (n) {
        return params.get(n);
      })
    ) {
      launch = {
        endpoint: params.get('endpoint'),
        fetch: params.get('fetch'),
        actor: JSON.parse(params.get('actor')),
        registration: params.get('registration'),
        activityId: params.get('activityId'),
      };
    }
  } catch (e) {
    refused('actor: ' + e.message);
  }
  var api = launch ? null : findApi(window) || (window.opener ? findApi(window.opener) : null);
  var lms = null;
  if (launch) lms = cmi5(launch);
  else if (api) lms = scorm12(api);
  else notice(word('noLms'));

  var steps = 0;
  var done = false;
  window.addEventListener('message', function (e) {
    var m = e.data;
    if (e.source !== frame.contentWindow || !m || typeof m !== 'object' || m.lesson !== name) return;
    if ((m.type === 'eos:ready' || m.type === 'eos:state') && typeof m.step === 'number') {
      steps = m.steps || steps;
      if (m.step === place.step && m.type === 'eos:state') return;
      place.step = m.step;
      if (lms) lms.step(steps);
    } else if (m.type === 'eos:answered' && typeof m.question === 'number') {
      place.answers[m.question] = m.correct ? 1 : 0;
      if (lms) lms.answered(m.question, !!m.correct);
    } else if (m.type === 'eos:complete') {
      done = true;
      var total = m.score && typeof m.score.total === 'number' ? m.score.total : lesson.questions;
      if (lms) lms.complete(score(total));
    }
  });

  var left = false;
  function leave() {
    if (left) return;
    left = true;
    if (lms) lms.leave(done);
  }
  window.addEventListener('pagehide', leave);
  window.addEventListener('beforeunload', leave);

  var src = (lesson.site === 'pulsar' ? 'pulsar/index.html?' : 'index.html?embed=1&') + 'lesson=' + encodeURIComponent(name);
  if (place.step > 0) src += '&step=' + place.step;
  if (WORDS[asked]) src += '&lang=' + asked;
  frame.src = src;
})();
