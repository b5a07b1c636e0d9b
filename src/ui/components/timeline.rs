//! The sequence diagram of the newest network messages: one lifeline per producer,
//! broker (with its role: partition leader, transaction coordinator), controller and
//! consumer; one row per message, oldest at the top. Requests are solid arrows,
//! responses dashed, errors red with their name, lost messages broken with ✗.
//! Drawn with a CSS grid, so it reflows with the width and its text stays text; on a
//! narrow screen it becomes a list, each message with its route written out.

use yew::prelude::*;

use crate::i18n::{t, tf, Key};
use crate::view::timeline::TimelineView;

#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    pub view: TimelineView,
}

#[function_component(Timeline)]
pub fn timeline(p: &TimelineProps) -> Html {
    let v = &p.view;
    let n = v.lifelines.len().max(1);
    let columns = format!("grid-template-columns: 4.5rem repeat({n}, minmax(0, 1fr));");
    let head: Html = v
        .lifelines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            html! {
                <div class="lifeline-head" style={format!("grid-column: {};", i + 2)}>
                    <strong>{ l.label.clone() }</strong>
                    { for l.roles.iter().map(|r| html! { <span class="muted small role">{ r.clone() }</span> }) }
                </div>
            }
        })
        .collect();
    let rows: Html = v
        .messages
        .iter()
        .enumerate()
        .map(|(row, m)| {
            let r = row + 2;
            let (lo, hi) = (m.from.min(m.to), m.from.max(m.to));
            let span = hi - lo + 1;
            let self_msg = m.from == m.to;
            let rightward = m.to >= m.from;
            let kind = if m.response { t(Key::TlResponse) } else { t(Key::TlRequest) };
            let label = match (&m.error, m.dropped, m.held) {
                (_, true, _) => format!("✗ {} {} — {}", m.api, kind, t(Key::TlLost)),
                (_, _, true) => format!("‖ {} {} — {}", m.api, kind, t(Key::TlHeld)),
                (Some(e), _, _) => format!("{} {} ({e})", m.api, kind),
                _ => format!("{} {}", m.api, kind),
            };
            let class = classes!(
                "msg",
                if m.response { "msg-response" } else { "msg-request" },
                if rightward { "msg-right" } else { "msg-left" },
                self_msg.then_some("msg-self"),
                m.error.is_some().then_some("msg-error"),
                m.dropped.then_some("msg-dropped"),
                m.held.then_some("msg-held"),
                format!("api-{}", m.api.to_lowercase())
            );
            // Arrows run from the middle of one lifeline column to the middle of the other.
            let style = if self_msg {
                format!("grid-row: {r}; grid-column: {};", lo + 2)
            } else {
                format!(
                    "grid-row: {r}; grid-column: {} / span {span}; margin-left: calc(100% / {}); margin-right: calc(100% / {});",
                    lo + 2,
                    2 * span,
                    2 * span
                )
            };
            let lane = |i: usize| v.lifelines.get(i).map(|l| l.label.as_str()).unwrap_or("");
            let route = format!("{} → {}", lane(m.from), lane(m.to));
            html! {
                <>
                    <div class="tl-time mono" style={format!("grid-row: {r}; grid-column: 1;")}>{ format!("{} ms", m.at_ms) }</div>
                    <div class={class} style={style} title={format!("{route}: {label}")}>
                        // Said by the arrow on a wide screen; written out on a narrow one.
                        <span class="msg-route">{ format!("{route}: ") }</span>
                        <span class="msg-label">{ label }</span>
                    </div>
                </>
            }
        })
        .collect();
    let lines: Html = (0..n)
        .map(|i| {
            html! { <div class="lifeline" style={format!("grid-column: {}; grid-row: 2 / span {};", i + 2, v.messages.len().max(1))}></div> }
        })
        .collect();
    html! {
        <section class="panel stack timeline-panel" aria-labelledby="timeline-heading">
            <div class="panel-head">
                <h2 id="timeline-heading">{ t(Key::TlHeading) }</h2>
                <span class="small muted">{ tf(Key::TlShowing, &[&v.messages.len().to_string(), &v.total.to_string()]) }</span>
            </div>
            <p class="small muted">{ t(Key::TlIntro) }</p>
            if v.messages.is_empty() {
                <p class="muted">{ t(Key::TlEmpty) }</p>
            }
            <div class="tl-scroll" tabindex="0" role="region" aria-label={t(Key::TlScrollLabel)}>
                <div class="timeline" style={columns} data-testid="timeline">
                    { lines }
                    <div class="lifeline-head tl-corner" style="grid-column: 1;" aria-hidden="true"></div>
                    { head }
                    { rows }
                </div>
            </div>
        </section>
    }
}
